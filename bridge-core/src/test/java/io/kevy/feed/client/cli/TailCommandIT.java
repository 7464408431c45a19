package io.kevy.feed.client.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.kevy.feed.client.envelope.ChangeEnvelopes;
import io.kevy.feed.client.support.Servers;
import io.kevy.testing.RawClient;
import io.kevy.testing.RedisOracle;
import io.kevy.testing.TestServer;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** {@code kevy tail}: JSON lines, binary-safe, prefixes, --from rebuild, RESP output, and Ctrl-C. */
class TailCommandIT {
    private static final class Run implements AutoCloseable {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final CompletableFuture<Void> stop = new CompletableFuture<>();
        final CompletableFuture<Integer> exit;

        Run(String... args) {
            PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
            PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
            exit = CompletableFuture.supplyAsync(() -> TailCommand.run(args, o, e, stop));
        }

        String out() {
            synchronized (out) {
                return out.toString(StandardCharsets.UTF_8);
            }
        }

        List<String> lines() {
            String s = out();
            return s.isEmpty() ? List.of() : List.of(s.split("\n"));
        }

        @Override
        public void close() throws Exception {
            stop.complete(null);
            exit.get(30, TimeUnit.SECONDS);
        }
    }

    private static JsonNode json(String line) throws Exception {
        return ChangeEnvelopes.mapper().readTree(line);
    }

    @Test
    void printsChangesAsJsonLinesBinarySafeAndFiltered() throws Exception {
        try (TestServer server = Servers.start(); RawClient raw = server.raw()) {
            // from offset 0: the writes below are in the backlog whenever the tail's first read comes (started
            // from the tail it raced them, and lost under load)
            try (Run run = new Run("--uri", server.uri(), "--prefix", "user:", "--from", "0")) {
                raw.call("SET", "order:1", "x");
                raw.call("SET", "user:1", "ada");
                raw.send("*3\r\n$3\r\nSET\r\n$6\r\nuser:2\r\n$2\r\n\u00ff\u0000\r\n".getBytes(StandardCharsets.ISO_8859_1));
                raw.readReplyBytes();
                raw.call("MSET", "user:3", "a", "order:2", "b");
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> run.lines().size() >= 3);
                java.util.Map<String, JsonNode> bySubject = new java.util.HashMap<>();
                for (String l : run.lines()) {
                    bySubject.put(json(l).get("subject").asText(), json(l));
                }
                assertThat(bySubject).containsOnlyKeys("user:1", "user:2", "user:3");
                JsonNode first = bySubject.get("user:1");
                assertThat(first.get("type").asText()).isEqualTo("io.kevy.change.set");
                assertThat(first.get("data").get("value").asText()).isEqualTo("ada");
                assertThat(bySubject.get("user:2").get("data").get("value").get("base64").asText()).isEqualTo("/wA=");
                JsonNode mset = bySubject.get("user:3");
                assertThat(mset.get("data").get("key").asText()).isEqualTo("user:3");
                assertThat(mset.get("data").has("keys")).as("the exact filter kept one pair").isFalse();
            }
        }
    }

    @Test
    void fromRebuildPrintsSnapshotsThenChangesAndRespReplays() throws Exception {
        try (TestServer server = Servers.start(); RawClient raw = server.raw()) {
            raw.call("HSET", "h", "f", "v");
            raw.call("SET", "s", "1");
            try (Run run = new Run("--uri", server.uri(), "--from", "rebuild")) {
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> run.lines().size() >= 2);
                assertThat(run.lines()).extracting(l -> json(l).get("type").asText())
                        .containsOnly("io.kevy.change.snapshot");
                raw.call("DEL", "s");
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> run.lines().size() >= 3);
                assertThat(json(run.lines().get(2)).get("type").asText()).isEqualTo("io.kevy.change.del");
            }
            try (Run run = new Run("--uri", server.uri(), "--from", "0", "--format", "resp")) {
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> run.out().contains("DEL"));
                assertThat(run.out()).contains("*4\r\n$4\r\nHSET\r\n$1\r\nh\r\n$1\r\nf\r\n$1\r\nv\r\n")
                        .contains("*2\r\n$3\r\nDEL\r\n$1\r\ns\r\n");
            }
            try (Run bad = new Run("--uri", server.uri(), "--from", "yesterday")) {
                assertThat(bad.exit.get(10, TimeUnit.SECONDS)).isEqualTo(2);
            }
        }
    }

    @Test
    void ctrlCStopsTheProcessCleanly() throws Exception {
        assumeFalse(sigintIgnored(), "this JVM was started with SIGINT ignored (e.g. a background job of a shell "
                + "without job control, or nohup); the child would inherit that, so Ctrl-C cannot be simulated");
        try (TestServer server = Servers.start(); RawClient raw = server.raw()) {
            String java = ProcessHandle.current().info().command().orElse("java");
            Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                    TailCommand.class.getName(), "--uri", server.uri()).redirectErrorStream(false).start();
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
                        StandardCharsets.UTF_8));
                CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
                    try {
                        return out.readLine();
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                int i = 0;
                while (!line.isDone() && System.nanoTime() < end) {
                    raw.call("SET", "k" + i++, "v");
                    Thread.sleep(200);
                }
                assertThat(json(line.get(1, TimeUnit.SECONDS)).get("type").asText()).isEqualTo("io.kevy.change.set");
                new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
                assertThat(p.waitFor(20, TimeUnit.SECONDS)).as("exits after Ctrl-C").isTrue();
                String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(err).doesNotContain("Exception");
                assertThat(p.exitValue()).isIn(0, 130);
            } finally {
                p.destroyForcibly();
            }
        }
    }

    /**
     * Lettuce logs its transport choice ("Both epoll and io_uring native transports are available") on every
     * connection; {@code kevy tail} opens about a dozen, and logs it at most once (issue 31). The same process
     * with the logger left at WARN shows that the check can fail: when both native transports are available, the
     * line then appears once per connection.
     */
    @Test
    void theTransportChoiceIsLoggedAtMostOnce() throws Exception {
        try (TestServer server = Servers.start(c -> c.with(io.kevy.server.config.ServerOptions.SHARDS, 4));
             RawClient raw = server.raw()) {
            String quiet = tailStderr(server, raw);
            long lines = quiet.lines().filter(l -> l.contains("Both epoll and io_uring")).count();
            String loud = tailStderr(server, raw, "-D" + io.kevy.feed.sidecar.LogDefaults.LETTUCE_TRANSPORTS + "=warn");
            long without = loud.lines().filter(l -> l.contains("Both epoll and io_uring")).count();
            System.out.printf("TailCommandIT: transport lines %d (with the logger at WARN: %d)%n", lines, without);
            assertThat(lines).as(quiet).isLessThanOrEqualTo(1);
            if (without > 0) {
                assertThat(without).as("without the default, once per connection").isGreaterThan(1);
            }
        }
    }

    /** Runs {@code kevy tail} as a process until it printed a change, then stops it; its stderr. */
    private static String tailStderr(TestServer server, RawClient raw, String... jvmArgs) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new java.util.ArrayList<>(List.of(java));
        cmd.addAll(List.of(jvmArgs));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), TailCommand.class.getName(), "--uri",
                server.uri()));
        Path err = Files.createTempFile("kevy-tail", ".err");
        Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            int i = 0;
            while (!line.isDone() && System.nanoTime() < end) {
                raw.call("SET", "t" + i++, "v");
                Thread.sleep(100);
            }
            assertThat(line.get(1, TimeUnit.SECONDS)).as("a change printed").contains("io.kevy.change.set");
            p.destroy();
            assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
            return Files.readString(err);
        } finally {
            p.destroyForcibly();
            Files.deleteIfExists(err);
        }
    }

    /**
     * Whether SIGINT is ignored by this process (Linux: bit 2 of {@code SigIgn} in /proc/self/status); a child
     * started from it inherits the disposition, and a JVM leaves an inherited ignored SIGINT ignored.
     */
    private static boolean sigintIgnored() throws java.io.IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return false;
        }
        for (String l : Files.readAllLines(status)) {
            if (l.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(l.substring(7).trim(), 16) & (1L << (2 - 1))) != 0;
            }
        }
        return false;
    }

    @Test
    void withoutAFeedPrintsOneLineAndSaysWhatToDo() throws Exception {
        try (TestServer featureless = TestServer.start(c -> c); RedisOracle redis = RedisOracle.start()) {
            assertThat(failure("redis://127.0.0.1:" + featureless.port()))
                    .isEqualTo("kevy tail: consumer kevy-tail could not start: ERR feed disabled (set [feed] enabled "
                            + "= true); start kevy-server with --feed, or set [feed] enabled = true\n");
            assertThat(failure("redis://127.0.0.1:" + redis.port())).startsWith("kevy tail: ")
                    .endsWith("(is this a kevy-server? Redis has no change feed)\n").hasLineCount(1);
        }
    }

    /** What the command prints to stderr, as a process of its own, when it fails (exit status 1). */
    private static String failure(String uri) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                TailCommand.class.getName(), "--uri", uri).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(err).isEqualTo(1);
            return err;
        } finally {
            p.destroyForcibly();
        }
    }
}
