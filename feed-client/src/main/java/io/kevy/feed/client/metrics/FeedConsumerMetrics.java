package io.kevy.feed.client.metrics;

import io.kevy.feed.client.ConsumerListener;
import io.kevy.feed.client.Health;
import io.kevy.feed.client.RebuildResult;
import io.kevy.feed.client.RebuildScope;
import io.kevy.feed.client.ShardHealth;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The consumer's Micrometer meters, registered by {@code FeedConsumer.Builder.meterRegistry}. Every meter has
 * the tag {@code consumer} (the consumer's name); per-shard meters also {@code shard} ({@code all} when an
 * event concerns no single shard, e.g. a rebuild's retries).
 *
 * <table>
 *   <caption>meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>what</th></tr>
 *   <tr><td>{@value #FRAMES}</td><td>counter</td><td>consumer, shard</td><td>changes delivered to the sink</td></tr>
 *   <tr><td>{@value #BATCHES}</td><td>counter</td><td>consumer, shard</td><td>batches the sink accepted</td></tr>
 *   <tr><td>{@value #LAG}</td><td>gauge</td><td>consumer, shard</td><td>frames between the committed cursor and
 *       the last known tail (0 caught up, -1 unknown)</td></tr>
 *   <tr><td>{@value #HANDLER}</td><td>timer</td><td>consumer, shard</td><td>time from handing a batch to the
 *       sink until it was accepted</td></tr>
 *   <tr><td>{@value #RESYNCS}</td><td>counter</td><td>consumer, shard</td><td>FEEDRESYNC answers</td></tr>
 *   <tr><td>{@value #REBUILD}</td><td>timer</td><td>consumer</td><td>rebuild durations</td></tr>
 *   <tr><td>{@value #REBUILD_KEYS}</td><td>counter</td><td>consumer</td><td>SNAPSHOT entries delivered</td></tr>
 *   <tr><td>{@value #REBUILD_VANISHED}</td><td>counter</td><td>consumer</td><td>VANISHED entries delivered</td></tr>
 *   <tr><td>{@value #RETRIES}</td><td>counter</td><td>consumer, shard, kind</td><td>retries (kind: connection,
 *       timeout, handler, rebuild)</td></tr>
 *   <tr><td>{@value #ERRORS}</td><td>counter</td><td>consumer, shard, kind</td><td>errors (kind: connection,
 *       timeout, server, cursor_ahead, handler, rebuild, protocol, cursor_store, resync)</td></tr>
 *   <tr><td>{@value #COMMITS}</td><td>counter</td><td>consumer</td><td>cursor records stored</td></tr>
 * </table>
 *
 * <p>Lifecycle: {@link #open()} (called by {@code FeedConsumer.start()}) claims the consumer's name in the
 * registry: a second consumer of the same name in the same registry cannot start while the first holds it
 * ({@link IllegalStateException} naming the name), because both would write the same meters. {@link #close()}
 * (called by {@code FeedConsumer.close()} and {@code abort()}) removes every meter this instance registered and
 * releases the name. A consumer that failed keeps its meters, so its error counters can be read, until it is
 * closed.
 *
 * <p>Thread-safe.
 */
public final class FeedConsumerMetrics implements ConsumerListener, AutoCloseable {
    public static final String FRAMES = "kevy.feed.consumer.frames";
    public static final String BATCHES = "kevy.feed.consumer.batches";
    public static final String LAG = "kevy.feed.consumer.lag";
    public static final String HANDLER = "kevy.feed.consumer.handler";
    public static final String RESYNCS = "kevy.feed.consumer.resyncs";
    public static final String REBUILD = "kevy.feed.consumer.rebuild";
    public static final String REBUILD_KEYS = "kevy.feed.consumer.rebuild.keys";
    public static final String REBUILD_VANISHED = "kevy.feed.consumer.rebuild.vanished";
    public static final String RETRIES = "kevy.feed.consumer.retries";
    public static final String ERRORS = "kevy.feed.consumer.errors";
    public static final String COMMITS = "kevy.feed.consumer.cursor.commits";

    /** The consumer names holding meters, per registry (weak: a dropped registry frees its names). */
    private static final Map<MeterRegistry, Set<String>> CLAIMS = new WeakHashMap<>();

    private final MeterRegistry registry;
    private final String consumer;
    private final Supplier<Health> health;
    private final Set<Meter> meters = ConcurrentHashMap.newKeySet();
    private boolean claimed;
    private volatile boolean closed;

    /**
     * Meters of {@code consumer} in {@code registry}; {@code health} feeds the lag gauges.
     */
    public FeedConsumerMetrics(MeterRegistry registry, String consumer, Supplier<Health> health) {
        this.registry = registry;
        this.consumer = consumer;
        this.health = health;
    }

    /**
     * Claims the consumer's name in the registry; idempotent.
     *
     * @throws IllegalStateException when another open instance (another consumer) of the same name holds it
     */
    public synchronized void open() {
        if (claimed) {
            return;
        }
        synchronized (CLAIMS) {
            if (!CLAIMS.computeIfAbsent(registry, r -> new java.util.HashSet<>()).add(consumer)) {
                throw new IllegalStateException("a consumer named '" + consumer + "' already has meters in this "
                        + "MeterRegistry: close it first, or give this consumer another name");
            }
        }
        claimed = true;
    }

    /** Removes every meter this instance registered from the registry and releases the name; idempotent. */
    @Override
    public synchronized void close() {
        closed = true;
        for (Meter m : meters) {
            registry.remove(m);
        }
        meters.clear();
        if (claimed) {
            synchronized (CLAIMS) {
                Set<String> names = CLAIMS.get(registry);
                if (names != null) {
                    names.remove(consumer);
                }
            }
            claimed = false;
        }
    }

    /** The meters registered so far (removed again by {@link #close()}). */
    public Set<Meter> meters() {
        return Collections.unmodifiableSet(meters);
    }

    private <M extends Meter> M track(M meter) {
        if (!closed) {
            meters.add(meter);
        } else {
            registry.remove(meter); // a late event after close(): leave nothing behind
        }
        return meter;
    }

    private Tags tags(int shard) {
        return Tags.of("consumer", consumer, "shard", shard < 0 ? "all" : Integer.toString(shard));
    }

    @Override
    public void onStart(String name, int shards) {
        for (int i = 0; i < shards; i++) {
            final int shard = i;
            track(Gauge.builder(LAG, () -> lag(shard)).tags(tags(shard)).description("frames behind the tail")
                    .register(registry));
        }
    }

    private double lag(int shard) {
        for (ShardHealth s : health.get().shards()) {
            if (s.shard() == shard) {
                return s.lag();
            }
        }
        return -1;
    }

    @Override
    public void onBatch(String name, int shard, int frames, long handlerNanos) {
        track(Counter.builder(FRAMES).tags(tags(shard)).register(registry)).increment(frames);
        track(Counter.builder(BATCHES).tags(tags(shard)).register(registry)).increment();
        track(Timer.builder(HANDLER).tags(tags(shard)).register(registry))
                .record(handlerNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void onCommit(String name) {
        track(Counter.builder(COMMITS).tag("consumer", consumer).register(registry)).increment();
    }

    @Override
    public void onResync(String name, int shard) {
        track(Counter.builder(RESYNCS).tags(tags(shard)).register(registry)).increment();
    }

    @Override
    public void onRebuild(String name, RebuildScope scope, RebuildResult result) {
        track(Timer.builder(REBUILD).tag("consumer", consumer).register(registry)).record(result.duration());
        track(Counter.builder(REBUILD_KEYS).tag("consumer", consumer).register(registry)).increment(result.keys());
        track(Counter.builder(REBUILD_VANISHED).tag("consumer", consumer).register(registry))
                .increment(result.vanished());
    }

    @Override
    public void onRetry(String name, int shard, String kind, Throwable error) {
        track(Counter.builder(RETRIES).tags(tags(shard)).tag("kind", kind).register(registry)).increment();
    }

    @Override
    public void onError(String name, int shard, String kind, Throwable error) {
        track(Counter.builder(ERRORS).tags(tags(shard)).tag("kind", kind).register(registry)).increment();
    }
}
