package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kevy.feed.client.support.StoreMirror;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import io.kevy.testing.ServerProcess;
import io.kevy.testing.TestServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Failover by real Redis Sentinels (issue 29): one kevy primary (a child process) and two kevy replicas
 * (in-process) on loopback, three {@code redis-sentinel} processes watching them, a writer and a
 * {@link FeedConsumer} both connected through lettuce's Sentinel URI. The primary is killed with SIGKILL
 * ({@code kill -9}: no shutdown code runs, the kernel closes its sockets); the test requires that the Sentinels
 * promote a replica, that writes through the Sentinel URI succeed again, that the consumer follows the new primary
 * with its cursors (no rebuild: the promoted replica's feed carries the old generation's offsets), and that no
 * write WAIT confirmed is lost.
 */
class SentinelFailoverIT {
    private static final String MASTER = "mymaster";

    @Test
    void sentinelsPromoteAReplicaAndTheConsumerFollowsWithoutARebuild() throws Exception {
        Assumptions.assumeTrue(sentinelInstalled(), "redis-sentinel is not installed (apt-get install redis-sentinel)");
        Path work = Files.createTempDirectory("kevy-sentinel");
        List<Process> sentinels = new ArrayList<>();
        Path r1Toml = work.resolve("r1.toml");
        try (ServerProcess primary = ServerProcess.start(work.resolve("primary"), "--shards", "2", "--feed",
                "--no-aof"); TestServer r1 = replicaFromFile(r1Toml, primary.port()); TestServer r2 = server()) {
            // r1 starts from its TOML (replicaof, and the lowest priority: Sentinel promotes it); r2 has no file
            assertThat(r2.raw().call("REPLICAOF", "127.0.0.1", Integer.toString(primary.port())))
                    .isEqualTo("+OK\r\n");
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                try (RawClient p = primary.raw()) {
                    return p.call("INFO", "replication").contains("connected_slaves:2");
                }
            });
            int[] ports = new int[3];
            for (int i = 0; i < 3; i++) {
                Process sentinel = null;
                for (int attempt = 0; sentinel == null; attempt++) {
                    ports[i] = freePort();
                    sentinel = startSentinel(work, i, ports[i], primary.port());
                    if (!awaitListening(sentinel, ports[i])) { // exited: the port was taken in between
                        assertThat(attempt).as("sentinel %d failed to start: %s", i, log(work, i)).isLessThan(3);
                        sentinel = null;
                    }
                }
                sentinels.add(sentinel);
            }
            for (int p : ports) { // every Sentinel knows both replicas and the two other Sentinels
                await().atMost(Duration.ofSeconds(60)).ignoreExceptionsInstanceOf(UncheckedIOException.class)
                        .untilAsserted(() -> {
                            RawClient s = RawClient.connect(p);
                            try {
                                assertThat(count(s.call("SENTINEL", "REPLICAS", MASTER))).isEqualTo(2);
                                assertThat(count(s.call("SENTINEL", "SENTINELS", MASTER))).isEqualTo(2);
                            } finally {
                                s.close();
                            }
                        });
            }
            RedisURI uri = RedisURI.Builder.sentinel("127.0.0.1", ports[0], MASTER)
                    .withSentinel("127.0.0.1", ports[1]).withSentinel("127.0.0.1", ports[2])
                    .withTimeout(Duration.ofSeconds(5)).build();
            RedisClient client = RedisClient.create(uri);
            try (FeedSource source = FeedSource.connect(uri); StoreMirror mirror = new StoreMirror();
                 StoreMirror mirrorB = new StoreMirror()) {
                        FeedConsumer<String, String> consumer = FeedConsumer.builder(StringCodec.UTF8).source(source)
                        .name("failover").handler(mirror).startFrom(StartFrom.TAIL).batchSize(64)
                        .retryBackoff(Duration.ofMillis(50), Duration.ofMillis(500)).maxConnectionAttempts(1000)
                        .build();
                consumer.start().toCompletableFuture().get();
                FeedConsumer<String, String> stopped = FeedConsumer.builder(StringCodec.UTF8).source(source)
                        .name("restarted").handler(mirrorB).cursorStore(new MemoryCursorStore())
                        .startFrom(StartFrom.TAIL).batchSize(64)
                        .retryBackoff(Duration.ofMillis(50), Duration.ofMillis(500)).maxConnectionAttempts(1000)
                        .build();
                stopped.start().toCompletableFuture().get();
                Map<String, String> confirmed = new TreeMap<>();
                StatefulRedisConnection<String, String> conn = client.connect();
                RedisCommands<String, String> w = conn.sync();
                for (int i = 0; i < 200; i++) {
                    w.set("k" + i, "v" + i);
                    if (w.waitForReplication(1, 5000) >= 1) {
                        confirmed.put("k" + i, "v" + i);
                    }
                }
                assertThat(confirmed).hasSize(200);
                assertThat(w.waitForReplication(2, 10_000)).isEqualTo(2L); // both replicas hold every write
                await().atMost(Duration.ofSeconds(30)).until(() -> mirror.keys().size() == 200
                        && mirrorB.keys().size() == 200);
                stopped.close(); // its cursors (old generation, at the tail) stay in its store
                long rebuildsBefore = mirror.snapshots.get() + mirror.vanished.get();
                conn.close();

                long t0 = System.nanoTime();
                primary.kill9(); // kill -9: the primary dies (the kernel closes its sockets, nothing is saved)
                TestServer[] promoted = new TestServer[1];
                await().atMost(Duration.ofSeconds(60)).until(() -> {
                    for (TestServer r : List.of(r1, r2)) {
                        if (r.raw().call("ROLE").startsWith("*3\r\n$6\r\nmaster")) {
                            promoted[0] = r;
                            return true;
                        }
                    }
                    return false;
                });
                System.out.printf("SentinelFailoverIT: promoted the replica on port %d %d ms after the primary was "
                        + "killed%n", promoted[0].port(), (System.nanoTime() - t0) / 1_000_000);
                assertThat(promoted[0]).as("replica_priority 10 beats 100").isSameAs(r1);
                // Sentinel's SLAVEOF NO ONE + CONFIG REWRITE: r1's TOML no longer names the dead primary, so a
                // clean restart brings it back as a primary (issue 29's drill lost a WAIT-confirmed write so)
                await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(Files.readString(r1Toml))
                        .doesNotContain("replicaof").contains("# r1, started from here", "replica_priority = 10"));

                // writes through the Sentinel URI succeed again (lettuce asks the Sentinels for the new primary)
                RedisCommands<String, String> w2 = await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
                        .until(() -> {
                            StatefulRedisConnection<String, String> c = client.connect();
                            c.sync().set("after:0", "x");
                            return c.sync();
                        }, c -> true);
                for (int i = 1; i < 50; i++) {
                    w2.set("after:" + i, "x");
                }
                for (Map.Entry<String, String> e : confirmed.entrySet()) {
                    assertThat(w2.get(e.getKey())).as("confirmed write %s", e.getKey()).isEqualTo(e.getValue());
                }
                await().atMost(Duration.ofSeconds(60)).until(() -> mirror.keys().size() == 250);
                assertThat(mirror.snapshots.get() + mirror.vanished.get()).as("no rebuild").isEqualTo(rebuildsBefore);
                assertThat(consumer.state()).isEqualTo(FeedConsumer.State.RUNNING);
                // the other replica follows the new primary
                TestServer other = promoted[0] == r1 ? r2 : r1;
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(other.raw().call("GET",
                        "after:49")).isEqualTo("$1\r\nx\r\n"));
                assertThat(other.raw().call("INFO", "replication")).as("it resumed from its cursors")
                        .contains("kevy_full_syncs:1\r\n");
                System.out.printf("SentinelFailoverIT: %d confirmed writes kept, %d changes consumed, rebuilds=%d%n",
                        confirmed.size(), mirror.changes.get(), mirror.snapshots.get());
                consumer.close();
                // a consumer stopped before the failover restarts with its stored cursor of the old generation
                FeedConsumer<String, String> later = stopped.toBuilder().build();
                later.start().toCompletableFuture().get();
                await().atMost(Duration.ofSeconds(60)).until(() -> mirrorB.keys().size() == 250);
                assertThat(mirrorB.snapshots.get() + mirrorB.vanished.get()).as("no rebuild after a restart")
                        .isEqualTo(0);
                assertThat(mirrorB.changes.get()).isEqualTo(250);
                later.close();
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        } finally {
            for (Process p : sentinels) {
                p.destroyForcibly().waitFor();
            }
            for (int i = 0; i < 3; i++) {
                Path log = work.resolve("sentinel-" + i + ".log");
                if (Files.exists(log)) {
                    List<String> lines = Files.readAllLines(log);
                    System.out.println("--- sentinel " + i + " (last lines)");
                    lines.subList(Math.max(0, lines.size() - 25), lines.size()).forEach(System.out::println);
                }
            }
        }
    }

    private static TestServer server() {
        return TestServer.start(c -> c.with(ServerOptions.SHARDS, 2).with(ServerOptions.FEED_ENABLED, true));
    }

    /** A replica started from a TOML file that names the primary, as a user's would. */
    private static TestServer replicaFromFile(Path toml, int primaryPort) throws IOException {
        Files.writeString(toml, "# r1, started from here\n[feed]\nenabled = true\n\n[replication]\n"
                + "replicaof = \"127.0.0.1 " + primaryPort + "\"   # Sentinel's CONFIG REWRITE keeps this in step\n"
                + "replica_priority = 10\n");
        return TestServer.fromFile(toml, c -> c.with(ServerOptions.SHARDS, 2));
    }

    private static Process startSentinel(Path work, int i, int port, int primaryPort) throws IOException {
        Path conf = work.resolve("sentinel-" + i + ".conf");
        Files.writeString(conf, String.join("\n",
                "port " + port,
                "bind 127.0.0.1",
                "daemonize no",
                "dir " + work,
                "logfile " + work.resolve("sentinel-" + i + ".log"),
                "sentinel monitor " + MASTER + " 127.0.0.1 " + primaryPort + " 2",
                "sentinel down-after-milliseconds " + MASTER + " 1000",
                "sentinel failover-timeout " + MASTER + " 10000",
                "sentinel parallel-syncs " + MASTER + " 1", ""));
        return new ProcessBuilder("redis-sentinel", conf.toString()).redirectErrorStream(true)
                .redirectOutput(work.resolve("sentinel-" + i + ".out").toFile()).start();
    }

    /**
     * Waits until the Sentinel accepts connections (it binds its port a moment after the process starts).
     *
     * @return {@code true} once it listens, {@code false} if the process exited first
     */
    private static boolean awaitListening(Process sentinel, int port) {
        return await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
            if (!sentinel.isAlive()) {
                return false;
            }
            try (Socket s = new Socket("127.0.0.1", port)) {
                return true;
            } catch (IOException refused) {
                return null;
            }
        }, listening -> listening != null);
    }

    private static String log(Path work, int i) throws IOException {
        Path log = work.resolve("sentinel-" + i + ".log");
        Path out = work.resolve("sentinel-" + i + ".out");
        return (Files.exists(log) ? Files.readString(log) : "") + (Files.exists(out) ? Files.readString(out) : "");
    }

    /** True when a {@code redis-sentinel} executable is on the PATH (README: such tests skip without it). */
    private static boolean sentinelInstalled() {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "redis-sentinel"))) {
                return true;
            }
        }
        return false;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** The element count of an array reply's first line ({@code *N}). */
    private static int count(String reply) {
        assertThat(reply).startsWith("*");
        return Integer.parseInt(reply.substring(1, reply.indexOf('\r')));
    }
}
