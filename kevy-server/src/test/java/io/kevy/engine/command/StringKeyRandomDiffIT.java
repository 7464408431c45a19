package io.kevy.engine.command;

import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RedisOracle;
import io.kevy.testing.ReplyDiff;
import io.kevy.testing.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A seeded random mix of string and key commands, valid and invalid, sent to kevy (4 shards) and to a real
 * Redis 7.0; every reply must be byte-for-byte equal. Replies that depend on the millisecond (PTTL, relative
 * EXPIRETIME), on hashing (SCAN cursors, KEYS order, RANDOMKEY) or on idle time are left out; TTL is compared
 * because it rounds to seconds.
 */
class StringKeyRandomDiffIT {
    private static final String[] KEYS = {"a", "b", "c", "{t}a", "{t}b", "h", "n", "f"};
    private static final String[] VALUES = {"", "0", "1", "-1", "42", "9999", "10000", "9223372036854775807",
        "-9223372036854775808", "3.14", "abc", "hello world", "x".repeat(44), "y".repeat(45), "10.5", " 5", "1e5",
        "007", "-0", "0x1f", "0x1p3", "inf"};
    private static final String[] FLOATS = {"1.5", "-0.1", "1e3", "3", "0.024390243902439025", "-2.5e-3", "1e20",
        "abc", "", "+inf", "5.0e3", ".5", "7.", "-0", "1e400"};
    private static final String[] EXPIRE_OPTS = {"NX", "XX", "GT", "LT", "nx", "FOO"};

    @Test
    void repliesMatchRedis() {
        long seed = fixedSeed() != 0 ? fixedSeed() : System.nanoTime();
        System.out.println("StringKeyRandomDiffIT seed=" + seed);
        Random rnd = new Random(seed);
        try (TestServer kevy = TestServer.start(ServerOptions.SHARDS, 4); RedisOracle redis = RedisOracle.start();
             ReplyDiff diff = new ReplyDiff(kevy.raw(), redis.raw())) {
            java.util.ArrayDeque<String> history = new java.util.ArrayDeque<>();
            for (int i = 0; i < 6000; i++) {
                String[] cmd = command(rnd);
                history.addLast(String.join(" ", cmd));
                if (history.size() > 40) {
                    history.removeFirst();
                }
                try {
                    diff.same(cmd);
                } catch (AssertionError e) {
                    throw new AssertionError("seed " + seed + ", after:\n" + String.join("\n", history), e);
                }
            }
            for (String k : KEYS) {
                diff.same("TYPE", k);
                diff.same("TTL", k);
                diff.same("OBJECT", "ENCODING", k);
                if (diff.same("TYPE", k).equals("+string\r\n")) {
                    diff.same("GET", k);
                }
            }
        }
    }

    private static String pick(Random rnd, String[] a) {
        return a[rnd.nextInt(a.length)];
    }

    private static String key(Random rnd) {
        return pick(rnd, KEYS);
    }

    /**
     * A time argument: invalid, negative, zero, overflowing, or far enough ahead (at least 10^4 s) that nothing
     * expires while the test runs, so lazy expiry cannot race between the two servers.
     */
    private static String ttl(Random rnd, boolean ms) {
        switch (rnd.nextInt(9)) {
            case 0: return Long.toString(rnd.nextLong());
            case 1: return "-" + rnd.nextInt(100);
            case 2: return "0";
            case 3: return "x" + rnd.nextInt(9);
            case 4: return "9223372036854775807";
            default: return Long.toString((ms ? 10_000_000L : 10_000L) + rnd.nextInt(1_000_000));
        }
    }

    private static String integer(Random rnd) {
        switch (rnd.nextInt(5)) {
            case 0: return Long.toString(rnd.nextLong());
            case 1: return "x";
            default: return Integer.toString(rnd.nextInt(2000) - 1000);
        }
    }

    /** Runs a fixed seed (for reproducing a failure). */
    static long fixedSeed() {
        return Long.getLong("kevy.seed", 0);
    }

    private static String[] command(Random rnd) {
        String k = key(rnd);
        String v = pick(rnd, VALUES);
        switch (rnd.nextInt(40)) {
            case 34: return new String[] {"RPUSH", k, v, "w"};
            case 35: return new String[] {"SADD", k, "1", "2", v};
            case 36: return new String[] {"ZADD", k, Integer.toString(rnd.nextInt(5)), v};
            case 37: return new String[] {"LRANGE", k, "0", "-1"};
            case 38: return new String[] {"ZRANGE", k, "0", "-1", "WITHSCORES"};
            case 39: return new String[] {"SCARD", k};
            case 0:
            case 1: {
                List<String> cmd = new ArrayList<>(List.of("SET", k, v));
                String[] opts = {"NX", "XX", "GET", "KEEPTTL", "EX", "PX", "EXAT", "PXAT"};
                int n = rnd.nextInt(3);
                for (int j = 0; j < n; j++) {
                    String o = pick(rnd, opts);
                    cmd.add(o);
                    if (o.startsWith("E") || o.startsWith("P")) {
                        cmd.add(o.endsWith("AT") ? Long.toString(rnd.nextBoolean() ? 1 : 99_999_999_999L)
                                : ttl(rnd, o.equals("PX")));
                    }
                }
                return cmd.toArray(new String[0]);
            }
            case 2: return new String[] {"GET", k};
            case 3: {
                String[][] opts = {{}, {"EX", ttl(rnd, false)}, {"PX", ttl(rnd, true)}, {"PERSIST"}, {"EXAT", "1"},
                    {"PXAT", "99999999999000"}, {"KEEPTTL"}, {"PERSIST", "EX", "5"}};
                String[] o = opts[rnd.nextInt(opts.length)];
                String[] cmd = new String[2 + o.length];
                cmd[0] = "GETEX";
                cmd[1] = k;
                System.arraycopy(o, 0, cmd, 2, o.length);
                return cmd;
            }
            case 4: return new String[] {"GETDEL", k};
            case 5: return new String[] {"GETSET", k, v};
            case 6: return new String[] {"SETNX", k, v};
            case 7: return rnd.nextBoolean() ? new String[] {"SETEX", k, ttl(rnd, false), v}
                : new String[] {"PSETEX", k, ttl(rnd, true), v};
            case 8: return new String[] {"MSET", k, v, key(rnd), pick(rnd, VALUES)};
            case 9: return new String[] {"MSETNX", k, v, key(rnd), pick(rnd, VALUES)};
            case 10: return new String[] {"MGET", k, key(rnd), key(rnd)};
            case 11: return new String[] {"APPEND", k, v};
            case 12: return new String[] {"STRLEN", k};
            case 13: return new String[] {"SETRANGE", k, Integer.toString(rnd.nextInt(25) - 2), v};
            case 14: return new String[] {rnd.nextBoolean() ? "GETRANGE" : "SUBSTR", k,
                Integer.toString(rnd.nextInt(61) - 30), Integer.toString(rnd.nextInt(61) - 30)};
            case 15: return new String[] {rnd.nextBoolean() ? "INCR" : "DECR", k};
            case 16: return new String[] {rnd.nextBoolean() ? "INCRBY" : "DECRBY", k, integer(rnd)};
            case 17: return new String[] {"INCRBYFLOAT", k, rnd.nextBoolean() ? pick(rnd, FLOATS)
                : Double.toString((rnd.nextDouble() - 0.5) * Math.pow(10, rnd.nextInt(12) - 4))};
            case 18: return new String[] {rnd.nextBoolean() ? "DEL" : "UNLINK", k, key(rnd)};
            case 19: return new String[] {rnd.nextBoolean() ? "EXISTS" : "TOUCH", k, key(rnd), k};
            case 20: return new String[] {"TYPE", k};
            case 21: {
                String[] cmds = {"EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT"};
                String c = pick(rnd, cmds);
                String t = c.endsWith("AT") ? (rnd.nextInt(3) == 0 ? "5" : Long.toString(99_999_999_999L + rnd.nextInt(99)))
                        : ttl(rnd, c.startsWith("P"));
                List<String> cmd = new ArrayList<>(List.of(c, k, t));
                int n = rnd.nextInt(3);
                for (int j = 0; j < n; j++) {
                    cmd.add(pick(rnd, EXPIRE_OPTS));
                }
                return cmd.toArray(new String[0]);
            }
            case 22: return new String[] {"TTL", k};
            case 23: return new String[] {"PERSIST", k};
            case 24: return new String[] {rnd.nextBoolean() ? "RENAME" : "RENAMENX", k, key(rnd)};
            case 25: return rnd.nextBoolean() ? new String[] {"COPY", k, key(rnd)}
                : new String[] {"COPY", k, key(rnd), "REPLACE"};
            case 26: return new String[] {"HSET", k, "f" + rnd.nextInt(3), v};
            case 27: return new String[] {"OBJECT", "ENCODING", k};
            case 28: return new String[] {"OBJECT", "REFCOUNT", k};
            case 29: {
                List<String> cmd = new ArrayList<>(List.of("LCS", k, key(rnd)));
                String[] opts = {"LEN", "IDX", "WITHMATCHLEN", "MINMATCHLEN"};
                int n = rnd.nextInt(3);
                for (int j = 0; j < n; j++) {
                    String o = pick(rnd, opts);
                    cmd.add(o);
                    if (o.equals("MINMATCHLEN")) {
                        cmd.add(Integer.toString(rnd.nextInt(4)));
                    }
                }
                return cmd.toArray(new String[0]);
            }
            case 30: return new String[] {"SET", k, Integer.toString(rnd.nextInt(20000) - 100)};
            case 31: return new String[] {"SET", k, "ohmy" + rnd.nextInt(100) + "text"};
            case 32: return new String[] {"STRLEN", k};
            default: return new String[] {"PERSIST", k};
        }
    }
}
