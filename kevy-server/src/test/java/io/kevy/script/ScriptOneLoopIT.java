package io.kevy.script;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import io.kevy.testing.RedisOracle;
import io.kevy.testing.TestServer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Busy scripts on a kevy-server with ONE event loop (io_threads=1, the default on a 2-core machine), each
 * scenario run the same way against a real redis-server and compared reply for reply: the script runs on the
 * script thread ({@link io.kevy.engine.ScriptGate}), so the loop that read EVAL goes on serving the others, who
 * get {@code -BUSY} past {@code busy-reply-threshold} and can send SCRIPT KILL.
 */
class ScriptOneLoopIT {
    private static final String BUSY =
            "-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.\r\n";
    private static final String ENDLESS = "local i = 0 while true do i = i + 1 end";

    private static TestServer kevy;
    private static RedisOracle redis;

    @BeforeAll
    static void start() {
        redis = RedisOracle.start();
        kevy = TestServer.start(c -> c.with(ServerOptions.IO_THREADS, 1));
    }

    @AfterAll
    static void stop() {
        if (kevy != null) {
            kevy.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    /** Runs {@code scenario} on kevy and on Redis (same steps, same port-independent replies) and compares. */
    /** Steps against the server on {@code port}, adding the replies to compare to {@code out}. */
    interface Scenario {
        void run(int port, List<String> out);
    }

    private static List<String> same(Scenario scenario) {
        List<String> r = run(scenario, redis.port());
        List<String> k = run(scenario, kevy.port());
        assertThat(k).as("kevy's replies against Redis's").isEqualTo(r);
        try (RawClient c = RawClient.connect(kevy.port())) {
            assertThat(c.call("PING")).as("the server stays up").isEqualTo("+PONG\r\n");
        }
        return k;
    }

    /** The replies of {@code scenario} on {@code port}; a failure (a reply that never came) ends them, named. */
    private static List<String> run(Scenario scenario, int port) {
        List<String> out = new ArrayList<>();
        try {
            scenario.run(port, out);
            return out;
        } catch (RuntimeException | AssertionError e) {
            throw new AssertionError("on " + (port == redis.port() ? "Redis" : "kevy") + " after " + out + ": " + e,
                    e);
        }
    }

    /** PINGs {@code c} until it answers BUSY (a PONG: the script had not started yet); returns the BUSY reply. */
    private static String awaitBusy(RawClient c) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline) {
            String r = c.call("PING");
            if (!r.equals("+PONG\r\n")) {
                return r;
            }
        }
        throw new AssertionError("no BUSY within 20 s");
    }

    /** ECHOes on {@code c} until the answer is not BUSY (the killed script has ended); returns that answer. */
    private static String awaitNotBusy(RawClient c) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline) {
            String r = c.call("ECHO", "after");
            if (!r.equals(BUSY)) {
                return r;
            }
        }
        throw new AssertionError("still BUSY after 20 s");
    }

    private static void threshold(RawClient c, String ms) {
        assertThat(c.call("CONFIG", "SET", "busy-reply-threshold", ms)).isEqualTo("+OK\r\n");
    }

    /** FCALL runs on the script thread too: FUNCTION KILL arrives through the one loop. */
    @Test
    void anEndlessFunctionIsBusyForOthersAndFunctionKillStopsIt() {
        String lib = "#!lua name=oneloop\nredis.register_function{function_name='spin', callback=function() "
                + ENDLESS + " end, flags={'no-writes'}}";
        List<String> replies = same((port, out) -> {
            try (RawClient a = RawClient.connect(port); RawClient b = RawClient.connect(port)) {
                threshold(a, "100");
                out.add(a.call("FUNCTION", "LOAD", "REPLACE", lib));
                a.command("FCALL", "spin", "0");
                out.add(awaitBusy(b));
                out.add(b.call("SCRIPT", "KILL"));
                out.add(b.call("FUNCTION", "KILL"));
                out.add(a.readReply());
                out.add(b.call("FUNCTION", "KILL"));
                out.add(a.call("FUNCTION", "DELETE", "oneloop"));
            }
        });
        assertThat(replies.get(1)).startsWith("-BUSY Redis is busy running a script. You can only call FUNCTION KILL");
        assertThat(replies.get(3)).isEqualTo("+OK\r\n");
        assertThat(replies.get(4)).startsWith("-ERR Script killed by user with SCRIPT KILL... script: spin, on "
                + "@user_function:");
    }

    @Test
    void anEndlessReadOnlyScriptIsBusyForOthersAndScriptKillStopsIt() {
        List<String> replies = same((port, out) -> {
            try (RawClient a = RawClient.connect(port); RawClient b = RawClient.connect(port)) {
                threshold(a, "100");
                a.call("DEL", "x");
                out.add(b.call("SCRIPT", "KILL"));
                a.command("EVAL", ENDLESS, "0");
                out.add(awaitBusy(b));
                out.add(b.call("GET", "x"));
                out.add(b.call("EVAL", "return 1", "0"));
                out.add(b.call("MULTI"));
                out.add(b.call("SET", "x", "1"));
                out.add(b.call("EXEC")); // Redis's rejectCommand on EXEC: EXECABORT quoting the BUSY error
                out.add(b.call("SCRIPT", "KILL"));
                out.add(a.readReply());
                out.add(b.call("SCRIPT", "KILL"));
                out.add(a.call("SET", "x", "2"));
                out.add(b.call("GET", "x"));
            }
        });
        assertThat(replies.get(1)).isEqualTo(BUSY);
        assertThat(replies.get(2)).isEqualTo(BUSY);
        assertThat(replies.get(7)).isEqualTo("+OK\r\n");
        assertThat(replies.get(6)).isEqualTo("-EXECABORT Transaction discarded because of: " + BUSY.substring(1));
        assertThat(replies.get(8)).isEqualTo("-ERR Script killed by user with SCRIPT KILL... script: "
                + Sha1.hex(ENDLESS.getBytes()) + ", on @user_script:1.\r\n"); // Redis 7.0's text
    }

    @Test
    void aScriptThatWroteIsUnkillableAndFinishes() {
        List<String> replies = same((port, out) -> {
            try (RawClient a = RawClient.connect(port); RawClient b = RawClient.connect(port)) {
                threshold(a, "50");
                a.command("EVAL", "redis.call('set', 'w', '1') local x = 0 for i = 1, 50000000 do x = x + 1 end"
                        + " return x", "0");
                out.add(awaitBusy(b));
                out.add(b.call("SCRIPT", "KILL"));
                out.add(a.readReply());
                out.add(b.call("GET", "w"));
            }
        });
        assertThat(replies.get(1)).startsWith("-UNKILLABLE ");
        assertThat(replies.get(2)).isEqualTo(":50000000\r\n");
    }

    @Test
    void commandsPipelinedAfterAScriptKeepTheirOrder() {
        List<String> replies = same((port, out) -> {
            try (RawClient a = RawClient.connect(port)) {
                a.call("DEL", "p");
                StringBuilder batch = new StringBuilder();
                for (String[] cmd : new String[][] {{"EVAL", "return redis.call('incr', 'p')", "0"},
                    {"INCR", "p"}, {"EVAL", "return redis.call('incr', 'p')", "0"}, {"GET", "p"},
                    {"MULTI"}, {"EVAL", "return redis.call('incr', 'p')", "0"}, {"INCR", "p"}, {"EXEC"},
                    {"EVAL", "return redis.call('get', 'p')", "0"}}) {
                    byte[][] b = new byte[cmd.length][];
                    for (int i = 0; i < cmd.length; i++) {
                        b[i] = cmd[i].getBytes();
                    }
                    batch.append(new String(RawClient.encode(b), java.nio.charset.StandardCharsets.ISO_8859_1));
                }
                a.send(batch.toString());
                for (int i = 0; i < 9; i++) {
                    out.add(a.readReply());
                }
            }
        });
        assertThat(replies).containsExactly(":1\r\n", ":2\r\n", ":3\r\n", "$1\r\n3\r\n", "+OK\r\n", "+QUEUED\r\n",
                "+QUEUED\r\n", "*2\r\n:4\r\n:5\r\n", "$1\r\n5\r\n");
    }

    @Test
    void anEndlessScriptInsideExecIsKilledToo() {
        List<String> replies = same((port, out) -> {
            try (RawClient a = RawClient.connect(port); RawClient b = RawClient.connect(port)) {
                threshold(a, "100");
                out.add(a.call("MULTI"));
                out.add(a.call("SET", "m", "1"));
                out.add(a.call("EVAL", ENDLESS, "0"));
                a.command("EXEC");
                out.add(awaitBusy(b));
                out.add(b.call("SCRIPT", "KILL")); // the SET before it is not the script's write: killable
                out.add(a.readReply());
                out.add(b.call("GET", "m"));
            }
        });
        assertThat(replies.get(4)).isEqualTo("+OK\r\n");
    }

    @Test
    void theCallerDisconnectingWhileItsScriptRunsLeavesAKillableScript() {
        same((port, out) -> {
            try (RawClient b = RawClient.connect(port)) {
                try (RawClient a = RawClient.connect(port)) {
                    threshold(a, "100");
                    a.command("EVAL", ENDLESS, "0");
                    out.add(awaitBusy(b));
                }
                out.add(b.call("GET", "x"));
                out.add(b.call("SCRIPT", "KILL"));
                out.add(awaitNotBusy(b)); // Redis may answer BUSY once more: the kill lands at its next hook
                out.add(b.call("SCRIPT", "KILL"));
            }
        });
    }

    @Test
    void shutdownNosaveStopsAServerBusyWithAnUnkillableScript() {
        java.util.Set<Thread> before = Thread.getAllStackTraces().keySet();
        TestServer own = TestServer.start(c -> c.with(ServerOptions.IO_THREADS, 1));
        try (RawClient a = RawClient.connect(own.port()); RawClient b = RawClient.connect(own.port())) {
            threshold(a, "100");
            a.command("EVAL", "redis.call('set', 'w', '1') while true do end", "0");
            assertThat(awaitBusy(b)).isEqualTo(BUSY);
            assertThat(b.call("SCRIPT", "KILL")).startsWith("-UNKILLABLE ");
            assertThat(b.call("SHUTDOWN")).as("Redis: SHUTDOWN without NOSAVE is refused while busy")
                    .isEqualTo(BUSY);
            Thread scriptThread = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().equals("kevy-script") && !before.contains(t)).findFirst().orElseThrow();
            b.command("SHUTDOWN", "NOSAVE");
            assertThat(b.isClosedByServer()).isTrue();
            assertThat(a.isClosedByServer()).isTrue();
            own.close();
            scriptThread.join(10_000);
            assertThat(scriptThread.isAlive()).as("the endless script is stopped with the engine").isFalse();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        } finally {
            own.close();
        }
    }

    @Test
    void aReplicaBusyWithAScriptAppliesItsPrimarysWritesOnceTheScriptIsKilled() {
        // replication reads the primary's feed
        TestServer primary = TestServer.start(c -> c.with(ServerOptions.IO_THREADS, 1)
                .with(ServerOptions.FEED_ENABLED, true));
        TestServer replica = TestServer.start(c -> c.with(ServerOptions.IO_THREADS, 1)
                .with(ServerOptions.FEED_ENABLED, true));
        try (RawClient p = RawClient.connect(primary.port()); RawClient a = RawClient.connect(replica.port());
             RawClient b = RawClient.connect(replica.port())) {
            assertThat(a.call("REPLICAOF", "127.0.0.1", Integer.toString(primary.port()))).isEqualTo("+OK\r\n");
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20))
                    .until(() -> b.call("INFO", "replication").contains("master_link_status:up"));
            threshold(a, "100");
            a.command("EVAL", ENDLESS, "0");
            assertThat(awaitBusy(b)).isEqualTo(BUSY);
            assertThat(p.call("SET", "during", "1")).isEqualTo("+OK\r\n");
            assertThat(p.call("INCR", "n")).isEqualTo(":1\r\n");
            assertThat(b.call("SCRIPT", "KILL")).isEqualTo("+OK\r\n");
            assertThat(a.readReply()).startsWith("-ERR Script killed by user with SCRIPT KILL...");
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20)).untilAsserted(() -> {
                assertThat(b.call("GET", "during")).as("a write of the primary is applied, not refused BUSY")
                        .isEqualTo("$1\r\n1\r\n");
                assertThat(b.call("GET", "n")).isEqualTo("$1\r\n1\r\n");
            });
        } finally {
            replica.close();
            primary.close();
        }
    }
}
