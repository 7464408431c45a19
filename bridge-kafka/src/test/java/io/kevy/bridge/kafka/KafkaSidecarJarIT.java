package io.kevy.bridge.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.bridge.kafka.support.Bridges;
import io.kevy.bridge.kafka.support.Expected;
import io.kevy.bridge.kafka.support.Forwarded;
import io.kevy.bridge.kafka.support.KafkaBroker;
import io.kevy.feed.client.CursorStore;
import io.kevy.feed.client.StoredCursors;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -jar kevy-bridge-kafka.jar} as a child process: config errors exit 2 naming file, line, key and
 * reason; SIGTERM in the middle of a backlog drains (in-flight batches finish, cursors committed) and exits 0
 * within the shutdown timeout, with every change below the committed cursors in Kafka; the source password given
 * through the environment never appears in the output.
 */
class KafkaSidecarJarIT {
    private static final String PASSWORD = "s3cret-pa55word";

    @TempDir
    Path dir;

    private record Run(int status, String output) {
    }

    private Run run(String toml, String... extraArgs) throws Exception {
        Path cfg = dir.resolve("bad.toml");
        Files.writeString(cfg, toml);
        Path log = dir.resolve("run.log");
        Files.deleteIfExists(log);
        String[] args = new String[extraArgs.length + 2];
        args[0] = "--config";
        args[1] = cfg.toString();
        System.arraycopy(extraArgs, 0, args, 2, extraArgs.length);
        Process p = Bridges.startJar(log, Map.of("KEVY_BRIDGE_SOURCE_PASSWORD", PASSWORD), args);
        int status = Bridges.await(p, 60);
        return new Run(status, Files.readString(log));
    }

    @Test
    void configErrorsExitTwoWithFileLineKeyAndReason() throws Exception {
        String base = "[source]\nuri = \"redis://127.0.0.1:1\"\n[sink.kafka]\nbootstrap_servers = \"127.0.0.1:1\"\n";
        Run r = run(base + "topik = \"x\"\n");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.output()).contains("bad.toml:5: sink.kafka.topik: unknown key (known in [sink.kafka]: "
                + "bootstrap_servers, topic");
        r = run(base + "compression = \"brotli\"\n");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.output()).contains("bad.toml:5: sink.kafka.compression: must be one of none, gzip, snappy, lz4, "
                + "zstd, got 'brotli'");
        r = run(base + "[sink.kafka.producer]\n\"linger.mss\" = 5\n");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.output()).contains("bad.toml:5: sink.kafka.producer: \"linger.mss\" is not a Kafka producer "
                + "property");
        r = run(base + "[sink.kafka.producer]\n\"enable.idempotence\" = false\n");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.output()).contains("\"enable.idempotence\" is set by the bridge");
        r = run("[sink.kafka]\ntopic = \"t\"\n");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.output()).contains("sink.kafka.bootstrap_servers is required");
        r = run(base + "[consumer]\nbatch_size = 100000\n");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.output()).contains("bad.toml:6: consumer.batch_size: must be between 1 and 4096, got 100000");
        r = run(base + "[[sink.kafka.routes]]\nprefix = \"a:\"\ntopic = \"t1\"\n[[sink.kafka.routes]]\nprefix = "
                + "\"a:\"\ntopic = \"t2\"\n");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.output()).contains("bad.toml:9: sink.kafka.routes.prefix: prefix \"a:\" has two routes");
        r = run(base + "[cursor]\nstore = \"file\"\n[sink.kafka.x]\n");
        assertThat(r.status()).isEqualTo(2);
        r = run(base, "--check");
        assertThat(r.status()).isZero();
        assertThat(r.output()).contains("source.password = ****  (environment variable KEVY_BRIDGE_SOURCE_PASSWORD)")
                .doesNotContain(PASSWORD);
    }

    @Test
    void sigtermDrainsCommitsAndExitsZeroWithoutLoggingSecrets() throws Exception {
        KafkaBroker broker = KafkaBroker.shared();
        String tag = "sigterm";
        try (TestServer server = TestServer.start(c -> c.with(ServerOptions.SHARDS, 4)
                .with(ServerOptions.FEED_ENABLED, true).with(ServerOptions.REQUIREPASS, PASSWORD))) {
            // a backlog first (the bridge starts from the earliest change)
            io.lettuce.core.RedisClient client = io.lettuce.core.RedisClient.create(io.lettuce.core.RedisURI.builder()
                    .withHost("127.0.0.1").withPort(server.port()).withPassword(PASSWORD.toCharArray()).build());
            try (var conn = client.connect()) {
                var async = conn.async();
                List<io.lettuce.core.RedisFuture<String>> fs = new java.util.ArrayList<>();
                for (int i = 0; i < 40_000; i++) {
                    fs.add(async.set((i % 2 == 0 ? "user:" : "order:") + (i % 5000), "v" + i));
                }
                for (var f : fs) {
                    f.get();
                }
            } finally {
                client.shutdown();
            }
            Path cfg = Bridges.config(dir, server.uri(), broker.bootstrap(), tag,
                    "start_from = \"earliest\"\nbatch_size = 32\nshutdown_timeout_ms = 20000\n", "");
            Path log = dir.resolve("bridge.log");
            Process p = Bridges.startJar(log, Map.of("KEVY_BRIDGE_SOURCE_PASSWORD", PASSWORD), "--config",
                    cfg.toString());
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> Forwarded.read(broker, Bridges.topics(tag),
                    "read_uncommitted").size() > 2000);
            long t0 = System.nanoTime();
            p.destroy();
            int status = Bridges.await(p, 30);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            String out = Files.readString(log);
            System.out.println("KafkaSidecarJarIT: SIGTERM → exit " + status + " in " + ms + " ms");
            assertThat(status).as("exit status after SIGTERM; log:%n%s", out).isZero();
            assertThat(out).contains("stopped cleanly").doesNotContain(PASSWORD);
            try (var left = Files.list(Bridges.tmpDir(log))) {
                assertThat(left).as("temporary files the JVM deletes on a normal exit (lz4-java's native library): "
                        + "a halt in the shutdown would leave them").isEmpty();
            }
            StoredCursors stored = CursorStore.file(dir.resolve("cursors-" + tag + ".json")).load("bridge-" + tag)
                    .orElseThrow();
            Map<String, Expected.Item> expected = Expected.of("redis://:" + PASSWORD + "@127.0.0.1:" + server.port(),
                    "user:", "order:", "misc:");
            Set<String> forwarded = Forwarded.read(broker, Bridges.topics(tag), "read_uncommitted").stream()
                    .map(Forwarded.Rec::id).collect(Collectors.toSet());
            long below = 0;
            for (String id : expected.keySet()) {
                String[] parts = id.split(":");
                if (Long.parseLong(parts[2]) < stored.cursor(Integer.parseInt(parts[0])).offset()) {
                    below++;
                    assertThat(forwarded).as("change %s is below the committed cursor", id).contains(id);
                }
            }
            System.out.printf("KafkaSidecarJarIT: %d of %d changes below the committed cursors, all in Kafka%n", below,
                    expected.size());
            assertThat(below).isPositive().isLessThan(expected.size());
        }
    }
}
