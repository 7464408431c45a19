package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.FrameRecorder;
import io.kevy.testing.RawClient;
import io.kevy.testing.RedisOracle;
import io.kevy.testing.ReplyDiff;
import io.kevy.testing.TestServer;
import io.lettuce.core.KeyValue;
import io.lettuce.core.MapScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Hash commands against a real Redis 7.0 (byte-for-byte replies, encodings through DEBUG OBJECT, digests through
 * DEBUG DIGEST), their effect frames, and lettuce's HSCAN/HRANDFIELD.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HashCommandsIT {
    private TestServer kevy;
    private RedisOracle redis;
    private ReplyDiff diff;

    @BeforeAll
    void start() {
        kevy = TestServer.start(c -> c.with(io.kevy.server.config.ServerOptions.SHARDS, 4));
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
        diff.same("CONFIG", "SET", "hash-max-listpack-entries", "512", "hash-max-listpack-value", "64");
    }

    @Test
    void writeAndReadRepliesMatchRedis() {
        diff.same("HSET", "h", "a", "1", "b", "2");
        diff.same("HSET", "h", "a", "10", "c", "3", "a", "11");
        diff.same("HSET", "h", "a");
        diff.same("HSET", "h", "a", "1", "b");
        diff.same("HSET", "h");
        diff.same("HMSET", "h", "d", "4", "e", "5");
        diff.same("HMSET", "h", "d");
        diff.same("HSETNX", "h", "a", "x");
        diff.same("HSETNX", "h", "z", "26");
        diff.same("HSETNX", "new", "f", "v");
        diff.same("HGET", "h", "a");
        diff.same("HGET", "h", "nosuch");
        diff.same("HGET", "nosuch", "a");
        diff.same("HMGET", "h", "a", "nosuch", "b");
        diff.same("HMGET", "nosuch", "a", "b");
        diff.same("HMGET", "h");
        diff.same("HEXISTS", "h", "a");
        diff.same("HEXISTS", "h", "nosuch");
        diff.same("HEXISTS", "nosuch", "a");
        diff.same("HLEN", "h");
        diff.same("HLEN", "nosuch");
        diff.same("HSTRLEN", "h", "a");
        diff.same("HSTRLEN", "h", "nosuch");
        diff.same("HSTRLEN", "nosuch", "a");
        diff.same("HKEYS", "h");
        diff.same("HVALS", "h");
        diff.same("HGETALL", "h");
        diff.same("HKEYS", "nosuch");
        diff.same("HVALS", "nosuch");
        diff.same("HGETALL", "nosuch");
        diff.same("HDEL", "h", "a", "a", "nosuch", "b");
        diff.same("HGETALL", "h");
        diff.same("HDEL", "h");
        diff.same("HDEL", "nosuch", "a");
        diff.same("HDEL", "h", "c", "d", "e", "z");
        diff.same("EXISTS", "h");
        diff.same("HLEN", "h");
        diff.same("HSET", "binary", "f\u0000\r\n", "v\u0000\u00ff");
        diff.same("HGETALL", "binary");
        diff.same("HSET", "empty", "", "");
        diff.same("HGETALL", "empty");
        diff.same("HSTRLEN", "empty", "");
    }

    @Test
    void wrongTypeAndArityMatchRedis() {
        diff.same("SET", "s", "x");
        for (String[] cmd : new String[][] {{"HSET", "s", "a", "1"}, {"HSETNX", "s", "a", "1"}, {"HMSET", "s", "a", "1"},
            {"HGET", "s", "a"}, {"HMGET", "s", "a"}, {"HDEL", "s", "a"}, {"HEXISTS", "s", "a"}, {"HLEN", "s"},
            {"HSTRLEN", "s", "a"}, {"HKEYS", "s"}, {"HVALS", "s"}, {"HGETALL", "s"}, {"HINCRBY", "s", "a", "1"},
            {"HINCRBYFLOAT", "s", "a", "1"}, {"HSCAN", "s", "0"}, {"HRANDFIELD", "s"}, {"HRANDFIELD", "s", "2"}}) {
            diff.same(cmd);
        }
        for (String[] cmd : new String[][] {{"HGET", "h"}, {"HMGET", "h"}, {"HDEL", "h"}, {"HEXISTS", "h"}, {"HLEN"},
            {"HSTRLEN", "h"}, {"HKEYS"}, {"HVALS", "h", "x"}, {"HGETALL"}, {"HINCRBY", "h", "a"},
            {"HINCRBYFLOAT", "h", "a"}, {"HSCAN", "h"}, {"HRANDFIELD"}, {"HSETNX", "h", "a"}}) {
            diff.same(cmd);
        }
        diff.same("GET", "s");
    }

    @Test
    void countersMatchRedis() {
        diff.same("HINCRBY", "h", "n", "5");
        diff.same("HINCRBY", "h", "n", "-7");
        diff.same("HINCRBY", "h", "n", "x");
        diff.same("HINCRBY", "h", "n", "1.5");
        diff.same("HSET", "h", "s", "abc", "big", "9223372036854775806", "sp", " 1", "z", "007");
        diff.same("HINCRBY", "h", "s", "1");
        diff.same("HINCRBY", "h", "sp", "1");
        diff.same("HINCRBY", "h", "z", "1");
        diff.same("HINCRBY", "h", "big", "1");
        diff.same("HINCRBY", "h", "big", "1");
        diff.same("HINCRBY", "h", "big", "-9223372036854775807");
        diff.same("HSET", "h", "min", "-9223372036854775807");
        diff.same("HINCRBY", "h", "min", "-1");
        diff.same("HINCRBY", "h", "min", "-1");
        diff.same("HINCRBY", "new1", "f", "9223372036854775807");
        diff.same("HINCRBYFLOAT", "h", "f", "1.5");
        diff.same("HINCRBYFLOAT", "h", "f", "0.1");
        diff.same("HINCRBYFLOAT", "h", "f", "-1e3");
        diff.same("HINCRBYFLOAT", "h", "n", "2.25");
        diff.same("HINCRBYFLOAT", "h", "s", "1");
        diff.same("HINCRBYFLOAT", "h", "f", "abc");
        diff.same("HINCRBYFLOAT", "h", "f", "inf");
        diff.same("HINCRBYFLOAT", "h", "f", "-inf");
        diff.same("HINCRBYFLOAT", "h", "f", "nan");
        diff.same("HINCRBYFLOAT", "h", "f", " 1");
        diff.same("HINCRBYFLOAT", "h", "f", "1e308");
        diff.same("HINCRBYFLOAT", "h", "f", "1e4000");
        diff.same("HINCRBYFLOAT", "h", "g", "5.0e3");
        diff.same("HSET", "h", "i", "inf");
        diff.same("HINCRBYFLOAT", "h", "i", "1");
        diff.same("HINCRBYFLOAT", "new2", "f", "3");
        samePairsInAnyOrder("HGETALL", "h");
        diff.same("HGETALL", "new1");
        diff.same("HGETALL", "new2");
        diff.same("EXISTS", "nope");
        diff.same("HINCRBY", "nope", "f", "x");
        diff.same("HINCRBYFLOAT", "nope", "f", "x");
        diff.same("EXISTS", "nope");
    }

    @Test
    void hscanMatchesRedisOnListpackHashes() {
        diff.same("HSET", "h", "a1", "1", "b1", "2", "a2", "3", "c", "4");
        diff.same("HSCAN", "h", "0");
        diff.same("HSCAN", "h", "0", "COUNT", "1");
        diff.same("HSCAN", "h", "0", "MATCH", "a*");
        diff.same("HSCAN", "h", "0", "MATCH", "*", "COUNT", "100");
        diff.same("HSCAN", "h", "0", "match", "x*");
        diff.same("HSCAN", "h", "7");
        diff.same("HSCAN", "h", "");
        diff.same("HSCAN", "h", "-1");
        diff.same("HSCAN", "h", "+3");
        diff.same("HSCAN", "h", "18446744073709551615");
        diff.same("HSCAN", "h", "18446744073709551616");
        diff.same("HSCAN", "h", " 1");
        diff.same("HSCAN", "h", "1x");
        diff.same("HSCAN", "h", "-");
        diff.same("HSCAN", "h", "0", "COUNT", "0");
        diff.same("HSCAN", "h", "0", "COUNT", "-1");
        diff.same("HSCAN", "h", "0", "COUNT", "x");
        diff.same("HSCAN", "h", "0", "COUNT");
        diff.same("HSCAN", "h", "0", "TYPE", "hash");
        diff.same("HSCAN", "h", "0", "NOVALUES");
        diff.same("HSCAN", "nosuch", "0");
        diff.same("HSCAN", "nosuch", "0", "bad", "options");
        diff.same("HSCAN", "nosuch", "x");
    }

    @Test
    void hrandfieldShapesMatchRedis() {
        diff.same("HSET", "h", "a", "1", "b", "2", "c", "3");
        diff.same("HRANDFIELD", "nosuch");
        diff.same("HRANDFIELD", "nosuch", "3");
        diff.same("HRANDFIELD", "nosuch", "-3", "WITHVALUES");
        diff.same("HRANDFIELD", "h", "0");
        diff.same("HRANDFIELD", "h", "3");
        diff.same("HRANDFIELD", "h", "5", "WITHVALUES");
        diff.same("HRANDFIELD", "h", "100", "withvalues");
        diff.same("HRANDFIELD", "h", "x");
        diff.same("HRANDFIELD", "h", "1", "x");
        diff.same("HRANDFIELD", "h", "1", "WITHVALUES", "x");
        diff.same("HRANDFIELD", "nosuch", "0", "x");
        diff.same("HRANDFIELD", "h", "-9223372036854775808");
        diff.same("HRANDFIELD", "h", "9223372036854775807", "WITHVALUES");
        diff.same("HRANDFIELD", "h", "-4611686018427387904", "WITHVALUES");
        RawClient raw = diff.kevy();
        assertThat(raw.call("HRANDFIELD", "h", "-5")).startsWith("*5\r\n");
        assertThat(raw.call("HRANDFIELD", "h", "-4", "WITHVALUES")).startsWith("*8\r\n");
        assertThat(raw.call("HRANDFIELD", "h", "2")).startsWith("*2\r\n");
        assertThat(raw.call("HRANDFIELD", "h", "2", "WITHVALUES")).startsWith("*4\r\n");
        assertThat(raw.call("HRANDFIELD", "h")).isIn("$1\r\na\r\n", "$1\r\nb\r\n", "$1\r\nc\r\n");
    }

    @Test
    void encodingsFollowTheConfiguredLimitsAsRedis() {
        diff.same("CONFIG", "SET", "hash-max-ziplist-entries", "4", "hash-max-ziplist-value", "8");
        diff.same("HSET", "small", "a", "1", "b", "2", "c", "3", "d", "4");
        assertSameEncoding("small");
        diff.same("HSET", "small", "e", "5");
        assertSameEncoding("small");
        diff.same("HSET", "long", "f", "123456789");
        assertSameEncoding("long");
        diff.same("HSET", "nx", "a", "1");
        diff.same("HSETNX", "nx", "a", "123456789");
        assertSameEncoding("nx");
        diff.same("HSETNX", "nx", "123456789", "1");
        assertSameEncoding("nx");
        diff.same("HSET", "fl", "f", "1");
        diff.same("HINCRBYFLOAT", "fl", "f", "0.123456789");
        assertSameEncoding("fl");
        diff.same("HSET", "hdel", "a", "1", "b", "2", "c", "3", "d", "4", "e", "5");
        diff.same("HDEL", "hdel", "a", "b", "c");
        assertSameEncoding("hdel");
        samePairsInAnyOrder("HGETALL", "small");
        samePairsInAnyOrder("HGETALL", "hdel");
        samePairsInAnyOrder("HGETALL", "nx");
    }

    /** Compares a flat field/value array reply of a hashtable-encoded hash (whose order is the table's). */
    private void samePairsInAnyOrder(String... cmd) {
        assertThat(pairs(diff.kevy().call(cmd))).isEqualTo(pairs(diff.redis().call(cmd)));
    }

    private static Set<String> pairs(String resp) {
        String[] lines = resp.split("\r\n");
        List<String> bulks = new ArrayList<>();
        for (int i = 1; i < lines.length; i += 2) {
            bulks.add(lines[i + 1]);
        }
        Set<String> out = new HashSet<>();
        for (int i = 0; i < bulks.size(); i += 2) {
            out.add(bulks.get(i) + "=" + bulks.get(i + 1));
        }
        assertThat(out).hasSize(bulks.size() / 2);
        return out;
    }

    private void assertSameEncoding(String key) {
        String k = encoding(diff.kevy().call("DEBUG", "OBJECT", key));
        String r = encoding(diff.redis().call("DEBUG", "OBJECT", key));
        assertThat(k).as("encoding of %s", key).isEqualTo(r);
    }

    private static String encoding(String debugObject) {
        int i = debugObject.indexOf("encoding:");
        return debugObject.substring(i, debugObject.indexOf(' ', i));
    }

    @Test
    void framesAreTheAppliedEffects() {
        try (FrameRecorder frames = FrameRecorder.attach(kevy.server().engine())) {
            RawClient raw = kevy.raw();
            raw.call("HSET", "h", "a", "1", "b", "2", "a", "3");
            raw.call("HMSET", "h", "c", "4");
            raw.call("HSETNX", "h", "a", "9");
            raw.call("HSETNX", "h", "d", "5");
            raw.call("HINCRBY", "h", "n", "7");
            raw.call("HINCRBYFLOAT", "h", "f", "1.5");
            raw.call("HINCRBYFLOAT", "h", "f", "0.25");
            raw.call("HDEL", "h", "a", "nosuch", "b", "a");
            raw.call("HDEL", "h", "nosuch");
            raw.call("HDEL", "nosuch", "a");
            raw.call("HINCRBY", "h", "c", "x");
            raw.call("HINCRBYFLOAT", "h", "c", "inf");
            raw.call("HSET", "h", "odd");
            raw.call("HGET", "h", "c");
            raw.call("HGETALL", "h");
            raw.call("HSCAN", "h", "0");
            raw.call("HRANDFIELD", "h", "-3");
            raw.call("HDEL", "h", "c", "d", "n", "f", "after-empty");
            assertThat(frames.take()).containsExactly(
                    "HSET h a 1 b 2 a 3",
                    "HSET h c 4",
                    "HSET h d 5",
                    "HSET h n 7",
                    "HSET h f 1.5",
                    "HSET h f 1.75",
                    "HDEL h a b",
                    "HDEL h c d n f");
            assertThat(raw.call("EXISTS", "h")).isEqualTo(":0\r\n");
        }
    }

    /**
     * Random hash commands on a few keys run on kevy and Redis: every reply is the same byte for byte (hashes stay
     * small, so listpack order makes even HGETALL deterministic), the data sets have the same DEBUG DIGEST, and
     * replaying kevy's frames onto an empty kevy gives that digest too (the completeness invariant).
     */
    @Test
    void randomCommandsMatchRedisAndFramesReplayToTheSameState() {
        long seed = System.nanoTime();
        System.out.println("HashCommandsIT random seed: " + seed);
        Random rnd = new Random(seed);
        String[] fields = {"a", "b", "c", "d", "e", "f", "1", "22", ""};
        String[] values = {"1", "-5", "x", "3.5", "", "9223372036854775807", "0.1", "10", "abc"};
        try (FrameRecorder frames = FrameRecorder.attach(kevy.server().engine())) {
            for (int i = 0; i < 3000; i++) {
                String key = "k" + rnd.nextInt(4);
                String f = fields[rnd.nextInt(fields.length)];
                String v = values[rnd.nextInt(values.length)];
                String[] cmd = switch (rnd.nextInt(14)) {
                    case 0 -> new String[] {"HSET", key, f, v, fields[rnd.nextInt(fields.length)], v};
                    case 1 -> new String[] {"HSETNX", key, f, v};
                    case 2 -> new String[] {"HMSET", key, f, v};
                    case 3 -> new String[] {"HDEL", key, f, fields[rnd.nextInt(fields.length)]};
                    case 4 -> new String[] {"HINCRBY", key, f, Integer.toString(rnd.nextInt(21) - 10)};
                    case 5 -> new String[] {"HINCRBYFLOAT", key, f, values[rnd.nextInt(values.length)]};
                    case 6 -> new String[] {"HGETALL", key};
                    case 7 -> new String[] {"HMGET", key, f, "zz", fields[rnd.nextInt(fields.length)]};
                    case 8 -> new String[] {"HKEYS", key};
                    case 9 -> new String[] {"HVALS", key};
                    case 10 -> new String[] {"HLEN", key};
                    case 11 -> new String[] {"HSTRLEN", key, f};
                    case 12 -> new String[] {"HSCAN", key, "0", "MATCH", "*" + f};
                    default -> new String[] {"HRANDFIELD", key, "50", "WITHVALUES"};
                };
                diff.same(cmd);
            }
            String digest = diff.same("DEBUG", "DIGEST");
            assertThat(digest).isNotEqualTo("+0000000000000000000000000000000000000000\r\n");
            try (TestServer replica = TestServer.start()) {
                RawClient r = replica.raw();
                for (FrameRecorder.Frame frame : frames.all()) {
                    r.send(RawClient.encode(frame.argv()));
                    assertThat(r.readReply()).doesNotStartWith("-");
                }
                assertThat(r.call("DEBUG", "DIGEST")).isEqualTo(digest);
            }
        }
    }

    @Test
    void lettuceHscanVisitsEveryFieldOfALargeHashWithMatchAndCount() {
        RedisCommands<String, String> c = kevy.lettuce();
        Map<String, String> all = new HashMap<>();
        for (int i = 0; i < 2000; i++) {
            all.put("field:" + i, "v" + i);
        }
        c.hset("big", all);
        Map<String, String> seen = new HashMap<>();
        ScanCursor cursor = ScanCursor.INITIAL;
        int calls = 0;
        do {
            MapScanCursor<String, String> page = c.hscan("big", cursor, ScanArgs.Builder.limit(50));
            seen.putAll(page.getMap());
            cursor = page;
            calls++;
        } while (!cursor.isFinished());
        assertThat(seen).isEqualTo(all);
        assertThat(calls).isGreaterThan(10);

        Set<String> matched = new HashSet<>();
        cursor = ScanCursor.INITIAL;
        do {
            MapScanCursor<String, String> page = c.hscan("big", cursor, ScanArgs.Builder.matches("field:1?").limit(100));
            matched.addAll(page.getMap().keySet());
            cursor = page;
        } while (!cursor.isFinished());
        Set<String> expected = new HashSet<>();
        for (int i = 10; i < 20; i++) {
            expected.add("field:" + i);
        }
        assertThat(matched).isEqualTo(expected);
        assertThat(c.hscan("small-or-missing", ScanCursor.INITIAL).getMap()).isEmpty();
    }

    @Test
    void hscanReturnsEveryFieldPresentThroughoutWhileTheHashGrows() {
        RedisCommands<String, String> c = kevy.lettuce();
        Map<String, String> initial = new HashMap<>();
        for (int i = 0; i < 1000; i++) {
            initial.put("f" + i, "v");
        }
        c.hset("g", initial);
        Set<String> seen = new HashSet<>();
        ScanCursor cursor = ScanCursor.INITIAL;
        int added = 0;
        do {
            MapScanCursor<String, String> page = c.hscan("g", cursor, ScanArgs.Builder.limit(100));
            seen.addAll(page.getMap().keySet());
            cursor = page;
            Map<String, String> more = new HashMap<>();
            for (int j = 0; j < 5; j++) {
                more.put("new" + added++, "v");
            }
            c.hset("g", more);
        } while (!cursor.isFinished());
        assertThat(seen).containsAll(initial.keySet());
        assertThat(added).as("the table grew past 1024 buckets during the scan").isGreaterThan(24);
    }

    @Test
    void lettuceHrandfield() {
        RedisCommands<String, String> c = kevy.lettuce();
        Map<String, String> h = new java.util.LinkedHashMap<>();
        for (String f : new String[] {"a", "b", "c", "d"}) {
            h.put(f, Integer.toString(f.charAt(0) - 'a' + 1));
        }
        c.hset("h", h);
        assertThat(h).containsKey(c.hrandfield("h"));
        List<String> two = c.hrandfield("h", 2);
        assertThat(two).hasSize(2).doesNotHaveDuplicates();
        assertThat(h.keySet()).containsAll(two);
        assertThat(c.hrandfield("h", 10)).containsExactly("a", "b", "c", "d");
        List<String> repeated = c.hrandfield("h", -20);
        assertThat(repeated).hasSize(20);
        assertThat(h.keySet()).containsAll(repeated);
        List<KeyValue<String, String>> withValues = c.hrandfieldWithvalues("h", -6);
        assertThat(withValues).hasSize(6).allSatisfy(kv -> assertThat(h.get(kv.getKey())).isEqualTo(kv.getValue()));
        assertThat(c.hrandfield("missing")).isNull();
        assertThat(c.hrandfield("missing", 3)).isEmpty();
        List<String> counts = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            counts.add(c.hrandfield("h"));
        }
        assertThat(new HashSet<>(counts)).containsExactlyInAnyOrder("a", "b", "c", "d");
    }
}
