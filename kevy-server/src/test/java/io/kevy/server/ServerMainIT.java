package io.kevy.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.RawClient;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server's command line as a child process: config errors, the start line, SIGTERM. */
class ServerMainIT {
    @TempDir
    Path dir;

    private Process launch(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=info", "-cp", System.getProperty("java.class.path"),
                ServerMain.class.getName()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("out.log").toFile()).start();
    }

    @Test
    void configErrorNamesFileLineKeyAndExitsWithTwo() throws Exception {
        Path toml = dir.resolve("bad.toml");
        Files.writeString(toml, "port = 6004\n[feed]\nfeed_buffer_size = \"3gb\"\n");
        Process p = launch("--config", toml.toString());
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String out = Files.readString(dir.resolve("out.log"), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(out).contains(toml + ":3: feed.feed_buffer_size: feed_buffer_size caps at 1gb per shard");
    }

    /**
     * {@code ./kevy.toml} in the working directory is the config file CONFIG REWRITE writes (as Redis's own file),
     * and neither the file's masterauth nor the one CONFIG SET gave appears in the log.
     */
    @Test
    void configRewriteWritesTheWorkingDirectorysKevyTomlAndLogsNoSecret() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path toml = dir.resolve("kevy.toml");
        Files.writeString(toml, "# ours\n[replication]\nmasterauth = \"first-secret\"  # the primary's\n");
        Process p = launch("--port", Integer.toString(port), "--no-aof", "--dir", dir.resolve("data").toString());
        try {
            Awaitility.await().atMost(30, TimeUnit.SECONDS).ignoreExceptions().untilAsserted(() -> {
                try (RawClient c = RawClient.connect(port)) {
                    assertThat(c.call("PING")).isEqualTo("+PONG\r\n");
                }
            });
            try (RawClient c = RawClient.connect(port)) {
                assertThat(c.call("INFO", "server")).contains("\r\nconfig_file:" + toml.toRealPath() + "\r\n");
                assertThat(c.call("CONFIG", "SET", "masterauth", "second-secret", "replica-priority", "3"))
                        .isEqualTo("+OK\r\n");
                assertThat(c.call("CONFIG", "REWRITE")).isEqualTo("+OK\r\n");
            }
            assertThat(Files.readString(toml)).isEqualTo("# ours\n[replication]\nreplica_priority = 3\n"
                    + "masterauth = \"second-secret\"  # the primary's\n");
            p.destroy(); // SIGTERM
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            String out = Files.readString(dir.resolve("out.log"), StandardCharsets.UTF_8);
            assertThat(out).contains("CONFIG REWRITE wrote").doesNotContain("first-secret")
                    .doesNotContain("second-secret");
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void startsLogsItsStateAndStopsCleanlyOnSigterm() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Process p = launch("--port", Integer.toString(port), "--shards", "3", "--no-aof", "--dir", dir.toString());
        try {
            Awaitility.await().atMost(30, TimeUnit.SECONDS).ignoreExceptions().untilAsserted(() -> {
                try (RawClient c = RawClient.connect(port)) {
                    assertThat(c.call("PING")).isEqualTo("+PONG\r\n");
                }
            });
            p.destroy(); // SIGTERM
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            String out = Files.readString(dir.resolve("out.log"), StandardCharsets.UTF_8);
            assertThat(out).contains("listening on 127.0.0.1:" + port).contains("shards=3").containsPattern(
                    "io_threads=\\d+ \\((io_uring|epoll|nio)\\)")
                    .contains("persistence=no aof").contains("feed=off").contains("kevy-server stopped");
            assertThat(p.exitValue()).isIn(0, 143);
        } finally {
            p.destroyForcibly();
        }
    }
}
