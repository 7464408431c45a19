package io.kevy.bridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.kevy.feed.client.StartFrom;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.awaitility.Awaitility;
import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Evidence figures, printed by every run (in-process kevy with 4 shards, the sink and a local receiver in one
 * JVM on the build machine's 2 cores, so the figures are a floor): deliveries per second from a full backlog to a
 * fast receiver, and the write-to-delivery latency (p50, p99, max) at a steady write rate.
 */
class WebhookEvidenceIT {
    private static final int BACKLOG = 100_000;
    private static final int RATE = 2_000;
    private static final int SECONDS = 10;
    private Harness h;
    private ResourceLeakDetector.Level leakLevel;

    /**
     * The build runs tests with paranoid Netty leak detection (a stack trace per buffer), which slows the server
     * and lettuce in this JVM several times over; the figures are measured without it.
     */
    @BeforeEach
    void noLeakDetection() {
        leakLevel = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
    }

    @AfterEach
    void close() {
        if (h != null) {
            h.close();
        }
        ResourceLeakDetector.setLevel(leakLevel);
    }

    /** The sink's cursor directory; JUnit deletes it after each test. */
    @TempDir
    Path dir;

    @Test
    void deliveriesPerSecondFromAFullBacklog() throws Exception {
        h = new Harness(4);
        try (StatefulRedisConnection<String, String> c = h.server.client().connect()) {
            RedisAsyncCommands<String, String> async = c.async();
            c.setAutoFlushCommands(false);
            List<io.lettuce.core.RedisFuture<String>> pending = new ArrayList<>();
            for (int i = 0; i < BACKLOG; i++) {
                pending.add(async.set("b:" + i, "value-" + i));
                if (pending.size() == 1000) {
                    c.flushCommands();
                    for (var f : pending) {
                        f.get(30, TimeUnit.SECONDS);
                    }
                    pending.clear();
                }
            }
            c.flushCommands();
            for (var f : pending) {
                f.get(30, TimeUnit.SECONDS);
            }
        }
        h.receiver.record = false;
        long t0 = System.nanoTime();
        h.start(h.settings(dir).build(), b -> b.startFrom(StartFrom.EARLIEST).batchSize(1024));
        Awaitility.await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(20))
                .until(() -> h.receiver.events.get() >= BACKLOG);
        double s = (System.nanoTime() - t0) / 1e9;
        double requests = h.registry.get(WebhookMetrics.REQUESTS).counters().stream()
                .mapToDouble(x -> x.count()).sum();
        var attempt = h.registry.get(WebhookMetrics.LATENCY).timer();
        System.out.printf("EVIDENCE webhook throughput: %d changes from a full 4-shard backlog delivered in %.2f s = "
                + "%,.0f changes/s in %,.0f requests (%,.0f requests/s, %.0f changes and %.0f KB per request, "
                + "%.1f ms per request on average; consumer batch 1024, max_batch 500)%n", BACKLOG, s, BACKLOG / s,
                requests, requests / s, BACKLOG / requests, h.receiver.bytes.get() / requests / 1024,
                attempt.mean(TimeUnit.MILLISECONDS));
        assertThat(h.receiver.events.get()).isEqualTo(BACKLOG);
    }

    @Test
    void writeToDeliveryLatencyAtASteadyRate() throws Exception {
        h = new Harness(4);
        h.start(h.settings(dir).build());
        long t0 = System.nanoTime();
        long interval = 1_000_000_000L / RATE;
        int total = RATE * (SECONDS + 2);
        double seconds;
        try (StatefulRedisConnection<String, String> c = h.server.client().connect()) {
            // paced asynchronous writes: a slow reply does not lower the rate
            List<io.lettuce.core.RedisFuture<String>> replies = new ArrayList<>(total);
            for (int i = 0; i < total; i++) {
                LockSupport.parkNanos(t0 + i * interval - System.nanoTime());
                replies.add(c.async().set("l:" + i, Long.toString(System.nanoTime())));
            }
            seconds = (System.nanoTime() - t0) / 1e9;
            for (var f : replies) {
                f.get(30, TimeUnit.SECONDS);
            }
        }
        h.awaitCaughtUp(Duration.ofSeconds(60));
        Histogram hist = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        long warmupEnd = t0 + TimeUnit.SECONDS.toNanos(2);
        int seen = 0;
        for (Receiver.Received r : h.receiver.accepted()) {
            for (JsonNode e : r.json().path("data").path("events")) {
                long wrote = Long.parseLong(e.path("data").path("value").asText());
                seen++;
                if (wrote >= warmupEnd) {
                    hist.recordValue(Math.max(0, r.atNanos() - wrote));
                }
            }
        }
        System.out.printf("EVIDENCE webhook latency: %d writes at %.0f/s (achieved), write-to-delivery over the last "
                + "%d s: p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, max %.2f ms (%d requests)%n", total,
                total / seconds, SECONDS, hist.getValueAtPercentile(50) / 1e6, hist.getValueAtPercentile(99) / 1e6,
                hist.getValueAtPercentile(99.9) / 1e6, hist.getMaxValue() / 1e6, h.receiver.accepted().size());
        assertThat(seen).isEqualTo(total);
        h.assertOrderedPerShard();
    }
}
