package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.engine.dump.Crc64;
import io.kevy.testing.OracleFixture;
import io.kevy.testing.RawClient;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * DUMP and RESTORE against a real Redis 7.0: DUMP output byte for byte for every type and encoding Redis chooses
 * deterministically, payloads copied Redis → kevy → Redis with equal values (DEBUG DIGEST-VALUE), ziplist-era
 * payloads, the options and every error text, hostile payloads, and the frames (feed contract §7).
 */
class DumpRestoreIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create().shards(2).redisArgs("--enable-debug-command", "yes")
            .recordFrames();

    private static RawClient kevy() {
        return oracle.diff().kevy();
    }

    private static RawClient redis() {
        return oracle.diff().redis();
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** The bytes of a bulk-string reply ({@code $n\r\n...\r\n}). */
    static byte[] bulk(byte[] reply) {
        String head = new String(reply, 0, Math.min(reply.length, 20), StandardCharsets.ISO_8859_1);
        assertThat(head).startsWith("$");
        int crlf = head.indexOf("\r\n");
        int n = Integer.parseInt(head.substring(1, crlf));
        return Arrays.copyOfRange(reply, crlf + 2, crlf + 2 + n);
    }

    static byte[] dump(RawClient c, String key) {
        return bulk(c.send(RawClient.encode(b("DUMP"), b(key))).readReplyBytes());
    }

    static String restore(RawClient c, String key, String ttl, byte[] payload, String... options) {
        List<byte[]> args = new ArrayList<>(List.of(b("RESTORE"), b(key), b(ttl), payload));
        for (String o : options) {
            args.add(b(o));
        }
        return c.send(RawClient.encode(args.toArray(new byte[0][]))).readReply();
    }

    /** A payload of {@code object} with Redis 7.0's footer (version 10, CRC64). */
    static byte[] payload(byte[] object, int version) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        o.writeBytes(object);
        o.write(version & 0xff);
        o.write(version >>> 8);
        byte[] body = o.toByteArray();
        long crc = Crc64.update(0, body, 0, body.length);
        for (int i = 0; i < 8; i++) {
            o.write((int) (crc >>> (8 * i)) & 0xff);
        }
        return o.toByteArray();
    }

    private static void both(String... cmd) {
        oracle.same(cmd);
    }

    private static void rpush(String key, int n, java.util.function.IntFunction<String> element) {
        for (int i = 0; i < n; i += 100) {
            List<String> cmd = new ArrayList<>(List.of("RPUSH", key));
            for (int j = i; j < Math.min(n, i + 100); j++) {
                cmd.add(element.apply(j));
            }
            both(cmd.toArray(new String[0]));
        }
    }

    /** The keys set up by {@link #setUpEveryEncoding}, and whether Redis's DUMP of it is deterministic. */
    private static final List<String> DETERMINISTIC = new ArrayList<>();
    private static final List<String> HASHTABLE = List.of("set:ht", "hash:ht", "hash:longvalue");

    private static void setUpEveryEncoding() {
        DETERMINISTIC.clear();
        String[][] strings = {{"str:small", "hello"}, {"str:int8", "-12"}, {"str:int16", "-129"},
                {"str:int32", "40000"}, {"str:int32max", "2147483647"}, {"str:int32min", "-2147483648"},
                {"str:bigint", "2147483648"}, {"str:noncanonical", "007"}, {"str:21", "abcdefghijklmnopqrstu"},
                {"str:compressible", "a".repeat(100)}, {"str:text", "the quick brown fox jumps over the lazy dog "
                        .repeat(20)}, {"str:incompressible", "qwertyuiopasdfghjklzxcvbnm1234"},
                {"str:empty", ""}, {"str:long", "x".repeat(70000)}};
        for (String[] s : strings) {
            both("SET", s[0], s[1]);
            DETERMINISTIC.add(s[0]);
        }
        both("PFADD", "hll:sparse", "a", "b", "c");
        DETERMINISTIC.add("hll:sparse");
        both("RPUSH", "list:small", "a", "1", "-5000", "100000", "hello world", "9223372036854775807");
        both("LPUSH", "list:lpush", "x", "y", "z");
        rpush("list:nodes", 3000, i -> "element-" + i + "-" + "p".repeat(i % 50));
        rpush("list:ints", 5000, i -> Integer.toString(i * 7919 - 100000));
        both("SADD", "set:int16", "1", "5", "-3", "300");
        both("SADD", "set:int32", "1", "70000");
        both("SADD", "set:int64", "1", "-5000000000");
        DETERMINISTIC.addAll(List.of("list:small", "list:lpush", "list:nodes", "list:ints", "set:int16", "set:int32",
                "set:int64"));
        List<String> bigIntset = new ArrayList<>(List.of("SADD", "set:bigintset"));
        for (int i = 0; i < 400; i++) {
            bigIntset.add(Integer.toString(i * 3));
        }
        both(bigIntset.toArray(new String[0]));
        DETERMINISTIC.add("set:bigintset");
        both("ZADD", "zset:small", "1", "a", "2.5", "b", "-0", "c", "inf", "d", "-inf", "e", "1e20", "f",
                "0.1", "g", "123456789012", "h", "3", "12");
        DETERMINISTIC.add("zset:small");
        List<String> zbig = new ArrayList<>(List.of("ZADD", "zset:skiplist"));
        for (int i = 0; i < 300; i++) {
            zbig.add(Double.toString(i * 1.25));
            zbig.add("member" + i);
        }
        both(zbig.toArray(new String[0]));
        both("ZADD", "zset:longmember", "1", "m".repeat(100), "2", "short", "-0", "negzero");
        DETERMINISTIC.addAll(List.of("zset:skiplist", "zset:longmember"));
        both("HSET", "hash:small", "f1", "v1", "f2", "12", "n", "-70000", "f3", "");
        both("HSET", "hash:small", "f1", "changed");
        DETERMINISTIC.add("hash:small");
        List<String> hbig = new ArrayList<>(List.of("HSET", "hash:ht"));
        for (int i = 0; i < 600; i++) {
            hbig.add("field" + i);
            hbig.add("value" + i);
        }
        both(hbig.toArray(new String[0]));
        both("HSET", "hash:longvalue", "f", "v".repeat(100));
        List<String> sbig = new ArrayList<>(List.of("SADD", "set:ht", "not-an-int"));
        for (int i = 0; i < 50; i++) {
            sbig.add("m" + i);
        }
        both(sbig.toArray(new String[0]));
    }

    @Test
    void dumpIsRedisBytesForEveryDeterministicEncoding() {
        setUpEveryEncoding();
        for (String key : DETERMINISTIC) {
            both("OBJECT", "ENCODING", key);
            assertThat(dump(kevy(), key)).as("DUMP %s", key).isEqualTo(dump(redis(), key));
        }
        both("DUMP", "nosuchkey");
        both("DUMP");
    }

    /** The settings DUMP's output depends on: list node sizes, inner-node compression, rdbcompression. */
    @Test
    void dumpFollowsTheListAndCompressionSettings() {
        String[][] settings = {{"list-max-listpack-size", "5"}, {"list-max-listpack-size", "-1"},
                {"list-max-listpack-size", "-5"}, {"list-max-listpack-size", "1000"},
                {"list-compress-depth", "1"}, {"list-compress-depth", "2"}, {"rdbcompression", "no"}};
        try {
            int round = 0;
            for (String[] s : settings) {
                both("CONFIG", "SET", s[0], s[1]);
                String key = "cfg" + round++;
                rpush(key, 3000, i -> "item:" + (i % 97) + ":" + "q".repeat(i % 40));
                both("SET", key + ":s", "abc".repeat(30));
                for (String k : List.of(key, key + ":s")) {
                    assertThat(dump(kevy(), k)).as("DUMP %s with %s %s", k, s[0], s[1]).isEqualTo(dump(redis(), k));
                }
            }
        } finally {
            both("CONFIG", "SET", "list-max-listpack-size", "-2");
            both("CONFIG", "SET", "list-compress-depth", "0");
            both("CONFIG", "SET", "rdbcompression", "yes");
        }
    }

    @Test
    void payloadsCopyBetweenRedisAndKevyForEveryType() {
        setUpEveryEncoding();
        List<String> all = new ArrayList<>(DETERMINISTIC);
        all.addAll(HASHTABLE);
        for (String key : all) {
            String copy = key + ":copy";
            assertThat(restore(kevy(), copy, "0", dump(redis(), key))).as("RESTORE of Redis's %s", key)
                    .isEqualTo("+OK\r\n");
            assertThat(restore(redis(), copy + "2", "0", dump(kevy(), copy))).as("Redis RESTORE of kevy's %s", key)
                    .isEqualTo("+OK\r\n");
            assertThat(restore(kevy(), copy + "2", "0", dump(redis(), copy + "2"))).isEqualTo("+OK\r\n");
            String digest = redis().call("DEBUG", "DIGEST-VALUE", key);
            assertThat(kevy().call("DEBUG", "DIGEST-VALUE", copy)).as("value of %s", key).isEqualTo(digest);
            assertThat(redis().call("DEBUG", "DIGEST-VALUE", copy + "2")).isEqualTo(digest);
            assertThat(kevy().call("DEBUG", "DIGEST-VALUE", copy + "2")).isEqualTo(digest);
            both("TYPE", copy + "2");
            if (key.startsWith("zset")) {
                both("ZRANGE", copy + "2", "0", "-1", "WITHSCORES");
            }
            both("OBJECT", "ENCODING", copy + "2");
        }
    }

    /** Quicklist 2 plain nodes (Redis stores elements above its packed threshold alone, container 1). */
    @Test
    void plainQuicklistNodesAreRead() {
        assertThat(redis().call("DEBUG", "QUICKLIST-PACKED-THRESHOLD", "100")).isEqualTo("+OK\r\n");
        try {
            redis().call("RPUSH", "plain", "a", "x".repeat(300), "b", "y".repeat(5000));
            byte[] p = dump(redis(), "plain");
            assertThat(p[1]).as("4 nodes: a, the long x's alone, b, the long y's alone").isEqualTo((byte) 4);
            assertThat(p[14]).as("the second node's container, after the first's 10-byte listpack: plain")
                    .isEqualTo((byte) 1);
            assertThat(restore(kevy(), "plain", "0", p)).isEqualTo("+OK\r\n");
            assertThat(kevy().call("DEBUG", "DIGEST-VALUE", "plain")).isEqualTo(redis().call("DEBUG",
                    "DIGEST-VALUE", "plain"));
            assertThat(kevy().call("LRANGE", "plain", "0", "-1")).isEqualTo(redis().call("LRANGE", "plain", "0",
                    "-1"));
        } finally {
            redis().call("DEBUG", "QUICKLIST-PACKED-THRESHOLD", "1073741824");
        }
    }

    @Test
    void ziplistEraPayloadsAreRead() {
        // A Redis 6 style list ziplist: "a", 5 (immediate), 300 (int16), "hello".
        byte[] zl = ziplist(new byte[] {0x01, 'a'}, new byte[] {(byte) 0xf6}, new byte[] {(byte) 0xc0, 0x2c, 0x01},
                new byte[] {0x05, 'h', 'e', 'l', 'l', 'o'});
        byte[] list = payload(concat(new byte[] {10, (byte) zl.length}, zl), 9);
        assertThat(restore(kevy(), "zl", "0", list)).isEqualTo(restore(redis(), "zl", "0", list));
        both("LRANGE", "zl", "0", "-1");
        both("OBJECT", "ENCODING", "zl");
        // A hash ziplist (13) and a sorted set ziplist (12) of the same pairs.
        byte[] pairs = ziplist(new byte[] {0x01, 'f'}, new byte[] {(byte) 0xf3}, new byte[] {0x01, 'g'},
                new byte[] {0x03, '1', '.', '5'});
        for (int type : new int[] {12, 13}) {
            byte[] p = payload(concat(new byte[] {(byte) type, (byte) pairs.length}, pairs), 9);
            String key = "zl" + type;
            assertThat(restore(kevy(), key, "0", p)).isEqualTo(restore(redis(), key, "0", p)).isEqualTo("+OK\r\n");
            assertThat(kevy().call("DEBUG", "DIGEST-VALUE", key)).isEqualTo(redis().call("DEBUG", "DIGEST-VALUE",
                    key));
        }
        // A quicklist (14) of one ziplist node, and the old plain list (1) and text-score sorted set (3).
        byte[] ql = payload(concat(new byte[] {14, 1, (byte) zl.length}, zl), 7);
        byte[] plain = payload(new byte[] {1, 2, 1, 'x', (byte) 0xc0, 7}, 6);
        byte[] zset = payload(new byte[] {3, 1, 1, 'm', 3, '2', '.', '5'}, 6);
        for (byte[] p : List.of(ql, plain, zset)) {
            assertThat(restore(kevy(), "old", "0", p, "REPLACE")).isEqualTo(restore(redis(), "old", "0", p,
                    "REPLACE")).isEqualTo("+OK\r\n");
            assertThat(kevy().call("DEBUG", "DIGEST-VALUE", "old")).isEqualTo(redis().call("DEBUG", "DIGEST-VALUE",
                    "old"));
        }
    }

    private static byte[] ziplist(byte[]... entries) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        int prev = 0;
        int tail = 10;
        for (byte[] e : entries) {
            tail = 10 + body.size();
            body.write(prev);
            body.writeBytes(e);
            prev = e.length + 1;
        }
        int total = 10 + body.size() + 1;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        for (int v : new int[] {total, tail}) {
            for (int i = 0; i < 4; i++) {
                o.write((v >>> (8 * i)) & 0xff);
            }
        }
        o.write(entries.length);
        o.write(0);
        o.writeBytes(body.toByteArray());
        o.write(0xff);
        return o.toByteArray();
    }

    private static byte[] concat(byte[] a, byte[] c) {
        byte[] r = Arrays.copyOf(a, a.length + c.length);
        System.arraycopy(c, 0, r, a.length, c.length);
        return r;
    }

    @Test
    void optionsAndErrorsAreRedis() {
        both("SET", "src", "value");
        byte[] p = dump(redis(), "src");
        both("SET", "busy", "x");
        String[][] cases = {{"busy", "0"}, {"new", "-1"}, {"new", "abc"}, {"new", "0", "IDLETIME"},
                {"new", "0", "IDLETIME", "-1"}, {"new", "0", "IDLETIME", "x"}, {"new", "0", "FREQ", "256"},
                {"new", "0", "FREQ", "-1"}, {"new", "0", "FREQ", "1", "IDLETIME", "1"},
                {"new", "0", "IDLETIME", "1", "FREQ", "1"}, {"new", "0", "NOSUCH"}, {"busy", "-1", "REPLACE"},
                {"busy", "0", "REPLACE", "NOSUCH"}};
        for (String[] c : cases) {
            String[] opts = Arrays.copyOfRange(c, 2, c.length);
            assertThat(restore(kevy(), c[0], c[1], p, opts)).as(String.join(" ", c))
                    .isEqualTo(restore(redis(), c[0], c[1], p, opts));
        }
        byte[] newer = payload(new byte[] {0, 1, 'x'}, 11);
        byte[] badCrc = p.clone();
        badCrc[badCrc.length - 1] ^= 1;
        byte[] badType = payload(new byte[] {99, 1, 'x'}, 10);
        byte[] truncated = payload(new byte[] {0, 10, 'x'}, 10);
        byte[] emptyList = payload(new byte[] {18, 0}, 10);
        byte[] badIntset = payload(new byte[] {11, 9, 2, 0, 0, 0, 1, 0, 0, 0, 5}, 10);
        for (byte[] bad : List.of(b("x"), b(""), b("0123456789"), newer, badCrc, badType, truncated, emptyList,
                badIntset)) {
            assertThat(restore(kevy(), "new", "0", bad)).isEqualTo(restore(redis(), "new", "0", bad));
        }
        both("EXISTS", "new");
        both("GET", "busy");
        both("RESTORE", "k", "0");
        assertThat(restore(kevy(), "busy", "0", p, "REPLACE", "ABSTTL")).isEqualTo(restore(redis(), "busy", "0", p,
                "REPLACE", "ABSTTL"));
        both("GET", "busy");
        both("TTL", "busy");
        assertThat(restore(kevy(), "ttl", "100000", p)).isEqualTo(restore(redis(), "ttl", "100000", p));
        both("TTL", "ttl");
        assertThat(restore(kevy(), "past", "1", p, "ABSTTL")).isEqualTo(restore(redis(), "past", "1", p, "ABSTTL"));
        both("EXISTS", "past");
        assertThat(restore(kevy(), "busy", "1", p, "ABSTTL", "REPLACE"))
                .isEqualTo(restore(redis(), "busy", "1", p, "ABSTTL", "REPLACE"));
        both("EXISTS", "busy");
        assertThat(restore(kevy(), "idle", "0", p, "IDLETIME", "1000")).isEqualTo(restore(redis(), "idle", "0", p,
                "IDLETIME", "1000"));
        long idle = Long.parseLong(kevy().call("OBJECT", "IDLETIME", "idle").trim().substring(1));
        assertThat(idle).isBetween(1000L, 1002L);
        assertThat(restore(kevy(), "freq", "0", p, "FREQ", "100")).isEqualTo(restore(redis(), "freq", "0", p,
                "FREQ", "100"));
        both("GET", "freq");
        both("COMMAND", "INFO", "dump");
        both("COMMAND", "INFO", "restore");
    }

    /** Under an LFU policy: a new key's counter, the first access, RESTORE ... FREQ, IDLETIME ignored. */
    @Test
    void freqUnderAnLfuPolicyIsRedis() {
        both("SET", "src", "v");
        byte[] p = dump(redis(), "src");
        try {
            both("CONFIG", "SET", "maxmemory-policy", "allkeys-lfu");
            both("SET", "lfu", "v");
            both("OBJECT", "FREQ", "lfu");
            both("GET", "lfu");
            both("OBJECT", "FREQ", "lfu");
            both("OBJECT", "IDLETIME", "lfu");
            assertThat(restore(kevy(), "f", "0", p, "FREQ", "100")).isEqualTo(restore(redis(), "f", "0", p, "FREQ",
                    "100"));
            both("OBJECT", "FREQ", "f");
            assertThat(restore(kevy(), "i", "0", p, "IDLETIME", "100")).isEqualTo(restore(redis(), "i", "0", p,
                    "IDLETIME", "100"));
            both("OBJECT", "FREQ", "i");
            both("CONFIG", "GET", "maxmemory-policy");
            both("CONFIG", "SET", "lfu-log-factor", "20");
            both("CONFIG", "GET", "lfu-log-factor");
        } finally {
            both("CONFIG", "SET", "maxmemory-policy", "noeviction");
            both("CONFIG", "SET", "lfu-log-factor", "10");
        }
        both("OBJECT", "FREQ", "f");
    }

    @Test
    void framesRebuildTheRestoredValue() {
        both("RPUSH", "src", "a", "b", "c");
        byte[] p = dump(kevy(), "src");
        both("HSET", "h", "f", "v");
        byte[] hp = dump(kevy(), "h");
        oracle.frames().take();
        assertThat(restore(kevy(), "dst", "0", p)).isEqualTo("+OK\r\n");
        assertThat(oracle.frames().take()).containsExactly("RPUSH dst a b c");
        long at = System.currentTimeMillis() + 100_000;
        assertThat(restore(kevy(), "dst", Long.toString(at), hp, "REPLACE", "ABSTTL")).isEqualTo("+OK\r\n");
        assertThat(oracle.frames().take()).containsExactly("DEL dst", "HSET dst f v", "PEXPIREAT dst " + at);
        assertThat(restore(kevy(), "dst", "0", hp)).startsWith("-BUSYKEY");
        assertThat(restore(kevy(), "other", "0", b("garbage-payload"))).startsWith("-ERR DUMP payload");
        assertThat(restore(kevy(), "other", "0", payload(new byte[] {99}, 10))).isEqualTo("-ERR Bad data format\r\n");
        assertThat(oracle.frames().take()).as("refused RESTOREs emit nothing").isEmpty();
        assertThat(restore(kevy(), "dst", "1", p, "REPLACE", "ABSTTL")).isEqualTo("+OK\r\n");
        assertThat(oracle.frames().take()).as("a past TTL deletes only").containsExactly("DEL dst");
    }

    /**
     * Hostile payloads (seeded random corruptions with a fixed-up checksum, huge declared lengths): kevy answers
     * {@code +OK} or {@code ERR Bad data format}, never anything else, and keeps serving. Redis itself is not
     * fed these (with {@code sanitize-dump-payload no} a corrupt payload may crash it).
     */
    @Test
    void hostilePayloadsAreRefusedCleanly() {
        setUpEveryEncoding();
        long seed = System.nanoTime();
        System.out.println("DumpRestoreIT hostile seed " + seed);
        Random rnd = new Random(seed);
        List<byte[]> valid = new ArrayList<>();
        for (String key : DETERMINISTIC) {
            valid.add(dump(kevy(), key));
        }
        int ok = 0;
        int refused = 0;
        for (int i = 0; i < 3000; i++) {
            byte[] v = valid.get(rnd.nextInt(valid.size()));
            byte[] body = Arrays.copyOf(v, v.length - 10);
            int mode = rnd.nextInt(3);
            if (mode == 0) {
                for (int k = 1 + rnd.nextInt(3); k > 0; k--) {
                    body[rnd.nextInt(body.length)] = (byte) rnd.nextInt(256);
                }
            } else if (mode == 1) {
                body = Arrays.copyOf(body, rnd.nextInt(body.length + 1));
            } else {
                int at = rnd.nextInt(body.length);
                body[at] = (byte) (0x80 + rnd.nextInt(2));
            }
            String reply = restore(kevy(), "hostile", "0", payload(body, 10), "REPLACE");
            assertThat(reply).as("payload %s", Arrays.toString(body)).isIn("+OK\r\n", "-ERR Bad data format\r\n");
            if (reply.startsWith("+")) {
                ok++;
            } else {
                refused++;
            }
        }
        System.out.println("DumpRestoreIT hostile: " + ok + " accepted, " + refused + " refused");
        byte[][] huge = {
            {0, (byte) 0x81, 0x7f, -1, -1, -1, -1, -1, -1, -1}, // a string of 2^63-1 bytes
            {0, (byte) 0x80, -1, -1, -1, -1}, // a string of 4 GiB
            {0, (byte) 0xc3, 0x05, (byte) 0x80, 0x7f, -1, -1, -1, 0, 0, 0, 0, 0}, // LZF expanding to 2 GiB
            {18, (byte) 0x80, -1, -1, -1, -1, 2}, // a quicklist of 4G nodes
            {2, (byte) 0x81, 0, 0, 0, 1, 0, 0, 0, 0}, // a set of 2^40 members
            {4, (byte) 0x81, -1, -1, -1, -1, -1, -1, -1, -1}, // a hash of 2^64-1 fields
            {11, 8, 8, 0, 0, 0, -1, -1, -1, 0x7f}, // an intset claiming 2^31 members
            {16, 7, -1, -1, -1, 0x7f, 0, 0, -1}, // a listpack claiming 2 GiB
        };
        for (byte[] h : huge) {
            assertThat(restore(kevy(), "huge", "0", payload(h, 10))).as(Arrays.toString(h))
                    .isEqualTo("-ERR Bad data format\r\n");
        }
        assertThat(kevy().call("PING")).isEqualTo("+PONG\r\n");
    }
}
