package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kevy.engine.Engine;
import io.kevy.testing.FrameRecorder;
import io.kevy.testing.OracleFixture;
import io.kevy.testing.RawClient;
import io.kevy.testing.Replies;
import io.kevy.testing.TestServer;
import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * DBSIZE, FLUSHALL/FLUSHDB, TIME, LASTSAVE, SHUTDOWN, FUNCTION/SCRIPT FLUSH, MEMORY and DEBUG against a real
 * Redis 7.0 (started with DEBUG enabled), plus what kevy does differently (frames, generations, shutdown).
 */
class ServerCommandsIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create().redisArgs("--enable-debug-command", "yes");

    @Test
    void serverRepliesMatchRedis() {
        oracle.same("DBSIZE");
        oracle.same("HSET", "h", "f", "v");
        oracle.same("SET", "s", "v");
        oracle.same("DBSIZE");
        oracle.same("DBSIZE", "x");
        oracle.same("TIME", "x");
        oracle.same("LASTSAVE", "x");
        oracle.same("FLUSHDB", "ASYNC");
        oracle.same("DBSIZE");
        oracle.same("FLUSHALL", "sync");
        oracle.same("FLUSHALL", "foo");
        oracle.same("FLUSHALL", "sync", "async");
        oracle.same("FLUSHDB", "x");
        oracle.same("FUNCTION", "FLUSH");
        oracle.same("FUNCTION", "FLUSH", "async");
        oracle.same("FUNCTION", "FLUSH", "SYNC");
        oracle.same("FUNCTION", "FLUSH", "foo");
        oracle.same("FUNCTION", "FLUSH", "a", "b");
        oracle.same("FUNCTION", "flush", "a", "b");
        oracle.same("FUNCTION");
        oracle.same("SCRIPT", "FLUSH");
        oracle.same("SCRIPT", "FLUSH", "ASYNC");
        oracle.same("SCRIPT", "FLUSH", "foo");
        oracle.same("SCRIPT", "FLUSH", "a", "b");
        oracle.same("SHUTDOWN", "foo");
        oracle.same("SHUTDOWN", "ABORT");
        oracle.same("SHUTDOWN", "NOSAVE", "SAVE");
        oracle.same("SHUTDOWN", "ABORT", "NOW");
        oracle.same("SHUTDOWN", "FORCE", "ABORT");
    }

    @Test
    void noMultiCommandsAreRefusedInsideMulti() {
        oracle.same("MULTI");
        oracle.same("SHUTDOWN");
        oracle.same("SHUTDOWN", "NOSAVE", "NOW");
        oracle.same("PING");
        oracle.same("EXEC");
        oracle.same("PING");
    }

    @Test
    void timeIsSecondsAndMicroseconds() {
        List<String> t = Replies.array(oracle.kevy().raw().call("TIME"));
        assertThat(t).hasSize(2);
        long seconds = Long.parseLong(t.get(0));
        long micros = Long.parseLong(t.get(1));
        assertThat(seconds).isBetween(System.currentTimeMillis() / 1000 - 5, System.currentTimeMillis() / 1000 + 5);
        assertThat(micros).isBetween(0L, 999_999L);
        // microseconds, not milliseconds times 1000 (rate limiters build sliding windows from them)
        boolean subMillisecond = false;
        for (int i = 0; i < 50 && !subMillisecond; i++) {
            subMillisecond = Long.parseLong(Replies.array(oracle.kevy().raw().call("TIME")).get(1)) % 1000 != 0;
        }
        assertThat(subMillisecond).as("a TIME with a microsecond part in 50 calls").isTrue();
        // and read at each call inside a script, as Redis 7.0's timeCommand (not the script's frozen start time)
        String script = "local s = redis.call('time') local n = 0 repeat n = n + 1 local t = redis.call('time')"
                + " until t[1] ~= s[1] or t[2] ~= s[2] return n";
        assertThat(oracle.kevy().raw().call("EVAL", script, "0")).startsWith(":");
    }

    @Test
    void flushStartsNewGenerationsWithoutFrames() {
        Engine e = oracle.engine();
        oracle.kevy().raw().call("HSET", "h", "f", "v");
        long[] before = generations(e);
        try (FrameRecorder frames = FrameRecorder.attach(e)) {
            assertThat(oracle.kevy().raw().call("FLUSHDB")).isEqualTo("+OK\r\n");
            assertThat(frames.take()).isEmpty();
        }
        long[] after = generations(e);
        for (int i = 0; i < before.length; i++) {
            assertThat(after[i]).isNotEqualTo(before[i]);
            e.shard(i).lock().lock();
            try {
                assertThat(e.shard(i).nextOffset()).isZero();
            } finally {
                e.shard(i).lock().unlock();
            }
        }
        assertThat(oracle.kevy().raw().call("DBSIZE")).isEqualTo(":0\r\n");
    }

    private static long[] generations(Engine e) {
        long[] g = new long[e.shardCount()];
        for (int i = 0; i < g.length; i++) {
            e.shard(i).lock().lock();
            try {
                g[i] = e.shard(i).generation();
            } finally {
                e.shard(i).lock().unlock();
            }
        }
        return g;
    }

    @Test
    void memoryRepliesMatchRedis() {
        oracle.same("MEMORY", "HELP");
        oracle.same("MEMORY", "USAGE", "nosuch");
        oracle.same("SET", "s", "hello");
        oracle.same("SET", "n", "12345");
        oracle.same("SET", "raw", "x".repeat(100));
        oracle.same("SET", "a-rather-long-key-name-over-32-bytes", "v");
        oracle.same("MEMORY", "USAGE", "s");
        oracle.same("MEMORY", "USAGE", "n");
        oracle.same("MEMORY", "USAGE", "raw");
        oracle.same("MEMORY", "USAGE", "a-rather-long-key-name-over-32-bytes");
        oracle.same("MEMORY", "USAGE", "s", "SAMPLES", "5");
        oracle.same("MEMORY", "USAGE", "s", "SAMPLES", "0");
        oracle.same("MEMORY", "USAGE", "s", "SAMPLES", "x");
        oracle.same("MEMORY", "USAGE", "s", "SAMPLES", "-1");
        oracle.same("MEMORY", "USAGE", "s", "foo");
        oracle.same("MEMORY", "USAGE", "s", "SAMPLES");
        oracle.same("MEMORY", "USAGE");
        oracle.same("MEMORY", "PURGE");
        oracle.same("MEMORY", "NOSUCH");
        oracle.same("MEMORY");
        oracle.kevy().raw().call("HSET", "h", "a", "1", "b", "2");
        assertThat(oracle.kevy().raw().call("MEMORY", "USAGE", "h")).matches(":\\d+\r\n");
        assertThat(statNames(oracle.kevy().raw().call("MEMORY", "STATS")))
                .isEqualTo(statNames(oracle.redis().raw().call("MEMORY", "STATS")));
        oracle.same("FLUSHALL");
        assertThat(statNames(oracle.kevy().raw().call("MEMORY", "STATS")))
                .isEqualTo(statNames(oracle.redis().raw().call("MEMORY", "STATS")));
        assertThat(Replies.bulk(oracle.kevy().raw().call("MEMORY", "DOCTOR"))).startsWith("Hi Sam");
        assertThat(Replies.bulk(oracle.kevy().raw().call("MEMORY", "MALLOC-STATS")))
                .isEqualTo("Stats not supported for the current allocator");
    }

    /** The names of a MEMORY STATS map (and of its nested db.0 map). */
    private static List<String> statNames(String reply) {
        List<Object> m = Replies.nested(reply);
        List<String> names = new java.util.ArrayList<>();
        for (int i = 0; i < m.size(); i += 2) {
            names.add((String) m.get(i));
            if (m.get(i + 1) instanceof List<?> nested) {
                for (int j = 0; j < nested.size(); j += 2) {
                    names.add(m.get(i) + "/" + nested.get(j));
                }
            }
        }
        return names;
    }

    @Test
    void debugRepliesMatchRedis() {
        oracle.same("DEBUG", "NOSUCH");
        oracle.same("DEBUG", "JMAP");
        oracle.same("DEBUG", "OBJECT", "nosuch");
        oracle.same("DEBUG", "OBJECT");
        oracle.same("DEBUG", "SLEEP", "0");
        oracle.same("DEBUG", "SLEEP", "x");
        oracle.same("DEBUG", "SET-ACTIVE-EXPIRE", "1");
        oracle.same("DEBUG", "DIGEST");
        oracle.same("DEBUG", "DIGEST-VALUE");
        oracle.same("DEBUG", "DIGEST-VALUE", "nosuch");
        oracle.same("DEBUG", "CHANGE-REPL-ID");
        oracle.same("DEBUG", "LOG", "hello from a test");
        oracle.same("DEBUG", "ERROR", "foo bar");
        oracle.same("DEBUG", "ERROR", "-CUSTOM failure");
        oracle.same("DEBUG", "ERROR");
        oracle.same("DEBUG", "QUICKLIST-PACKED-THRESHOLD", "100");
        oracle.same("DEBUG", "SET-SKIP-CHECKSUM-VALIDATION", "0");
        oracle.same("DEBUG", "POPULATE", "x");
        oracle.same("DEBUG", "POPULATE", "-1");
        oracle.same("DEBUG", "POPULATE", "10", "p", "-1");
        oracle.same("DEBUG", "POPULATE", "1", "a", "1", "x");
        oracle.same("DEBUG", "POPULATE", "100");
        oracle.same("DEBUG", "POPULATE", "150", "key");
        oracle.same("DEBUG", "POPULATE", "20", "sized", "3");
        oracle.same("DEBUG", "POPULATE", "20", "padded", "12");
        oracle.same("GET", "key:99");
        oracle.same("GET", "sized:7");
        oracle.same("GET", "padded:7");
        oracle.same("DBSIZE");
        oracle.same("HSET", "h", "a", "1", "b", "2");
        oracle.same("DEBUG", "DIGEST-VALUE", "h", "key:1", "nosuch");
        oracle.same("DEBUG", "DIGEST");
        String o = oracle.kevy().raw().call("DEBUG", "OBJECT", "h");
        assertThat(o).matches("\\+Value at:0x[0-9a-f]+ refcount:1 encoding:listpack serializedlength:\\d+ lru:\\d+ "
                + "lru_seconds_idle:0\r\n");
        assertThat(oracle.kevy().raw().call("DEBUG", "RELOAD"))
                .isEqualTo("-ERR DEBUG RELOAD and LOADAOF are not supported by "
                + "kevy (there is no RDB or AOF to reload in memory)\r\n");
        assertThat(Replies.array(oracle.kevy().raw().call("DEBUG", "HELP"))).contains("SLEEP <seconds>", "HELP");
    }

    @Test
    void debugPopulateEmitsSetFrames() {
        try (FrameRecorder frames = FrameRecorder.attach(oracle.engine())) {
            oracle.kevy().raw().call("SET", "key:1", "taken");
            frames.take();
            assertThat(oracle.kevy().raw().call("DEBUG", "POPULATE", "3")).isEqualTo("+OK\r\n");
            assertThat(frames.take()).containsExactlyInAnyOrder("SET key:0 value:0", "SET key:2 value:2");
        }
    }

    @Test
    void debugSetActiveExpireTurnsTheCycleOff() {
        Engine e = oracle.engine();
        assertThat(oracle.kevy().raw().call("DEBUG", "SET-ACTIVE-EXPIRE", "0")).isEqualTo("+OK\r\n");
        assertThat(e.activeExpire()).isFalse();
        assertThat(oracle.kevy().raw().call("DEBUG", "set-active-expire", "1")).isEqualTo("+OK\r\n");
        assertThat(e.activeExpire()).isTrue();
    }

    @Test
    void debugSleepHoldsEveryShard() throws Exception {
        RawClient sleeper = oracle.kevy().raw();
        RawClient other = oracle.kevy().raw();
        other.call("HSET", "h", "f", "v");
        CompletableFuture<String> slept = CompletableFuture.supplyAsync(() -> sleeper.call("DEBUG", "SLEEP", "0.5"));
        await().atMost(Duration.ofSeconds(5)).until(() -> Replies.bulk(other.call("CLIENT", "LIST"))
                .contains("cmd=debug"));
        long t0 = System.nanoTime();
        assertThat(other.call("HGET", "h", "f")).isEqualTo("$1\r\nv\r\n");
        assertThat((System.nanoTime() - t0) / 1_000_000).isGreaterThanOrEqualTo(100);
        assertThat(slept.get()).isEqualTo("+OK\r\n");
    }

    @Test
    void shutdownClosesTheServerWithoutAReply() {
        TestServer s = TestServer.start();
        try {
            RawClient raw = s.raw();
            assertThat(raw.call("SHUTDOWN", "ABORT")).isEqualTo("-ERR No shutdown in progress.\r\n");
            raw.command("SHUTDOWN", "NOSAVE", "NOW");
            assertThat(raw.isClosedByServer()).isTrue();
            int port = s.port();
            await().atMost(Duration.ofSeconds(10)).until(() -> refused(port));
        } finally {
            s.close();
        }
    }

    private static boolean refused(int port) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }
}
