package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kevy.testing.TestServer;
import io.lettuce.core.KeyValue;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScoredValueScanCursor;
import io.lettuce.core.ZAddArgs;
import io.lettuce.core.ZAggregateArgs;
import io.lettuce.core.ZPopArgs;
import io.lettuce.core.ZStoreArgs;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Sorted sets through lettuce's typed API, on a two-shard server (so the STORE forms cross shards). */
class ZSetLettuceIT {
    private static TestServer server;
    private static RedisCommands<String, String> redis;

    @BeforeAll
    static void start() {
        server = TestServer.start();
        redis = server.lettuce();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void flush() {
        redis.flushall();
    }

    @Test
    void addScoreRankAndIncrement() {
        assertThat(redis.zadd("z", 1.0, "a")).isEqualTo(1);
        assertThat(redis.zadd("z", ScoredValue.just(2, "b"), ScoredValue.just(3, "c"))).isEqualTo(2);
        assertThat(redis.zadd("z", ZAddArgs.Builder.nx().ch(), 9, "a")).isZero();
        assertThat(redis.zadd("z", ZAddArgs.Builder.gt().ch(), 9, "a")).isEqualTo(1);
        assertThat(redis.zincrby("z", 0.5, "b")).isEqualTo(2.5);
        assertThat(redis.zscore("z", "b")).isEqualTo(2.5);
        assertThat(redis.zmscore("z", "a", "nope", "c")).containsExactly(9.0, null, 3.0);
        assertThat(redis.zcard("z")).isEqualTo(3);
        assertThat(redis.zrank("z", "c")).isEqualTo(1);
        assertThat(redis.zrevrank("z", "c")).isEqualTo(1);
        // ZRANK WITHSCORE is checked on the wire in ZSetCommandsIT: lettuce's zrankWithScore only parses RESP3
        assertThat(redis.zrank("z", "nope")).isNull();
        assertThat(redis.zrem("z", "a", "nope")).isEqualTo(1);
        assertThatThrownBy(() -> redis.zadd("z", ZAddArgs.Builder.nx().xx(), 1, "a"))
                .isInstanceOf(RedisCommandExecutionException.class)
                .hasMessage("ERR XX and NX options at the same time are not compatible");
    }

    @Test
    void rangesWithScoresLimitsAndLex() {
        redis.zadd("z", 1.0, "a", 2.0, "b", 3.0, "c", 4.0, "d", Double.POSITIVE_INFINITY, "e");
        assertThat(redis.zrange("z", 1, -2)).containsExactly("b", "c", "d");
        assertThat(redis.zrangeWithScores("z", -1, -1)).containsExactly(ScoredValue.just(Double.POSITIVE_INFINITY, "e"));
        assertThat(redis.zrangebyscore("z", Range.create(2, 4))).containsExactly("b", "c", "d");
        assertThat(redis.zrangebyscore("z", Range.from(Range.Boundary.excluding(2), Range.Boundary.unbounded()),
                Limit.create(1, 2))).containsExactly("d", "e");
        assertThat(redis.zrevrangebyscore("z", Range.create(1, 3))).containsExactly("c", "b", "a");
        assertThat(redis.zcount("z", Range.from(Range.Boundary.excluding(1), Range.Boundary.including(4))))
                .isEqualTo(3);
        assertThat(redis.zrangestore("dst", "z", Range.create(0L, 1L))).isEqualTo(2);
        assertThat(redis.zrange("dst", 0, -1)).containsExactly("a", "b");
        redis.zadd("lex", 0.0, "apple", 0.0, "banana", 0.0, "cherry");
        assertThat(redis.zrangebylex("lex", Range.from(Range.Boundary.excluding("apple"), Range.Boundary.unbounded())))
                .containsExactly("banana", "cherry");
        assertThat(redis.zlexcount("lex", Range.create("apple", "banana"))).isEqualTo(2);
        assertThat(redis.zremrangebyscore("z", Range.create(Double.NEGATIVE_INFINITY, 2.0))).isEqualTo(2);
        assertThat(redis.zremrangebyrank("z", 0, 0)).isEqualTo(1);
        assertThat(redis.zremrangebylex("lex", "[b", "+")).isEqualTo(2);
    }

    @Test
    void popsAcrossKeys() {
        redis.zadd("p1", 1.0, "a", 2.0, "b", 3.0, "c");
        assertThat(redis.zpopmin("p1")).isEqualTo(ScoredValue.just(1, "a"));
        assertThat(redis.zpopmax("p1", 5)).containsExactly(ScoredValue.just(3, "c"), ScoredValue.just(2, "b"));
        assertThat(redis.exists("p1")).isZero();
        redis.zadd("p2", 5.0, "x", 6.0, "y");
        KeyValue<String, List<ScoredValue<String>>> popped = redis.zmpop(2, ZPopArgs.Builder.max(), "p1", "p2");
        assertThat(popped.getKey()).isEqualTo("p2");
        assertThat(popped.getValue()).containsExactly(ScoredValue.just(6, "y"), ScoredValue.just(5, "x"));
    }

    @Test
    void algebraAcrossShards() {
        redis.zadd("s1", 1.0, "a", 2.0, "b");
        redis.zadd("s2", 10.0, "b", 20.0, "c");
        assertThat(server.server().engine().shardIndex("s1".getBytes()))
                .isNotEqualTo(server.server().engine().shardIndex("s2".getBytes()));
        assertThat(redis.zunionstore("out", ZStoreArgs.Builder.weights(1, 0.5), "s1", "s2")).isEqualTo(3);
        assertThat(redis.zrangeWithScores("out", 0, -1)).containsExactly(ScoredValue.just(1, "a"),
                ScoredValue.just(7, "b"), ScoredValue.just(10, "c"));
        assertThat(redis.zinterstore("out", ZStoreArgs.Builder.max(), "s1", "s2")).isEqualTo(1);
        assertThat(redis.zscore("out", "b")).isEqualTo(10.0);
        assertThat(redis.zinter(ZAggregateArgs.Builder.min(), "s1", "s2")).containsExactly("b");
        assertThat(redis.zunion("s1", "s2")).containsExactly("a", "b", "c");
        assertThat(redis.zdiff("s1", "s2")).containsExactly("a");
        assertThat(redis.zintercard("s1", "s2")).isEqualTo(1);
        assertThat(redis.zrandmember("s1")).isIn("a", "b");
        assertThat(redis.zrandmember("s1", -5)).hasSize(5).allMatch(m -> m.equals("a") || m.equals("b"));
    }

    @Test
    void scanWalksEveryMember() {
        for (int i = 0; i < 500; i++) {
            redis.zadd("big", i, "m" + i);
        }
        Set<String> seen = new HashSet<>();
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            ScoredValueScanCursor<String> page = redis.zscan("big", cursor, ScanArgs.Builder.limit(40));
            for (ScoredValue<String> v : page.getValues()) {
                assertThat(v.getValue()).isEqualTo("m" + (long) v.getScore());
                seen.add(v.getValue());
            }
            cursor = page;
        } while (!cursor.isFinished());
        assertThat(seen).hasSize(500);
    }
}
