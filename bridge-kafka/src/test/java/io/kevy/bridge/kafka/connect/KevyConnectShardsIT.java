package io.kevy.bridge.kafka.connect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.kevy.bridge.kafka.support.ConnectWorkers;
import io.kevy.bridge.kafka.support.KafkaBroker;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.TestServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * A changed shard count: the kevy server on a fixed port is replaced by one with 4 shards instead of 2; the
 * connector sees FEED.SHARDS change, reconfigures its tasks (2 become 4), and the new tasks rebuild (their
 * offsets name 2 shards): every key of the new server reaches the topic, and the stored offsets name 4 shards.
 */
class KevyConnectShardsIT {
    @Test
    void aChangedShardCountReconfiguresTheTasksAndRebuilds() throws Exception {
        long t0 = System.nanoTime();
        KafkaBroker broker = KafkaBroker.shared();
        String tag = "connect-shards";
        String topic = tag + ".changes";
        broker.createTopics(2, topic);
        int port = freePort();
        try (ConnectWorkers workers = new ConnectWorkers(broker, tag, Map.of())) {
            workers.start();
            Map<String, String> config = new HashMap<>();
            config.put("connector.class", KevySourceConnector.class.getName());
            config.put("tasks.max", "8");
            config.put("kevy.uri", "redis://127.0.0.1:" + port);
            config.put("topic", topic);
            config.put("start.from", "rebuild");
            config.put("shards.poll.interval.ms", "300");
            config.put("retry.backoff.max.ms", "500");
            try (TestServer two = start(port, 2)) {
                two.lettuce().set("a:1", "x");
                workers.putConnector(tag, config);
                workers.awaitState(tag, "RUNNING", 2);
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> TopicRecords.read(broker,
                        List.of(topic), "read_uncommitted").records().size() >= 1);
            }
            Set<String> keys = new HashSet<>();
            try (TestServer four = start(port, 4)) {
                for (int i = 0; i < 200; i++) {
                    four.lettuce().set("b:" + i, "y" + i);
                    keys.add("b:" + i);
                }
                workers.awaitState(tag, "RUNNING", 4);
                Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() ->
                        TopicRecords.read(broker, List.of(topic), "read_uncommitted").byKey().keySet()
                                .containsAll(keys));
                Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                        .untilAsserted(() -> {
                            Set<Integer> shards = new HashSet<>();
                            for (JsonNode o : workers.rest("GET", "/connectors/" + tag + "/offsets", null).body()
                                    .path("offsets")) {
                                if (o.path("offset").path("shards").asInt() == 4) {
                                    shards.add(o.path("partition").path("shard").asInt());
                                }
                            }
                            assertThat(shards).isEqualTo(Set.of(0, 1, 2, 3));
                        });
                TopicRecords recs = TopicRecords.read(broker, List.of(topic), "read_uncommitted");
                Set<String> values = recs.records().stream().filter(r -> r.key().startsWith("b:"))
                        .map(r -> r.key() + "=" + r.dataValue()).collect(Collectors.toSet());
                for (String k : keys) {
                    assertThat(values).contains(k + "=y" + k.substring(2));
                }
                System.out.printf("KevyConnectShardsIT: 2 -> 4 shards, %d records, %.1f s%n", recs.records().size(),
                        (System.nanoTime() - t0) / 1e9);
            }
        }
    }

    private static TestServer start(int port, int shards) {
        return TestServer.start(c -> c.with(ServerOptions.PORT, port).with(ServerOptions.SHARDS, shards)
                .with(ServerOptions.FEED_ENABLED, true));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
