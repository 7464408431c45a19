package io.kevy.script;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.RawClient;
import io.kevy.testing.RedisOracle;
import io.kevy.testing.TestServer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Hostile scripts on a real kevy-server (two event loops): an endless loop makes other clients answer BUSY
 * past {@code busy-reply-threshold}, SCRIPT KILL stops it and the server goes on; a script that wrote is
 * UNKILLABLE; unbounded recursion is a Lua error, not a dead thread; a 10 MB script body runs; a reply nested
 * deeper than kevy's limit is refused; coroutines, each a Java thread in luaj, are capped and end with their
 * script, and a kill inside one reads as Redis's. The memory cap: {@link ScriptMemoryIT}.
 */
class ScriptHostileIT {
    private static final String BUSY =
            "-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.\r\n";

    /**
     * Of {@code candidates} (connections made after the script's, so at least one is on another event loop with
     * two loops round-robin), the first that answers PING with BUSY; PINGs answered PONG are sent again.
     */
    private static RawClient busyPeer(List<RawClient> candidates) {
        return busyPeer(candidates, BUSY);
    }

    /** As {@link #busyPeer(List)}, for the {@code busy} reply given (FCALL's names FUNCTION KILL). */
    static RawClient busyPeer(List<RawClient> candidates, String busy) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        boolean[] pending = new boolean[candidates.size()];
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < candidates.size(); i++) {
                RawClient c = candidates.get(i);
                if (!pending[i]) {
                    c.command("PING");
                    pending[i] = true;
                }
                if (c.replyWithin(20)) {
                    pending[i] = false;
                    String r = c.readReply();
                    if (r.equals(busy)) {
                        return c;
                    }
                    assertThat(r).isEqualTo("+PONG\r\n");
                }
            }
        }
        throw new AssertionError("no client answered BUSY within 20 s");
    }

    @Test
    void anEndlessLoopIsBusyForOthersAndScriptKillStopsIt() {
        try (TestServer server = TestServer.start(); RawClient a = RawClient.connect(server.port())) {
            assertThat(a.call("CONFIG", "SET", "busy-reply-threshold", "100")).isEqualTo("+OK\r\n");
            assertThat(a.call("SCRIPT", "KILL")).isEqualTo("-NOTBUSY No scripts in execution right now.\r\n");
            String body = "local i = 0 while true do i = i + 1 end";
            a.command("EVAL", body, "0");
            try (RawClient b = RawClient.connect(server.port()); RawClient c = RawClient.connect(server.port())) {
                RawClient peer = busyPeer(List.of(b, c));
                assertThat(peer.call("GET", "x")).isEqualTo(BUSY);
                assertThat(peer.call("SCRIPT", "KILL")).isEqualTo("+OK\r\n");
                assertThat(a.readReply()).isEqualTo("-ERR Script killed by user with SCRIPT KILL... script: "
                        + Sha1.hex(body.getBytes()) + ", on @user_script:1.\r\n");
                assertThat(peer.call("SET", "x", "1")).isEqualTo("+OK\r\n");
                assertThat(a.call("GET", "x")).isEqualTo("$1\r\n1\r\n");
                assertThat(peer.call("SCRIPT", "KILL")).isEqualTo("-NOTBUSY No scripts in execution right now.\r\n");
            }
        }
    }

    @Test
    void aPcallCannotSwallowTheKill() {
        try (TestServer server = TestServer.start(); RawClient a = RawClient.connect(server.port())) {
            a.call("CONFIG", "SET", "lua-time-limit", "100");
            String body = "while true do pcall(function() local x = 0 for i = 1, 100 do x = x + i end end) end";
            a.command("EVAL", body, "0");
            try (RawClient b = RawClient.connect(server.port()); RawClient c = RawClient.connect(server.port())) {
                RawClient peer = busyPeer(List.of(b, c));
                assertThat(peer.call("SCRIPT", "KILL")).isEqualTo("+OK\r\n");
                assertThat(a.readReply()).startsWith("-ERR Script killed by user with SCRIPT KILL... script: ");
                assertThat(a.call("PING")).isEqualTo("+PONG\r\n");
            }
        }
    }

    @Test
    void aScriptThatWroteIsUnkillableAndFinishes() {
        try (TestServer server = TestServer.start(); RawClient a = RawClient.connect(server.port())) {
            a.call("CONFIG", "SET", "busy-reply-threshold", "50");
            // long enough to be seen busy, bounded by the clock (not an iteration count, which a loaded machine
            // stretches past the client's read timeout) so that it ends by itself after 1.5 s
            a.command("EVAL", "redis.call('set', 'w', '1') local s = redis.call('time') local n = 0"
                    + " while true do n = n + 1 if n % 10000 == 0 then local t = redis.call('time')"
                    + " if (t[1] - s[1]) * 1000000 + (t[2] - s[2]) > 1500000 then return 30000000 end end end", "0");
            try (RawClient b = RawClient.connect(server.port()); RawClient c = RawClient.connect(server.port())) {
                RawClient peer = busyPeer(List.of(b, c));
                assertThat(peer.call("SCRIPT", "KILL")).isEqualTo("-UNKILLABLE Sorry the script already executed "
                        + "write commands against the dataset. You can either wait the script termination or kill the"
                        + " server in a hard way using the SHUTDOWN NOSAVE command.\r\n");
                assertThat(a.readReply()).isEqualTo(":30000000\r\n");
                assertThat(peer.call("GET", "w")).isEqualTo("$1\r\n1\r\n");
            }
        }
    }

    @Test
    void deepRecursionIsALuaErrorAndTheServerStaysUp() {
        try (TestServer server = TestServer.start(); RawClient a = RawClient.connect(server.port())) {
            String body = "local function f(n) return 1 + f(n + 1) end return f(1)";
            assertThat(a.call("EVAL", body, "0")).isEqualTo("-ERR user_script:1: stack overflow script: "
                    + Sha1.hex(body.getBytes()) + ", on @user_script:1.\r\n");
            String viaPcall = "local function f(n) return 1 + f(n + 1) end local ok, e = pcall(f, 1) return {tostring(ok), e}";
            assertThat(a.call("EVAL", viaPcall, "0")).startsWith("*2\r\n$5\r\nfalse\r\n").contains("stack overflow");
            String viaCall = "local function f(n) redis.call('incr', 'depth') return f(n + 1) + 1 end return f(1)";
            assertThat(a.call("EVAL", viaCall, "0")).startsWith("-ERR user_script:1: stack overflow script: ");
            String depth = a.call("GET", "depth");
            assertThat(Integer.parseInt(depth.substring(depth.indexOf('\n') + 1).trim()))
                    .as("the writes before the error stay").isBetween(ScriptHook.MAX_DEPTH / 2, ScriptHook.MAX_DEPTH);
            String nested = "local t = {} local c = t for i = 1, 5000 do c[1] = {} c = c[1] end return t";
            assertThat(a.call("EVAL", nested, "0")).endsWith("-ERR reached lua stack limit\r\n");
            assertThat(a.call("PING")).isEqualTo("+PONG\r\n");
        }
    }

    @Test
    void aTenMegabyteScriptRuns() {
        try (TestServer server = TestServer.start(); RawClient a = RawClient.connect(server.port())) {
            String big = "x".repeat(10 * 1024 * 1024);
            assertThat(a.call("EVAL", "return string.len('" + big + "')", "0")).isEqualTo(":10485760\r\n");
            assertThat(a.call("EVAL", "return 7 -- " + big, "0")).isEqualTo(":7\r\n");
            String sha = a.call("SCRIPT", "LOAD", "return #ARGV -- " + big);
            assertThat(sha).startsWith("$40\r\n");
            assertThat(a.call("EVALSHA", sha.substring(5, 45), "0", "a", "b")).isEqualTo(":2\r\n");
        }
    }

    /** luaj's coroutine threads alive in this JVM (luaj names them {@code Coroutine-N}). */
    private static long coroutineThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("Coroutine-")).count();
    }

    /**
     * luaj runs each coroutine on a Java thread: 2,000 suspended coroutines once took the JVM from 25 to 2,024
     * threads, beyond the heap cap's reach. At most {@link ScriptCoroutines#MAX_LIVE} are alive at a time (a clear
     * Lua error past it), a finished coroutine frees its place, and the threads of those a script leaves
     * suspended end before its reply, not when the collector finds them.
     */
    @Test
    void coroutinesAreCappedAndTheirThreadsEndWithTheScript() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        try (TestServer server = TestServer.start(); RawClient a = RawClient.connect(server.port())) {
            assertThat(a.call("PING")).isEqualTo("+PONG\r\n");
            int before = mx.getThreadCount();
            mx.resetPeakThreadCount();
            String hoard = "local t = {} for i = 1, 2000 do local co = coroutine.create(function() coroutine.yield(i)"
                    + " end) coroutine.resume(co) t[i] = co end return #t";
            assertThat(a.call("EVAL", hoard, "0")).isEqualTo("-ERR user_script:1: too many coroutines (kevy allows "
                    + ScriptCoroutines.MAX_LIVE + " alive at a time) script: " + Sha1.hex(hoard.getBytes())
                    + ", on @user_script:1.\r\n");
            assertThat(mx.getPeakThreadCount() - before).as("threads added at the peak")
                    .isLessThanOrEqualTo(ScriptCoroutines.MAX_LIVE + 16);
            assertThat(coroutineThreads()).as("suspended coroutines' threads after the reply").isZero();

            String atCap = hoard.replace("2000", Integer.toString(ScriptCoroutines.MAX_LIVE));
            assertThat(a.call("EVAL", atCap, "0")).isEqualTo(":" + ScriptCoroutines.MAX_LIVE + "\r\n");
            assertThat(coroutineThreads()).isZero();
            String inTurn = "local n = 0 for i = 1, 600 do local co = coroutine.create(function() coroutine.yield(1)"
                    + " end) local _, v = coroutine.resume(co) coroutine.resume(co) n = n + v end return n";
            assertThat(a.call("EVAL", inTurn, "0")).as("dead coroutines free their place").isEqualTo(":600\r\n");
            String unstarted = "local t = {} for i = 1, 300 do t[i] = coroutine.create(function() end) end return 1";
            assertThat(a.call("EVAL", unstarted, "0")).as("a coroutine never resumed counts too")
                    .startsWith("-ERR user_script:1: too many coroutines");
            assertThat(a.call("EVAL", atCap, "0")).as("the last script's place is free again")
                    .isEqualTo(":" + ScriptCoroutines.MAX_LIVE + "\r\n");
            assertThat(mx.getThreadCount() - before).isLessThanOrEqualTo(8);
        }
    }

    @Test
    void aKilledScriptsSuspendedCoroutinesEndWithIt() {
        try (TestServer server = TestServer.start(); RawClient a = RawClient.connect(server.port())) {
            a.call("CONFIG", "SET", "busy-reply-threshold", "100");
            a.command("EVAL", "local t = {} for i = 1, 200 do t[i] = coroutine.wrap(function() coroutine.yield(i) end)"
                    + " t[i]() end while true do end", "0");
            try (RawClient b = RawClient.connect(server.port()); RawClient c = RawClient.connect(server.port())) {
                RawClient peer = busyPeer(List.of(b, c));
                long deadline = System.nanoTime() + 20_000_000_000L; // a loaded machine starts 200 threads slowly
                while (coroutineThreads() < 200 && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                assertThat(coroutineThreads()).isEqualTo(200);
                assertThat(peer.call("SCRIPT", "KILL")).isEqualTo("+OK\r\n");
                assertThat(a.readReply()).startsWith("-ERR Script killed by user with SCRIPT KILL... script: ");
                assertThat(coroutineThreads()).isZero();
            }
        }
    }

    /**
     * SCRIPT KILL landing while the script runs inside {@code coroutine.wrap}: Redis's killed-script error, with
     * the line the caller is on (it read {@code ERR user_script:1: @user_script:1 table: 61773680 ...}: the kill's
     * error table became luaj's text on its way out of the coroutine). Compared with redis-server when installed.
     */
    @Test
    void aKillInsideACoroutineIsRedissKilledScriptError() {
        String body = "\nlocal f = coroutine.wrap(function()\nlocal i = 0\nwhile true do i = i + 1 end end)\nf()";
        String expected = "-ERR Script killed by user with SCRIPT KILL... script: " + Sha1.hex(body.getBytes())
                + ", on @user_script:5.\r\n";
        try (TestServer server = TestServer.start()) {
            assertThat(killedReply(server.port(), body)).isEqualTo(expected);
        }
        if (RedisOracle.available()) {
            try (RedisOracle redis = RedisOracle.start()) {
                assertThat(killedReply(redis.port(), body)).as("redis-server").isEqualTo(expected);
            }
        }
    }

    /** Runs {@code body} on the server at {@code port}, kills it from another connection once busy: its reply. */
    private static String killedReply(int port, String body) {
        try (RawClient a = RawClient.connect(port)) {
            assertThat(a.call("CONFIG", "SET", "busy-reply-threshold", "100")).isEqualTo("+OK\r\n");
            a.command("EVAL", body, "0");
            try (RawClient b = RawClient.connect(port); RawClient c = RawClient.connect(port)) {
                RawClient peer = busyPeer(List.of(b, c));
                assertThat(peer.call("SCRIPT", "KILL")).isEqualTo("+OK\r\n");
                String reply = a.readReply();
                assertThat(a.call("PING")).isEqualTo("+PONG\r\n");
                return reply;
            }
        }
    }
}
