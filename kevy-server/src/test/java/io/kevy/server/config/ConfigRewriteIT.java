package io.kevy.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kevy.server.KevyServer;
import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CONFIG REWRITE against a real server started from a TOML file, as Redis's rewrites its redis.conf: the
 * replication settings are written line by line, every comment stays, and a restart from the file comes up in the
 * role it was left in. The drill of issue 29: a promoted server whose file kept {@code replicaof} came back after
 * a clean restart as a replica of the lagging old primary and lost a write WAIT had confirmed.
 */
class ConfigRewriteIT {
    private static final Duration SYNC = Duration.ofSeconds(30);
    private static final String FILE = """
            # kevy, a replica in the drill
            # (keep this comment)

            [feed]
            enabled = true   # its own consumers read here

            [replication]
            # Sentinel moves the primary; CONFIG REWRITE keeps this file in step
            replica_priority = 100   # the default, written down
            """;

    @TempDir
    Path dir;

    /** A server started the way {@code kevy server --config FILE} is, on a free port and a fresh data dir. */
    private KevyServer start(Path file) throws Exception {
        Path data = Files.createTempDirectory(dir, "data");
        return KevyServer.start(ConfigLoader.load(file, Map.of(), Map.of(ServerOptions.PORT, "0",
                ServerOptions.DIR, data.toString(), ServerOptions.SHARDS, "2", ServerOptions.IO_THREADS, "1",
                ServerOptions.AOF, "false", ServerOptions.SAVE, "")));
    }

    @Test
    void replicaofIsWrittenAndRemovedKeepingTheCommentsAndARestartTakesTheRole() throws Exception {
        Path file = dir.resolve("kevy.toml");
        Files.writeString(file, FILE);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------")); // it holds masterauth
        try (TestServer primary = TestServer.start(c -> c.with(ServerOptions.FEED_ENABLED, true)
                .with(ServerOptions.REQUIREPASS, "s3cret"))) {
            RawClient p = primary.raw();
            assertThat(p.call("AUTH", "s3cret")).isEqualTo("+OK\r\n");
            assertThat(p.call("SET", "k", "v")).isEqualTo("+OK\r\n");
            String replicaof = "127.0.0.1 " + primary.port();

            KevyServer s = start(file);
            try (RawClient r = RawClient.connect(s.port())) {
                assertThat(r.call("CONFIG", "SET", "masterauth", "s3cret", "replica-priority", "7",
                        "replica-announce-ip", "10.9.8.7")).isEqualTo("+OK\r\n");
                assertThat(r.call("REPLICAOF", "127.0.0.1", Integer.toString(primary.port()))).isEqualTo("+OK\r\n");
                assertThat(r.call("CONFIG", "REWRITE")).isEqualTo("+OK\r\n");
            } finally {
                s.close();
            }
            assertThat(Files.readString(file)).isEqualTo(FILE
                    .replace("[replication]\n", "[replication]\nreplicaof = \"" + replicaof + "\"\n"
                            + "masterauth = \"s3cret\"\nreplica_announce_ip = \"10.9.8.7\"\n")
                    .replace("replica_priority = 100 ", "replica_priority = 7 "));
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
            assertThat(dir.resolve("kevy.toml.tmp")).doesNotExist();

            // restarted from the file: a replica of the primary, authenticated with the file's masterauth
            s = start(file);
            try (RawClient r = RawClient.connect(s.port())) {
                await().atMost(SYNC).untilAsserted(() -> assertThat(r.call("GET", "k")).isEqualTo("$1\r\nv\r\n"));
                assertThat(r.call("INFO", "replication")).contains("role:slave\r\nmaster_host:127.0.0.1\r\n"
                        + "master_port:" + primary.port() + "\r\n").contains("\r\nslave_priority:7\r\n");
                assertThat(p.call("ROLE")).contains("$8\r\n10.9.8.7\r\n");
                // promoted (Sentinel's SLAVEOF NO ONE + CONFIG REWRITE): the file loses replicaof, keeps the rest
                assertThat(r.call("REPLICAOF", "NO", "ONE")).isEqualTo("+OK\r\n");
                assertThat(r.call("CONFIG", "SET", "replica-priority", "100")).isEqualTo("+OK\r\n");
                assertThat(r.call("CONFIG", "REWRITE")).isEqualTo("+OK\r\n");
            } finally {
                s.close();
            }
            assertThat(Files.readString(file)).isEqualTo(FILE.replace("[replication]\n", "[replication]\n"
                    + "masterauth = \"s3cret\"\nreplica_announce_ip = \"10.9.8.7\"\n"));

            s = start(file);
            try (RawClient r = RawClient.connect(s.port())) {
                assertThat(r.call("INFO", "replication")).startsWith("$").contains("\r\nrole:master\r\n");
                assertThat(r.call("SET", "own", "1")).isEqualTo("+OK\r\n");
            } finally {
                s.close();
            }
        }
    }

    @Test
    void aRewriteTheFileCannotTakeAnswersAnErrorAndChangesNothing() throws Exception {
        Path file = dir.resolve("inline.toml");
        String inline = "# inline tables cannot be rewritten line by line\nreplication = { replica_priority = 5 }\n";
        Files.writeString(file, inline);
        KevyServer s = start(file);
        try (RawClient r = RawClient.connect(s.port())) {
            assertThat(r.call("CONFIG", "SET", "replica-priority", "6")).isEqualTo("+OK\r\n");
            assertThat(r.call("CONFIG", "REWRITE")).isEqualTo("-ERR Rewriting config file: " + file
                    + ":2: replication.replica_priority: its value does not sit on this line alone (a multi-line "
                    + "value, an inline table { ... }, or several keys); CONFIG REWRITE rewrites `key = value` lines: "
                    + "write it on one line\r\n");
            assertThat(Files.readString(file)).isEqualTo(inline);
        } finally {
            s.close();
        }
        Path plain = dir.resolve("plain.toml");
        Files.writeString(plain, "[feed]\nenabled = true\n");
        s = start(plain);
        try (RawClient r = RawClient.connect(s.port())) {
            // REPLICAOF takes port 0 (Redis does); the TOML does not, so the file keeps what it had
            assertThat(r.call("REPLICAOF", "127.0.0.1", "0")).isEqualTo("+OK\r\n");
            assertThat(r.call("CONFIG", "REWRITE")).isEqualTo("-ERR Rewriting config file: replication.replicaof: "
                    + "port 0 is outside 1..65535\r\n");
            assertThat(Files.readString(plain)).isEqualTo("[feed]\nenabled = true\n");
        } finally {
            s.close();
        }
    }

    /**
     * Without a config file, Redis 7.0's error; inside Sentinel's failover transaction that error is one reply of
     * EXEC's and the other commands run (Sentinel discards the replies and reads the outcome from INFO).
     */
    @Test
    void withoutAConfigFileSentinelsFailoverTransactionStillPromotes() {
        try (TestServer primary = TestServer.start(ServerOptions.FEED_ENABLED, true);
                TestServer replica = TestServer.start(c -> c.with(ServerOptions.FEED_ENABLED, true)
                        .with(ServerOptions.REPLICAOF, "127.0.0.1 " + primary.port()))) {
            RawClient r = replica.raw();
            await().atMost(SYNC).until(() -> r.call("INFO", "replication").contains("master_link_status:up"));
            assertThat(r.call("CONFIG", "REWRITE")).isEqualTo("-ERR The server is running without a config file\r\n");
            assertThat(r.call("MULTI")).isEqualTo("+OK\r\n");
            for (String[] cmd : new String[][] {{"SLAVEOF", "NO", "ONE"}, {"CONFIG", "REWRITE"},
                    {"CLIENT", "KILL", "TYPE", "normal"}, {"CLIENT", "KILL", "TYPE", "pubsub"}}) {
                assertThat(r.call(cmd)).isEqualTo("+QUEUED\r\n");
            }
            assertThat(r.call("EXEC")).isEqualTo("*4\r\n+OK\r\n-ERR The server is running without a config file\r\n"
                    + ":0\r\n:0\r\n");
            assertThat(r.call("ROLE")).startsWith("*3\r\n$6\r\nmaster\r\n");
        }
    }
}
