package io.kevy.bridge.kafka.connect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.kevy.bridge.kafka.support.ConnectWorkers;
import io.kevy.bridge.kafka.support.KafkaBroker;
import io.kevy.feed.client.Cursor;
import io.kevy.feed.client.FeedSource;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.TestServer;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * One distributed worker. First the config checks through the REST API (a bad value is an error on its field);
 * then a rebuild at start (snapshot records, op r) and a forced FEEDRESYNC: the connector is paused while the
 * writes overflow a 16 KiB backlog and some keys are deleted; after the resume the task rebuilds: snapshot
 * records of every live key, tombstones for the keys it had written that are gone, and the topic's last record
 * per key equals the server's state, and Connect's stored offset of each shard is the cursor reading continued
 * from. The values go through JsonConverter with schemas.enable=true.
 */
class KevyConnectResyncIT {
    @Test
    void badConfigIsAnErrorOnItsFieldAndAResyncRebuildsWithSnapshotsAndTombstones() throws Exception {
        long t0 = System.nanoTime();
        KafkaBroker broker = KafkaBroker.shared();
        String tag = "connect-resync";
        String topic = tag + ".changes";
        broker.createTopics(2, topic);
        try (TestServer server = TestServer.start(c -> c.with(ServerOptions.SHARDS, 2)
                .with(ServerOptions.FEED_ENABLED, true).with(ServerOptions.FEED_BUFFER_SIZE, 16L * 1024));
                ConnectWorkers workers = new ConnectWorkers(broker, tag, Map.of())) {
            workers.start();
            checkValidation(workers, server);

            RedisCommands<String, String> redis = server.lettuce();
            for (int i = 0; i < 300; i++) {
                redis.set((i % 2 == 0 ? "user:" : "order:") + i, "v" + i);
                redis.set("other:" + i, "x");
            }
            Map<String, String> config = new HashMap<>();
            config.put("connector.class", KevySourceConnector.class.getName());
            config.put("tasks.max", "2");
            config.put("kevy.uri", server.uri());
            config.put("prefixes", "user:,order:");
            config.put("topic", topic);
            config.put("start.from", "rebuild");
            config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
            config.put("value.converter.schemas.enable", "true");
            workers.putConnector(tag, config);
            workers.awaitState(tag, "RUNNING", 2);
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> TopicRecords.read(broker, List.of(topic),
                    "read_uncommitted").records().stream().filter(r -> "r".equals(r.op())).count() >= 300);
            TopicRecords start = TopicRecords.read(broker, List.of(topic), "read_uncommitted");
            assertThat(start.records()).allSatisfy(r -> {
                assertThat(r.op()).isEqualTo("r");
                assertThat(r.value().path("data").path("op").asText()).isEqualTo("r");
                assertThat(r.value().path("type").asText()).isEqualTo("io.kevy.change.snapshot");
                assertThat(r.dataValue()).isEqualTo("v" + r.key().substring(r.key().indexOf(':') + 1));
            });
            assertThat(start.records()).hasSize(300);

            assertThat(workers.rest("PUT", "/connectors/" + tag + "/pause", null).status()).isEqualTo(202);
            workers.awaitState(tag, "PAUSED", 2);
            Set<String> deleted = new HashSet<>();
            for (int i = 0; i < 300; i += 3) {
                String k = (i % 2 == 0 ? "user:" : "order:") + i;
                redis.del(k);
                deleted.add(k);
            }
            for (int i = 0; i < 3000; i++) {
                redis.set((i % 2 == 0 ? "user:n" : "order:n") + (i % 500), "w" + i);
            }
            assertThat(workers.rest("PUT", "/connectors/" + tag + "/resume", null).status()).isEqualTo(202);
            workers.awaitState(tag, "RUNNING", 2);
            Set<String> live = new HashSet<>(redis.keys("user:*"));
            live.addAll(redis.keys("order:*"));
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() -> {
                TopicRecords now = TopicRecords.read(broker, List.of(topic), "read_uncommitted");
                Set<String> tombstoned = now.records().stream().filter(TopicRecords.Rec::tombstone)
                        .map(TopicRecords.Rec::key).collect(Collectors.toSet());
                long snaps = now.since(start).stream().filter(r -> "r".equals(r.op())).count();
                return tombstoned.containsAll(deleted) && snaps >= live.size();
            });
            TopicRecords all = TopicRecords.read(broker, List.of(topic), "read_uncommitted");
            List<TopicRecords.Rec> after = all.since(start);
            Set<String> resnapshotted = after.stream().filter(r -> "r".equals(r.op())).map(TopicRecords.Rec::key)
                    .collect(Collectors.toSet());
            assertThat(resnapshotted).as("the rebuild after FEEDRESYNC snapshots every live key").isEqualTo(live);
            // a deleted key's tombstone follows its DEL record when the task read the DEL before the backlog
            // overflowed, else the sweep's VANISHED entry
            Set<String> tombstoned = after.stream().filter(TopicRecords.Rec::tombstone).map(TopicRecords.Rec::key)
                    .collect(Collectors.toSet());
            assertThat(tombstoned).as("tombstones: the deleted keys").isEqualTo(deleted);
            long vanished = after.stream().filter(r -> "vanished".equals(r.op()) && r.tombstone()).count();
            assertThat(vanished).as("the sweep tombstoned keys").isPositive();
            Map<String, List<TopicRecords.Rec>> byKey = all.byKey();
            for (Map.Entry<String, List<TopicRecords.Rec>> e : byKey.entrySet()) {
                TopicRecords.Rec last = e.getValue().get(e.getValue().size() - 1);
                String value = redis.get(e.getKey());
                if (value == null) {
                    assertThat(last.tombstone()).as("last record of deleted %s", e.getKey()).isTrue();
                } else {
                    assertThat(last.dataValue()).as("last record of %s", e.getKey()).isEqualTo(value);
                }
            }
            assertThat(byKey.keySet()).containsAll(live);
            // the offset committed after the rebuild is the cursor reading continued from: with no writes since,
            // each shard's tail, without the snapshot mark
            try (FeedSource source = FeedSource.connect(server.uri())) {
                for (int shard = 0; shard < 2; shard++) {
                    Cursor tail = source.tail(shard).toCompletableFuture().get(10, TimeUnit.SECONDS);
                    int s = shard;
                    Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                            .untilAsserted(() -> {
                                JsonNode o = offset(workers, tag, s);
                                assertThat(o.path("generation").asLong()).isEqualTo(tail.generation());
                                assertThat(o.path("offset").asLong()).isEqualTo(tail.offset());
                                assertThat(o.path("shards").asInt()).isEqualTo(2);
                                assertThat(o.has("snapshot")).isFalse();
                            });
                }
            }
            System.out.printf("KevyConnectResyncIT: %d live keys, %d deleted (%d swept), %d records after the resync, "
                    + "%.1f s%n", live.size(), deleted.size(), vanished, after.size(), (System.nanoTime() - t0) / 1e9);
        }
    }

    /** Connect's stored offset of {@code shard} (GET /connectors/name/offsets), or a missing node. */
    private static JsonNode offset(ConnectWorkers workers, String name, int shard) {
        for (JsonNode o : workers.rest("GET", "/connectors/" + name + "/offsets", null).body().path("offsets")) {
            if (o.path("partition").path("shard").asInt(-1) == shard) {
                return o.path("offset");
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    /** Bad values are errors on their fields, through the worker's REST API; a connector with one is refused. */
    private static void checkValidation(ConnectWorkers workers, TestServer server) {
        Map<String, String> bad = new HashMap<>();
        bad.put("name", "bad-config");
        bad.put("connector.class", KevySourceConnector.class.getName());
        bad.put("kevy.uri", "http://127.0.0.1:1");
        bad.put("batch.size", "0");
        bad.put("topic.routes", "user:");
        bad.put("start.from", "yesterday");
        bad.put("kevy.password", "s3cret-pw");
        ConnectWorkers.Answer a = workers.rest("PUT", "/connector-plugins/KevySourceConnector/config/validate", bad);
        assertThat(a.status()).isEqualTo(200);
        Map<String, String> errors = new HashMap<>();
        for (JsonNode c : a.body().path("configs")) {
            JsonNode v = c.path("value");
            if (!v.path("errors").isEmpty()) {
                errors.put(v.path("name").asText(), v.path("errors").get(0).asText());
            }
        }
        assertThat(a.body().path("error_count").asInt()).isEqualTo(4);
        assertThat(errors).containsOnlyKeys("kevy.uri", "batch.size", "topic.routes", "start.from");
        assertThat(errors.get("batch.size")).contains("at least 1");
        assertThat(errors.get("kevy.uri")).contains("redis://");
        assertThat(errors.get("topic.routes")).contains("not a prefix=topic pair");
        assertThat(errors.get("start.from")).contains("rebuild");
        assertThat(a.body().toString()).doesNotContain("s3cret-pw");

        bad.put("kevy.uri", server.uri());
        ConnectWorkers.Answer create = workers.rest("PUT", "/connectors/bad-config/config", bad);
        assertThat(create.status()).isEqualTo(400);
        assertThat(create.body().path("message").asText()).contains("batch.size");
        assertThat(workers.rest("GET", "/connectors/bad-config", null).status()).isEqualTo(404);
    }
}
