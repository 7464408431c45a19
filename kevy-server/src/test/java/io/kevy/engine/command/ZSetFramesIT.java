package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.engine.EffectListener;
import io.kevy.engine.Shard;
import io.kevy.testing.RawClient;
import io.kevy.testing.RedisOracle;
import io.kevy.testing.ReplyDiff;
import io.kevy.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The effect frames of the sorted-set commands (feed contract §7), recorded by an {@link EffectListener} on every
 * shard of a two-shard server: exact frames per command, the shard each lands on, nothing for failures, no-ops
 * and reads, and a seeded random run whose frames, replayed onto an empty server, rebuild the same sorted sets
 * (the completeness invariant) while every reply matches a real Redis 7.0.
 */
class ZSetFramesIT {
    private static TestServer kevy;
    private static RawClient raw;
    private static final List<String> frames = new ArrayList<>();
    private static final List<byte[][]> rawFrames = new ArrayList<>();

    @BeforeAll
    static void start() {
        kevy = TestServer.start();
        raw = kevy.raw();
        for (int i = 0; i < kevy.server().engine().shardCount(); i++) {
            kevy.server().engine().shard(i).addListener(recorder());
        }
    }

    private static EffectListener recorder() {
        return (Shard shard, long offset, byte[][] frame) -> {
            synchronized (frames) {
                StringBuilder sb = new StringBuilder().append(shard.index()).append(':');
                for (int i = 0; i < frame.length; i++) {
                    sb.append(i == 0 ? "" : " ").append(new String(frame[i], StandardCharsets.UTF_8));
                }
                frames.add(sb.toString());
                rawFrames.add(frame);
            }
        };
    }

    @AfterAll
    static void stop() {
        if (kevy != null) {
            kevy.close();
        }
    }

    @BeforeEach
    void flush() {
        raw.call("FLUSHALL");
        clear();
    }

    private static void clear() {
        synchronized (frames) {
            frames.clear();
            rawFrames.clear();
        }
    }

    private static int shard(String key) {
        return kevy.server().engine().shardIndex(key.getBytes(StandardCharsets.UTF_8));
    }

    /** Runs a command and returns the frames it emitted, each as {@code "<shard>:<VERB> <args>"}. */
    private static List<String> run(String... args) {
        clear();
        raw.call(args);
        synchronized (frames) {
            return new ArrayList<>(frames);
        }
    }

    private static String on(String key, String frame) {
        return shard(key) + ":" + frame;
    }

    @Test
    void zaddEmitsOnlyWhatChangedWithFinalScoresAndNoFlags() {
        assertThat(run("ZADD", "k", "1", "a", "2", "b")).containsExactly(on("k", "ZADD k 1 a 2 b"));
        assertThat(run("ZADD", "k", "NX", "CH", "3", "a", "1.1", "c")).containsExactly(on("k", "ZADD k 1.1 c"));
        assertThat(run("ZADD", "k", "XX", "1", "a", "5", "nope")).isEmpty();
        assertThat(run("ZADD", "k", "GT", "CH", "5", "a", "0", "b")).containsExactly(on("k", "ZADD k 5 a"));
        assertThat(run("ZADD", "k", "1e20", "e", "inf", "p", "-inf", "n", "0.1", "t", "1e-9", "s"))
                .containsExactly(on("k", "ZADD k 100000000000000000000 e inf p -inf n 0.1 t 1e-9 s"));
        assertThat(run("ZADD", "k", "1e21", "e")).containsExactly(on("k", "ZADD k 1e+21 e"));
        assertThat(run("ZINCRBY", "k", "0.1", "a")).containsExactly(on("k", "ZADD k 5.1 a"));
        assertThat(run("ZADD", "k", "INCR", "2", "a")).containsExactly(on("k", "ZADD k 7.1 a"));
        assertThat(run("ZADD", "k", "INCR", "0", "a")).isEmpty();
        assertThat(run("ZADD", "k", "INCR", "GT", "-1", "a")).isEmpty();
        assertThat(run("ZINCRBY", "k", "1", "fresh")).containsExactly(on("k", "ZADD k 1 fresh"));
    }

    @Test
    void failuresAndReadsEmitNothing() {
        run("ZADD", "k", "inf", "a");
        run("SET", "str", "v");
        assertThat(run("ZADD", "k", "x", "a")).isEmpty();
        assertThat(run("ZADD", "k", "NX", "XX", "1", "a")).isEmpty();
        assertThat(run("ZINCRBY", "k", "-inf", "a")).isEmpty();
        assertThat(run("ZADD", "str", "1", "a")).isEmpty();
        assertThat(run("ZADD", "missing", "XX", "1", "a")).isEmpty();
        assertThat(run("ZREM", "k", "nope")).isEmpty();
        assertThat(run("ZREM", "missing", "a")).isEmpty();
        assertThat(run("ZPOPMIN", "missing")).isEmpty();
        assertThat(run("ZPOPMIN", "k", "0")).isEmpty();
        assertThat(run("ZMPOP", "1", "missing", "MIN")).isEmpty();
        assertThat(run("ZREMRANGEBYSCORE", "k", "1", "2")).isEmpty();
        assertThat(run("ZREMRANGEBYRANK", "k", "5", "10")).isEmpty();
        assertThat(run("ZREMRANGEBYLEX", "k", "(a", "+")).isEmpty();
        assertThat(run("ZINTERSTORE", "dst", "2", "k", "missing")).isEmpty();
        assertThat(run("ZRANGESTORE", "dst", "missing", "0", "-1")).isEmpty();
        assertThat(run("ZUNIONSTORE", "dst", "2", "k", "str")).isEmpty();
        for (String[] read : new String[][] {{"ZSCORE", "k", "a"}, {"ZRANGE", "k", "0", "-1"}, {"ZCARD", "k"},
            {"ZRANK", "k", "a"}, {"ZCOUNT", "k", "-inf", "inf"}, {"ZUNION", "1", "k"}, {"ZSCAN", "k", "0"},
            {"ZRANDMEMBER", "k", "-3"}, {"ZINTERCARD", "1", "k"}, {"ZMSCORE", "k", "a"}}) {
            assertThat(run(read)).as(String.join(" ", read)).isEmpty();
        }
    }

    @Test
    void removalsEmitZremOfTheMembersRemoved() {
        run("ZADD", "k", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e", "6", "f", "7", "g");
        assertThat(run("ZREM", "k", "a", "nope", "a")).containsExactly(on("k", "ZREM k a"));
        assertThat(run("ZPOPMIN", "k", "2")).containsExactly(on("k", "ZREM k b c"));
        assertThat(run("ZPOPMAX", "k")).containsExactly(on("k", "ZREM k g"));
        assertThat(run("ZMPOP", "2", "missing", "k", "MAX", "COUNT", "1")).containsExactly(on("k", "ZREM k f"));
        assertThat(run("ZREMRANGEBYSCORE", "k", "(4", "5")).containsExactly(on("k", "ZREM k e"));
        assertThat(run("ZREMRANGEBYRANK", "k", "-1", "-1")).containsExactly(on("k", "ZREM k d"));
        run("ZADD", "lex", "0", "a", "0", "b", "0", "c");
        assertThat(run("ZREMRANGEBYLEX", "lex", "(a", "+")).containsExactly(on("lex", "ZREM lex b c"));
        assertThat(run("ZREM", "lex", "a")).containsExactly(on("lex", "ZREM lex a"));
        assertThat(raw.call("EXISTS", "lex")).isEqualTo(":0\r\n");
    }

    @Test
    void storesEmitDelAndRebuildOnTheDestinationShard() {
        String dst = shard("a1") == shard("dst") ? "dst2" : "dst";
        assertThat(shard(dst)).isNotEqualTo(shard("a1"));
        run("ZADD", "a1", "1", "x", "2", "y");
        run("ZADD", "b1", "1", "y", "3", "z");
        assertThat(run("ZUNIONSTORE", dst, "2", "a1", "b1"))
                .containsExactly(on(dst, "DEL " + dst), on(dst, "ZADD " + dst + " 1 x 3 y 3 z"));
        assertThat(run("ZINTERSTORE", dst, "2", "a1", "b1", "WEIGHTS", "0.5", "1"))
                .containsExactly(on(dst, "DEL " + dst), on(dst, "ZADD " + dst + " 2 y"));
        assertThat(run("ZDIFFSTORE", dst, "2", "a1", "b1"))
                .containsExactly(on(dst, "DEL " + dst), on(dst, "ZADD " + dst + " 1 x"));
        assertThat(run("ZRANGESTORE", dst, "b1", "0", "0", "REV"))
                .containsExactly(on(dst, "DEL " + dst), on(dst, "ZADD " + dst + " 3 z"));
        assertThat(run("ZINTERSTORE", dst, "2", "a1", "missing")).containsExactly(on(dst, "DEL " + dst));
        assertThat(run("ZDIFFSTORE", dst, "2", "a1", "a1")).isEmpty();
        run("SET", dst, "string");
        assertThat(run("ZRANGESTORE", dst, "a1", "5", "9")).containsExactly(on(dst, "DEL " + dst));
    }

    @Test
    void largeStoreResultsAreRebuiltInChunksOf1024() {
        List<String> args = new ArrayList<>(List.of("ZADD", "src"));
        for (int i = 0; i < 2500; i++) {
            args.add(Integer.toString(i));
            args.add("m" + i);
        }
        run(args.toArray(new String[0]));
        clear();
        raw.call("ZUNIONSTORE", "dst", "1", "src");
        List<byte[][]> out;
        synchronized (frames) {
            out = new ArrayList<>(rawFrames);
        }
        assertThat(out).hasSize(4);
        assertThat(new String(out.get(0)[0], StandardCharsets.US_ASCII)).isEqualTo("DEL");
        assertThat(out.subList(1, 4)).extracting(f -> (f.length - 2) / 2).containsExactly(1024, 1024, 452);
        assertThat(new String(out.get(3)[out.get(3).length - 1], StandardCharsets.US_ASCII)).isEqualTo("m2499");
        clear();
        raw.call("ZREMRANGEBYRANK", "src", "0", "-1");
        synchronized (frames) {
            assertThat(rawFrames).extracting(f -> f.length - 2).containsExactly(1024, 1024, 452);
        }
    }

    private static final String[] KEYS = {"k1", "k2", "k3", "k4", "k5", "{t}a", "{t}b"};
    private static final String[] MEMBERS = {"a", "b", "c", "d", "e", "f", "g", "h"};
    private static final String[] SCORES = {"-2.5", "-1", "-0", "0", "0.5", "1", "1.25", "3", "7.75", "1e10", "inf"};

    private static String pick(Random r, String[] from) {
        return from[r.nextInt(from.length)];
    }

    private static String[] randomCommand(Random r) {
        String k = pick(r, KEYS);
        String k2 = pick(r, KEYS);
        String k3 = pick(r, KEYS);
        String m = pick(r, MEMBERS);
        String s = pick(r, SCORES);
        switch (r.nextInt(20)) {
            case 0, 1, 2:
                return new String[] {"ZADD", k, s, m, pick(r, SCORES), pick(r, MEMBERS)};
            case 3:
                return new String[] {"ZADD", k, pick(r, new String[] {"NX", "XX", "GT", "LT"}), "CH", s, m};
            case 4:
                return new String[] {"ZINCRBY", k, pick(r, new String[] {"1", "-0.5", "0", "2.25"}), m};
            case 5:
                return new String[] {"ZREM", k, m, pick(r, MEMBERS)};
            case 6:
                return new String[] {r.nextBoolean() ? "ZPOPMIN" : "ZPOPMAX", k, Integer.toString(r.nextInt(3))};
            case 7:
                return new String[] {"ZMPOP", "2", k, k2, r.nextBoolean() ? "MIN" : "MAX", "COUNT", "2"};
            case 8:
                return new String[] {"ZREMRANGEBYSCORE", k, "(" + s, "inf"};
            case 9:
                return new String[] {"ZREMRANGEBYRANK", k, Integer.toString(r.nextInt(4) - 2), "-2"};
            case 10:
                return new String[] {"ZREMRANGEBYLEX", k, "[" + m, "+"};
            case 11:
                return new String[] {"ZUNIONSTORE", k, "2", k2, k3, "AGGREGATE", pick(r, new String[] {"SUM", "MIN",
                    "MAX"})};
            case 12:
                return new String[] {"ZINTERSTORE", k, "2", k2, k3, "WEIGHTS", "2", "0.5"};
            case 13:
                return new String[] {"ZDIFFSTORE", k, "2", k2, k3};
            case 14:
                return new String[] {"ZRANGESTORE", k, k2, "0", s, "BYSCORE", "LIMIT", "0", "3"};
            case 15:
                return new String[] {"ZRANGE", k, "0", "-1", "WITHSCORES"};
            case 16:
                return new String[] {"ZUNION", "3", k, k2, k3, "WITHSCORES"};
            case 17:
                return new String[] {"ZRANGEBYSCORE", k, "(0", s, "WITHSCORES"};
            case 18:
                return new String[] {"ZSCAN", k, "0"};
            default:
                return new String[] {"ZRANK", k, m};
        }
    }

    @Test
    void replayingTheFramesRebuildsTheSameSortedSets() {
        long seed = Long.getLong("seed", System.nanoTime());
        System.out.println("ZSetFramesIT seed=" + seed);
        Random r = new Random(seed);
        try (RedisOracle redis = RedisOracle.start(); ReplyDiff diff = new ReplyDiff(kevy.raw(), redis.raw());
             TestServer mirror = TestServer.start()) {
            clear();
            for (int i = 0; i < 3000; i++) {
                diff.same(randomCommand(r));
            }
            List<byte[][]> recorded;
            synchronized (frames) {
                recorded = new ArrayList<>(rawFrames);
            }
            assertThat(recorded).isNotEmpty();
            RawClient replay = mirror.raw();
            for (byte[][] f : recorded) {
                assertThat(replay.send(RawClient.encode(f)).readReply()).doesNotStartWith("-");
            }
            for (String k : KEYS) {
                String live = diff.same("ZRANGE", k, "0", "-1", "WITHSCORES");
                assertThat(replay.call("ZRANGE", k, "0", "-1", "WITHSCORES")).as("replayed %s", k).isEqualTo(live);
                assertThat(replay.call("EXISTS", k)).isEqualTo(diff.same("EXISTS", k));
            }
        }
    }
}
