package io.kevy.feed.sidecar;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kevy.feed.client.Cursor;
import io.kevy.feed.client.FeedConsumer;
import io.kevy.feed.client.FeedSource;
import io.kevy.feed.client.Health;
import io.kevy.feed.client.ShardHealth;
import io.kevy.feed.client.envelope.ChangeEnvelopes;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Decides {@code /readyz}: ready when the consumer runs (not starting, FAILED or stopping), the server answered
 * the last {@code FEED.TAIL} poll of every shard (connected), no shard is stalled, and the sink says it is
 * ready. A shard is stalled when it is behind its tail (the server's tail is past the committed cursor, or in
 * another generation) and its committed cursor has not moved for {@code stall}: a broker outage, a stuck sink,
 * a kevy outage while writes pile up. The tails are polled every {@code poll} on the source's shared connection
 * (not the shard readers'), so a parked long-poll never delays readiness.
 *
 * <p>Thread-safe: polls run on one daemon thread; {@link #report()} reads their last result.
 */
final class ReadinessMonitor implements AutoCloseable {
    /** One shard's last observation. */
    private static final class ShardView {
        volatile Cursor committed;
        volatile Cursor tail;
        volatile long movedNanos;
        volatile boolean behind;
    }

    private final FeedConsumer<?, ?> consumer;
    private final FeedSource source;
    private final Supplier<Readiness> sink;
    private final long stallNanos;
    private final Duration poll;
    private final MeterRegistry registry;
    private final ScheduledExecutorService timer;
    private final ConcurrentHashMap<Integer, ShardView> shards = new ConcurrentHashMap<>();
    private volatile String connectionError = "no FEED.TAIL answer yet";

    ReadinessMonitor(FeedConsumer<?, ?> consumer, FeedSource source, Supplier<Readiness> sink, Duration stall,
            Duration poll, MeterRegistry registry) {
        this.consumer = consumer;
        this.source = source;
        this.sink = sink;
        this.stallNanos = stall.toNanos();
        this.poll = poll;
        this.registry = registry;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kevy-bridge-readiness");
            t.setDaemon(true);
            return t;
        });
        Gauge.builder("kevy.bridge.ready", this, m -> m.report().ready() ? 1 : 0)
                .description("1 when /readyz answers 200").tag("consumer", consumer.name()).register(registry);
    }

    void start() {
        timer.scheduleWithFixedDelay(this::pollOnce, 0, poll.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One poll: every shard's tail and committed cursor. Package-private for tests. */
    void pollOnce() {
        Health h = consumer.health();
        long now = System.nanoTime();
        String error = null;
        for (ShardHealth s : h.shards()) {
            ShardView v = shards.computeIfAbsent(s.shard(), this::newView);
            Cursor tail = null;
            try {
                tail = source.tail(s.shard()).toCompletableFuture().get(Math.max(1000, poll.toMillis()),
                        TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                error = "FEED.TAIL " + s.shard() + " failed: " + (e.getCause() != null ? e.getCause() : e);
            }
            Cursor c = s.cursor();
            if (v.committed == null || !v.committed.equals(c)) {
                v.movedNanos = now;
            }
            v.committed = c;
            if (tail != null) {
                v.tail = tail;
            }
            Cursor t = v.tail;
            v.behind = c != null && t != null && (t.generation() != c.generation() || t.offset() > c.offset());
            if (!v.behind) {
                v.movedNanos = now;
            }
        }
        connectionError = h.shards().isEmpty() ? "the consumer has not started its shards yet" : error;
    }

    private ShardView newView(int shard) {
        ShardView v = new ShardView();
        v.movedNanos = System.nanoTime();
        Gauge.builder("kevy.bridge.behind", v, x -> {
            Cursor c = x.committed;
            Cursor t = x.tail;
            return c == null || t == null || c.generation() != t.generation() ? -1 : Math.max(0, t.offset() - c.offset());
        }).description("frames between the committed cursor and the server's tail (-1 unknown)")
                .tag("consumer", consumer.name()).tag("shard", Integer.toString(shard)).register(registry);
        return v;
    }

    /** The current verdict with its reasons. */
    Readiness report() {
        List<String> reasons = reasons();
        return reasons.isEmpty() ? Readiness.READY : Readiness.notReady(String.join("; ", reasons));
    }

    private List<String> reasons() {
        List<String> reasons = new ArrayList<>();
        FeedConsumer.State st = consumer.state();
        if (st == FeedConsumer.State.FAILED) {
            reasons.add("consumer FAILED: " + consumer.failure().map(Throwable::getMessage).orElse("?"));
        } else if (st != FeedConsumer.State.RUNNING) {
            reasons.add("consumer " + st);
        }
        String ce = connectionError;
        if (ce != null) {
            reasons.add("kevy: " + ce);
        }
        long now = System.nanoTime();
        for (var e : new java.util.TreeMap<>(shards).entrySet()) {
            ShardView v = e.getValue();
            long still = now - v.movedNanos;
            if (v.behind && still > stallNanos) {
                reasons.add("shard " + e.getKey() + " behind its tail (cursor " + v.committed + ", tail " + v.tail
                        + ") with no progress for " + TimeUnit.NANOSECONDS.toMillis(still) + " ms");
            }
        }
        Readiness s = sink.get();
        if (!s.ready()) {
            reasons.add("sink: " + s.reason());
        }
        return reasons;
    }

    /** The JSON body of {@code /readyz}. */
    ObjectNode json() {
        ObjectNode o = ChangeEnvelopes.mapper().createObjectNode();
        List<String> reasons = reasons();
        o.put("ready", reasons.isEmpty());
        o.put("consumer", consumer.name());
        o.put("state", consumer.state().name());
        ArrayNode r = o.putArray("reasons");
        reasons.forEach(r::add);
        ArrayNode a = o.putArray("shards");
        long now = System.nanoTime();
        Health h = consumer.health();
        for (ShardHealth s : h.shards()) {
            ShardView v = shards.get(s.shard());
            ObjectNode x = a.addObject();
            x.put("shard", s.shard());
            x.put("state", s.state().name());
            x.put("cursor", String.valueOf(s.cursor()));
            if (v != null) {
                x.put("tail", String.valueOf(v.tail));
                x.put("behind", v.behind);
                x.put("sinceProgressMs", TimeUnit.NANOSECONDS.toMillis(now - v.movedNanos));
            }
            if (s.lastError() != null) {
                x.put("lastError", s.lastError());
            }
        }
        return o;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
