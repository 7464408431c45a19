package io.kevy.bridge.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.bridge.kafka.support.Bridges;
import io.kevy.bridge.kafka.support.Forwarded;
import io.kevy.bridge.kafka.support.KafkaBroker;
import io.kevy.feed.sidecar.Sidecar;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.TestServer;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A forced FEEDRESYNC: the bridge stops with its cursors stored, writes overflow a small backlog, the bridge
 * starts again and gets FEEDRESYNC; each topic partition then holds, after the changes before, an
 * {@code io.kevy.resync.begin} per shard, the snapshot records (op {@code snapshot}) of every live key under the
 * prefixes, and an {@code io.kevy.resync.end} per shard. In both modes (at-least-once and transactional).
 */
class KafkaResyncIT {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "transactional = {0}")
    @ValueSource(booleans = {false, true})
    void aResyncWritesBeginSnapshotsOfEveryLiveKeyAndEnd(boolean transactional) throws Exception {
        KafkaBroker broker = KafkaBroker.shared();
        String tag = "resync-" + transactional;
        try (TestServer server = TestServer.start(c -> c.with(ServerOptions.SHARDS, 4)
                .with(ServerOptions.FEED_ENABLED, true).with(ServerOptions.FEED_BUFFER_SIZE, 16L * 1024))) {
            Path cfg = Bridges.config(dir, server.uri(), broker.bootstrap(), tag, "", transactional
                    ? "transactional = true\ncursor_topic = \"kevy.cursors-" + tag + "\"\n" : "");
            RedisCommands<String, String> redis = server.lettuce();
            Sidecar first = Bridges.start(cfg);
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> first.readiness().ready());
            redis.set("user:before", "1");
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> Forwarded.read(broker,
                    Bridges.topics(tag), "read_committed").size() == 1);
            assertThat(first.stop()).isTrue();
            for (int i = 0; i < 3000; i++) {
                redis.set((i % 3 == 0 ? "user:" : i % 3 == 1 ? "order:" : "other:") + i, "v" + i);
            }
            for (int i = 0; i < 3000; i += 7) {
                redis.del((i % 3 == 0 ? "user:" : i % 3 == 1 ? "order:" : "other:") + i);
            }
            redis.hset("misc:h", "f", "v");
            Set<String> live = new HashSet<>();
            for (String p : List.of("user:*", "order:*", "misc:*")) {
                ScanIterator.scan(redis, ScanArgs.Builder.matches(p).limit(500)).forEachRemaining(live::add);
            }
            Sidecar second = Bridges.start(cfg);
            try {
                Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> Forwarded.read(broker,
                        Bridges.topics(tag), "read_committed").stream().filter(r -> r.type()
                        .equals("io.kevy.resync.end")).count() >= 4L * 3 * partitions(broker, tag));
            } finally {
                assertThat(second.stop()).isTrue();
            }
            List<Forwarded.Rec> recs = Forwarded.read(broker, Bridges.topics(tag), "read_committed");
            Set<String> snapshots = recs.stream().filter(r -> r.op().equals("snapshot")).map(Forwarded.Rec::key)
                    .collect(Collectors.toSet());
            System.out.printf("KafkaResyncIT (transactional = %s): %d live keys, %d snapshot records, %d records%n",
                    transactional, live.size(), snapshots.size(), recs.size());
            assertThat(snapshots).isEqualTo(live);
            assertThat(recs).filteredOn(r -> r.op().equals("snapshot"))
                    .allSatisfy(r -> assertThat(r.topic()).isEqualTo(Bridges.route(tag, r.key())));
            // per partition: begin markers (one per shard), then the snapshots, then end markers (one per shard)
            for (String topic : Bridges.topics(tag)) {
                for (int p = 0; p < partitions(broker, tag); p++) {
                    int part = p;
                    List<String> ops = new ArrayList<>();
                    recs.stream().filter(r -> r.topic().equals(topic) && r.partition() == part).forEach(r -> ops.add(r.op()));
                    int firstBegin = ops.indexOf("resync.begin");
                    int lastEnd = ops.lastIndexOf("resync.end");
                    assertThat(ops.stream().filter("resync.begin"::equals).count()).as("%s-%d begins", topic, p)
                            .isEqualTo(4);
                    assertThat(ops.stream().filter("resync.end"::equals).count()).isEqualTo(4);
                    assertThat(firstBegin).isGreaterThanOrEqualTo(0).isLessThan(lastEnd);
                    assertThat(ops.subList(0, firstBegin)).doesNotContain("snapshot");
                    assertThat(ops.subList(lastEnd, ops.size())).doesNotContain("snapshot", "resync.begin");
                }
            }
            assertThat(recs).filteredOn(r -> r.type().equals("io.kevy.resync.begin")).allSatisfy(r -> {
                assertThat(r.envelope().path("data").path("tail").asLong()).isPositive();
                assertThat(r.headers()).containsEntry("kevy-op", "resync.begin");
            });
            if (transactional) {
                // the cursor admin commands work on the Kafka cursor topic
                java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                picocli.CommandLine cl = io.kevy.feed.sidecar.SidecarMain.commandLine();
                cl.setOut(new java.io.PrintWriter(out, true));
                assertThat(cl.execute("cursor", "show", "--config", cfg.toString(), "--json")).isZero();
                io.kevy.feed.client.StoredCursors shown = io.kevy.feed.client.StoredCursors.fromJson(
                        out.toString().trim().getBytes(java.nio.charset.StandardCharsets.UTF_8), "cursor show");
                assertThat(shown.cursors()).isEqualTo(KafkaBridgeCrashIT.cursors(broker, tag)).hasSize(4);
                assertThat(io.kevy.feed.sidecar.SidecarMain.commandLine().execute("cursor", "reset", "--config",
                        cfg.toString())).isZero();
                assertThat(KafkaBridgeCrashIT.cursors(broker, tag)).isEmpty();
            }
        }
    }

    private static int partitions(KafkaBroker broker, String tag) throws Exception {
        try (Admin a = broker.admin()) {
            return a.describeTopics(List.of(Bridges.topics(tag).get(0))).allTopicNames().get()
                    .get(Bridges.topics(tag).get(0)).partitions().size();
        }
    }
}
