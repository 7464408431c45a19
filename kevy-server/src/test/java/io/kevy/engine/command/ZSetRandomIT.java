package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.RawClient;
import io.kevy.testing.RedisOracle;
import io.kevy.testing.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Seeded random sequences of sorted-set commands (flags, exclusive and infinite score ranges, lex ranges,
 * LIMIT, WITHSCORES, pops, algebra and *STORE across the two shards of the test server, errors and WRONGTYPE
 * included): every reply equals a real Redis 7.0's byte for byte, and so does every key's final content. The
 * sets stay small (listpack in Redis, where ZSCAN answers the whole set in order), so every reply is
 * deterministic. The seed is printed; rerun with {@code -Dseed=<n>}. (The completeness of the frames of these
 * commands is checked by ZSetFramesIT and FeedCompletenessIT.)
 */
class ZSetRandomIT {
    private static final String[] KEYS = {"z0", "z1", "{t}z2", "{t}z3", "str", "nokey"};
    private static final String[] MEMBERS = {"a", "b", "c", "d", "e", "1", "2", ""};
    private static final String[] SCORES = {"0", "1", "-1", "1.5", "2.5e0", "3", "0.1", "1e300", "inf", "-inf",
        "+inf", "-0", "x", "nan", "(1"};
    private static final String[] BOUNDS = {"-inf", "+inf", "inf", "0", "1", "(1", "1.5", "(2.5", "3", "(3", "x",
        "nan", "("};
    private static final String[] LEX = {"-", "+", "[a", "(a", "[c", "(c", "[e", "[", "(", "a", "[1"};

    @Test
    void randomCommandsMatchRedis() {
        long seed = Long.getLong("seed", System.nanoTime());
        System.out.println("ZSetRandomIT.randomCommandsMatchRedis seed=" + seed);
        Random rnd = new Random(seed);
        try (TestServer kevy = TestServer.start(); RedisOracle redis = RedisOracle.start();
             RawClient k = kevy.raw(); RawClient r = redis.raw()) {
            assertThat(k.call("SET", "str", "x")).isEqualTo(r.call("SET", "str", "x"));
            for (int i = 0; i < 5000; i++) {
                String[] cmd = randomCommand(rnd);
                String expected = r.call(cmd);
                String actual = k.call(cmd);
                assertThat(actual).as("seed %d step %d: %s", seed, i, String.join(" ", cmd)).isEqualTo(expected);
            }
            for (String key : KEYS) {
                String[] all = {"ZRANGE", key, "0", "-1", "WITHSCORES"};
                assertThat(k.call(all)).as("final %s, seed %d", key, seed).isEqualTo(r.call(all));
            }
        }
    }

    private static String[] randomCommand(Random rnd) {
        List<String> c = new ArrayList<>();
        String key = pick(rnd, KEYS);
        switch (rnd.nextInt(30)) {
            case 0, 1, 2 -> {
                add(c, "ZADD", key);
                for (String flag : new String[] {"NX", "XX", "GT", "LT", "CH", "INCR"}) {
                    if (rnd.nextInt(6) == 0) {
                        add(c, flag);
                    }
                }
                for (int n = 1 + rnd.nextInt(3); n > 0; n--) {
                    add(c, pick(rnd, SCORES), pick(rnd, MEMBERS));
                }
                if (rnd.nextInt(40) == 0) {
                    add(c, "1");
                }
            }
            case 3 -> add(c, "ZREM", key, pick(rnd, MEMBERS), pick(rnd, MEMBERS));
            case 4 -> add(c, "ZSCORE", key, pick(rnd, MEMBERS));
            case 5 -> add(c, "ZMSCORE", key, pick(rnd, MEMBERS), pick(rnd, MEMBERS));
            case 6 -> add(c, "ZINCRBY", key, pick(rnd, SCORES), pick(rnd, MEMBERS));
            case 7 -> add(c, "ZCARD", key);
            case 8 -> add(c, "ZCOUNT", key, pick(rnd, BOUNDS), pick(rnd, BOUNDS));
            case 9 -> add(c, "ZLEXCOUNT", key, pick(rnd, LEX), pick(rnd, LEX));
            case 10, 11 -> {
                int by = rnd.nextInt(3);
                add(c, "ZRANGE", key);
                if (by == 0) {
                    add(c, index(rnd), index(rnd));
                } else if (by == 1) {
                    add(c, pick(rnd, BOUNDS), pick(rnd, BOUNDS), "BYSCORE");
                } else {
                    add(c, pick(rnd, LEX), pick(rnd, LEX), "BYLEX");
                }
                options(rnd, c, true, by == 0 ? 8 : 2);
            }
            case 12 -> {
                add(c, pick(rnd, new String[] {"ZRANGEBYSCORE", "ZREVRANGEBYSCORE"}), key, pick(rnd, BOUNDS),
                        pick(rnd, BOUNDS));
                options(rnd, c, false, 2);
            }
            case 13 -> {
                add(c, pick(rnd, new String[] {"ZRANGEBYLEX", "ZREVRANGEBYLEX"}), key, pick(rnd, LEX),
                        pick(rnd, LEX));
                if (rnd.nextBoolean()) {
                    add(c, "LIMIT", index(rnd), index(rnd));
                }
            }
            case 14 -> add(c, "ZREVRANGE", key, index(rnd), index(rnd), rnd.nextBoolean() ? "WITHSCORES" : null);
            case 15 -> add(c, pick(rnd, new String[] {"ZRANK", "ZREVRANK"}), key, pick(rnd, MEMBERS));
            case 16 -> add(c, "ZREMRANGEBYRANK", key, index(rnd), index(rnd));
            case 17 -> add(c, "ZREMRANGEBYSCORE", key, pick(rnd, BOUNDS), pick(rnd, BOUNDS));
            case 18 -> add(c, "ZREMRANGEBYLEX", key, pick(rnd, LEX), pick(rnd, LEX));
            case 19 -> add(c, pick(rnd, new String[] {"ZPOPMIN", "ZPOPMAX"}), key, rnd.nextBoolean() ? count(rnd)
                    : null);
            case 20 -> {
                keys(rnd, c, "ZMPOP");
                add(c, pick(rnd, new String[] {"MIN", "MAX", "UP"}));
                if (rnd.nextBoolean()) {
                    add(c, "COUNT", count(rnd));
                }
            }
            case 21, 22 -> {
                keys(rnd, c, pick(rnd, new String[] {"ZUNION", "ZINTER", "ZDIFF"}));
                algebraOptions(rnd, c);
            }
            case 23, 24 -> {
                c.add(pick(rnd, new String[] {"ZUNIONSTORE", "ZINTERSTORE", "ZDIFFSTORE"}));
                c.add(pick(rnd, KEYS));
                keys(rnd, c, null);
                algebraOptions(rnd, c);
                c.remove("WITHSCORES");
            }
            case 25 -> {
                keys(rnd, c, "ZINTERCARD");
                if (rnd.nextBoolean()) {
                    add(c, "LIMIT", count(rnd));
                }
            }
            case 26 -> {
                add(c, "ZRANGESTORE", pick(rnd, KEYS), key);
                if (rnd.nextBoolean()) {
                    add(c, index(rnd), index(rnd));
                    options(rnd, c, false, 8);
                } else {
                    add(c, pick(rnd, BOUNDS), pick(rnd, BOUNDS), "BYSCORE");
                    options(rnd, c, false, 2);
                }
            }
            case 27 -> {
                add(c, "ZSCAN", key, "0");
                if (rnd.nextBoolean()) {
                    add(c, "MATCH", "[a-c]");
                }
            }
            case 28 -> add(c, "DEL", key);
            default -> add(c, "TYPE", key);
        }
        return c.toArray(new String[0]);
    }

    /** REV, LIMIT and WITHSCORES in a random order; LIMIT is valid only with BYSCORE/BYLEX (rare otherwise). */
    private static void options(Random rnd, List<String> c, boolean rev, int limitOdds) {
        if (rev && rnd.nextBoolean()) {
            c.add("REV");
        }
        if (rnd.nextInt(limitOdds) == 0) {
            add(c, "LIMIT", index(rnd), index(rnd));
        }
        if (rnd.nextBoolean()) {
            c.add("WITHSCORES");
        }
    }

    private static void algebraOptions(Random rnd, List<String> c) {
        int numkeys = Integer.parseInt(c.get(c.get(0).endsWith("STORE") ? 2 : 1));
        if (!c.get(0).startsWith("ZDIFF") && rnd.nextInt(3) == 0) {
            c.add("WEIGHTS");
            for (int i = 0; i < numkeys; i++) {
                c.add(pick(rnd, new String[] {"1", "2", "-1", "0.5", "inf", "x"}));
            }
        }
        if (!c.get(0).startsWith("ZDIFF") && rnd.nextInt(3) == 0) {
            add(c, "AGGREGATE", pick(rnd, new String[] {"SUM", "MIN", "MAX", "avg"}));
        }
        if (rnd.nextBoolean()) {
            c.add("WITHSCORES");
        }
    }

    /** {@code verb numkeys key...} with 1 to 3 keys; no verb when {@code verb} is null. */
    private static void keys(Random rnd, List<String> c, String verb) {
        int n = 1 + rnd.nextInt(3);
        if (verb != null) {
            c.add(verb);
        }
        c.add(Integer.toString(n));
        for (int i = 0; i < n; i++) {
            c.add(pick(rnd, KEYS));
        }
    }

    private static String index(Random rnd) {
        return rnd.nextInt(40) == 0 ? "x" : Integer.toString(rnd.nextInt(13) - 6);
    }

    private static String count(Random rnd) {
        return rnd.nextInt(30) == 0 ? "-1" : Integer.toString(rnd.nextInt(5));
    }

    private static void add(List<String> c, String... args) {
        for (String a : args) {
            if (a != null) {
                c.add(a);
            }
        }
    }

    private static String pick(Random rnd, String[] from) {
        return from[rnd.nextInt(from.length)];
    }
}
