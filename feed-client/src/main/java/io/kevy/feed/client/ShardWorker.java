package io.kevy.feed.client;

import io.github.resilience4j.retry.Retry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One shard's loop (feed contract §11): read from the cursor, hand the changes to the sink, store the next
 * cursor once the sink accepted them. While the sink works on a batch the next one is already being read
 * (one read in flight, from the batch's next cursor). With BLOCK the server waits for data; without it, an
 * idle shard is polled with backoff from {@code pollMin} doubling to {@code pollMax}, reset by data.
 *
 * <p>FEEDRESYNC hands the shard to the {@link RebuildCoordinator} and continues at the carried cursor. A
 * shard that gets FEEDRESYNC again before it caught up once counts a rebuild that made no progress; past
 * {@code maxFutileRebuilds} the consumer fails with what to change, instead of looping forever.
 */
final class ShardWorker<K, V> implements Runnable {
    private static final Duration READ_TIMEOUT = Duration.ofMinutes(5);
    private static final long LAG_REFRESH_NANOS = 1_000_000_000L;

    private final Runtime<K, V> rt;
    private final RebuildCoordinator<K, V> coordinator;
    final int shard;
    private final RebuildCoordinator.Request initial;
    final CompletableFuture<Void> started = new CompletableFuture<>();
    private final AtomicReference<CompletableFuture<Void>> rebuildAsked = new AtomicReference<>();

    private volatile ShardState state = ShardState.STARTING;
    private volatile Cursor knownTail;
    private volatile Instant lastProgress;
    private volatile String lastError;
    private long lastTailRefresh;
    private Cursor cursor;
    /** The frames overlapping the last rebuild's reads, while the cursor is inside them; else null. */
    private ReadOverlap overlap;
    private int futile;
    private long batchNanos;
    private long batches;

    /** {@code start} is the first cursor, or null with {@code initial} naming the first rebuild. */
    ShardWorker(Runtime<K, V> rt, RebuildCoordinator<K, V> coordinator, int shard, Cursor start,
            RebuildCoordinator.Request initial) {
        this.rt = rt;
        this.coordinator = coordinator;
        this.shard = shard;
        this.cursor = start;
        this.initial = initial;
    }

    /** Asks this worker to rebuild its shard; the stage completes when that rebuild is done. */
    CompletableFuture<Void> askRebuild() {
        CompletableFuture<Void> f = new CompletableFuture<>();
        CompletableFuture<Void> prev = rebuildAsked.getAndSet(f);
        if (prev != null) {
            f.whenComplete((v, e) -> {
                if (e != null) {
                    prev.completeExceptionally(e);
                } else {
                    prev.complete(null);
                }
            });
        }
        return f;
    }

    ShardHealth health() {
        Cursor c = rt.committer.get(shard);
        Cursor t = knownTail;
        long lag = c == null || t == null || t.generation() != c.generation() ? -1 : Math.max(0, t.offset() - c.offset());
        if (state == ShardState.CAUGHT_UP && c != null && t != null && t.equals(c)) {
            lag = 0;
        }
        return new ShardHealth(shard, state, c, lag, lastProgress, lastError);
    }

    private void state(ShardState s) {
        if (state != s) {
            state = s;
            rt.listener.onState(rt.name(), shard, s);
        }
    }

    @Override
    public void run() {
        try {
            if (initial != null) {
                cursor = rebuild(initial.reason(), initial.carried());
            }
            started.complete(null);
            loop();
            state(ShardState.STOPPED);
        } catch (Runtime.Stop s) {
            state(rt.failure() != null ? ShardState.FAILED : ShardState.STOPPED);
        } catch (ConsumerFailedException e) {
            lastError = e.getMessage();
            state(ShardState.FAILED);
        } catch (RuntimeException | Error e) {
            lastError = e.toString();
            rt.fail("consumer " + rt.name() + ", shard " + shard + ": " + e, e);
            state(ShardState.FAILED);
        } finally {
            started.completeExceptionally(new KevyException("consumer stopped before shard " + shard + " started"));
            CompletableFuture<Void> asked = rebuildAsked.getAndSet(null);
            if (asked != null) {
                asked.completeExceptionally(new KevyException("consumer stopped"));
            }
        }
    }

    private Cursor rebuild(RebuildReason reason, Cursor carried) {
        state(ShardState.REBUILDING);
        Cursor c = rt.await(coordinator.request(shard, reason, carried), Duration.ofDays(365), true);
        rt.committer.commit(c);
        overlap = rt.overlaps.remove(shard);
        knownTail = c;
        lastProgress = rt.s.clock().instant();
        return c;
    }

    private CompletableFuture<FrameBatch> read(Cursor from, Duration block, boolean durable) {
        return rt.s.source().read(from, rt.s.batchSize(), rt.prefixes, block, durable).toCompletableFuture();
    }

    private void loop() {
        CompletableFuture<FrameBatch> pending = null;
        Duration pendingBlock = null;
        boolean pendingDurable = false;
        Retry.AsyncContext<Object> connection = rt.connectionRetry.asyncContext();
        long backoff = rt.s.pollMin().toMillis();
        while (true) {
            rt.checkRunning();
            CompletableFuture<Void> asked = rebuildAsked.getAndSet(null);
            if (asked != null) {
                pending = null;
                try {
                    cursor = rebuild(RebuildReason.REQUESTED, null);
                    asked.complete(null);
                } catch (RuntimeException e) {
                    asked.completeExceptionally(e);
                    throw e;
                }
                continue;
            }
            if (pending == null) {
                pendingBlock = rt.block();
                pendingDurable = rt.durable();
                pending = read(cursor, pendingBlock, pendingDurable);
            }
            FrameBatch fb;
            try {
                fb = rt.await(pending, READ_TIMEOUT, true);
                pending = null;
                if (pendingBlock != null) {
                    rt.blockWorked();
                }
                connection.onComplete();
                connection = rt.connectionRetry.asyncContext();
            } catch (FeedResyncException r) {
                pending = null;
                resync(r);
                continue;
            } catch (CursorAheadException e) {
                rt.listener.onError(rt.name(), shard, ConsumerListener.CURSOR_AHEAD, e);
                throw rt.fail("consumer " + rt.name() + ", shard " + shard + ": the cursor " + cursor
                        + " is ahead of the stream (" + e.getMessage() + "). The server never moves a tail back "
                        + "within a generation, so the stored cursor is not this server's: check that the cursor "
                        + "store is not shared by two consumers or servers. Not retried.", e);
            } catch (KevyServerException e) {
                pending = null;
                if (pendingDurable && (e.isSyntaxError() || e.isDurableUnavailable())) {
                    rt.durableRefused(e.getMessage()); // DURABLE first: upstream refuses BLOCK too
                    continue;
                }
                if (pendingBlock != null && e.isSyntaxError()) {
                    rt.blockUnsupported();
                    continue;
                }
                rt.listener.onError(rt.name(), shard, ConsumerListener.SERVER, e);
                throw rt.fail("consumer " + rt.name() + ", shard " + shard + ": FEED.READ failed: " + e.getMessage(), e);
            } catch (KevyConnectionException | KevyTimeoutException e) {
                pending = null;
                String kind = Runtime.kind(e);
                rt.listener.onError(rt.name(), shard, kind, e);
                lastError = e.getMessage();
                long delay = connection.onError(e);
                if (delay < 0) {
                    throw rt.fail("consumer " + rt.name() + ", shard " + shard + ": gave up after "
                            + rt.s.maxConnectionAttempts() + " connection attempts: " + e.getMessage(), e);
                }
                rt.listener.onRetry(rt.name(), shard, kind, e);
                state(ShardState.RETRYING);
                rt.sleep(delay);
                continue;
            }
            long scanned = fb.next().offset() - cursor.offset();
            boolean atTail = scanned < rt.s.batchSize();
            List<Change<K, V>> changes = decode(fb);
            if (overlap != null) {
                changes = overlap.activeAt(cursor) ? withoutOverlap(changes) : changes;
                if (!overlap.activeAt(fb.next())) {
                    overlap = null;
                }
            }
            if (!changes.isEmpty()) {
                pendingBlock = rt.block();
                pendingDurable = rt.durable();
                pending = read(fb.next(), pendingBlock, pendingDurable);
                state(atTail ? ShardState.CAUGHT_UP : ShardState.RUNNING);
                long t0 = System.nanoTime();
                Delivery.deliver(rt, Batch.ofChanges(rt.name(), cursor, fb.next(), changes), shard,
                        () -> state(ShardState.RETRYING));
                batchNanos += System.nanoTime() - t0;
                batches++;
                if (rt.aborted()) {
                    throw new Runtime.Stop();
                }
            }
            if (fb.next().offset() != cursor.offset()) {
                rt.committer.commit(fb.next());
                lastProgress = rt.s.clock().instant();
            }
            cursor = fb.next();
            lastError = null;
            if (atTail) {
                futile = 0;
                knownTail = cursor;
                if (lastProgress == null) {
                    lastProgress = rt.s.clock().instant();
                }
                state(ShardState.CAUGHT_UP);
            } else {
                state(ShardState.RUNNING);
                refreshTail();
            }
            if (scanned == 0 && pendingBlock == null && pending == null) {
                rt.sleep(backoff);
                backoff = Math.min(backoff * 2, rt.s.pollMax().toMillis());
            } else if (scanned > 0) {
                backoff = rt.s.pollMin().toMillis();
            }
        }
    }

    private void resync(FeedResyncException r) {
        rt.listener.onResync(rt.name(), shard);
        rt.listener.onError(rt.name(), shard, "resync", r);
        if (futile >= rt.s.maxFutileRebuilds()) {
            String avg = batches == 0 ? "n/a" : (batchNanos / batches / 1_000_000) + " ms";
            throw rt.fail("consumer " + rt.name() + ", shard " + shard + ": " + futile + " consecutive rebuild(s) "
                    + "made no progress: the feed evicted the cursor again (FEEDRESYNC " + r.generation() + " "
                    + r.tail() + ") before the consumer caught up once (average batch delivery " + avg + "). The "
                    + "handler is slower than the writes the backlog can hold: raise feed_buffer_size on the server, "
                    + "make the handler faster (or raise batchSize), or narrow the prefixes. Stopped instead of "
                    + "rebuilding forever.", r);
        }
        futile++;
        cursor = rebuild(RebuildReason.RESYNC, new Cursor(shard, r.generation(), r.tail()));
    }

    private List<Change<K, V>> decode(FrameBatch fb) {
        List<Change<K, V>> out = new ArrayList<>(fb.frames().size());
        long now = rt.s.clock().millis();
        for (Frame f : fb.frames()) {
            RawChange raw = rt.filter.apply(FrameDecoder.decode(f.argv()));
            if (raw != null) {
                out.add(new Change<>(rt.s.codec(), shard, fb.next().generation(), f.offset(), null, f.argv(), raw,
                        now));
            }
        }
        return out;
    }

    /** {@code changes} without what the last rebuild's reads already hold ({@link ReadOverlap}). */
    private List<Change<K, V>> withoutOverlap(List<Change<K, V>> changes) {
        int shardCount = rt.committer.shards();
        long[] n = {0};
        return overlap.apply(changes,
                keys -> rt.await(rt.s.source().reads(keys, shardCount).toCompletableFuture(), READ_TIMEOUT, true),
                (read, frameOffset) -> {
                    Cursor id = new Cursor(shard, read.at().generation(), frameOffset);
                    long now = rt.s.clock().millis();
                    return read.snapshot() != null ? Change.snapshot(rt.s.codec(), id, n[0]++, read.snapshot(), now)
                            : Change.vanished(rt.s.codec(), id, n[0]++, read.key(), now);
                });
    }

    private void refreshTail() {
        long now = System.nanoTime();
        if (now - lastTailRefresh < LAG_REFRESH_NANOS) {
            return;
        }
        lastTailRefresh = now;
        rt.s.source().tail(shard).whenComplete((t, e) -> {
            if (t != null) {
                knownTail = t;
            }
        });
    }
}
