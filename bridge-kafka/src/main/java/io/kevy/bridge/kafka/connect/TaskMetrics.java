package io.kevy.bridge.kafka.connect;

import io.kevy.feed.client.ConsumerListener;
import io.kevy.feed.client.FeedConsumer;
import io.kevy.feed.client.RebuildResult;
import io.kevy.feed.client.RebuildScope;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.PluginMetrics;

/**
 * The task's feed meters as Connect plugin metrics (KIP-877; JMX group {@code kafka.connect}, with Connect's
 * connector and task tags, next to Connect's own {@code source-record-poll-rate} and
 * {@code source-record-write-rate}): {@code kevy-feed-lag} (frames between the committed cursors and the
 * tails, summed over the task's shards; -1 while unknown), {@code kevy-feed-batches-total},
 * {@code kevy-feed-changes-total}, {@code kevy-feed-resyncs-total}, {@code kevy-feed-rebuilds-total},
 * {@code kevy-feed-rebuild-keys-total}, {@code kevy-feed-rebuild-vanished-total}, {@code kevy-feed-errors-total}
 * and {@code kevy-feed-queued-batches} (batches waiting for poll()). Thread-safe.
 */
final class TaskMetrics implements ConsumerListener, AutoCloseable {
    private final PluginMetrics metrics;
    private final HandOff handOff;
    private final List<MetricName> names = new ArrayList<>();
    private final AtomicLong batches = new AtomicLong();
    private final AtomicLong changes = new AtomicLong();
    private final AtomicLong resyncs = new AtomicLong();
    private final AtomicLong rebuilds = new AtomicLong();
    private final AtomicLong rebuildKeys = new AtomicLong();
    private final AtomicLong rebuildVanished = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private volatile FeedConsumer<?, ?> consumer;

    /** {@code metrics} may be null (a context without plugin metrics): then nothing is registered. */
    TaskMetrics(PluginMetrics metrics, HandOff handOff) {
        this.metrics = metrics;
        this.handOff = handOff;
    }

    /** Registers the metrics of {@code c}. */
    void bind(FeedConsumer<?, ?> c) {
        this.consumer = c;
        if (metrics == null) {
            return;
        }
        gauge("kevy-feed-lag", "frames between the committed cursors and the shards' tails, summed over the "
                + "task's shards (-1 while unknown)", () -> {
                    FeedConsumer<?, ?> fc = consumer;
                    return fc == null ? -1L : fc.health().maxLag() < 0 ? -1L
                            : fc.health().shards().stream().mapToLong(s -> Math.max(0, s.lag())).sum();
                });
        gauge("kevy-feed-queued-batches", "batches handed off and waiting for poll()", () -> (long) handOff.queued());
        counter("kevy-feed-batches-total", "feed batches Connect confirmed", batches);
        counter("kevy-feed-changes-total", "changes in those batches", changes);
        counter("kevy-feed-resyncs-total", "FEEDRESYNC answers", resyncs);
        counter("kevy-feed-rebuilds-total", "rebuilds finished", rebuilds);
        counter("kevy-feed-rebuild-keys-total", "snapshot records of rebuilds", rebuildKeys);
        counter("kevy-feed-rebuild-vanished-total", "keys rebuilds found gone (tombstoned)", rebuildVanished);
        counter("kevy-feed-errors-total", "errors of the feed consumer (retried or not)", errors);
    }

    private void counter(String name, String doc, AtomicLong value) {
        gauge(name, doc, value::get);
    }

    private void gauge(String name, String doc, java.util.function.LongSupplier value) {
        MetricName n = metrics.metricName(name, doc, new LinkedHashMap<>());
        metrics.addMetric(n, (Gauge<Long>) (config, now) -> value.getAsLong());
        names.add(n);
    }

    @Override
    public void onBatch(String c, int shard, int frames, long handlerNanos) {
        batches.incrementAndGet();
        changes.addAndGet(frames);
    }

    @Override
    public void onResync(String c, int shard) {
        resyncs.incrementAndGet();
    }

    @Override
    public void onRebuild(String c, RebuildScope scope, RebuildResult result) {
        rebuilds.incrementAndGet();
        rebuildKeys.addAndGet(result.keys());
        rebuildVanished.addAndGet(result.vanished());
    }

    @Override
    public void onError(String c, int shard, String kind, Throwable error) {
        errors.incrementAndGet();
    }

    @Override
    public void close() {
        if (metrics != null) {
            for (MetricName n : names) {
                metrics.removeMetric(n);
            }
            names.clear();
        }
    }
}
