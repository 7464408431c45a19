package io.kevy.engine.command;

import static io.kevy.testing.StateDump.keyOnShard;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kevy.engine.Engine;
import io.kevy.engine.Shard;
import io.kevy.testing.FrameRecorder;
import io.kevy.testing.OracleFixture;
import io.kevy.testing.RawClient;
import io.kevy.testing.ReplyDiff;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The blocking pops (BLPOP, BRPOP, BLMOVE, BRPOPLPUSH, BLMPOP, BZPOPMIN, BZPOPMAX, BZMPOP) against a real Redis
 * 7.0 (reply bytes, error texts, which client is served with what, in which order), their effect frames (feed
 * contract §7), CLIENT KILL, disconnects and INFO, and lettuce's blocking API, on a 4-shard server so moves
 * cross shards.
 */
class BlockingCommandsIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create().shards(4).recordFrames();

    private static RawClient redisAdmin;
    private final List<ReplyDiff> clients = new ArrayList<>();

    @BeforeAll
    static void openAdmin() {
        redisAdmin = oracle.redis().raw();
    }

    @AfterAll
    static void closeAdmin() {
        redisAdmin.close();
    }

    @AfterEach
    void closeClients() {
        clients.forEach(ReplyDiff::close);
        clients.clear();
        await().atMost(Duration.ofSeconds(5)).until(() -> oracle.engine().sessions().blockedCount() == 0
                && redisBlocked() == 0 && blockedKeys() == 0);
    }

    /** A new client pair (one connection to each server), closed after the test. */
    private ReplyDiff client() {
        ReplyDiff d = new ReplyDiff(oracle.kevy().raw(), oracle.redis().raw());
        clients.add(d);
        return d;
    }

    /** Sends a blocking command on a new client pair and waits until both servers count it blocked. */
    private ReplyDiff blocked(String... args) {
        int before = oracle.engine().sessions().blockedCount();
        ReplyDiff d = client();
        d.send(args);
        await().atMost(Duration.ofSeconds(5)).until(() -> oracle.engine().sessions().blockedCount() == before + 1
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
        for (int i = 0; i < oracle.engine().shardCount(); i++) {
            Shard s = oracle.engine().shard(i);
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
        oracle.same("BLPOP", "k");
        oracle.same("BLPOP", "k", "x");
        oracle.same("BLPOP", "k", "-1");
        oracle.same("BLPOP", "k", "-0.5");
        oracle.same("BLPOP", "k", "nan");
        oracle.same("BLPOP", "k", "inf"); // infinite milliseconds convert to a negative number on x86
        oracle.same("BLPOP", "k", "1e300");
        oracle.same("BLPOP", "k", "9223372036854775807");
        oracle.same("BLPOP", "k", " 1");
        oracle.same("BLPOP", "k", "1 ");
        oracle.same("BLPOP", "k", "0." + "0".repeat(5200) + "1"); // over string2ld's length limit
        oracle.same("BRPOP", "k", "1.5x");
        oracle.same("BLMOVE", "a", "b", "LEFT", "UP", "x"); // direction first
        oracle.same("BLMOVE", "a", "b", "LEFT", "RIGHT", "x");
        oracle.same("BLMOVE", "a", "b", "LEFT", "RIGHT");
        oracle.same("BRPOPLPUSH", "a", "b", "-1");
        oracle.same("BLMPOP", "x", "1", "k", "LEFT"); // arguments before the timeout
        oracle.same("BLMPOP", "0", "0", "k", "LEFT");
        oracle.same("BLMPOP", "0", "2", "k", "LEFT");
        oracle.same("BLMPOP", "0", "1", "k", "UP");
        oracle.same("BLMPOP", "0", "1", "k", "LEFT", "COUNT", "0");
        oracle.same("BLMPOP", "0", "1", "k", "LEFT", "COUNT");
        oracle.same("BLMPOP", "0", "1", "k", "LEFT", "COUNT", "1", "COUNT", "1");
        oracle.same("BLMPOP", "-1", "1", "k", "LEFT");
        oracle.same("BZPOPMIN", "z", "x");
        oracle.same("BZPOPMAX", "z", "-1");
        oracle.same("BZMPOP", "x", "1", "z", "MIN");
        oracle.same("BZMPOP", "0", "1", "z", "MID");
        oracle.same("BZMPOP", "0", "1", "z", "MIN", "COUNT", "-2");
        oracle.same("BZMPOP", "0", "x", "z", "MIN");
        for (String name : List.of("blpop", "brpop", "bzpopmin", "bzpopmax")) {
            oracle.same("COMMAND", "INFO", name);
        }
        oracle.same("COMMAND", "GETKEYS", "BLMPOP", "0", "2", "a", "b", "LEFT");
        oracle.same("COMMAND", "GETKEYS", "BZMPOP", "0", "1", "a", "MAX", "COUNT", "2");
        oracle.same("COMMAND", "GETKEYS", "BLMOVE", "a", "b", "LEFT", "LEFT", "0");
    }

    @Test
    void immediatePopsTakeTheFirstKeyHoldingData() {
        oracle.same("RPUSH", "l2", "a", "b", "c");
        oracle.same("RPUSH", "l3", "z");
        oracle.same("BLPOP", "l1", "l2", "l3", "0");
        oracle.same("BRPOP", "l1", "l3", "l2", "0");
        oracle.same("BLMPOP", "0", "3", "l1", "l2", "l3", "RIGHT", "COUNT", "5");
        oracle.same("SET", "s", "str");
        oracle.same("BLPOP", "s", "l2", "0"); // WRONGTYPE before any data
        oracle.same("RPUSH", "l4", "x");
        oracle.same("BLPOP", "l4", "s", "0"); // data first: the later key is not checked
        oracle.same("BLPOP", "l9", "s", "0.01");
        oracle.same("RPUSH", "src", "1", "2");
        oracle.same("BLMOVE", "src", "dst", "RIGHT", "LEFT", "0");
        oracle.same("BRPOPLPUSH", "src", "dst", "0");
        oracle.same("BRPOPLPUSH", "dst", "s", "0"); // WRONGTYPE destination, nothing moved
        oracle.same("LRANGE", "dst", "0", "-1");
        oracle.same("ZADD", "z2", "1", "a", "2", "b", "3", "c");
        oracle.same("BZPOPMIN", "z1", "z2", "0");
        oracle.same("BZPOPMAX", "z1", "z2", "0");
        oracle.same("BZMPOP", "0", "2", "z1", "z2", "MIN", "COUNT", "9");
        oracle.same("EXISTS", "z2");
        oracle.same("BZPOPMIN", "s", "0");
    }

    @Test
    void timeoutsAnswerTheNullArray() {
        oracle.same("BLPOP", "k", "0.02");
        oracle.same("BRPOP", "k", "k2", "0.02");
        oracle.same("BLMOVE", "k", "d", "LEFT", "LEFT", "0.02"); // a null array, as Redis 7.0
        oracle.same("BRPOPLPUSH", "k", "d", "0.02");
        oracle.same("BLMPOP", "0.02", "1", "k", "LEFT");
        oracle.same("BZPOPMIN", "z", "0.02");
        oracle.same("BZMPOP", "0.02", "2", "z", "z2", "MAX");
        oracle.same("BLPOP", "k", "0.0001"); // rounded up to 1 ms, not to "no timeout"
        oracle.same("BLPOP", "k", "0x0.01p0"); // hexadecimal floats are floats
        long t0 = System.nanoTime();
        oracle.same("BLPOP", "k", "0.3");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isGreaterThanOrEqualTo(2 * 300);
    }

    @Test
    void tinyNegativeTimeoutMeansForever() {
        ReplyDiff b = blocked("BLPOP", "k", "-0.0004"); // rounds up to -0, which is 0: no timeout
        oracle.same("RPUSH", "k", "v");
        b.sameReply("BLPOP -0.0004");
    }

    @Test
    void threeBlockedClientsAreServedInFifoOrder() {
        ReplyDiff first = blocked("BLPOP", "k", "0");
        ReplyDiff second = blocked("BRPOP", "k", "0");
        ReplyDiff third = blocked("BLPOP", "other", "k", "0");
        oracle.same("RPUSH", "k", "a");
        first.sameReply("first");
        oracle.same("RPUSH", "k", "b");
        second.sameReply("second");
        oracle.same("RPUSH", "k", "c");
        third.sameReply("third");
        oracle.same("EXISTS", "k");
    }

    @Test
    void aPushOfSeveralElementsServesSeveralClients() {
        ReplyDiff a = blocked("BLPOP", "k", "0");
        ReplyDiff b = blocked("BLMPOP", "0", "1", "k", "RIGHT", "COUNT", "2");
        ReplyDiff c = blocked("BRPOP", "k", "0");
        ReplyDiff d = blocked("BLPOP", "k", "0");
        oracle.same("LPUSH", "k", "1", "2", "3");
        a.sameReply("a");
        b.sameReply("b");
        oracle.same("EXISTS", "k");
        oracle.same("RPUSH", "k", "4", "5");
        c.sameReply("c");
        d.sameReply("d");
        oracle.same("EXISTS", "k");
    }

    @Test
    void theKeyThatGetsDataServesAClientBlockedOnSeveral() {
        ReplyDiff b = blocked("BLPOP", "k1", "k2", "k3", "0");
        oracle.same("RPUSH", "k3", "x");
        b.sameReply("k3");
        ReplyDiff z = blocked("BZPOPMAX", "z1", "z2", "0");
        oracle.same("ZADD", "z2", "INCR", "5", "m");
        z.sameReply("z2");
        ReplyDiff m = blocked("BZMPOP", "0", "2", "z1", "z2", "MIN", "COUNT", "2");
        oracle.same("ZADD", "z1", "3", "c", "1", "a", "2", "b");
        m.sameReply("z1");
        oracle.same("ZRANGE", "z1", "0", "-1", "WITHSCORES");
    }

    @Test
    void clientsWaitOnTheKeyWhateverTypeItTakesMeanwhile() {
        ReplyDiff b = blocked("BLPOP", "k", "0");
        ReplyDiff z = blocked("BZPOPMIN", "k", "0");
        oracle.same("ZADD", "k", "1", "m"); // serves the sorted-set waiter, not the list one
        z.sameReply("BZPOPMIN");
        oracle.same("SET", "k", "str");
        oracle.same("DEL", "k");
        oracle.same("RPUSH", "k", "L");
        b.sameReply("BLPOP");
    }

    @Test
    void keysReadiedByMovesRenamesAndStores() {
        ReplyDiff byMove = blocked("BLPOP", "moved", "0");
        oracle.same("RPUSH", "src", "1", "2");
        oracle.same("LMOVE", "src", "moved", "LEFT", "RIGHT");
        byMove.sameReply("LMOVE");
        ReplyDiff byRename = blocked("BLPOP", "renamed", "0");
        oracle.same("RENAME", "src", "renamed");
        byRename.sameReply("RENAME");
        ReplyDiff byStore = blocked("BZPOPMIN", "stored", "0");
        oracle.same("ZADD", "za", "1", "a", "2", "b");
        oracle.same("ZUNIONSTORE", "stored", "1", "za");
        byStore.sameReply("ZUNIONSTORE");
        ReplyDiff bySort = blocked("BRPOP", "sorted", "0");
        oracle.same("RPUSH", "nums", "3", "1", "2");
        oracle.same("SORT", "nums", "STORE", "sorted");
        bySort.sameReply("SORT STORE");
        oracle.same("LRANGE", "sorted", "0", "-1");
    }

    @Test
    void blockedMovesChainAcrossShards() {
        Engine e = oracle.engine();
        // a cycle of keys on shards 3 -> 1 -> 2 -> 0: pushes on a higher and on a lower shard
        String s3 = keyOnShard(e, "a", 3);
        String s1 = keyOnShard(e, "b", 1);
        String s2 = keyOnShard(e, "c", 2);
        String s0 = keyOnShard(e, "d", 0);
        ReplyDiff m1 = blocked("BLMOVE", s3, s1, "LEFT", "RIGHT", "0");
        ReplyDiff m2 = blocked("BRPOPLPUSH", s1, s2, "0");
        ReplyDiff m3 = blocked("BLMOVE", s2, s0, "RIGHT", "LEFT", "0");
        ReplyDiff last = blocked("BLPOP", s0, "0");
        oracle.same("RPUSH", s3, "v1", "v2");
        m1.sameReply("m1");
        m2.sameReply("m2");
        m3.sameReply("m3");
        last.sameReply("last");
        for (String k : List.of(s3, s1, s2, s0)) {
            oracle.same("LRANGE", k, "0", "-1");
        }
        ReplyDiff rot = blocked("BLMOVE", "rot", "rot", "LEFT", "RIGHT", "0");
        oracle.same("RPUSH", "rot", "1", "2");
        rot.sameReply("rotation");
        oracle.same("LRANGE", "rot", "0", "-1");
    }

    @Test
    void aServedMoveToAWrongTypeDestinationFailsAndKeepsTheElement() {
        oracle.same("SET", "dst", "str");
        ReplyDiff m = blocked("BLMOVE", "src", "dst", "LEFT", "RIGHT", "0");
        ReplyDiff p = blocked("BLPOP", "src", "0");
        oracle.same("RPUSH", "src", "e");
        m.sameReply("BLMOVE");
        p.sameReply("BLPOP after the failed move");
    }

    @Test
    void aTransactionServesBlockedClientsOnlyWhenItEnds() {
        ReplyDiff b = blocked("BLPOP", "k", "0");
        oracle.same("MULTI");
        oracle.same("RPUSH", "k", "1");
        oracle.same("LPOP", "k");
        oracle.same("EXEC"); // the key is empty again when the transaction ends: nobody is served
        oracle.same("MULTI");
        oracle.same("RPUSH", "k", "1", "2");
        oracle.same("RPUSH", "k", "3");
        oracle.same("EXEC");
        b.sameReply("after EXEC");
        oracle.same("LRANGE", "k", "0", "-1");
    }

    @Test
    void aPipelinedPopCannotOvertakeABlockedClient() {
        ReplyDiff b = blocked("BLPOP", "k", "0");
        oracle.diff().send("RPUSH", "k", "v");
        oracle.diff().send("LPOP", "k");
        oracle.diff().sameReply("RPUSH");
        oracle.diff().sameReply("LPOP after RPUSH");
        b.sameReply("BLPOP");
    }

    @Test
    void servedPopsEmitTheirOwnFrames() {
        Engine e = oracle.engine();
        String src = keyOnShard(e, "src", 3);
        String dst = keyOnShard(e, "dst", 0);
        String same = "{t}b";
        String sameDst = "{t}c";
        ReplyDiff p1 = blocked("BLPOP", "l", "0");
        oracle.same("RPUSH", "l", "a");
        p1.sameReply("BLPOP");
        assertThat(oracle.frames().take()).containsExactly("RPUSH l a", "LPOP l 1");
        ReplyDiff p2 = blocked("BLMPOP", "0", "1", "l", "RIGHT", "COUNT", "5");
        oracle.same("RPUSH", "l", "a", "b");
        p2.sameReply("BLMPOP");
        assertThat(oracle.frames().take()).containsExactly("RPUSH l a b", "RPOP l 2");
        ReplyDiff m = blocked("BLMOVE", src, dst, "LEFT", "RIGHT", "0");
        oracle.same("RPUSH", src, "x");
        m.sameReply("BLMOVE");
        List<FrameRecorder.Frame> f = oracle.frames().takeFrames();
        assertThat(f).extracting(FrameRecorder.Frame::text)
                .containsExactly("RPUSH " + src + " x", "LPOP " + src + " 1", "RPUSH " + dst + " x");
        assertThat(f).extracting(FrameRecorder.Frame::shard).containsExactly(3, 3, 0);
        ReplyDiff m2 = blocked("BRPOPLPUSH", same, sameDst, "0");
        oracle.same("RPUSH", same, "y");
        m2.sameReply("BRPOPLPUSH");
        assertThat(oracle.frames().take()).containsExactly("RPUSH {t}b y", "RPOP {t}b 1", "LPUSH {t}c y");
        ReplyDiff z = blocked("BZPOPMIN", "z", "0");
        oracle.same("ZADD", "z", "1", "a");
        z.sameReply("BZPOPMIN");
        ReplyDiff zm = blocked("BZMPOP", "0", "1", "z", "MAX", "COUNT", "3");
        oracle.same("ZADD", "z", "3", "c", "2", "b");
        zm.sameReply("BZMPOP");
        assertThat(oracle.frames().take()).containsExactly("ZADD z 1 a", "ZREM z a", "ZADD z 3 c 2 b", "ZREM z c b");
        oracle.same("BLPOP", "nothing", "0.01");
        assertThat(oracle.frames().take()).as("a timeout changes nothing").isEmpty();
    }

    @Test
    void clientKillAndDisconnectReleaseBlockedClients() {
        RawClient admin = oracle.kevy().raw();
        RawClient k1 = oracle.kevy().raw();
        String id = k1.call("CLIENT", "ID").substring(1).trim();
        k1.command("BLPOP", "a", "b", "0");
        RawClient k2 = RawClient.connect(oracle.kevy().port());
        k2.command("BZPOPMIN", "z", "0");
        await().atMost(Duration.ofSeconds(5)).until(() -> oracle.engine().sessions().blockedCount() == 2);
        assertThat(admin.call("INFO", "clients")).contains("blocked_clients:2\r\n");
        assertThat(admin.call("CLIENT", "LIST", "ID", id)).contains(" flags=b ").contains(" cmd=blpop ");
        assertThat(blockedKeys()).isEqualTo(3);
        assertThat(admin.call("CLIENT", "KILL", "ID", id)).isEqualTo(":1\r\n");
        k2.close();
        await().atMost(Duration.ofSeconds(5)).until(() -> oracle.engine().sessions().blockedCount() == 0
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
        Engine e = oracle.engine();
        String src = keyOnShard(e, "hi", 3);
        String dst = keyOnShard(e, "lo", 0);
        RawClient mover = oracle.kevy().raw();
        mover.command("BLMOVE", src, dst, "LEFT", "RIGHT", "0");
        await().atMost(Duration.ofSeconds(5)).until(() -> oracle.engine().sessions().blockedCount() == 1);
        RawClient popper = oracle.kevy().raw();
        popper.command("BLPOP", src, "0");
        await().atMost(Duration.ofSeconds(5)).until(() -> oracle.engine().sessions().blockedCount() == 2);
        Shard low = e.shard(0);
        low.lock().lock();
        String pushed;
        try {
            pushed = CompletableFuture.supplyAsync(() -> oracle.kevy().raw().call("RPUSH", src, "v"))
                    .get(5, TimeUnit.SECONDS);
            assertThat(e.sessions().blockedCount()).as("both still blocked while the lock is held").isEqualTo(2);
        } finally {
            low.lock().unlock();
        }
        assertThat(pushed).isEqualTo(":1\r\n");
        assertThat(mover.readReply()).isEqualTo("$1\r\nv\r\n");
        assertThat(oracle.kevy().raw().call("LRANGE", dst, "0", "-1")).isEqualTo("*1\r\n$1\r\nv\r\n");
        oracle.kevy().raw().call("RPUSH", src, "w");
        assertThat(popper.readReply()).isEqualTo("*2\r\n$" + src.length() + "\r\n" + src + "\r\n$1\r\nw\r\n");
    }

    @Test
    void lettuceBlockingCommands() throws Exception {
        RedisCommands<String, String> r = oracle.kevy().lettuce();
        RedisCommands<String, String> pusher = oracle.kevy().lettuce();
        assertThat(r.blpop(0.05, "none")).isNull();
        CompletableFuture<KeyValue<String, String>> popped = CompletableFuture.supplyAsync(() -> r.blpop(5, "q"));
        await().atMost(Duration.ofSeconds(5)).until(() -> oracle.engine().sessions().blockedCount() == 1);
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
