package io.kevy.bridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.kevy.feed.client.StartFrom;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end over a real kevy server (4 shards) and a real HTTP receiver: every request verifies with an
 * independent Standard Webhooks verifier (also across a secret rotation), carries the bearer token and the
 * static headers, respects max_batch, and the receiver sees each shard's changes in offset order; a rebuild
 * arrives as resync.begin, snapshot requests with every key, resync.end.
 */
class WebhookDeliveryIT {
    @TempDir
    Path dir;
    private Harness h;

    @AfterEach
    void close() {
        if (h != null) {
            h.close();
        }
    }

    private static void write(RedisCommands<String, String> redis, int n) {
        for (int i = 0; i < n; i++) {
            redis.set("k:" + i, "v" + i);
            if (i % 50 == 0) {
                redis.mset(java.util.Map.of("m:" + i + ":a", "1", "m:" + i + ":b", "2"));
                redis.hset("h:" + i, "f", "x");
                redis.del("k:" + (i / 2));
            }
        }
    }

    @Test
    void signedHeadedOrderedRequests() {
        h = new Harness(4);
        h.start(h.settings(dir).maxBatch(50).bearerToken("token-abc").header("X-Tenant", "t1").build());
        write(h.redis(), 2000);
        h.awaitCaughtUp(Duration.ofSeconds(60));

        SpecVerifier verifier = new SpecVerifier(300, Harness.SECRET);
        long now = Instant.now().getEpochSecond();
        assertThat(h.receiver.requests).isNotEmpty();
        for (Receiver.Received r : h.receiver.requests) {
            assertThat(verifier.verify(r.id(), r.timestamp(), r.signature(), r.body(), now))
                    .as("signature of %s", r.id()).isTrue();
            assertThat(r.header("content-type")).isEqualTo("application/json");
            assertThat(r.header("authorization")).isEqualTo("Bearer token-abc");
            assertThat(r.header("x-tenant")).isEqualTo("t1");
            JsonNode data = r.json().path("data");
            assertThat(r.id()).isEqualTo(data.path("shard").asInt() + ":" + data.path("generation").asLong() + ":"
                    + data.path("firstOffset").asLong() + "-" + data.path("lastOffset").asLong());
            assertThat(data.path("events").size()).isEqualTo(data.path("count").asInt());
        }
        // one tampered byte or a foreign secret fails the independent verifier
        Receiver.Received any = h.receiver.requests.get(0);
        byte[] tampered = any.body().clone();
        tampered[tampered.length - 3] ^= 1;
        assertThat(verifier.verify(any.id(), any.timestamp(), any.signature(), tampered, now)).isFalse();
        assertThat(new SpecVerifier(300, SpecVerifier.newSecret(32))
                .verify(any.id(), any.timestamp(), any.signature(), any.body(), now)).isFalse();

        Set<String> expected = new HashSet<>(h.redis().keys("*"));
        assertThat(h.acceptedKeys()).containsAll(expected);
        h.assertOrderedPerShard();
        Set<Integer> shards = new HashSet<>();
        h.acceptedEvents().forEach(e -> shards.add(e.path("kevyshard").asInt()));
        assertThat(shards).containsExactlyInAnyOrder(0, 1, 2, 3);
        assertThat(h.registry.get(WebhookMetrics.EVENTS).counter().count()).isEqualTo(h.acceptedEvents().size());
        assertThat(h.sink.health().state()).isEqualTo(EndpointHealth.State.ACTIVE);
        assertThat(h.sink.ready()).isTrue();
    }

    @Test
    void rotationSignsWithBothSecrets() {
        h = new Harness(4);
        String next = SpecVerifier.newSecret(48);
        h.start(h.settings(dir).secrets(next, Harness.SECRET).build());
        write(h.redis(), 200);
        h.awaitCaughtUp(Duration.ofSeconds(30));
        long now = Instant.now().getEpochSecond();
        SpecVerifier oldOnly = new SpecVerifier(300, Harness.SECRET);
        SpecVerifier newOnly = new SpecVerifier(300, next);
        assertThat(h.receiver.requests).isNotEmpty().allSatisfy(r -> {
            assertThat(r.signature().split(" ")).hasSize(2).allMatch(s -> s.startsWith("v1,"));
            assertThat(oldOnly.verify(r.id(), r.timestamp(), r.signature(), r.body(), now)).isTrue();
            assertThat(newOnly.verify(r.id(), r.timestamp(), r.signature(), r.body(), now)).isTrue();
        });
        // a receiver that already dropped the old secret verifies through the new signature alone
        Receiver.Received r = h.receiver.requests.get(0);
        String newSignatureOnly = r.signature().split(" ")[0];
        assertThat(newOnly.verify(r.id(), r.timestamp(), newSignatureOnly, r.body(), now)).isTrue();
        assertThat(oldOnly.verify(r.id(), r.timestamp(), newSignatureOnly, r.body(), now)).isFalse();
    }

    @Test
    void rebuildsArriveAsBeginSnapshotsEnd() throws Exception {
        h = new Harness(4);
        RedisCommands<String, String> redis = h.redis();
        for (int i = 0; i < 300; i++) {
            redis.set("r:" + i, "v" + i);
        }
        redis.hset("r:hash", "f", "v");
        redis.rpush("r:list", "a", "b");
        h.start(h.settings(dir).maxBatch(40).build(), b -> b.startFrom(StartFrom.REBUILD));
        redis.set("after", "1");
        h.awaitCaughtUp(Duration.ofSeconds(30));
        h.consumer.rebuild().toCompletableFuture().get(30, TimeUnit.SECONDS);

        List<String> types = new ArrayList<>();
        for (Receiver.Received r : h.receiver.accepted()) {
            String t = r.json().path("type").asText();
            if (types.isEmpty() || !types.get(types.size() - 1).equals(t)) {
                types.add(t);
            }
        }
        assertThat(types).startsWith("io.kevy.resync.begin", "io.kevy.snapshot", "io.kevy.resync.end")
                .containsSubsequence("io.kevy.changes", "io.kevy.resync.begin", "io.kevy.snapshot",
                        "io.kevy.resync.end");
        Receiver.Received begin = h.receiver.accepted().get(0);
        assertThat(begin.json().path("data").path("events")).hasSize(4);
        assertThat(begin.json().path("data").path("reason").asText()).isEqualTo("start");
        Set<String> snapshotKeys = new HashSet<>();
        Set<String> snapshotIds = new HashSet<>();
        for (Receiver.Received r : h.receiver.accepted()) {
            JsonNode j = r.json();
            if (j.path("type").asText().equals(Payloads.SNAPSHOT)
                    && j.path("data").path("reason").asText().equals("start")) {
                assertThat(r.id()).doesNotContain(".");
                snapshotIds.add(r.id());
                assertThat(j.path("data").path("events").size()).isLessThanOrEqualTo(40);
                j.path("data").path("events").forEach(e -> {
                    assertThat(e.path("type").asText()).isEqualTo("io.kevy.change.snapshot");
                    snapshotKeys.add(e.path("subject").asText());
                });
            }
        }
        assertThat(snapshotKeys).hasSize(302).contains("r:0", "r:299", "r:hash", "r:list");
        assertThat(snapshotIds.size()).isGreaterThanOrEqualTo(302 / 40);
        JsonNode end = h.receiver.accepted().stream().map(Receiver.Received::json)
                .filter(j -> j.path("type").asText().equals("io.kevy.resync.end")).findFirst().orElseThrow();
        assertThat(end.path("data").path("keys").asLong()).isEqualTo(302);
        assertThat(h.acceptedKeys()).contains("after");
    }
}
