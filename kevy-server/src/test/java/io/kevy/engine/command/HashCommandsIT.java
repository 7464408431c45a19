package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.FrameRecorder;
import io.kevy.testing.OracleFixture;
import io.kevy.testing.RawClient;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Hash commands against a real Redis 7.0 (byte-for-byte replies, encodings through DEBUG OBJECT, digests through
 * DEBUG DIGEST), their effect frames, and lettuce's HSCAN/HRANDFIELD.
 */
class HashCommandsIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create().shards(4).redisArgs("--enable-debug-command", "yes");

    @BeforeEach
    void resetListpackLimits() {
        oracle.same("CONFIG", "SET", "hash-max-listpack-entries", "512", "hash-max-listpack-value", "64");
    }

    @Test
    void writeAndReadRepliesMatchRedis() {
        oracle.same("HSET", "h", "a", "1", "b", "2");
        oracle.same("HSET", "h", "a", "10", "c", "3", "a", "11");
        oracle.same("HSET", "h", "a");
        oracle.same("HSET", "h", "a", "1", "b");
        oracle.same("HSET", "h");
        oracle.same("HMSET", "h", "d", "4", "e", "5");
        oracle.same("HMSET", "h", "d");
        oracle.same("HSETNX", "h", "a", "x");
        oracle.same("HSETNX", "h", "z", "26");
        oracle.same("HSETNX", "new", "f", "v");
        oracle.same("HGET", "h", "a");
        oracle.same("HGET", "h", "nosuch");
        oracle.same("HGET", "nosuch", "a");
        oracle.same("HMGET", "h", "a", "nosuch", "b");
        oracle.same("HMGET", "nosuch", "a", "b");
        oracle.same("HMGET", "h");
        oracle.same("HEXISTS", "h", "a");
        oracle.same("HEXISTS", "h", "nosuch");
        oracle.same("HEXISTS", "nosuch", "a");
        oracle.same("HLEN", "h");
        oracle.same("HLEN", "nosuch");
        oracle.same("HSTRLEN", "h", "a");
        oracle.same("HSTRLEN", "h", "nosuch");
        oracle.same("HSTRLEN", "nosuch", "a");
        oracle.same("HKEYS", "h");
        oracle.same("HVALS", "h");
        oracle.same("HGETALL", "h");
        oracle.same("HKEYS", "nosuch");
        oracle.same("HVALS", "nosuch");
        oracle.same("HGETALL", "nosuch");
        oracle.same("HDEL", "h", "a", "a", "nosuch", "b");
        oracle.same("HGETALL", "h");
        oracle.same("HDEL", "h");
        oracle.same("HDEL", "nosuch", "a");
        oracle.same("HDEL", "h", "c", "d", "e", "z");
        oracle.same("EXISTS", "h");
        oracle.same("HLEN", "h");
        oracle.same("HSET", "binary", "f\u0000\r\n", "v\u0000\u00ff");
        oracle.same("HGETALL", "binary");
        oracle.same("HSET", "empty", "", "");
        oracle.same("HGETALL", "empty");
        oracle.same("HSTRLEN", "empty", "");
    }

    @Test
    void wrongTypeAndArityMatchRedis() {
        oracle.same("SET", "s", "x");
        for (String[] cmd : new String[][] {{"HSET", "s", "a", "1"}, {"HSETNX", "s", "a", "1"}, {"HMSET", "s", "a", "1"},
            {"HGET", "s", "a"}, {"HMGET", "s", "a"}, {"HDEL", "s", "a"}, {"HEXISTS", "s", "a"}, {"HLEN", "s"},
            {"HSTRLEN", "s", "a"}, {"HKEYS", "s"}, {"HVALS", "s"}, {"HGETALL", "s"}, {"HINCRBY", "s", "a", "1"},
            {"HINCRBYFLOAT", "s", "a", "1"}, {"HSCAN", "s", "0"}, {"HRANDFIELD", "s"}, {"HRANDFIELD", "s", "2"}}) {
            oracle.same(cmd);
        }
        for (String[] cmd : new String[][] {{"HGET", "h"}, {"HMGET", "h"}, {"HDEL", "h"}, {"HEXISTS", "h"}, {"HLEN"},
            {"HSTRLEN", "h"}, {"HKEYS"}, {"HVALS", "h", "x"}, {"HGETALL"}, {"HINCRBY", "h", "a"},
            {"HINCRBYFLOAT", "h", "a"}, {"HSCAN", "h"}, {"HRANDFIELD"}, {"HSETNX", "h", "a"}}) {
            oracle.same(cmd);
        }
        oracle.same("GET", "s");
    }

    @Test
    void countersMatchRedis() {
        oracle.same("HINCRBY", "h", "n", "5");
        oracle.same("HINCRBY", "h", "n", "-7");
        oracle.same("HINCRBY", "h", "n", "x");
        oracle.same("HINCRBY", "h", "n", "1.5");
        oracle.same("HSET", "h", "s", "abc", "big", "9223372036854775806", "sp", " 1", "z", "007");
        oracle.same("HINCRBY", "h", "s", "1");
        oracle.same("HINCRBY", "h", "sp", "1");
        oracle.same("HINCRBY", "h", "z", "1");
        oracle.same("HINCRBY", "h", "big", "1");
        oracle.same("HINCRBY", "h", "big", "1");
        oracle.same("HINCRBY", "h", "big", "-9223372036854775807");
        oracle.same("HSET", "h", "min", "-9223372036854775807");
        oracle.same("HINCRBY", "h", "min", "-1");
        oracle.same("HINCRBY", "h", "min", "-1");
        oracle.same("HINCRBY", "new1", "f", "9223372036854775807");
        oracle.same("HINCRBYFLOAT", "h", "f", "1.5");
        oracle.same("HINCRBYFLOAT", "h", "f", "0.1");
        oracle.same("HINCRBYFLOAT", "h", "f", "-1e3");
        oracle.same("HINCRBYFLOAT", "h", "n", "2.25");
        oracle.same("HINCRBYFLOAT", "h", "s", "1");
        oracle.same("HINCRBYFLOAT", "h", "f", "abc");
        oracle.same("HINCRBYFLOAT", "h", "f", "inf");
        oracle.same("HINCRBYFLOAT", "h", "f", "-inf");
        oracle.same("HINCRBYFLOAT", "h", "f", "nan");
        oracle.same("HINCRBYFLOAT", "h", "f", " 1");
        oracle.same("HINCRBYFLOAT", "h", "f", "1e308");
        oracle.same("HINCRBYFLOAT", "h", "f", "1e4000");
        oracle.same("HINCRBYFLOAT", "h", "g", "5.0e3");
        oracle.same("HSET", "h", "i", "inf");
        oracle.same("HINCRBYFLOAT", "h", "i", "1");
        oracle.same("HINCRBYFLOAT", "new2", "f", "3");
        samePairsInAnyOrder("HGETALL", "h");
        oracle.same("HGETALL", "new1");
        oracle.same("HGETALL", "new2");
        oracle.same("EXISTS", "nope");
        oracle.same("HINCRBY", "nope", "f", "x");
        oracle.same("HINCRBYFLOAT", "nope", "f", "x");
        oracle.same("EXISTS", "nope");
    }

    @Test
    void hscanMatchesRedisOnListpackHashes() {
        oracle.same("HSET", "h", "a1", "1", "b1", "2", "a2", "3", "c", "4");
        oracle.same("HSCAN", "h", "0");
        oracle.same("HSCAN", "h", "0", "COUNT", "1");
        oracle.same("HSCAN", "h", "0", "MATCH", "a*");
        oracle.same("HSCAN", "h", "0", "MATCH", "*", "COUNT", "100");
        oracle.same("HSCAN", "h", "0", "match", "x*");
        oracle.same("HSCAN", "h", "7");
        oracle.same("HSCAN", "h", "");
        oracle.same("HSCAN", "h", "-1");
        oracle.same("HSCAN", "h", "+3");
        oracle.same("HSCAN", "h", "18446744073709551615");
        oracle.same("HSCAN", "h", "18446744073709551616");
        oracle.same("HSCAN", "h", " 1");
        oracle.same("HSCAN", "h", "1x");
        oracle.same("HSCAN", "h", "-");
        oracle.same("HSCAN", "h", "0", "COUNT", "0");
        oracle.same("HSCAN", "h", "0", "COUNT", "-1");
        oracle.same("HSCAN", "h", "0", "COUNT", "x");
        oracle.same("HSCAN", "h", "0", "COUNT");
        oracle.same("HSCAN", "h", "0", "TYPE", "hash");
        oracle.same("HSCAN", "h", "0", "NOVALUES");
        oracle.same("HSCAN", "nosuch", "0");
        oracle.same("HSCAN", "nosuch", "0", "bad", "options");
        oracle.same("HSCAN", "nosuch", "x");
    }

    @Test
    void hrandfieldShapesMatchRedis() {
        oracle.same("HSET", "h", "a", "1", "b", "2", "c", "3");
        oracle.same("HRANDFIELD", "nosuch");
        oracle.same("HRANDFIELD", "nosuch", "3");
        oracle.same("HRANDFIELD", "nosuch", "-3", "WITHVALUES");
        oracle.same("HRANDFIELD", "h", "0");
        oracle.same("HRANDFIELD", "h", "3");
        oracle.same("HRANDFIELD", "h", "5", "WITHVALUES");
        oracle.same("HRANDFIELD", "h", "100", "withvalues");
        oracle.same("HRANDFIELD", "h", "x");
        oracle.same("HRANDFIELD", "h", "1", "x");
        oracle.same("HRANDFIELD", "h", "1", "WITHVALUES", "x");
        oracle.same("HRANDFIELD", "nosuch", "0", "x");
        oracle.same("HRANDFIELD", "h", "-9223372036854775808");
        oracle.same("HRANDFIELD", "h", "9223372036854775807", "WITHVALUES");
        oracle.same("HRANDFIELD", "h", "-4611686018427387904", "WITHVALUES");
        RawClient raw = oracle.diff().kevy();
        assertThat(raw.call("HRANDFIELD", "h", "-5")).startsWith("*5\r\n");
        boolean resp3 = oracle.protocol() == 3; // RESP3 nests the pairs
        assertThat(raw.call("HRANDFIELD", "h", "-4", "WITHVALUES")).startsWith(resp3 ? "*4\r\n*2\r\n" : "*8\r\n");
        assertThat(raw.call("HRANDFIELD", "h", "2")).startsWith("*2\r\n");
        assertThat(raw.call("HRANDFIELD", "h", "2", "WITHVALUES")).startsWith(resp3 ? "*2\r\n*2\r\n" : "*4\r\n");
        assertThat(raw.call("HRANDFIELD", "h")).isIn("$1\r\na\r\n", "$1\r\nb\r\n", "$1\r\nc\r\n");
    }

    /**
     * Counts beyond any reply (issue 28), as Redis 7.0: the range errors; a positive count answers the whole hash;
     * an absent or wrongly typed key answers before any pick; a negative count whose reply goes over the output
     * limit closes the connection with nothing sent (Redis's CLIENT_CLOSE_ASAP, here under a 1 MB
     * client-output-buffer-limit: without one Redis writes until it runs out of memory, where kevy closes the
     * connection), while one that fits answers whole.
     */
    @Test
    void hrandfieldCountsBeyondAnyReplyMatchRedis() {
        oracle.same("HSET", "h", "a", "1", "b", "2", "c", "3");
        oracle.same("SET", "str", "v");
        oracle.same("HRANDFIELD", "h", "-9223372036854775808", "WITHVALUES");
        oracle.same("HRANDFIELD", "h", "-9223372036854775807", "WITHVALUES");
        oracle.same("HRANDFIELD", "h", "4611686018427387904", "withvalues");
        oracle.same("HRANDFIELD", "h", "9223372036854775807");
        oracle.same("HRANDFIELD", "h", "4611686018427387903", "WITHVALUES");
        oracle.same("HRANDFIELD", "h", "2147483648");
        oracle.same("HRANDFIELD", "h", "-9223372036854775807", "x");
        oracle.same("HRANDFIELD", "h", "-92233720368547758070");
        oracle.same("HRANDFIELD", "nosuch", "-9223372036854775807");
        oracle.same("HRANDFIELD", "nosuch", "-4611686018427387903", "WITHVALUES");
        oracle.same("HRANDFIELD", "str", "-9223372036854775807");
        oracle.same("HRANDFIELD", "str", "-4611686018427387903", "WITHVALUES");
        oracle.withNormalOutputLimit("1mb", () -> {
            oracle.sameCloseWithoutReply("HRANDFIELD", "h", "-9223372036854775807");
            oracle.sameCloseWithoutReply("HRANDFIELD", "h", "-4611686018427387903", "WITHVALUES");
            oracle.sameCloseWithoutReply("HRANDFIELD", "h", "-2147483648");
            oracle.sameCloseWithoutReply("HRANDFIELD", "h", "-1073741824", "WITHVALUES");
            oracle.sameCloseWithoutReply("HRANDFIELD", "h", "-200000"); // 1.4 MB
            oracle.sameCloseWithoutReply("HRANDFIELD", "h", "-100000", "WITHVALUES"); // 1.4 MB on RESP2
            String kevy = oracle.diff().kevy().call("HRANDFIELD", "h", "-100000"); // 700 kB
            String redis = oracle.diff().redis().call("HRANDFIELD", "h", "-100000");
            assertThat(kevy).startsWith("*100000\r\n").hasSameSizeAs(redis);
        });
        oracle.kevyClosesWithoutReply("HRANDFIELD", "h", "-9223372036854775807");
        oracle.kevyClosesWithoutReply("HRANDFIELD", "h", "-4611686018427387903", "WITHVALUES");
        oracle.same("HLEN", "h");
    }

    @Test
    void encodingsFollowTheConfiguredLimitsAsRedis() {
        oracle.same("CONFIG", "SET", "hash-max-ziplist-entries", "4", "hash-max-ziplist-value", "8");
        oracle.same("HSET", "small", "a", "1", "b", "2", "c", "3", "d", "4");
        assertSameEncoding("small");
        oracle.same("HSET", "small", "e", "5");
        assertSameEncoding("small");
        oracle.same("HSET", "long", "f", "123456789");
        assertSameEncoding("long");
        oracle.same("HSET", "nx", "a", "1");
        oracle.same("HSETNX", "nx", "a", "123456789");
        assertSameEncoding("nx");
        oracle.same("HSETNX", "nx", "123456789", "1");
        assertSameEncoding("nx");
        oracle.same("HSET", "fl", "f", "1");
        oracle.same("HINCRBYFLOAT", "fl", "f", "0.123456789");
        assertSameEncoding("fl");
        oracle.same("HSET", "hdel", "a", "1", "b", "2", "c", "3", "d", "4", "e", "5");
        oracle.same("HDEL", "hdel", "a", "b", "c");
        assertSameEncoding("hdel");
        samePairsInAnyOrder("HGETALL", "small");
        samePairsInAnyOrder("HGETALL", "hdel");
        samePairsInAnyOrder("HGETALL", "nx");
    }

    /** Compares a flat field/value array reply of a hashtable-encoded hash (whose order is the table's). */
    private void samePairsInAnyOrder(String... cmd) {
        assertThat(pairs(oracle.diff().kevy().call(cmd))).isEqualTo(pairs(oracle.diff().redis().call(cmd)));
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
        String k = encoding(oracle.diff().kevy().call("DEBUG", "OBJECT", key));
        String r = encoding(oracle.diff().redis().call("DEBUG", "OBJECT", key));
        assertThat(k).as("encoding of %s", key).isEqualTo(r);
    }

    private static String encoding(String debugObject) {
        int i = debugObject.indexOf("encoding:");
        return debugObject.substring(i, debugObject.indexOf(' ', i));
    }

    @Test
    void framesAreTheAppliedEffects() {
        try (FrameRecorder frames = FrameRecorder.attach(oracle.engine())) {
            RawClient raw = oracle.kevy().raw();
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
        try (FrameRecorder frames = FrameRecorder.attach(oracle.engine())) {
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
                oracle.same(cmd);
            }
            String digest = oracle.same("DEBUG", "DIGEST");
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
        RedisCommands<String, String> c = oracle.kevy().lettuce();
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
        RedisCommands<String, String> c = oracle.kevy().lettuce();
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
        RedisCommands<String, String> c = oracle.kevy().lettuce();
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
