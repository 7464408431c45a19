package io.kevy.examples.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.bridge.kafka.support.KafkaBroker;
import io.kevy.feed.sidecar.Sidecar;
import io.kevy.feed.sidecar.SidecarConfig;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.TestServer;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The example end to end with a real (in-process) Kafka broker: kevy, the bridge running this example's
 * {@code bridge.toml} (its source and bootstrap pointed at the test's server and broker), and the consumer
 * reading {@code kevy.pkg}; its view ends equal to the server's {@code pkg:*} hashes.
 */
class KafkaSidecarIT {
    @Test
    void theConsumersViewFollowsTheServerThroughTheBridge(@TempDir Path dir) throws Exception {
        KafkaBroker broker = KafkaBroker.shared();
        try (TestServer server = TestServer.start(c -> c.with(ServerOptions.FEED_ENABLED, true))) {
            RedisCommands<String, String> redis = server.lettuce();
            redis.hset("pkg:before", Map.of("name", "before", "version", "1"));
            String toml = Files.readString(Path.of("bridge.toml"), StandardCharsets.UTF_8)
                    .replace("redis://kevy:6004", server.uri())
                    .replace("kafka:9092", broker.bootstrap())
                    .replace("port = 8686", "port = 0")
                    .replace("name = \"kevy-to-kafka\"", "name = \"kafka-sidecar-it\"");
            Path config = dir.resolve("bridge.toml");
            Files.writeString(config, toml);
            ChangeTopicConsumer consumer = new ChangeTopicConsumer();
            StringWriter out = new StringWriter();
            CompletableFuture<Integer> running;
            try (Sidecar bridge = Sidecar.start(SidecarConfig.load(config, Map.of()))) {
                // the first start rebuilds (pkg:before as a snapshot); the writes below then arrive as changes
                assertThat(bridge.consumer().awaitCaughtUp(Duration.ofSeconds(60))).isTrue();
                running = CompletableFuture.supplyAsync(() -> new CommandLine(consumer)
                        .setOut(new PrintWriter(out, true)).execute("--bootstrap", broker.bootstrap(),
                                "--topic", "kevy.pkg", "--group", "kafka-sidecar-it"));
                for (int i = 0; i < 50; i++) {
                    redis.hset("pkg:p" + i, Map.of("name", "p" + i, "version", "1.0-" + i));
                }
                redis.hset("pkg:p1", "version", "2.0");
                redis.hdel("pkg:p2", "version");
                redis.del("pkg:p3");
                redis.rename("pkg:p4", "pkg:p4-renamed");
                redis.set("user:1", "not forwarded to kevy.pkg");
                Map<String, Map<String, String>> expected = new TreeMap<>();
                for (String k : redis.keys("pkg:*")) {
                    expected.put(k, new HashMap<>(redis.hgetall(k)));
                }
                Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
                    synchronized (consumer.view) {
                        return consumer.view.hashes().equals(expected);
                    }
                });
                consumer.stop.countDown();
                assertThat(running.get()).isZero();
            }
            assertThat(out.toString()).contains("kevy.pkg/").contains(" snapshot pkg:before ")
                    .contains(" hset pkg:p1 version=2.0").contains(" del pkg:p3").contains("keys in the view");
        }
    }
}
