package io.kevy.bridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retries against a real receiver: 500, 503 with Retry-After in seconds, a timeout, 503 with Retry-After as an
 * HTTP-date, 429 and 408, then 200: the same request (same id and body, fresh timestamp) is retried with the
 * delays of the policy, nothing is lost and the order is kept. A delivery the consumer gave up waiting for is
 * superseded by the redelivery, never sent twice at once. The cursor stays before the request until its 2xx.
 */
class WebhookRetryIT {
    /** Lower bounds are the policy's; upper bounds allow this much scheduling delay on a loaded build machine. */
    private static final long SLACK_MS = 1000;

    @TempDir
    Path dir;
    private Harness h;

    @AfterEach
    void close() {
        if (h != null) {
            h.close();
        }
    }

    @Test
    void retriesFollowThePolicyAndRetryAfter() {
        h = new Harness(1);
        // the shard's committed cursor when each failing attempt arrives: it must not move before a 2xx
        List<Long> committedDuringRetries = new java.util.concurrent.CopyOnWriteArrayList<>();
        h.receiver.responder = (n, r) -> switch (n) {
            case 0 -> {
                committedDuringRetries.add(h.consumer.health().shards().get(0).cursor().offset());
                yield Receiver.Reply.status(500);
            }
            case 1 -> new Receiver.Reply(503, Map.of("Retry-After", "1"), "busy", 0);
            case 2 -> new Receiver.Reply(200, Map.of(), "", 1500);
            case 3 -> new Receiver.Reply(503, Map.of("Retry-After", DateTimeFormatter.RFC_1123_DATE_TIME
                    .format(Instant.now().plusSeconds(2).atOffset(ZoneOffset.UTC))), "", 0);
            case 4 -> Receiver.Reply.status(429);
            case 5 -> {
                committedDuringRetries.add(h.consumer.health().shards().get(0).cursor().offset());
                yield Receiver.Reply.status(408);
            }
            default -> Receiver.Reply.ok();
        };
        h.start(h.settings(dir).retryBackoff(Duration.ofMillis(200), Duration.ofMillis(800), 2.0, 0.5)
                .requestTimeout(Duration.ofMillis(500)).build());
        List<Long> delays = new java.util.concurrent.CopyOnWriteArrayList<>();
        h.sink.retry().getEventPublisher().onRetry(e -> delays.add(e.getWaitInterval().toMillis()));
        for (int i = 0; i < 100; i++) {
            h.redis().set("k" + i, "v" + i);
        }
        h.awaitCaughtUp(Duration.ofSeconds(60));

        List<Receiver.Received> rs = h.receiver.requests;
        assertThat(rs.size()).isGreaterThan(7);
        Receiver.Received first = rs.get(0);
        for (int i = 1; i <= 6; i++) {
            assertThat(rs.get(i).id()).isEqualTo(first.id());
            assertThat(rs.get(i).body()).isEqualTo(first.body());
            assertThat(Long.parseLong(rs.get(i).timestamp())).isGreaterThanOrEqualTo(Long.parseLong(first.timestamp()));
        }
        assertThat(Long.parseLong(rs.get(6).timestamp())).isGreaterThan(Long.parseLong(first.timestamp()));
        long firstOffset = first.json().path("data").path("firstOffset").asLong();
        assertThat(committedDuringRetries).as("the cursor is committed only after a 2xx")
                .containsExactly(firstOffset, firstOffset);
        long[] gaps = new long[6];
        for (int i = 0; i < 6; i++) {
            gaps[i] = (rs.get(i + 1).atNanos() - rs.get(i).atNanos()) / 1_000_000;
        }
        System.out.println("retry delays (ms): " + delays + ", gaps at the receiver (ms): "
                + java.util.Arrays.toString(gaps));
        // the delays the policy computed: exponential 200 ms x2 ±50% capped at 800, or the Retry-After
        assertThat(delays).hasSize(6);
        assertThat(delays.get(0)).as("after 500: attempt 1, 200 ms ±50%").isBetween(100L, 300L);
        assertThat(delays.get(1)).as("after Retry-After: 1").isEqualTo(1000L);
        assertThat(delays.get(2)).as("after a timeout: attempt 3, 800 ±50% capped at 800").isBetween(400L, 800L);
        assertThat(delays.get(3)).as("after Retry-After: a date 1-2 s ahead").isBetween(950L, 2000L);
        assertThat(delays.get(4)).as("after 429: attempt 5, capped at 800").isEqualTo(800L);
        assertThat(delays.get(5)).as("after 408: attempt 6, capped at 800").isEqualTo(800L);
        // and the receiver saw the attempts that far apart (the timed-out attempt took its 500 ms on top)
        for (int i = 0; i < 6; i++) {
            long expected = delays.get(i) + (i == 2 ? 500 : 0);
            // the timed-out attempt's 500 ms run from its sending, and a loaded receiver may see it arrive late,
            // shortening the gap after it: that gap's lower bound is checked from the attempt before (below)
            long lower = i == 2 ? 0 : expected - 20;
            assertThat(gaps[i]).as("gap %d", i).isBetween(lower, expected + SLACK_MS);
        }
        assertThat(gaps[1] + gaps[2]).as("from the Retry-After answer to the attempt after the timeout")
                .isGreaterThanOrEqualTo(delays.get(1) + 500 + delays.get(2) - 20);

        Set<String> keys = h.acceptedKeys();
        for (int i = 0; i < 100; i++) {
            assertThat(keys).contains("k" + i);
        }
        h.assertOrderedPerShard();
        assertThat(h.registry.get(WebhookMetrics.RETRIES).counter().count()).isEqualTo(6);
        assertThat(requests("500")).isEqualTo(1);
        assertThat(requests("503")).isEqualTo(2);
        assertThat(requests("timeout")).isEqualTo(1);
        assertThat(requests("429")).isEqualTo(1);
        assertThat(requests("408")).isEqualTo(1);
        assertThat(h.sink.health().state()).isEqualTo(EndpointHealth.State.ACTIVE);
        assertThat(h.sink.health().consecutiveFailures()).isZero();
    }

    private double requests(String status) {
        return h.registry.find(WebhookMetrics.REQUESTS).tag("status", status).counters().stream()
                .mapToDouble(Counter::count).sum();
    }

    @Test
    void aDeliveryTheConsumerGaveUpOnIsSupersededNotDoubled() {
        h = new Harness(1);
        // 503 for 4 s from the first request (not from now: on a loaded machine the start alone can take that long)
        java.util.concurrent.atomic.AtomicLong failUntil = new java.util.concurrent.atomic.AtomicLong();
        h.receiver.responder = (n, r) -> {
            failUntil.compareAndSet(0, System.nanoTime() + Duration.ofSeconds(4).toNanos());
            return System.nanoTime() < failUntil.get() ? Receiver.Reply.status(503) : Receiver.Reply.ok();
        };
        h.start(h.settings(dir).retryBackoff(Duration.ofMillis(50), Duration.ofMillis(300), 2.0, 0.5).build(),
                b -> b.deliveryTimeout(Duration.ofSeconds(1)).handlerRetries(50)
                        .retryBackoff(Duration.ofMillis(50), Duration.ofMillis(100)));
        for (int i = 0; i < 50; i++) {
            h.redis().set("s" + i, "v");
        }
        h.awaitCaughtUp(Duration.ofSeconds(60));
        assertThat(h.receiver.maxInFlight()).allSatisfy((lane, max) -> assertThat(max).isEqualTo(1));
        Set<String> keys = h.acceptedKeys();
        for (int i = 0; i < 50; i++) {
            assertThat(keys).contains("s" + i);
        }
        h.assertOrderedPerShard();
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> h.sink.health().consecutiveFailures() == 0);
        List<String> ids = new ArrayList<>();
        h.receiver.requests.forEach(r -> ids.add(r.id()));
        assertThat(new HashSet<>(ids).size()).isLessThan(ids.size());
    }
}
