package io.kevy.bridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.kevy.feed.client.Cursor;
import io.kevy.feed.client.FeedConsumer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 30 s receiver outage (the port refuses connections) under a steady write load on 4 shards: afterwards every
 * change is delivered, the accepted requests cover every offset of every shard without a gap (each batch seen at
 * least once), no shard's changes arrive out of order, and no shard ever had two requests in flight.
 */
class WebhookOutageIT {
    private static final int RATE_PER_SECOND = 400;
    private Harness h;

    /** The sink's cursor directory; JUnit deletes it after the test. */
    @TempDir
    Path dir;

    @AfterEach
    void close() {
        if (h != null) {
            h.close();
        }
    }

    @Test
    void aThirtySecondOutageLosesNothingAndKeepsOrder() throws Exception {
        h = new Harness(4);
        h.start(h.settings(dir).maxBatch(200)
                .retryBackoff(Duration.ofMillis(100), Duration.ofSeconds(2), 2.0, 0.5).build());
        Map<Integer, Cursor> start = new HashMap<>();
        for (int i = 0; i < 4; i++) {
            start.put(i, h.source.tail(i).toCompletableFuture().get());
        }
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger written = new AtomicInteger();
        Thread writer = new Thread(() -> {
            long t0 = System.nanoTime();
            long interval = 1_000_000_000L / RATE_PER_SECOND;
            while (writing.get()) {
                int i = written.get();
                h.redis().set("o:" + i, Integer.toString(i));
                written.incrementAndGet();
                LockSupport.parkNanos(t0 + (i + 1) * interval - System.nanoTime());
            }
        }, "writer");
        writer.start();

        Thread.sleep(5_000);
        h.receiver.stop();
        long down = System.nanoTime();
        int beforeOutage = h.receiver.requests.size();
        Thread.sleep(30_000);
        assertThat(h.sink.health().state()).isEqualTo(EndpointHealth.State.RETRYING);
        assertThat(h.sink.health().consecutiveFailures()).isPositive();
        assertThat(h.receiver.requests).hasSize(beforeOutage);
        h.receiver.restart();
        long up = System.nanoTime();
        Thread.sleep(5_000);
        writing.set(false);
        writer.join();
        h.awaitCaughtUp(Duration.ofSeconds(90));
        long caughtUp = System.nanoTime();
        System.out.printf("outage: %d writes at %d/s, receiver down %.1f s, caught up %.1f s after it came back, "
                + "%d requests, %.0f retries%n", written.get(), RATE_PER_SECOND, (up - down) / 1e9,
                (caughtUp - up) / 1e9, h.receiver.requests.size(),
                h.registry.get(WebhookMetrics.RETRIES).counter().count());

        Set<String> keys = h.acceptedKeys();
        for (int i = 0; i < written.get(); i++) {
            assertThat(keys).contains("o:" + i);
        }
        h.assertOrderedPerShard();
        assertThat(h.receiver.maxInFlight()).allSatisfy((lane, max) -> assertThat(max).isEqualTo(1));
        // every offset of every shard lies in an accepted request: no batch was skipped
        Map<Integer, TreeMap<Long, Long>> ranges = new HashMap<>();
        Set<String> ids = new HashSet<>();
        for (Receiver.Received r : h.receiver.accepted()) {
            JsonNode d = r.json().path("data");
            ids.add(r.id());
            ranges.computeIfAbsent(d.path("shard").asInt(), s -> new TreeMap<>())
                    .merge(d.path("firstOffset").asLong(), d.path("lastOffset").asLong(), Math::max);
        }
        for (int shard = 0; shard < 4; shard++) {
            long next = start.get(shard).offset();
            long tail = h.source.tail(shard).toCompletableFuture().get().offset();
            for (Map.Entry<Long, Long> e : ranges.get(shard).entrySet()) {
                assertThat(e.getKey()).as("shard %d: a gap before offset %d", shard, e.getKey())
                        .isLessThanOrEqualTo(next);
                next = Math.max(next, e.getValue() + 1);
            }
            assertThat(next).as("shard %d covered up to its tail", shard).isEqualTo(tail);
        }
        assertThat(ids).hasSize((int) h.receiver.accepted().stream().map(Receiver.Received::id).distinct().count());
        assertThat(h.receiver.requests.stream().map(Receiver.Received::id).distinct().toList())
                .as("every request id was eventually accepted").allMatch(ids::contains);
        assertThat(h.consumer.state()).isEqualTo(FeedConsumer.State.RUNNING);
        assertThat(h.sink.health().state()).isEqualTo(EndpointHealth.State.ACTIVE);
        List<Receiver.Received> accepted = h.receiver.accepted();
        assertThat(accepted).isNotEmpty();
    }
}
