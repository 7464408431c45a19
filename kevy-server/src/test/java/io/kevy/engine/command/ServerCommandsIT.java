package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kevy.engine.Engine;
import io.kevy.testing.FrameRecorder;
import io.kevy.testing.RawClient;
import io.kevy.testing.RedisOracle;
import io.kevy.testing.Replies;
import io.kevy.testing.ReplyDiff;
import io.kevy.testing.TestServer;
import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * DBSIZE, FLUSHALL/FLUSHDB, TIME, LASTSAVE, SHUTDOWN, FUNCTION/SCRIPT FLUSH, MEMORY and DEBUG against a real
 * Redis 7.0 (started with DEBUG enabled), plus what kevy does differently (frames, generations, shutdown).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ServerCommandsIT {
    private TestServer kevy;
    private RedisOracle redis;
    private ReplyDiff diff;

    @BeforeAll
    void start() {
        kevy = TestServer.start();
        redis = RedisOracle.start("--enable-debug-command", "yes");
        diff = new ReplyDiff(kevy.raw(), redis.raw());
    }

    @AfterAll
    void stop() {
        diff.close();
        redis.close();
        kevy.close();
    }

    @BeforeEach
    void flush() {
        diff.same("FLUSHALL");
    }

    @Test
    void serverRepliesMatchRedis() {
        diff.same("DBSIZE");
        diff.same("HSET", "h", "f", "v");
        diff.same("SET", "s", "v");
        diff.same("DBSIZE");
        diff.same("DBSIZE", "x");
        diff.same("TIME", "x");
        diff.same("LASTSAVE", "x");
        diff.same("FLUSHDB", "ASYNC");
        diff.same("DBSIZE");
        diff.same("FLUSHALL", "sync");
        diff.same("FLUSHALL", "foo");
        diff.same("FLUSHALL", "sync", "async");
        diff.same("FLUSHDB", "x");
        diff.same("FUNCTION", "FLUSH");
        diff.same("FUNCTION", "FLUSH", "async");
        diff.same("FUNCTION", "FLUSH", "SYNC");
        diff.same("FUNCTION", "FLUSH", "foo");
        diff.same("FUNCTION", "FLUSH", "a", "b");
        diff.same("FUNCTION", "flush", "a", "b");
        diff.same("FUNCTION");
        diff.same("SCRIPT", "FLUSH");
        diff.same("SCRIPT", "FLUSH", "ASYNC");
        diff.same("SCRIPT", "FLUSH", "foo");
        diff.same("SCRIPT", "FLUSH", "a", "b");
        diff.same("SHUTDOWN", "foo");
        diff.same("SHUTDOWN", "ABORT");
        diff.same("SHUTDOWN", "NOSAVE", "SAVE");
        diff.same("SHUTDOWN", "ABORT", "NOW");
        diff.same("SHUTDOWN", "FORCE", "ABORT");
    }

    @Test
    void noMultiCommandsAreRefusedInsideMulti() {
        diff.same("MULTI");
        diff.same("SHUTDOWN");
        diff.same("SHUTDOWN", "NOSAVE", "NOW");
        diff.same("PING");
        diff.same("EXEC");
        diff.same("PING");
    }

    @Test
    void timeIsSecondsAndMicroseconds() {
        List<String> t = Replies.array(kevy.raw().call("TIME"));
        assertThat(t).hasSize(2);
        long seconds = Long.parseLong(t.get(0));
        long micros = Long.parseLong(t.get(1));
        assertThat(seconds).isBetween(System.currentTimeMillis() / 1000 - 5, System.currentTimeMillis() / 1000 + 5);
        assertThat(micros).isBetween(0L, 999_999L);
    }

    @Test
    void flushStartsNewGenerationsWithoutFrames() {
        Engine e = kevy.server().engine();
        kevy.raw().call("HSET", "h", "f", "v");
        long[] before = generations(e);
        try (FrameRecorder frames = FrameRecorder.attach(e)) {
            assertThat(kevy.raw().call("FLUSHDB")).isEqualTo("+OK\r\n");
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
        assertThat(kevy.raw().call("DBSIZE")).isEqualTo(":0\r\n");
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
        diff.same("MEMORY", "HELP");
        diff.same("MEMORY", "USAGE", "nosuch");
        diff.same("SET", "s", "hello");
        diff.same("SET", "n", "12345");
        diff.same("SET", "raw", "x".repeat(100));
        diff.same("SET", "a-rather-long-key-name-over-32-bytes", "v");
        diff.same("MEMORY", "USAGE", "s");
        diff.same("MEMORY", "USAGE", "n");
        diff.same("MEMORY", "USAGE", "raw");
        diff.same("MEMORY", "USAGE", "a-rather-long-key-name-over-32-bytes");
        diff.same("MEMORY", "USAGE", "s", "SAMPLES", "5");
        diff.same("MEMORY", "USAGE", "s", "SAMPLES", "0");
        diff.same("MEMORY", "USAGE", "s", "SAMPLES", "x");
        diff.same("MEMORY", "USAGE", "s", "SAMPLES", "-1");
        diff.same("MEMORY", "USAGE", "s", "foo");
        diff.same("MEMORY", "USAGE", "s", "SAMPLES");
        diff.same("MEMORY", "USAGE");
        diff.same("MEMORY", "PURGE");
        diff.same("MEMORY", "NOSUCH");
        diff.same("MEMORY");
        kevy.raw().call("HSET", "h", "a", "1", "b", "2");
        assertThat(kevy.raw().call("MEMORY", "USAGE", "h")).matches(":\\d+\r\n");
        assertThat(statNames(kevy.raw().call("MEMORY", "STATS"))).isEqualTo(statNames(redis.raw().call("MEMORY", "STATS")));
        diff.same("FLUSHALL");
        assertThat(statNames(kevy.raw().call("MEMORY", "STATS"))).isEqualTo(statNames(redis.raw().call("MEMORY", "STATS")));
        assertThat(Replies.bulk(kevy.raw().call("MEMORY", "DOCTOR"))).startsWith("Hi Sam");
        assertThat(Replies.bulk(kevy.raw().call("MEMORY", "MALLOC-STATS")))
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
        diff.same("DEBUG", "NOSUCH");
        diff.same("DEBUG", "JMAP");
        diff.same("DEBUG", "OBJECT", "nosuch");
        diff.same("DEBUG", "OBJECT");
        diff.same("DEBUG", "SLEEP", "0");
        diff.same("DEBUG", "SLEEP", "x");
        diff.same("DEBUG", "SET-ACTIVE-EXPIRE", "1");
        diff.same("DEBUG", "DIGEST");
        diff.same("DEBUG", "DIGEST-VALUE");
        diff.same("DEBUG", "DIGEST-VALUE", "nosuch");
        diff.same("DEBUG", "CHANGE-REPL-ID");
        diff.same("DEBUG", "LOG", "hello from a test");
        diff.same("DEBUG", "ERROR", "foo bar");
        diff.same("DEBUG", "ERROR", "-CUSTOM failure");
        diff.same("DEBUG", "ERROR");
        diff.same("DEBUG", "QUICKLIST-PACKED-THRESHOLD", "100");
        diff.same("DEBUG", "SET-SKIP-CHECKSUM-VALIDATION", "0");
        diff.same("DEBUG", "POPULATE", "x");
        diff.same("DEBUG", "POPULATE", "-1");
        diff.same("DEBUG", "POPULATE", "10", "p", "-1");
        diff.same("DEBUG", "POPULATE", "1", "a", "1", "x");
        diff.same("DEBUG", "POPULATE", "100");
        diff.same("DEBUG", "POPULATE", "150", "key");
        diff.same("DEBUG", "POPULATE", "20", "sized", "3");
        diff.same("DEBUG", "POPULATE", "20", "padded", "12");
        diff.same("GET", "key:99");
        diff.same("GET", "sized:7");
        diff.same("GET", "padded:7");
        diff.same("DBSIZE");
        diff.same("HSET", "h", "a", "1", "b", "2");
        diff.same("DEBUG", "DIGEST-VALUE", "h", "key:1", "nosuch");
        diff.same("DEBUG", "DIGEST");
        String o = kevy.raw().call("DEBUG", "OBJECT", "h");
        assertThat(o).matches("\\+Value at:0x[0-9a-f]+ refcount:1 encoding:listpack serializedlength:\\d+ lru:\\d+ "
                + "lru_seconds_idle:0\r\n");
        assertThat(kevy.raw().call("DEBUG", "RELOAD")).isEqualTo("-ERR DEBUG RELOAD and LOADAOF are not supported by "
                + "kevy (there is no RDB or AOF to reload in memory)\r\n");
        assertThat(Replies.array(kevy.raw().call("DEBUG", "HELP"))).contains("SLEEP <seconds>", "HELP");
    }

    @Test
    void debugPopulateEmitsSetFrames() {
        try (FrameRecorder frames = FrameRecorder.attach(kevy.server().engine())) {
            kevy.raw().call("SET", "key:1", "taken");
            frames.take();
            assertThat(kevy.raw().call("DEBUG", "POPULATE", "3")).isEqualTo("+OK\r\n");
            assertThat(frames.take()).containsExactlyInAnyOrder("SET key:0 value:0", "SET key:2 value:2");
        }
    }

    @Test
    void debugSetActiveExpireTurnsTheCycleOff() {
        Engine e = kevy.server().engine();
        assertThat(kevy.raw().call("DEBUG", "SET-ACTIVE-EXPIRE", "0")).isEqualTo("+OK\r\n");
        assertThat(e.activeExpire()).isFalse();
        assertThat(kevy.raw().call("DEBUG", "set-active-expire", "1")).isEqualTo("+OK\r\n");
        assertThat(e.activeExpire()).isTrue();
    }

    @Test
    void debugSleepHoldsEveryShard() throws Exception {
        RawClient sleeper = kevy.raw();
        RawClient other = kevy.raw();
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
