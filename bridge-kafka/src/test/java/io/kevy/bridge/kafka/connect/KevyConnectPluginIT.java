package io.kevy.bridge.kafka.connect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.kevy.bridge.kafka.support.ConnectWorkers;
import io.kevy.bridge.kafka.support.KafkaBroker;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.TestServer;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Writer;
import java.net.ServerSocket;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged plugin: target/kevy-connect-&lt;version&gt;.zip unpacked into a temporary plugin.path, and a
 * Connect worker in its own JVM whose class path has Kafka and the Connect runtime but none of the connector's
 * libraries (not kevy, lettuce, Netty, Reactor, Micrometer, resilience4j ...), so a dependency missing from the
 * zip fails the test. The worker lists the connector, runs it, and its records arrive.
 */
class KevyConnectPluginIT {
    /**
     * Class path entries the worker must not have: the connector's own code (the reactor modules' target/ dirs
     * and jars: failsafe puts the packaged jars on the class path) and its dependencies.
     */
    private static final List<String> NOT_ON_WORKER = List.of("/target/",
            "/io/kevy/", "/io/lettuce/", "/io/netty/", "/io/projectreactor/", "/org/reactivestreams/",
            "/io/micrometer/", "/org/latencyutils/", "/org/hdrhistogram/", "/io/github/resilience4j/",
            "/io/vavr/", "/org/tomlj/", "/org/antlr/", "/info/picocli/", "/org/junit/", "/org/assertj/",
            "/org/awaitility/", "/org/opentest4j/", "/org/apiguardian/", "/net/bytebuddy/", "/org/hamcrest/",
            "/redis/clients/");

    @TempDir
    Path dir;

    @Test
    void theZipOnPluginPathRunsInAWorkerWithoutTheConnectorsLibraries() throws Exception {
        long t0 = System.nanoTime();
        Path zip = zip();
        Path plugins = dir.resolve("plugins");
        unzip(zip, plugins);
        Path lib;
        try (DirectoryStream<Path> top = Files.newDirectoryStream(plugins)) {
            lib = top.iterator().next().resolve("lib");
        }
        List<String> jars = new ArrayList<>();
        try (DirectoryStream<Path> ls = Files.newDirectoryStream(lib)) {
            ls.forEach(p -> jars.add(p.getFileName().toString()));
        }
        assertThat(jars).anyMatch(j -> j.startsWith("bridge-kafka-")).anyMatch(j -> j.startsWith("feed-client-"))
                .anyMatch(j -> j.startsWith("lettuce-core-"))
                .noneMatch(j -> j.startsWith("kafka-clients-") || j.startsWith("connect-"))
                .noneMatch(j -> j.startsWith("slf4j-"))
                .noneMatch(j -> j.startsWith("picocli-") || j.startsWith("tomlj-")
                        || j.startsWith("prometheus-") || j.startsWith("micrometer-registry-prometheus-"));

        KafkaBroker broker = KafkaBroker.shared();
        String tag = "connect-plugin";
        String topic = tag + ".changes";
        broker.createTopics(1, topic);
        int port = freePort();
        Map<String, String> props = new ConnectWorkers(broker, tag, Map.of()).workerProps();
        props.put("listeners", "http://127.0.0.1:" + port);
        props.put("plugin.path", plugins.toString());
        props.put("plugin.discovery", "service_load");
        Path workerProps = dir.resolve("worker.properties");
        try (Writer w = Files.newBufferedWriter(workerProps)) {
            for (Map.Entry<String, String> e : props.entrySet()) {
                w.write(e.getKey() + "=" + e.getValue().replace("\\", "\\\\") + "\n");
            }
        }
        List<String> cp = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (NOT_ON_WORKER.stream().noneMatch(e.replace('\\', '/')::contains)) {
                cp.add(e);
            }
        }
        Path log = dir.resolve("worker.log");
        Process worker = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-cp", String.join(File.pathSeparator, cp), "org.apache.kafka.connect.cli.ConnectDistributed",
                workerProps.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try (TestServer server = TestServer.start(c -> c.with(ServerOptions.SHARDS, 2)
                .with(ServerOptions.FEED_ENABLED, true))) {
            ConnectWorkers rest = ConnectWorkers.external(broker, "http://127.0.0.1:" + port);
            Awaitility.await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                    .ignoreExceptions().until(() -> {
                        assertThat(worker.isAlive()).as("worker alive; log: %s", tail(log)).isTrue();
                        return rest.rest("GET", "/connectors", null).status() == 200;
                    });
            JsonNode listed = null;
            for (JsonNode p : rest.rest("GET", "/connector-plugins", null).body()) {
                if (p.path("class").asText().equals(KevySourceConnector.class.getName())) {
                    listed = p;
                }
            }
            assertThat(listed).as("the worker lists the connector; log: %s", tail(log)).isNotNull();
            assertThat(listed.path("type").asText()).isEqualTo("source");
            assertThat(listed.path("version").asText()).isNotEqualTo("dev");

            RedisCommands<String, String> redis = server.lettuce();
            redis.set("user:1", "a");
            redis.hset("user:2", "f", "v");
            Map<String, String> config = new HashMap<>();
            config.put("connector.class", KevySourceConnector.class.getName());
            config.put("tasks.max", "2");
            config.put("kevy.uri", server.uri());
            config.put("topic", topic);
            config.put("start.from", "rebuild");
            rest.putConnector(tag, config);
            rest.awaitState(tag, "RUNNING", 2);
            // RUNNING comes before the tasks' rebuilds took their cursors: the writes below must follow the
            // rebuild's snapshot records (user:1, user:2), or a rebuild after them sees user:3 and no user:1
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> TopicRecords.read(broker, List.of(topic),
                    "read_uncommitted").records().stream().filter(r -> "r".equals(r.op())).count() >= 2);
            redis.set("user:3", "c");
            redis.del("user:1");
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> TopicRecords.read(broker, List.of(topic),
                    "read_uncommitted").records().size() >= 5);
            TopicRecords recs = TopicRecords.read(broker, List.of(topic), "read_uncommitted");
            Map<String, List<TopicRecords.Rec>> byKey = recs.byKey();
            assertThat(byKey.get("user:2").get(0).op()).isEqualTo("r");
            assertThat(byKey.get("user:3").get(0).dataValue()).isEqualTo("c");
            List<TopicRecords.Rec> one = byKey.get("user:1");
            assertThat(one.get(one.size() - 1).tombstone()).isTrue();
            System.out.printf("KevyConnectPluginIT: %d jars in the plugin, %d records, %.1f s%n", jars.size(),
                    recs.records().size(), (System.nanoTime() - t0) / 1e9);
        } catch (Throwable t) {
            System.err.println("KevyConnectPluginIT: the worker's log ends with:\n" + tail(log));
            throw t;
        } finally {
            worker.destroy();
            if (!worker.waitFor(20, TimeUnit.SECONDS)) {
                worker.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private static Path zip() throws IOException {
        try (DirectoryStream<Path> ls = Files.newDirectoryStream(Path.of("target"), "kevy-connect-*.zip")) {
            for (Path p : ls) {
                return p;
            }
        }
        throw new IllegalStateException("no target/kevy-connect-*.zip: the package phase builds it");
    }

    private static void unzip(Path zip, Path into) throws IOException {
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                Path p = into.resolve(e.getName()).normalize();
                if (!p.startsWith(into)) {
                    throw new IOException("entry outside the target: " + e.getName());
                }
                if (e.isDirectory()) {
                    Files.createDirectories(p);
                } else {
                    Files.createDirectories(p.getParent());
                    try (OutputStream out = Files.newOutputStream(p)) {
                        in.transferTo(out);
                    }
                }
            }
        }
    }

    private static String tail(Path log) {
        try (InputStream in = Files.newInputStream(log)) {
            String s = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            return s.length() > 12000 ? s.substring(s.length() - 12000) : s;
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
