package io.kevy.bridge.kafka.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.bridge.kafka.support.Bridges;
import io.kevy.bridge.kafka.support.ConnectWorkers;
import io.kevy.bridge.kafka.support.KafkaBroker;
import io.kevy.feed.sidecar.Sidecar;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.TestServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * records/s from a full backlog into Kafka: the sidecar (kevy bridge, [sink.kafka]) against the connector (one
 * distributed worker, tasks.max = 4, JsonConverter without schemas), both starting at the backlog's oldest
 * change of a 4-shard server holding N SETs (N = {@code -Dkevy.connect.bench.changes}, default 200000). One run
 * each, everything in this JVM (server, broker, bridge or worker): a comparison on one machine, not a capacity
 * figure. Runs only with {@code -Dkevy.connect.bench=true} ({@code bench/connect.sh}); prints the figures.
 */
class ConnectBenchIT {
    @TempDir
    Path dir;

    @Test
    void recordsPerSecondThroughTheSidecarAndTheConnector() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("kevy.connect.bench"), "-Dkevy.connect.bench=true runs it");
        int n = Integer.getInteger("kevy.connect.bench.changes", 200_000);
        int keys = 10_000;
        io.netty.util.ResourceLeakDetector.setLevel(io.netty.util.ResourceLeakDetector.Level.DISABLED);
        KafkaBroker broker = KafkaBroker.shared();
        try (TestServer server = TestServer.start(c -> c.with(ServerOptions.SHARDS, 4)
                .with(ServerOptions.FEED_ENABLED, true))) {
            new KeyedWrites(server, keys, "user:").run(4, n / keys, 100_000_000);

            String tag = "bench-sidecar";
            broker.createTopics(4, Bridges.topics(tag).toArray(new String[0]));
            Path cfg = Bridges.config(dir, server.uri(), broker.bootstrap(), tag, "start_from = \"earliest\"\n", "");
            long t0 = System.nanoTime();
            Sidecar sidecar = Bridges.start(cfg);
            awaitRecords(broker, Bridges.topics(tag), n);
            double sidecarSeconds = (System.nanoTime() - t0) / 1e9;
            assertThat(sidecar.stop()).isTrue();

            String ctag = "bench-connect";
            String topic = ctag + ".user";
            broker.createTopics(4, topic);
            try (ConnectWorkers workers = new ConnectWorkers(broker, ctag, Map.of())) {
                workers.start();
                Map<String, String> config = new HashMap<>();
                config.put("connector.class", KevySourceConnector.class.getName());
                config.put("tasks.max", "4");
                config.put("kevy.uri", server.uri());
                config.put("prefixes", "user:");
                config.put("topic", topic);
                config.put("start.from", "earliest");
                long t1 = System.nanoTime();
                workers.putConnector(ctag, config);
                workers.awaitState(ctag, "RUNNING", 4);
                double startSeconds = (System.nanoTime() - t1) / 1e9;
                awaitRecords(broker, List.of(topic), n);
                double connectSeconds = (System.nanoTime() - t1) / 1e9;
                System.out.printf("ConnectBenchIT: %d changes, 4 shards; sidecar %.2f s = %.0f records/s; connector "
                        + "%.2f s = %.0f records/s (%.2f s of it until the tasks ran: %.0f records/s after)%n", n,
                        sidecarSeconds, n / sidecarSeconds, connectSeconds, n / connectSeconds, startSeconds,
                        n / (connectSeconds - startSeconds));
            }
        }
    }

    private static void awaitRecords(KafkaBroker broker, List<String> topics, long n) {
        try (KafkaConsumer<byte[], byte[]> c = broker.consumer("read_uncommitted")) {
            List<TopicPartition> parts = new ArrayList<>();
            for (String t : topics) {
                c.partitionsFor(t, Duration.ofSeconds(20)).forEach(p -> parts.add(new TopicPartition(t, p.partition())));
            }
            Awaitility.await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(50)).until(() ->
                    c.endOffsets(parts).values().stream().mapToLong(Long::longValue).sum() >= n);
        }
    }
}
