package io.kevy.feed.client;

import io.github.resilience4j.retry.Retry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs rebuilds on one thread. Shards that ask within the gather window (feed contract §11.3; a FLUSHALL or a
 * crash restart makes every shard resync at once) share one rebuild, so one scan serves them all. A round:
 * carried cursors (the FEEDRESYNC tail, or FEED.TAIL taken now), the sink's begin, the {@link Rebuild}
 * strategy, the sink's end, the listeners; then each waiting worker continues from its carried cursor.
 * Connection failures repeat the round with backoff; anything else fails the consumer.
 */
final class RebuildCoordinator<K, V> implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(RebuildCoordinator.class);

    /** A worker's request: its shard, why, and the carried cursor when known (null: take FEED.TAIL). */
    record Request(int shard, RebuildReason reason, Cursor carried, CompletableFuture<Cursor> done) {
    }

    private final Runtime<K, V> rt;
    private final int shardCount;
    private final LinkedBlockingQueue<Request> queue = new LinkedBlockingQueue<>();
    private final AtomicLong sequence = new AtomicLong();

    RebuildCoordinator(Runtime<K, V> rt, int shardCount) {
        this.rt = rt;
        this.shardCount = shardCount;
    }

    /** Asks for a rebuild of {@code shard}; the stage completes with the cursor to continue from. */
    CompletableFuture<Cursor> request(int shard, RebuildReason reason, Cursor carried) {
        CompletableFuture<Cursor> f = new CompletableFuture<>();
        queue.add(new Request(shard, reason, carried, f));
        return f;
    }

    @Override
    public void run() {
        try {
            while (!rt.stopping()) {
                Request first = queue.poll(50, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                rt.sleep(rt.s.rebuildGather().toMillis());
                Map<Integer, Request> round = new LinkedHashMap<>();
                round.put(first.shard(), first);
                for (Request r; (r = queue.poll()) != null; ) {
                    Request old = round.put(r.shard(), r);
                    if (old != null) {
                        old.done().cancel(false);
                    }
                }
                runRound(new ArrayList<>(round.values()));
            }
        } catch (Runtime.Stop | InterruptedException e) {
            // stopping
        } catch (RuntimeException e) {
            rt.fail("consumer " + rt.name() + ": rebuild thread failed: " + e, e);
        } finally {
            for (Request r; (r = queue.poll()) != null; ) {
                r.done().cancel(false);
            }
        }
    }

    private void runRound(List<Request> requests) {
        Retry.AsyncContext<Object> retry = rt.connectionRetry.asyncContext();
        Map<Integer, Cursor> carried = new LinkedHashMap<>();
        while (true) {
            rt.checkRunning();
            try {
                for (Request r : requests) {
                    if (!carried.containsKey(r.shard())) {
                        carried.put(r.shard(), r.carried() != null ? r.carried()
                                : rt.await(rt.s.source().tail(r.shard()).toCompletableFuture(), Duration.ofMinutes(2),
                                        true));
                    }
                }
                RebuildScope scope = new RebuildScope(sequence.incrementAndGet(), requests.get(0).reason(), carried,
                        shardCount, rt.prefixes);
                RebuildResult result = rebuild(scope, carried);
                rt.listener.onRebuild(rt.name(), scope, result);
                LOG.info("consumer {}: rebuild {} of shard(s) {} ({}) done: {} key(s), {} vanished, {} ms", rt.name(),
                        scope.sequence(), scope.shards(), scope.reason(), result.keys(), result.vanished(),
                        result.duration().toMillis());
                for (Request r : requests) {
                    r.done().complete(carried.get(r.shard()));
                }
                return;
            } catch (Runtime.Stop | ConsumerFailedException e) {
                fail(requests, e);
                throw e;
            } catch (Exception e) {
                if (rt.stopping()) {
                    // the rebuild gave up because the consumer is closing (RebuildContext#stopping, ScanRebuild):
                    // a stop, not a failure; its cursors were not stored, so the next start rebuilds again
                    Runtime.Stop stop = new Runtime.Stop();
                    fail(requests, stop);
                    throw stop;
                }
                KevyException k = e instanceof KevyException ke ? ke : null;
                rt.listener.onError(rt.name(), -1, ConsumerListener.REBUILD, e);
                long delay = k != null && Runtime.transientFailure(k) ? retry.onError(k) : -1;
                if (delay < 0) {
                    ConsumerFailedException f = rt.fail("consumer " + rt.name() + ": rebuild of shard(s) "
                            + carried.keySet() + " failed: " + e, e);
                    fail(requests, f);
                    throw f;
                }
                rt.listener.onRetry(rt.name(), -1, ConsumerListener.REBUILD, e);
                LOG.warn("consumer {}: rebuild failed ({}), retrying in {} ms", rt.name(), e.toString(), delay);
                rt.sleep(delay);
            }
        }
    }

    private static void fail(List<Request> requests, Throwable e) {
        for (Request r : requests) {
            r.done().completeExceptionally(e);
        }
    }

    private RebuildResult rebuild(RebuildScope scope, Map<Integer, Cursor> carried) throws Exception {
        long t0 = System.nanoTime();
        Duration timeout = rt.s.deliveryTimeout();
        rt.await(rt.sink.beginRebuild(scope).toCompletableFuture(), timeout, false);
        RebuildContext<K, V> ctx = new RebuildContext<>(rt.name(), scope, rt.s.source(), rt.s.codec(), rt.filter,
                rt.s.clock(), b -> Delivery.deliver(rt, b, -1, () -> { }), rt::stopping);
        rt.s.rebuild().rebuild(ctx);
        if (ctx.readsRecorded()) {
            // the overlap of each shard ends at its tail now: every read of this rebuild is below it
            for (Map.Entry<Integer, Cursor> e : carried.entrySet()) {
                Cursor end = rt.await(rt.s.source().tail(e.getKey()).toCompletableFuture(), Duration.ofMinutes(2),
                        true);
                rt.overlaps.put(e.getKey(), new ReadOverlap(e.getKey(), e.getValue().generation(),
                        ctx.readOffsets(e.getKey()), end.generation() == e.getValue().generation() ? end.offset() : 0));
            }
        } else {
            for (Integer shard : carried.keySet()) {
                rt.overlaps.remove(shard);
            }
        }
        RebuildResult result = new RebuildResult(ctx.keysDelivered(), ctx.vanishedDelivered(),
                Duration.ofNanos(System.nanoTime() - t0));
        rt.await(rt.sink.endRebuild(scope, result).toCompletableFuture(), timeout, false);
        return result;
    }
}
