package io.kevy.bridge.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import io.kevy.feed.client.FeedConsumer;
import io.kevy.feed.client.FeedSource;
import io.kevy.feed.client.envelope.ChangeEnvelopes;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.TestServer;
import io.lettuce.core.codec.StringCodec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.awaitility.Awaitility;

/**
 * One end-to-end set-up: an in-process kevy server (4 shards, feed on), a {@link Receiver}, and a
 * {@link FeedConsumer} that delivers to a {@link WebhookSink} aimed at the receiver.
 */
final class Harness implements AutoCloseable {
    static final String SECRET = SpecVerifier.newSecret(32);

    final TestServer server;
    final FeedSource source;
    final Receiver receiver = new Receiver();
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    FeedConsumer<String, String> consumer;
    WebhookSink<String, String> sink;
    private io.lettuce.core.api.sync.RedisCommands<String, String> redis;

    Harness(int shards) {
        server = TestServer.start(c -> c.with(ServerOptions.SHARDS, shards).with(ServerOptions.FEED_ENABLED, true));
        source = FeedSource.connect("redis://127.0.0.1:" + server.port());
    }

    /** One shared connection to the server (TestServer.lettuce() opens a new one per call). */
    synchronized io.lettuce.core.api.sync.RedisCommands<String, String> redis() {
        if (redis == null) {
            redis = server.lettuce();
        }
        return redis;
    }

    /** Settings aimed at the receiver, signed with {@link #SECRET}, short retries, dead letters in {@code dir}. */
    WebhookSettings.Builder settings(Path dir) {
        return WebhookSettings.builder(receiver.uri()).secrets(SECRET)
                .retryBackoff(Duration.ofMillis(50), Duration.ofMillis(500), 2.0, 0.5)
                .requestTimeout(Duration.ofSeconds(5))
                .deadLetterFile(dir.resolve("dead-letters.jsonl"));
    }

    /** Starts a consumer from the tail with a sink of {@code settings}, adjusted by {@code custom}. */
    FeedConsumer<String, String> start(WebhookSettings settings,
            UnaryOperator<FeedConsumer.Builder<String, String>> custom) {
        sink = WebhookSink.builder(settings).envelopes(ChangeEnvelopes.forSource(source.authority()))
                .meterRegistry(registry).build();
        consumer = custom.apply(FeedConsumer.builder(StringCodec.UTF8).source(source).name("webhook").sink(sink))
                .build();
        consumer.start().toCompletableFuture().join();
        return consumer;
    }

    FeedConsumer<String, String> start(WebhookSettings settings) {
        return start(settings, b -> b);
    }

    /** Waits until every shard's committed cursor reached the server's tail. */
    void awaitCaughtUp(Duration timeout) {
        Awaitility.await().atMost(timeout).ignoreExceptions().pollInterval(Duration.ofMillis(50)).until(() -> {
            int shards = source.shards().toCompletableFuture().get();
            var health = consumer.health();
            for (int i = 0; i < shards; i++) {
                var c = health.shards().get(i).cursor();
                if (c == null || !c.equals(source.tail(i).toCompletableFuture().get())) {
                    return false;
                }
            }
            return true;
        });
    }

    /** The change events of the accepted {@code io.kevy.changes} requests, in arrival order. */
    List<JsonNode> acceptedEvents() {
        List<JsonNode> out = new ArrayList<>();
        for (Receiver.Received r : receiver.accepted()) {
            JsonNode j = r.json();
            if (j.path("type").asText().equals(Payloads.CHANGES)) {
                j.path("data").path("events").forEach(out::add);
            }
        }
        return out;
    }

    /** The distinct subjects (keys) of accepted change events. */
    Set<String> acceptedKeys() {
        Set<String> keys = new LinkedHashSet<>();
        acceptedEvents().forEach(e -> keys.add(e.path("subject").asText()));
        return keys;
    }

    /**
     * Asserts per shard that the accepted change events, taken in arrival order and counting each event id once
     * (its first arrival), have strictly increasing offsets: no reordering within a shard.
     */
    void assertOrderedPerShard() {
        Map<Integer, Long> last = new HashMap<>();
        Set<String> seen = new java.util.HashSet<>();
        for (JsonNode e : acceptedEvents()) {
            if (!seen.add(e.path("id").asText())) {
                continue;
            }
            int shard = e.path("kevyshard").asInt();
            long offset = Long.parseLong(e.path("kevyoffset").asText());
            Long prev = last.put(shard, offset);
            if (prev != null && offset < prev) {
                throw new AssertionError("shard " + shard + ": offset " + offset + " arrived after " + prev);
            }
        }
    }

    @Override
    public void close() {
        if (consumer != null) {
            consumer.close();
        }
        source.close();
        server.close();
        receiver.close();
    }
}
