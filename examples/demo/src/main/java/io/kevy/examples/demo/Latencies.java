package io.kevy.examples.demo;

import io.kevy.feed.client.Batch;
import io.kevy.feed.client.Change;
import io.kevy.feed.client.Op;
import io.lettuce.core.KeyValue;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * End-to-end latency of the change stream's version bumps, per sink: from the moment the demo sent
 * {@code HSET pkg:<name> version <token>} (each token is unique) to the moment the sink had handled it (the
 * index applied it and it is searchable; the cache dropped the entry; the bridge read it, from the envelope's
 * {@code time}, millisecond precision). Thread-safe.
 */
final class Latencies {
    private static final long MAX_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final Map<String, long[]> sent = new ConcurrentHashMap<>();
    private final Map<String, Histogram> sinks = new ConcurrentHashMap<>();

    /** The bump with {@code token} is about to be sent. */
    void sent(String token) {
        sent.put(token, new long[] {System.nanoTime(), System.currentTimeMillis()});
    }

    /** Records the tracked bumps in {@code batch} as handled by {@code sink} now. */
    void handled(String sink, Batch<String, String> batch) {
        if (batch.kind() != Batch.Kind.CHANGES) {
            return;
        }
        long now = System.nanoTime();
        for (Change<String, String> c : batch) {
            if (c.op() != Op.HSET) {
                continue;
            }
            for (KeyValue<String, String> f : c.fields()) {
                long[] t = f.getKey().equals("version") ? sent.get(f.getValue()) : null;
                if (t != null) {
                    record(sink, now - t[0]);
                }
            }
        }
    }

    /** Records the bump {@code token} as handled by {@code sink} at wall-clock {@code epochMillis}. */
    void handledAt(String sink, String token, long epochMillis) {
        long[] t = sent.get(token);
        if (t != null) {
            record(sink, TimeUnit.MILLISECONDS.toNanos(Math.max(0, epochMillis - t[1])));
        }
    }

    private void record(String sink, long nanos) {
        sinks.computeIfAbsent(sink, s -> new ConcurrentHistogram(MAX_NANOS, 3))
                .recordValue(Math.max(0, Math.min(nanos, MAX_NANOS)));
    }

    /** The latency histogram of {@code sink} (nanoseconds), or null when it recorded nothing. */
    Histogram of(String sink) {
        return sinks.get(sink);
    }
}
