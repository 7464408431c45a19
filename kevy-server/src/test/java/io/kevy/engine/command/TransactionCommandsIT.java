package io.kevy.engine.command;

import static io.kevy.testing.StateDump.keyOnShard;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kevy.engine.Engine;
import io.kevy.testing.FrameRecorder;
import io.kevy.testing.OracleFixture;
import io.kevy.testing.RawClient;
import io.kevy.testing.ReplyDiff;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * MULTI, EXEC, DISCARD, WATCH, UNWATCH and RESET against a real Redis 7.0 (reply bytes and error texts, every
 * edge case Redis documents), through lettuce's transaction API, and their effect frames (feed contract §7) on
 * a 4-shard server. Active expiry is off on both servers so the WATCH-on-expired-key cases see keys that
 * expired but were not reaped.
 */
class TransactionCommandsIT {
    /** Its diff() is the transaction's client on both servers; flushed here, after an UNWATCH. */
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create().shards(4).redisArgs("--enable-debug-command", "yes")
            .recordFrames().noFlush();

    /** Another client on both servers, to change watched keys. */
    private static ReplyDiff other;

    @BeforeAll
    static void start() {
        other = new ReplyDiff(oracle.kevy().raw(), oracle.redis().raw());
        oracle.same("DEBUG", "SET-ACTIVE-EXPIRE", "0");
    }

    @AfterAll
    static void stop() {
        other.close();
    }

    @BeforeEach
    void flush() {
        oracle.same("UNWATCH");
        oracle.same("FLUSHALL");
        oracle.frames().take();
    }

    @Test
    void multiExecRunsTheQueueAndRepliesEachResult() {
        oracle.same("MULTI");
        oracle.same("SET", "a", "1");
        oracle.same("INCR", "a");
        oracle.same("LPUSH", "l", "x", "y");
        oracle.same("GET", "a");
        oracle.same("PING");
        oracle.same("EXEC");
        oracle.same("GET", "a");
        oracle.same("MULTI");
        oracle.same("EXEC"); // empty transaction: empty array
    }

    @Test
    void misuseErrorsAsRedis() {
        oracle.same("EXEC");
        oracle.same("DISCARD");
        oracle.same("MULTI");
        oracle.same("MULTI"); // nested: an error that does not abort the transaction
        oracle.same("WATCH", "a"); // not allowed inside MULTI, does not abort either
        oracle.same("SET", "a", "1");
        oracle.same("EXEC");
        oracle.same("MULTI", "x");
        oracle.same("WATCH");
        oracle.same("UNWATCH", "x");
        oracle.same("DISCARD", "x");
    }

    @Test
    void queueTimeErrorsAbortExec() {
        oracle.same("MULTI");
        oracle.same("SET", "a", "1");
        oracle.same("NOSUCH", "arg");
        oracle.same("SET", "b", "2");
        oracle.same("EXEC");
        oracle.same("MGET", "a", "b");
        oracle.same("MULTI");
        oracle.same("SET", "a");
        oracle.same("EXEC");
        oracle.same("MULTI");
        oracle.same("CLIENT", "NOSUCH");
        oracle.same("EXEC");
        oracle.same("MULTI");
        oracle.same("SAVE"); // NO_MULTI
        oracle.same("EXEC");
        oracle.same("MULTI");
        oracle.same("SHUTDOWN");
        oracle.same("EXEC");
        oracle.same("EXISTS", "a");
        assertThat(oracle.frames().take()).as("aborted transactions emit nothing").isEmpty();
    }

    @Test
    void execWithWrongArityInsideMultiDiscardsTheTransaction() {
        oracle.same("MULTI");
        oracle.same("SET", "a", "1");
        oracle.same("EXEC", "extra"); // EXECABORT ... because of: wrong number of arguments
        oracle.same("EXEC");
        oracle.same("EXISTS", "a");
    }

    @Test
    void runTimeErrorsStayPerCommand() {
        oracle.same("SET", "s", "text");
        oracle.same("MULTI");
        oracle.same("INCR", "s");
        oracle.same("LPUSH", "s", "x");
        oracle.same("SET", "n", "1");
        oracle.same("INCRBY", "n", "nan");
        oracle.same("BITFIELD", "n", "GET", "u99", "0");
        oracle.same("INCR", "n");
        oracle.same("EXEC");
        oracle.same("MGET", "s", "n");
    }

    @Test
    void discardDropsTheQueueAndExecAfterDiscardFails() {
        oracle.same("MULTI");
        oracle.same("SET", "a", "1");
        oracle.same("DISCARD");
        oracle.same("EXEC");
        oracle.same("EXISTS", "a");
        assertThat(oracle.frames().take()).isEmpty();
    }

    @Test
    void watchedKeyChangedByAnotherClientAbortsExec() {
        oracle.same("SET", "k", "1");
        oracle.same("WATCH", "k");
        other.same("SET", "k", "2");
        oracle.same("MULTI");
        oracle.same("SET", "k", "3");
        oracle.same("EXEC"); // *-1
        oracle.same("GET", "k");
        oracle.same("WATCH", "k");
        other.same("SET", "k", "2"); // same value: still a write
        oracle.same("MULTI");
        oracle.same("EXEC");
        oracle.same("WATCH", "missing");
        other.same("DEL", "missing"); // a no-op is no write
        oracle.same("MULTI");
        oracle.same("EXEC");
        oracle.same("WATCH", "k");
        other.same("EXPIRE", "k", "-1"); // deleted by a past expiry
        oracle.same("MULTI");
        oracle.same("EXEC");
    }

    @Test
    void ownWritesBeforeMultiAlsoCount() {
        oracle.same("SET", "k", "1");
        oracle.same("WATCH", "k");
        oracle.same("SET", "k", "2");
        oracle.same("MULTI");
        oracle.same("GET", "k");
        oracle.same("EXEC");
    }

    @Test
    void unwatchDiscardAndExecForgetTheWatches() {
        oracle.same("WATCH", "k");
        other.same("SET", "k", "1");
        oracle.same("UNWATCH");
        oracle.same("MULTI");
        oracle.same("EXEC");
        oracle.same("WATCH", "k");
        oracle.same("MULTI");
        oracle.same("DISCARD");
        other.same("SET", "k", "2");
        oracle.same("MULTI");
        oracle.same("EXEC");
        oracle.same("WATCH", "k");
        oracle.same("MULTI");
        oracle.same("EXEC");
        other.same("SET", "k", "3");
        oracle.same("MULTI");
        oracle.same("EXEC");
        oracle.same("WATCH", "k");
        other.same("SET", "k", "4");
        oracle.same("WATCH", "j"); // already dirty: stays dirty
        oracle.same("MULTI");
        oracle.same("EXEC");
        oracle.same("WATCH", "k");
        other.same("SET", "k", "5");
        oracle.same("MULTI");
        oracle.same("UNWATCH"); // queued, runs inside EXEC, too late to save it
        oracle.same("EXEC");
        assertThat(watchedKeys()).isZero();
    }

    @Test
    void watchedKeyThatExpiresAfterWatchAbortsExec() throws InterruptedException {
        oracle.same("SET", "x", "1", "PX", "1000"); // WATCH must come before the expiry on both servers, even loaded
        oracle.same("WATCH", "x");
        Thread.sleep(1100); // let the TTL pass; nothing reaps the key (active expiry is off)
        oracle.same("MULTI");
        oracle.same("PING");
        oracle.same("EXEC");
        oracle.same("SET", "x", "1", "PX", "1000"); // WATCH must come before the expiry on both servers, even loaded
        oracle.same("WATCH", "x");
        Thread.sleep(1100);
        other.same("GET", "x"); // reaped lazily by another client: a change too
        oracle.same("MULTI");
        oracle.same("PING");
        oracle.same("EXEC");
    }

    @Test
    void keyAlreadyExpiredAtWatchTimeCountsAsAbsent() throws InterruptedException {
        oracle.same("SET", "x", "1", "PX", "20");
        Thread.sleep(60);
        oracle.same("WATCH", "x");
        oracle.same("MULTI");
        oracle.same("PING");
        oracle.same("EXEC"); // not "expired since WATCH"
        oracle.same("SET", "x", "1", "PX", "20");
        Thread.sleep(60);
        oracle.same("WATCH", "x");
        other.same("GET", "x"); // reaping it changes nothing for this watcher
        oracle.same("MULTI");
        oracle.same("PING");
        oracle.same("EXEC");
        oracle.same("SET", "x", "1", "PX", "20");
        Thread.sleep(60);
        oracle.same("WATCH", "x");
        other.same("SET", "x", "2"); // but creating it again does
        oracle.same("MULTI");
        oracle.same("PING");
        oracle.same("EXEC");
    }

    @Test
    void flushallTouchesWatchersOfStoredKeysOnly() throws InterruptedException {
        oracle.same("WATCH", "missing");
        other.same("FLUSHALL");
        oracle.same("MULTI");
        oracle.same("PING");
        oracle.same("EXEC");
        oracle.same("SET", "k", "1");
        oracle.same("WATCH", "k");
        other.same("FLUSHDB");
        oracle.same("MULTI");
        oracle.same("PING");
        oracle.same("EXEC");
        oracle.same("SET", "x", "1", "PX", "20");
        Thread.sleep(60);
        oracle.same("WATCH", "x");
        other.same("FLUSHALL"); // stored but already expired at WATCH: no change
        oracle.same("MULTI");
        oracle.same("PING");
        oracle.same("EXEC");
    }

    @Test
    void blockingCommandsInsideMultiAnswerAtOnce() {
        oracle.same("MULTI");
        oracle.same("BLPOP", "empty", "0");
        oracle.same("BRPOP", "empty", "e2", "0");
        oracle.same("BLMOVE", "empty", "d", "LEFT", "RIGHT", "0");
        oracle.same("BRPOPLPUSH", "empty", "d", "0");
        oracle.same("BLMPOP", "0", "1", "empty", "LEFT");
        oracle.same("BZPOPMIN", "empty", "0");
        oracle.same("BZPOPMAX", "empty", "0");
        oracle.same("BZMPOP", "0", "1", "empty", "MIN");
        oracle.same("BLPOP", "empty", "-1");
        oracle.same("BLMOVE", "empty", "d", "LEFT", "UP", "0");
        oracle.same("RPUSH", "full", "a", "b");
        oracle.same("BLPOP", "full", "0");
        oracle.same("BLMOVE", "full", "d", "LEFT", "RIGHT", "0");
        oracle.same("EXEC");
        oracle.same("LRANGE", "d", "0", "-1");
    }

    @Test
    void resetDiscardsTheTransactionAndTheWatches() {
        oracle.same("CLIENT", "SETNAME", "nm");
        oracle.same("WATCH", "k");
        oracle.same("MULTI");
        oracle.same("SET", "k", "1");
        oracle.same("RESET");
        oracle.same("CLIENT", "GETNAME");
        oracle.same("EXEC");
        oracle.same("EXISTS", "k");
        other.same("SET", "k", "2");
        oracle.same("MULTI");
        oracle.same("EXEC");
        oracle.same("RESET", "x");
        assertThat(watchedKeys()).isZero();
    }

    @Test
    void metadataIsRedisOwn() {
        for (String name : List.of("multi", "exec", "discard", "watch", "unwatch", "reset")) {
            oracle.same("COMMAND", "INFO", name);
        }
        oracle.same("COMMAND", "GETKEYS", "WATCH", "a", "b");
    }

    /** The frames of a transaction come out in order, consecutive per shard; an aborted one emits nothing. */
    @Test
    void execFramesAreInOrderAndConsecutivePerShard() {
        Engine e = oracle.engine();
        String[] keys = IntStream.range(0, 4).mapToObj(s -> keyOnShard(e, "k", s)).toArray(String[]::new);
        RawClient c = oracle.kevy().raw();
        c.call("MULTI");
        c.call("SET", keys[2], "a");
        c.call("SET", keys[0], "5");
        c.call("INCR", keys[0]);
        c.call("RPUSH", keys[3], "x", "y");
        c.call("DEL", keys[2], keys[1]);
        c.call("LPOP", keys[3]);
        assertThat(c.call("EXEC")).startsWith("*6\r\n");
        List<FrameRecorder.Frame> got = oracle.frames().takeFrames();
        assertThat(got).extracting(FrameRecorder.Frame::text).containsExactly(
                "SET " + keys[2] + " a", "SET " + keys[0] + " 5", "SET " + keys[0] + " 6 KEEPTTL",
                "RPUSH " + keys[3] + " x y", "DEL " + keys[2], "LPOP " + keys[3] + " 1");
        for (int s = 0; s < 4; s++) {
            int shard = s;
            List<Long> offsets = got.stream().filter(f -> f.shard() == shard).map(FrameRecorder.Frame::offset)
                    .toList();
            for (int i = 1; i < offsets.size(); i++) {
                assertThat(offsets.get(i)).as("shard %d offsets consecutive", shard).isEqualTo(offsets.get(i - 1) + 1);
            }
        }
        c.call("WATCH", keys[1]);
        oracle.kevy().raw().call("SET", keys[1], "z");
        oracle.frames().take();
        c.call("MULTI");
        c.call("SET", keys[0], "never");
        assertThat(c.call("EXEC")).isEqualTo("*-1\r\n");
        assertThat(oracle.frames().take()).as("a dirty EXEC emits nothing").isEmpty();
    }

    @Test
    void watchesAreFreedOnDisconnect() {
        RawClient c = RawClient.connect(oracle.kevy().port());
        for (int i = 0; i < 50; i++) {
            c.call("WATCH", "w" + i);
        }
        assertThat(watchedKeys()).isEqualTo(50);
        c.close();
        await().atMost(Duration.ofSeconds(5)).until(() -> watchedKeys() == 0);
    }

    @Test
    void lettuceTransactions() {
        RedisCommands<String, String> r = oracle.kevy().lettuce();
        r.set("counter", "10");
        r.multi();
        r.incr("counter");
        r.rpush("list", "a", "b");
        r.get("counter");
        TransactionResult res = r.exec();
        assertThat(res.wasDiscarded()).isFalse();
        assertThat((Object) res.get(0)).isEqualTo(11L);
        assertThat((Object) res.get(1)).isEqualTo(2L);
        assertThat((Object) res.get(2)).isEqualTo("11");

        RedisCommands<String, String> rival = oracle.kevy().lettuce();
        r.watch("counter");
        rival.set("counter", "0");
        r.multi();
        r.incr("counter");
        assertThat(r.exec().wasDiscarded()).isTrue();
        assertThat(r.get("counter")).isEqualTo("0");

        r.multi();
        r.set("x", "1");
        assertThat(r.discard()).isEqualTo("OK");
        assertThat(r.exists("x")).isZero();
        r.watch("counter");
        assertThat(r.unwatch()).isEqualTo("OK");
        rival.set("counter", "5");
        r.multi();
        r.incr("counter");
        assertThat((Object) r.exec().get(0)).isEqualTo(6L);
    }

    private static int watchedKeys() {
        int n = 0;
        for (int i = 0; i < oracle.engine().shardCount(); i++) {
            var s = oracle.engine().shard(i);
            s.lock().lock();
            try {
                n += s.signals().watchedKeys();
            } finally {
                s.lock().unlock();
            }
        }
        return n;
    }
}
