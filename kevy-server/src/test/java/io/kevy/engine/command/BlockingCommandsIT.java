package io.kevy.engine.command;

import static io.kevy.testing.StateDump.keyOnShard;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kevy.engine.Engine;
import io.kevy.engine.Shard;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.FrameRecorder;
import io.kevy.testing.RawClient;
import io.kevy.testing.RedisOracle;
import io.kevy.testing.ReplyDiff;
import io.kevy.testing.TestServer;
import io.lettuce.core.KeyValue;
import io.lettuce.core.LMPopArgs;
import io.lettuce.core.LMoveArgs;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ZPopArgs;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The blocking pops (BLPOP, BRPOP, BLMOVE, BRPOPLPUSH, BLMPOP, BZPOPMIN, BZPOPMAX, BZMPOP) against a real Redis
 * 7.0 (reply bytes, error texts, which client is served with what, in which order), their effect frames (feed
 * contract §7), CLIENT KILL, disconnects and INFO, and lettuce's blocking API, on a 4-shard server so moves
 * cross shards.
 */
class BlockingCommandsIT {
    private static TestServer kevy;
    private static RedisOracle redis;
    private static ReplyDiff diff;
    private static RawClient redisAdmin;
    private static FrameRecorder frames;
    private final List<ReplyDiff> clients = new ArrayList<>();

    @BeforeAll
    static void start() {
        kevy = TestServer.start(c -> c.with(ServerOptions.SHARDS, 4));
        redis = RedisOracle.start();
        diff = new ReplyDiff(kevy.raw(), redis.raw());
        redisAdmin = redis.raw();
        frames = FrameRecorder.attach(engine());
    }

    @AfterAll
    static void stop() {
        if (diff != null) {
            diff.close();
            redisAdmin.close();
        }
        if (redis != null) {
            redis.close();
        }
        if (kevy != null) {
            kevy.close();
        }
    }

    @BeforeEach
    void flush() {
        diff.same("FLUSHALL");
        frames.take();
    }

    @AfterEach
    void closeClients() {
        clients.forEach(ReplyDiff::close);
        clients.clear();
        await().atMost(Duration.ofSeconds(5)).until(() -> engine().sessions().blockedCount() == 0
                && redisBlocked() == 0 && blockedKeys() == 0);
    }

    private static Engine engine() {
        return kevy.server().engine();
    }

    /** A new client pair (one connection to each server), closed after the test. */
    private ReplyDiff client() {
        ReplyDiff d = new ReplyDiff(kevy.raw(), redis.raw());
        clients.add(d);
        return d;
    }

    /** Sends a blocking command on a new client pair and waits until both servers count it blocked. */
    private ReplyDiff blocked(String... args) {
        int before = engine().sessions().blockedCount();
        ReplyDiff d = client();
        d.send(args);
        await().atMost(Duration.ofSeconds(5)).until(() -> engine().sessions().blockedCount() == before + 1
                && redisBlocked() == before + 1);
        return d;
    }

    private static int redisBlocked() {
        String info = redisAdmin.call("INFO", "clients");
        int at = info.indexOf("blocked_clients:") + "blocked_clients:".length();
        return Integer.parseInt(info.substring(at, info.indexOf('\r', at)));
    }

    private static int blockedKeys() {
        int n = 0;
        for (int i = 0; i < engine().shardCount(); i++) {
            Shard s = engine().shard(i);
            s.lock().lock();
            try {
                n += s.signals().blockedKeys();
            } finally {
                s.lock().unlock();
            }
        }
        return n;
    }

    @Test
    void argumentErrorsAsRedis() {
        diff.same("BLPOP", "k");
        diff.same("BLPOP", "k", "x");
        diff.same("BLPOP", "k", "-1");
        diff.same("BLPOP", "k", "-0.5");
        diff.same("BLPOP", "k", "nan");
        diff.same("BLPOP", "k", "inf"); // infinite milliseconds convert to a negative number on x86
        diff.same("BLPOP", "k", "1e300");
        diff.same("BLPOP", "k", "9223372036854775807");
        diff.same("BLPOP", "k", " 1");
        diff.same("BLPOP", "k", "1 ");
        diff.same("BLPOP", "k", "0." + "0".repeat(5200) + "1"); // over string2ld's length limit
        diff.same("BRPOP", "k", "1.5x");
        diff.same("BLMOVE", "a", "b", "LEFT", "UP", "x"); // direction first
        diff.same("BLMOVE", "a", "b", "LEFT", "RIGHT", "x");
        diff.same("BLMOVE", "a", "b", "LEFT", "RIGHT");
        diff.same("BRPOPLPUSH", "a", "b", "-1");
        diff.same("BLMPOP", "x", "1", "k", "LEFT"); // arguments before the timeout
        diff.same("BLMPOP", "0", "0", "k", "LEFT");
        diff.same("BLMPOP", "0", "2", "k", "LEFT");
        diff.same("BLMPOP", "0", "1", "k", "UP");
        diff.same("BLMPOP", "0", "1", "k", "LEFT", "COUNT", "0");
        diff.same("BLMPOP", "0", "1", "k", "LEFT", "COUNT");
        diff.same("BLMPOP", "0", "1", "k", "LEFT", "COUNT", "1", "COUNT", "1");
        diff.same("BLMPOP", "-1", "1", "k", "LEFT");
        diff.same("BZPOPMIN", "z", "x");
        diff.same("BZPOPMAX", "z", "-1");
        diff.same("BZMPOP", "x", "1", "z", "MIN");
        diff.same("BZMPOP", "0", "1", "z", "MID");
        diff.same("BZMPOP", "0", "1", "z", "MIN", "COUNT", "-2");
        diff.same("BZMPOP", "0", "x", "z", "MIN");
        for (String name : List.of("blpop", "brpop", "bzpopmin", "bzpopmax")) {
            diff.same("COMMAND", "INFO", name);
        }
        diff.same("COMMAND", "GETKEYS", "BLMPOP", "0", "2", "a", "b", "LEFT");
        diff.same("COMMAND", "GETKEYS", "BZMPOP", "0", "1", "a", "MAX", "COUNT", "2");
        diff.same("COMMAND", "GETKEYS", "BLMOVE", "a", "b", "LEFT", "LEFT", "0");
    }

    @Test
    void immediatePopsTakeTheFirstKeyHoldingData() {
        diff.same("RPUSH", "l2", "a", "b", "c");
        diff.same("RPUSH", "l3", "z");
        diff.same("BLPOP", "l1", "l2", "l3", "0");
        diff.same("BRPOP", "l1", "l3", "l2", "0");
        diff.same("BLMPOP", "0", "3", "l1", "l2", "l3", "RIGHT", "COUNT", "5");
        diff.same("SET", "s", "str");
        diff.same("BLPOP", "s", "l2", "0"); // WRONGTYPE before any data
        diff.same("RPUSH", "l4", "x");
        diff.same("BLPOP", "l4", "s", "0"); // data first: the later key is not checked
        diff.same("BLPOP", "l9", "s", "0.01");
        diff.same("RPUSH", "src", "1", "2");
        diff.same("BLMOVE", "src", "dst", "RIGHT", "LEFT", "0");
        diff.same("BRPOPLPUSH", "src", "dst", "0");
        diff.same("BRPOPLPUSH", "dst", "s", "0"); // WRONGTYPE destination, nothing moved
        diff.same("LRANGE", "dst", "0", "-1");
        diff.same("ZADD", "z2", "1", "a", "2", "b", "3", "c");
        diff.same("BZPOPMIN", "z1", "z2", "0");
        diff.same("BZPOPMAX", "z1", "z2", "0");
        diff.same("BZMPOP", "0", "2", "z1", "z2", "MIN", "COUNT", "9");
        diff.same("EXISTS", "z2");
        diff.same("BZPOPMIN", "s", "0");
    }

    @Test
    void timeoutsAnswerTheNullArray() {
        diff.same("BLPOP", "k", "0.02");
        diff.same("BRPOP", "k", "k2", "0.02");
        diff.same("BLMOVE", "k", "d", "LEFT", "LEFT", "0.02"); // a null array, as Redis 7.0
        diff.same("BRPOPLPUSH", "k", "d", "0.02");
        diff.same("BLMPOP", "0.02", "1", "k", "LEFT");
        diff.same("BZPOPMIN", "z", "0.02");
        diff.same("BZMPOP", "0.02", "2", "z", "z2", "MAX");
        diff.same("BLPOP", "k", "0.0001"); // rounded up to 1 ms, not to "no timeout"
        diff.same("BLPOP", "k", "0x0.01p0"); // hexadecimal floats are floats
        long t0 = System.nanoTime();
        diff.same("BLPOP", "k", "0.3");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isGreaterThanOrEqualTo(2 * 300);
    }

    @Test
    void tinyNegativeTimeoutMeansForever() {
        ReplyDiff b = blocked("BLPOP", "k", "-0.0004"); // rounds up to -0, which is 0: no timeout
        diff.same("RPUSH", "k", "v");
        b.sameReply("BLPOP -0.0004");
    }

    @Test
    void threeBlockedClientsAreServedInFifoOrder() {
        ReplyDiff first = blocked("BLPOP", "k", "0");
        ReplyDiff second = blocked("BRPOP", "k", "0");
        ReplyDiff third = blocked("BLPOP", "other", "k", "0");
        diff.same("RPUSH", "k", "a");
        first.sameReply("first");
        diff.same("RPUSH", "k", "b");
        second.sameReply("second");
        diff.same("RPUSH", "k", "c");
        third.sameReply("third");
        diff.same("EXISTS", "k");
    }

    @Test
    void aPushOfSeveralElementsServesSeveralClients() {
        ReplyDiff a = blocked("BLPOP", "k", "0");
        ReplyDiff b = blocked("BLMPOP", "0", "1", "k", "RIGHT", "COUNT", "2");
        ReplyDiff c = blocked("BRPOP", "k", "0");
        ReplyDiff d = blocked("BLPOP", "k", "0");
        diff.same("LPUSH", "k", "1", "2", "3");
        a.sameReply("a");
        b.sameReply("b");
        diff.same("EXISTS", "k");
        diff.same("RPUSH", "k", "4", "5");
        c.sameReply("c");
        d.sameReply("d");
        diff.same("EXISTS", "k");
    }

    @Test
    void theKeyThatGetsDataServesAClientBlockedOnSeveral() {
        ReplyDiff b = blocked("BLPOP", "k1", "k2", "k3", "0");
        diff.same("RPUSH", "k3", "x");
        b.sameReply("k3");
        ReplyDiff z = blocked("BZPOPMAX", "z1", "z2", "0");
        diff.same("ZADD", "z2", "INCR", "5", "m");
        z.sameReply("z2");
        ReplyDiff m = blocked("BZMPOP", "0", "2", "z1", "z2", "MIN", "COUNT", "2");
        diff.same("ZADD", "z1", "3", "c", "1", "a", "2", "b");
        m.sameReply("z1");
        diff.same("ZRANGE", "z1", "0", "-1", "WITHSCORES");
    }

    @Test
    void clientsWaitOnTheKeyWhateverTypeItTakesMeanwhile() {
        ReplyDiff b = blocked("BLPOP", "k", "0");
        ReplyDiff z = blocked("BZPOPMIN", "k", "0");
        diff.same("ZADD", "k", "1", "m"); // serves the sorted-set waiter, not the list one
        z.sameReply("BZPOPMIN");
        diff.same("SET", "k", "str");
        diff.same("DEL", "k");
        diff.same("RPUSH", "k", "L");
        b.sameReply("BLPOP");
    }

    @Test
    void keysReadiedByMovesRenamesAndStores() {
        ReplyDiff byMove = blocked("BLPOP", "moved", "0");
        diff.same("RPUSH", "src", "1", "2");
        diff.same("LMOVE", "src", "moved", "LEFT", "RIGHT");
        byMove.sameReply("LMOVE");
        ReplyDiff byRename = blocked("BLPOP", "renamed", "0");
        diff.same("RENAME", "src", "renamed");
        byRename.sameReply("RENAME");
        ReplyDiff byStore = blocked("BZPOPMIN", "stored", "0");
        diff.same("ZADD", "za", "1", "a", "2", "b");
        diff.same("ZUNIONSTORE", "stored", "1", "za");
        byStore.sameReply("ZUNIONSTORE");
        ReplyDiff bySort = blocked("BRPOP", "sorted", "0");
        diff.same("RPUSH", "nums", "3", "1", "2");
        diff.same("SORT", "nums", "STORE", "sorted");
        bySort.sameReply("SORT STORE");
        diff.same("LRANGE", "sorted", "0", "-1");
    }

    @Test
    void blockedMovesChainAcrossShards() {
        Engine e = engine();
        // a cycle of keys on shards 3 -> 1 -> 2 -> 0: pushes on a higher and on a lower shard
        String s3 = keyOnShard(e, "a", 3);
        String s1 = keyOnShard(e, "b", 1);
        String s2 = keyOnShard(e, "c", 2);
        String s0 = keyOnShard(e, "d", 0);
        ReplyDiff m1 = blocked("BLMOVE", s3, s1, "LEFT", "RIGHT", "0");
        ReplyDiff m2 = blocked("BRPOPLPUSH", s1, s2, "0");
        ReplyDiff m3 = blocked("BLMOVE", s2, s0, "RIGHT", "LEFT", "0");
        ReplyDiff last = blocked("BLPOP", s0, "0");
        diff.same("RPUSH", s3, "v1", "v2");
        m1.sameReply("m1");
        m2.sameReply("m2");
        m3.sameReply("m3");
        last.sameReply("last");
        for (String k : List.of(s3, s1, s2, s0)) {
            diff.same("LRANGE", k, "0", "-1");
        }
        ReplyDiff rot = blocked("BLMOVE", "rot", "rot", "LEFT", "RIGHT", "0");
        diff.same("RPUSH", "rot", "1", "2");
        rot.sameReply("rotation");
        diff.same("LRANGE", "rot", "0", "-1");
    }

    @Test
    void aServedMoveToAWrongTypeDestinationFailsAndKeepsTheElement() {
        diff.same("SET", "dst", "str");
        ReplyDiff m = blocked("BLMOVE", "src", "dst", "LEFT", "RIGHT", "0");
        ReplyDiff p = blocked("BLPOP", "src", "0");
        diff.same("RPUSH", "src", "e");
        m.sameReply("BLMOVE");
        p.sameReply("BLPOP after the failed move");
    }

    @Test
    void aTransactionServesBlockedClientsOnlyWhenItEnds() {
        ReplyDiff b = blocked("BLPOP", "k", "0");
        diff.same("MULTI");
        diff.same("RPUSH", "k", "1");
        diff.same("LPOP", "k");
        diff.same("EXEC"); // the key is empty again when the transaction ends: nobody is served
        diff.same("MULTI");
        diff.same("RPUSH", "k", "1", "2");
        diff.same("RPUSH", "k", "3");
        diff.same("EXEC");
        b.sameReply("after EXEC");
        diff.same("LRANGE", "k", "0", "-1");
    }

    @Test
    void aPipelinedPopCannotOvertakeABlockedClient() {
        ReplyDiff b = blocked("BLPOP", "k", "0");
        diff.send("RPUSH", "k", "v");
        diff.send("LPOP", "k");
        diff.sameReply("RPUSH");
        diff.sameReply("LPOP after RPUSH");
        b.sameReply("BLPOP");
    }

    @Test
    void servedPopsEmitTheirOwnFrames() {
        Engine e = engine();
        String src = keyOnShard(e, "src", 3);
        String dst = keyOnShard(e, "dst", 0);
        String same = "{t}b";
        String sameDst = "{t}c";
        ReplyDiff p1 = blocked("BLPOP", "l", "0");
        diff.same("RPUSH", "l", "a");
        p1.sameReply("BLPOP");
        assertThat(frames.take()).containsExactly("RPUSH l a", "LPOP l 1");
        ReplyDiff p2 = blocked("BLMPOP", "0", "1", "l", "RIGHT", "COUNT", "5");
        diff.same("RPUSH", "l", "a", "b");
        p2.sameReply("BLMPOP");
        assertThat(frames.take()).containsExactly("RPUSH l a b", "RPOP l 2");
        ReplyDiff m = blocked("BLMOVE", src, dst, "LEFT", "RIGHT", "0");
        diff.same("RPUSH", src, "x");
        m.sameReply("BLMOVE");
        List<FrameRecorder.Frame> f = frames.takeFrames();
        assertThat(f).extracting(FrameRecorder.Frame::text)
                .containsExactly("RPUSH " + src + " x", "LPOP " + src + " 1", "RPUSH " + dst + " x");
        assertThat(f).extracting(FrameRecorder.Frame::shard).containsExactly(3, 3, 0);
        ReplyDiff m2 = blocked("BRPOPLPUSH", same, sameDst, "0");
        diff.same("RPUSH", same, "y");
        m2.sameReply("BRPOPLPUSH");
        assertThat(frames.take()).containsExactly("RPUSH {t}b y", "RPOP {t}b 1", "LPUSH {t}c y");
        ReplyDiff z = blocked("BZPOPMIN", "z", "0");
        diff.same("ZADD", "z", "1", "a");
        z.sameReply("BZPOPMIN");
        ReplyDiff zm = blocked("BZMPOP", "0", "1", "z", "MAX", "COUNT", "3");
        diff.same("ZADD", "z", "3", "c", "2", "b");
        zm.sameReply("BZMPOP");
        assertThat(frames.take()).containsExactly("ZADD z 1 a", "ZREM z a", "ZADD z 3 c 2 b", "ZREM z c b");
        diff.same("BLPOP", "nothing", "0.01");
        assertThat(frames.take()).as("a timeout changes nothing").isEmpty();
    }

    @Test
    void clientKillAndDisconnectReleaseBlockedClients() {
        RawClient admin = kevy.raw();
        RawClient k1 = kevy.raw();
        String id = k1.call("CLIENT", "ID").substring(1).trim();
        k1.command("BLPOP", "a", "b", "0");
        RawClient k2 = RawClient.connect(kevy.port());
        k2.command("BZPOPMIN", "z", "0");
        await().atMost(Duration.ofSeconds(5)).until(() -> engine().sessions().blockedCount() == 2);
        assertThat(admin.call("INFO", "clients")).contains("blocked_clients:2\r\n");
        assertThat(admin.call("CLIENT", "LIST", "ID", id)).contains(" flags=b ").contains(" cmd=blpop ");
        assertThat(blockedKeys()).isEqualTo(3);
        assertThat(admin.call("CLIENT", "KILL", "ID", id)).isEqualTo(":1\r\n");
        k2.close();
        await().atMost(Duration.ofSeconds(5)).until(() -> engine().sessions().blockedCount() == 0
                && blockedKeys() == 0);
        assertThat(admin.call("INFO", "clients")).contains("blocked_clients:0\r\n");
        admin.call("RPUSH", "a", "kept");
        assertThat(admin.call("LRANGE", "a", "0", "-1")).as("nobody took it").isEqualTo("*1\r\n$4\r\nkept\r\n");
    }

    /**
     * A served BLMOVE whose destination is on a lower shard than the pushed key, while another thread holds the
     * destination's lock: the pushing thread may not wait for it, so it defers to the blocked client, which
     * takes both locks in order; meanwhile a second client blocked on the same key does not get the element.
     */
    @Test
    void aMoveDeferredForTheLockOrderKeepsTheFifoOrder() throws Exception {
        Engine e = engine();
        String src = keyOnShard(e, "hi", 3);
        String dst = keyOnShard(e, "lo", 0);
        RawClient mover = kevy.raw();
        mover.command("BLMOVE", src, dst, "LEFT", "RIGHT", "0");
        await().atMost(Duration.ofSeconds(5)).until(() -> engine().sessions().blockedCount() == 1);
        RawClient popper = kevy.raw();
        popper.command("BLPOP", src, "0");
        await().atMost(Duration.ofSeconds(5)).until(() -> engine().sessions().blockedCount() == 2);
        Shard low = e.shard(0);
        low.lock().lock();
        String pushed;
        try {
            pushed = CompletableFuture.supplyAsync(() -> kevy.raw().call("RPUSH", src, "v")).get(5, TimeUnit.SECONDS);
            assertThat(e.sessions().blockedCount()).as("both still blocked while the lock is held").isEqualTo(2);
        } finally {
            low.lock().unlock();
        }
        assertThat(pushed).isEqualTo(":1\r\n");
        assertThat(mover.readReply()).isEqualTo("$1\r\nv\r\n");
        assertThat(kevy.raw().call("LRANGE", dst, "0", "-1")).isEqualTo("*1\r\n$1\r\nv\r\n");
        kevy.raw().call("RPUSH", src, "w");
        assertThat(popper.readReply()).isEqualTo("*2\r\n$" + src.length() + "\r\n" + src + "\r\n$1\r\nw\r\n");
    }

    @Test
    void lettuceBlockingCommands() throws Exception {
        RedisCommands<String, String> r = kevy.lettuce();
        RedisCommands<String, String> pusher = kevy.lettuce();
        assertThat(r.blpop(0.05, "none")).isNull();
        CompletableFuture<KeyValue<String, String>> popped = CompletableFuture.supplyAsync(() -> r.blpop(5, "q"));
        await().atMost(Duration.ofSeconds(5)).until(() -> engine().sessions().blockedCount() == 1);
        pusher.rpush("q", "job");
        assertThat(popped.get(5, TimeUnit.SECONDS)).isEqualTo(KeyValue.just("q", "job"));
        pusher.rpush("q", "a", "b");
        assertThat(r.brpop(1, "q")).isEqualTo(KeyValue.just("q", "b"));
        assertThat(r.blmove("q", "q2", LMoveArgs.Builder.leftRight(), 1)).isEqualTo("a");
        assertThat(r.brpoplpush(1, "q2", "q3")).isEqualTo("a");
        pusher.rpush("m", "1", "2", "3");
        KeyValue<String, List<String>> m = r.blmpop(1, LMPopArgs.Builder.left().count(2), "none", "m");
        assertThat(m.getKey()).isEqualTo("m");
        assertThat(m.getValue()).containsExactly("1", "2");
        pusher.zadd("z", 1.0, "a", 2.0, "b", 3.0, "c");
        KeyValue<String, ScoredValue<String>> min = r.bzpopmin(1, "z");
        assertThat(min.getValue()).isEqualTo(ScoredValue.just(1, "a"));
        assertThat(r.bzpopmax(1, "z").getValue()).isEqualTo(ScoredValue.just(3, "c"));
        KeyValue<String, List<ScoredValue<String>>> zm = r.bzmpop(1L, 5L, ZPopArgs.Builder.min(), "z");
        assertThat(zm.getValue()).containsExactly(ScoredValue.just(2, "b"));
        assertThat(r.bzpopmin(0.05, "z")).isNull();
    }
}
