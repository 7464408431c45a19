package io.kevy.engine.command;

import io.kevy.common.Slots;
import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.server.config.ServerOptions;
import io.kevy.testing.FrameRecorder;
import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The exact effect frames (feed contract §7) of the string and generic-key commands, recorded by a listener on
 * every shard of a 4-shard server: the applied effects with absolute times, per-shard splits, and nothing for
 * failures, no-ops and reads.
 */
class StringKeyFramesIT {
    private static final int SHARDS = 4;
    private static TestServer server;
    private static FrameRecorder frames;
    private static RawClient raw;

    /** Keys on shards 0, 1, 2, 3. */
    private static final String K0 = keyOn(0, "k");
    private static final String K1 = keyOn(1, "k");
    private static final String K2 = keyOn(2, "k");
    private static final String K3 = keyOn(3, "k");

    @BeforeAll
    static void start() {
        server = TestServer.start(ServerOptions.SHARDS, SHARDS);
        frames = FrameRecorder.attach(server.server().engine());
        raw = server.raw();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void flush() {
        raw.call("FLUSHALL");
        frames.take();
    }

    static String keyOn(int shard, String prefix) {
        for (int i = 0; ; i++) {
            String k = prefix + i;
            if (Slots.shard(k.getBytes(StandardCharsets.UTF_8), SHARDS) == shard) {
                return k;
            }
        }
    }

    private static int shard(String key) {
        return Slots.shard(key.getBytes(StandardCharsets.UTF_8), SHARDS);
    }

    /** Runs a command, asserts its reply, and returns the frames it produced as {@code "<shard>: <frame>"}. */
    private static List<String> run(String reply, String... cmd) {
        assertThat(raw.call(cmd)).as(String.join(" ", cmd)).isEqualTo(reply);
        return take();
    }

    private static List<String> take() {
        List<String> out = new ArrayList<>();
        for (FrameRecorder.Frame f : frames.takeFrames()) {
            out.add(f.shard() + ": " + f.text());
        }
        return out;
    }

    private static void setup(String... cmd) {
        raw.call(cmd);
        frames.take();
    }

    /** Asserts {@code frame} is {@code prefix} followed by an absolute time in [lo, hi]. */
    private static void assertTimed(String frame, String prefix, long lo, long hi) {
        assertThat(frame).startsWith(prefix);
        long t = Long.parseLong(frame.substring(prefix.length()));
        assertThat(t).isBetween(lo, hi);
    }

    @Test
    void setVariants() {
        int s = shard(K0);
        assertThat(run("+OK\r\n", "SET", K0, "v")).containsExactly(s + ": SET " + K0 + " v");
        long before = System.currentTimeMillis();
        List<String> f = run("+OK\r\n", "SET", K0, "v", "EX", "100");
        long after = System.currentTimeMillis();
        assertThat(f).hasSize(1);
        assertTimed(f.get(0), s + ": SET " + K0 + " v PXAT ", before + 100_000, after + 100_000);
        f = run("+OK\r\n", "SET", K0, "v", "PX", "5000");
        assertTimed(f.get(0), s + ": SET " + K0 + " v PXAT ", before + 5000, System.currentTimeMillis() + 5000);
        assertThat(run("+OK\r\n", "SET", K0, "v", "EXAT", "99999999999"))
                .containsExactly(s + ": SET " + K0 + " v PXAT 99999999999000");
        assertThat(run("+OK\r\n", "SET", K0, "w", "PXAT", "99999999999123"))
                .containsExactly(s + ": SET " + K0 + " w PXAT 99999999999123");
        assertThat(run("+OK\r\n", "SET", K0, "x", "KEEPTTL")).containsExactly(s + ": SET " + K0 + " x KEEPTTL");
        assertThat(run("$-1\r\n", "SET", K0, "y", "NX")).isEmpty();
        assertThat(run("$1\r\nx\r\n", "SET", K0, "y", "NX", "GET")).isEmpty();
        assertThat(run("$-1\r\n", "SET", K1, "y", "XX")).isEmpty();
        assertThat(run("$1\r\nx\r\n", "SET", K0, "y", "GET")).containsExactly(s + ": SET " + K0 + " y");
        assertThat(run("+OK\r\n", "SET", K0, "z", "XX")).containsExactly(s + ": SET " + K0 + " z");
        assertThat(run("+OK\r\n", "SET", K0, "gone", "PXAT", "1")).containsExactly(s + ": DEL " + K0);
        assertThat(run("+OK\r\n", "SET", K0, "never", "EXAT", "1")).isEmpty();
        assertThat(run("-ERR syntax error\r\n", "SET", K0, "v", "NX", "XX")).isEmpty();
        assertThat(run("-ERR invalid expire time in 'set' command\r\n", "SET", K0, "v", "EX", "0")).isEmpty();
        setup("HSET", K2, "f", "v");
        assertThat(run("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n",
                "SET", K2, "v", "GET")).isEmpty();
    }

    @Test
    void setnxSetexGetsetGetdelGetex() {
        int s = shard(K1);
        assertThat(run(":1\r\n", "SETNX", K1, "a")).containsExactly(s + ": SET " + K1 + " a");
        assertThat(run(":0\r\n", "SETNX", K1, "b")).isEmpty();
        long before = System.currentTimeMillis();
        List<String> f = run("+OK\r\n", "SETEX", K1, "10", "v");
        assertTimed(f.get(0), s + ": SET " + K1 + " v PXAT ", before + 10_000, System.currentTimeMillis() + 10_000);
        f = run("+OK\r\n", "PSETEX", K1, "1500", "v");
        assertTimed(f.get(0), s + ": SET " + K1 + " v PXAT ", before + 1500, System.currentTimeMillis() + 1500);
        assertThat(run("$1\r\nv\r\n", "GETSET", K1, "g")).containsExactly(s + ": SET " + K1 + " g");
        assertThat(run("$1\r\ng\r\n", "GETEX", K1)).isEmpty();
        f = run("$1\r\ng\r\n", "GETEX", K1, "EX", "100");
        assertTimed(f.get(0), s + ": PEXPIREAT " + K1 + " ", before + 100_000, System.currentTimeMillis() + 100_000);
        assertThat(run("$1\r\ng\r\n", "GETEX", K1, "PXAT", "99999999999999"))
                .containsExactly(s + ": PEXPIREAT " + K1 + " 99999999999999");
        assertThat(run("$1\r\ng\r\n", "GETEX", K1, "PERSIST")).containsExactly(s + ": PERSIST " + K1);
        assertThat(run("$1\r\ng\r\n", "GETEX", K1, "PERSIST")).isEmpty();
        assertThat(run("$1\r\ng\r\n", "GETEX", K1, "EXAT", "1")).containsExactly(s + ": DEL " + K1);
        assertThat(run("$-1\r\n", "GETEX", K1, "EX", "10")).isEmpty();
        setup("SET", K1, "d");
        assertThat(run("$1\r\nd\r\n", "GETDEL", K1)).containsExactly(s + ": DEL " + K1);
        assertThat(run("$-1\r\n", "GETDEL", K1)).isEmpty();
    }

    @Test
    void msetAndMsetnxSplitPerShard() {
        String k0x = "{" + K0 + "}x";
        assertThat(run("+OK\r\n", "MSET", K0, "a", K1, "b", K2, "c", k0x, "d", K3, "e", K1, "f"))
                .containsExactlyInAnyOrder(
                        shard(K0) + ": MSET " + K0 + " a " + k0x + " d",
                        shard(K1) + ": MSET " + K1 + " b " + K1 + " f",
                        shard(K2) + ": MSET " + K2 + " c",
                        shard(K3) + ": MSET " + K3 + " e");
        assertThat(run(":0\r\n", "MSETNX", "{n}a", "1", K2, "2")).isEmpty();
        assertThat(run(":1\r\n", "MSETNX", "{n}a", "1", "{n}b", "2"))
                .containsExactly(shard("{n}a") + ": MSET {n}a 1 {n}b 2");
        assertThat(run("-ERR wrong number of arguments for 'mset' command\r\n", "MSET", "a", "1", "b")).isEmpty();
    }

    @Test
    void countersAndEditsEmitTheNewValueKeepingTtl() {
        int s = shard(K2);
        assertThat(run(":1\r\n", "INCR", K2)).containsExactly(s + ": SET " + K2 + " 1 KEEPTTL");
        assertThat(run(":11\r\n", "INCRBY", K2, "10")).containsExactly(s + ": SET " + K2 + " 11 KEEPTTL");
        assertThat(run(":10\r\n", "DECR", K2)).containsExactly(s + ": SET " + K2 + " 10 KEEPTTL");
        assertThat(run(":-5\r\n", "DECRBY", K2, "15")).containsExactly(s + ": SET " + K2 + " -5 KEEPTTL");
        setup("SET", K2, "10.5");
        assertThat(run("$4\r\n10.6\r\n", "INCRBYFLOAT", K2, "0.1")).containsExactly(s + ": SET " + K2 + " 10.6 KEEPTTL");
        assertThat(run("$21\r\n100000000000000000008\r\n", "INCRBYFLOAT", K2, "1e20"))
                .containsExactly(s + ": SET " + K2 + " 100000000000000000008 KEEPTTL");
        assertThat(run("-ERR value is not an integer or out of range\r\n", "INCR", K2)).isEmpty();
        assertThat(run("-ERR value is not a valid float\r\n", "INCRBYFLOAT", K2, "x")).isEmpty();
        setup("SET", K2, "ab");
        assertThat(run(":4\r\n", "APPEND", K2, "cd")).containsExactly(s + ": SET " + K2 + " abcd KEEPTTL");
        assertThat(run(":4\r\n", "APPEND", K2, "")).isEmpty();
        assertThat(run(":6\r\n", "SETRANGE", K2, "4", "ef")).containsExactly(s + ": SET " + K2 + " abcdef KEEPTTL");
        assertThat(run(":6\r\n", "SETRANGE", K2, "0", "")).isEmpty();
        assertThat(run(":0\r\n", "SETRANGE", K3, "3", "")).isEmpty();
        assertThat(run(":3\r\n", "SETRANGE", K3, "1", "xy"))
                .containsExactly(shard(K3) + ": SET " + K3 + " \0xy KEEPTTL");
        assertThat(run(":2\r\n", "APPEND", K1, "hi")).containsExactly(shard(K1) + ": SET " + K1 + " hi KEEPTTL");
        assertThat(run("-ERR offset is out of range\r\n", "SETRANGE", K2, "-1", "x")).isEmpty();
        setup("SET", K3, "9223372036854775807");
        assertThat(run("-ERR increment or decrement would overflow\r\n", "INCR", K3)).isEmpty();
    }

    @Test
    void delAndUnlinkSplitPerShardInArgumentOrder() {
        setup("MSET", K0, "1", K1, "2", K2, "3", K3, "4");
        setup("SET", K0 + "b{" + K0 + "}", "5");
        String k0b = K0 + "b{" + K0 + "}";
        List<String> f = run(":4\r\n", "DEL", K3, "missing", k0b, K1, K0, K3);
        assertThat(f).containsExactlyInAnyOrder(
                shard(K0) + ": DEL " + k0b + " " + K0,
                shard(K1) + ": DEL " + K1,
                shard(K3) + ": DEL " + K3);
        assertThat(run(":0\r\n", "DEL", "missing", K0)).isEmpty();
        assertThat(run(":1\r\n", "UNLINK", K2)).containsExactly(shard(K2) + ": DEL " + K2);
    }

    @Test
    void expireFamilyAndPersist() {
        int s = shard(K3);
        assertThat(run(":0\r\n", "EXPIRE", K3, "100")).isEmpty();
        setup("SET", K3, "v");
        long before = System.currentTimeMillis();
        List<String> f = run(":1\r\n", "EXPIRE", K3, "100");
        assertTimed(f.get(0), s + ": PEXPIREAT " + K3 + " ", before + 100_000, System.currentTimeMillis() + 100_000);
        f = run(":1\r\n", "PEXPIRE", K3, "50000");
        assertTimed(f.get(0), s + ": PEXPIREAT " + K3 + " ", before + 50_000, System.currentTimeMillis() + 50_000);
        assertThat(run(":1\r\n", "EXPIREAT", K3, "99999999999")).containsExactly(s + ": PEXPIREAT " + K3 + " 99999999999000");
        assertThat(run(":1\r\n", "PEXPIREAT", K3, "99999999999001"))
                .containsExactly(s + ": PEXPIREAT " + K3 + " 99999999999001");
        assertThat(run(":0\r\n", "PEXPIREAT", K3, "99999999999000", "GT")).isEmpty();
        assertThat(run(":0\r\n", "PEXPIREAT", K3, "99999999999000", "NX")).isEmpty();
        assertThat(run(":1\r\n", "PEXPIREAT", K3, "99999999999000", "LT"))
                .containsExactly(s + ": PEXPIREAT " + K3 + " 99999999999000");
        assertThat(run("-ERR GT and LT options at the same time are not compatible\r\n", "EXPIRE", K3, "1", "GT", "LT"))
                .isEmpty();
        assertThat(run(":1\r\n", "PERSIST", K3)).containsExactly(s + ": PERSIST " + K3);
        assertThat(run(":0\r\n", "PERSIST", K3)).isEmpty();
        assertThat(run(":1\r\n", "EXPIRE", K3, "-1")).containsExactly(s + ": DEL " + K3);
        setup("SET", K3, "v");
        assertThat(run(":1\r\n", "PEXPIREAT", K3, "1")).containsExactly(s + ": DEL " + K3);
        assertThat(run(":-2\r\n", "TTL", K3)).isEmpty();
    }

    @Test
    void renameOnOneShardIsARenameFrame() {
        String src = "{r}src";
        String dst = "{r}dst";
        int s = shard(src);
        setup("SET", src, "v", "EXAT", "99999999999");
        assertThat(run("+OK\r\n", "RENAME", src, dst)).containsExactly(s + ": RENAME " + src + " " + dst);
        assertThat(run(":1\r\n", "RENAMENX", dst, src)).containsExactly(s + ": RENAME " + dst + " " + src);
        setup("SET", dst, "other");
        assertThat(run(":0\r\n", "RENAMENX", src, dst)).isEmpty();
        assertThat(run("+OK\r\n", "RENAME", src, src)).isEmpty();
        assertThat(run("-ERR no such key\r\n", "RENAME", "{r}none", dst)).isEmpty();
    }

    @Test
    void renameAcrossShardsRebuildsOnTheDestination() {
        setup("SET", K0, "v", "PXAT", "99999999999777");
        assertThat(run("+OK\r\n", "RENAME", K0, K1)).containsExactly(
                shard(K1) + ": DEL " + K1,
                shard(K1) + ": SET " + K1 + " v",
                shard(K1) + ": PEXPIREAT " + K1 + " 99999999999777",
                shard(K0) + ": DEL " + K0);
        setup("HSET", K2, "f1", "a", "f2", "b");
        List<String> f = run(":1\r\n", "RENAMENX", K2, K3);
        assertThat(f).hasSize(3);
        assertThat(f.get(0)).isEqualTo(shard(K3) + ": DEL " + K3);
        assertThat(f.get(1)).isIn(shard(K3) + ": HSET " + K3 + " f1 a f2 b", shard(K3) + ": HSET " + K3 + " f2 b f1 a");
        assertThat(f.get(2)).isEqualTo(shard(K2) + ": DEL " + K2);
        assertThat(run(":0\r\n", "RENAMENX", K1, K3)).isEmpty();
        setup("RPUSH", K0, "a", "b", "c");
        setup("SET", K2, "old");
        assertThat(run("+OK\r\n", "RENAME", K0, K2)).containsExactly(
                shard(K2) + ": DEL " + K2,
                shard(K2) + ": RPUSH " + K2 + " a b c",
                shard(K0) + ": DEL " + K0);
        setup("ZADD", K0, "1", "a", "2.5", "b");
        setup("PEXPIREAT", K0, "99999999999321");
        assertThat(run("+OK\r\n", "RENAME", K0, K1)).containsExactly(
                shard(K1) + ": DEL " + K1,
                shard(K1) + ": ZADD " + K1 + " 1 a 2.5 b",
                shard(K1) + ": PEXPIREAT " + K1 + " 99999999999321",
                shard(K0) + ": DEL " + K0);
    }

    @Test
    void copyEmitsTheRebuild() {
        setup("SET", K0, "v", "PXAT", "99999999999555");
        assertThat(run(":1\r\n", "COPY", K0, K1)).containsExactly(
                shard(K1) + ": SET " + K1 + " v",
                shard(K1) + ": PEXPIREAT " + K1 + " 99999999999555");
        assertThat(run(":0\r\n", "COPY", K0, K1)).isEmpty();
        setup("SET", K0, "w");
        assertThat(run(":1\r\n", "COPY", K0, K1, "REPLACE")).containsExactly(
                shard(K1) + ": DEL " + K1,
                shard(K1) + ": SET " + K1 + " w");
        assertThat(run(":1\r\n", "COPY", K0, "{" + K0 + "}c")).containsExactly(shard(K0) + ": SET {" + K0 + "}c w");
        setup("HSET", K2, "f", "v");
        assertThat(run(":1\r\n", "COPY", K2, K3)).containsExactly(shard(K3) + ": HSET " + K3 + " f v");
        assertThat(run(":0\r\n", "COPY", "none", K3)).isEmpty();
        setup("SADD", K0 + "s", "m");
        assertThat(run(":1\r\n", "COPY", K0 + "s", K3, "REPLACE"))
                .containsExactly(shard(K3) + ": DEL " + K3, shard(K3) + ": SADD " + K3 + " m");
        setup("RPUSH", K0 + "l", "x", "y");
        assertThat(run(":1\r\n", "COPY", K0 + "l", "{" + K0 + "l}c"))
                .containsExactly(shard(K0 + "l") + ": RPUSH {" + K0 + "l}c x y");
        assertThat(run("-ERR source and destination objects are the same\r\n", "COPY", K2, K2)).isEmpty();
    }

    @Test
    void readsEmitNothing() {
        setup("MSET", K0, "1", K1, "2");
        setup("HSET", K2, "f", "v");
        String[][] reads = {
            {"GET", K0}, {"MGET", K0, K1, K2}, {"STRLEN", K0}, {"GETRANGE", K0, "0", "-1"}, {"EXISTS", K0, K1},
            {"TOUCH", K0}, {"TYPE", K2}, {"TTL", K0}, {"PTTL", K0}, {"EXPIRETIME", K0}, {"PEXPIRETIME", K0},
            {"OBJECT", "ENCODING", K0}, {"KEYS", "*"}, {"SCAN", "0"}, {"RANDOMKEY"}, {"LCS", K0, K0},
        };
        for (String[] r : reads) {
            raw.call(r);
            assertThat(take()).as(String.join(" ", r)).isEmpty();
        }
    }

    @Test
    void expiryEmitsExactlyOneDelWhetherLazyOrActive() {
        long t0 = System.currentTimeMillis();
        setup("SET", K0, "v", "PX", "20");
        setup("SET", K1, "v", "PX", "20");
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> System.currentTimeMillis() > t0 + 40);
        assertThat(raw.call("GET", K0)).isEqualTo("$-1\r\n");
        assertThat(raw.call("SCAN", "0", "COUNT", "1000")).doesNotContain(K1);
        assertThat(take()).containsExactlyInAnyOrder(shard(K0) + ": DEL " + K0, shard(K1) + ": DEL " + K1);
    }
}
