package io.kevy.engine.command;

import static io.kevy.testing.StateDump.keyOnShard;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kevy.engine.Engine;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.FrameRecorder;
import io.kevy.testing.RawClient;
import io.kevy.testing.RedisOracle;
import io.kevy.testing.ReplyDiff;
import io.kevy.testing.TestServer;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * MULTI, EXEC, DISCARD, WATCH, UNWATCH and RESET against a real Redis 7.0 (reply bytes and error texts, every
 * edge case Redis documents), through lettuce's transaction API, and their effect frames (feed contract §7) on
 * a 4-shard server. Active expiry is off on both servers so the WATCH-on-expired-key cases see keys that
 * expired but were not reaped.
 */
class TransactionCommandsIT {
    private static TestServer kevy;
    private static RedisOracle redis;
    /** The transaction's client on both servers. */
    private static ReplyDiff diff;
    /** Another client on both servers, to change watched keys. */
    private static ReplyDiff other;
    private static FrameRecorder frames;

    @BeforeAll
    static void start() {
        kevy = TestServer.start(c -> c.with(ServerOptions.SHARDS, 4));
        redis = RedisOracle.start("--enable-debug-command", "yes");
        diff = new ReplyDiff(kevy.raw(), redis.raw());
        other = new ReplyDiff(kevy.raw(), redis.raw());
        diff.same("DEBUG", "SET-ACTIVE-EXPIRE", "0");
        frames = FrameRecorder.attach(engine());
    }

    @AfterAll
    static void stop() {
        if (diff != null) {
            diff.close();
            other.close();
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
        diff.same("UNWATCH");
        diff.same("FLUSHALL");
        frames.take();
    }

    private static Engine engine() {
        return kevy.server().engine();
    }

    @Test
    void multiExecRunsTheQueueAndRepliesEachResult() {
        diff.same("MULTI");
        diff.same("SET", "a", "1");
        diff.same("INCR", "a");
        diff.same("LPUSH", "l", "x", "y");
        diff.same("GET", "a");
        diff.same("PING");
        diff.same("EXEC");
        diff.same("GET", "a");
        diff.same("MULTI");
        diff.same("EXEC"); // empty transaction: empty array
    }

    @Test
    void misuseErrorsAsRedis() {
        diff.same("EXEC");
        diff.same("DISCARD");
        diff.same("MULTI");
        diff.same("MULTI"); // nested: an error that does not abort the transaction
        diff.same("WATCH", "a"); // not allowed inside MULTI, does not abort either
        diff.same("SET", "a", "1");
        diff.same("EXEC");
        diff.same("MULTI", "x");
        diff.same("WATCH");
        diff.same("UNWATCH", "x");
        diff.same("DISCARD", "x");
    }

    @Test
    void queueTimeErrorsAbortExec() {
        diff.same("MULTI");
        diff.same("SET", "a", "1");
        diff.same("NOSUCH", "arg");
        diff.same("SET", "b", "2");
        diff.same("EXEC");
        diff.same("MGET", "a", "b");
        diff.same("MULTI");
        diff.same("SET", "a");
        diff.same("EXEC");
        diff.same("MULTI");
        diff.same("CLIENT", "NOSUCH");
        diff.same("EXEC");
        diff.same("MULTI");
        diff.same("SAVE"); // NO_MULTI
        diff.same("EXEC");
        diff.same("MULTI");
        diff.same("SHUTDOWN");
        diff.same("EXEC");
        diff.same("EXISTS", "a");
        assertThat(frames.take()).as("aborted transactions emit nothing").isEmpty();
    }

    @Test
    void execWithWrongArityInsideMultiDiscardsTheTransaction() {
        diff.same("MULTI");
        diff.same("SET", "a", "1");
        diff.same("EXEC", "extra"); // EXECABORT ... because of: wrong number of arguments
        diff.same("EXEC");
        diff.same("EXISTS", "a");
    }

    @Test
    void runTimeErrorsStayPerCommand() {
        diff.same("SET", "s", "text");
        diff.same("MULTI");
        diff.same("INCR", "s");
        diff.same("LPUSH", "s", "x");
        diff.same("SET", "n", "1");
        diff.same("INCRBY", "n", "nan");
        diff.same("BITFIELD", "n", "GET", "u99", "0");
        diff.same("INCR", "n");
        diff.same("EXEC");
        diff.same("MGET", "s", "n");
    }

    @Test
    void discardDropsTheQueueAndExecAfterDiscardFails() {
        diff.same("MULTI");
        diff.same("SET", "a", "1");
        diff.same("DISCARD");
        diff.same("EXEC");
        diff.same("EXISTS", "a");
        assertThat(frames.take()).isEmpty();
    }

    @Test
    void watchedKeyChangedByAnotherClientAbortsExec() {
        diff.same("SET", "k", "1");
        diff.same("WATCH", "k");
        other.same("SET", "k", "2");
        diff.same("MULTI");
        diff.same("SET", "k", "3");
        diff.same("EXEC"); // *-1
        diff.same("GET", "k");
        diff.same("WATCH", "k");
        other.same("SET", "k", "2"); // same value: still a write
        diff.same("MULTI");
        diff.same("EXEC");
        diff.same("WATCH", "missing");
        other.same("DEL", "missing"); // a no-op is no write
        diff.same("MULTI");
        diff.same("EXEC");
        diff.same("WATCH", "k");
        other.same("EXPIRE", "k", "-1"); // deleted by a past expiry
        diff.same("MULTI");
        diff.same("EXEC");
    }

    @Test
    void ownWritesBeforeMultiAlsoCount() {
        diff.same("SET", "k", "1");
        diff.same("WATCH", "k");
        diff.same("SET", "k", "2");
        diff.same("MULTI");
        diff.same("GET", "k");
        diff.same("EXEC");
    }

    @Test
    void unwatchDiscardAndExecForgetTheWatches() {
        diff.same("WATCH", "k");
        other.same("SET", "k", "1");
        diff.same("UNWATCH");
        diff.same("MULTI");
        diff.same("EXEC");
        diff.same("WATCH", "k");
        diff.same("MULTI");
        diff.same("DISCARD");
        other.same("SET", "k", "2");
        diff.same("MULTI");
        diff.same("EXEC");
        diff.same("WATCH", "k");
        diff.same("MULTI");
        diff.same("EXEC");
        other.same("SET", "k", "3");
        diff.same("MULTI");
        diff.same("EXEC");
        diff.same("WATCH", "k");
        other.same("SET", "k", "4");
        diff.same("WATCH", "j"); // already dirty: stays dirty
        diff.same("MULTI");
        diff.same("EXEC");
        diff.same("WATCH", "k");
        other.same("SET", "k", "5");
        diff.same("MULTI");
        diff.same("UNWATCH"); // queued, runs inside EXEC, too late to save it
        diff.same("EXEC");
        assertThat(watchedKeys()).isZero();
    }

    @Test
    void watchedKeyThatExpiresAfterWatchAbortsExec() throws InterruptedException {
        diff.same("SET", "x", "1", "PX", "50");
        diff.same("WATCH", "x");
        Thread.sleep(100); // let the TTL pass; nothing reaps the key (active expiry is off)
        diff.same("MULTI");
        diff.same("PING");
        diff.same("EXEC");
        diff.same("SET", "x", "1", "PX", "50");
        diff.same("WATCH", "x");
        Thread.sleep(100);
        other.same("GET", "x"); // reaped lazily by another client: a change too
        diff.same("MULTI");
        diff.same("PING");
        diff.same("EXEC");
    }

    @Test
    void keyAlreadyExpiredAtWatchTimeCountsAsAbsent() throws InterruptedException {
        diff.same("SET", "x", "1", "PX", "20");
        Thread.sleep(60);
        diff.same("WATCH", "x");
        diff.same("MULTI");
        diff.same("PING");
        diff.same("EXEC"); // not "expired since WATCH"
        diff.same("SET", "x", "1", "PX", "20");
        Thread.sleep(60);
        diff.same("WATCH", "x");
        other.same("GET", "x"); // reaping it changes nothing for this watcher
        diff.same("MULTI");
        diff.same("PING");
        diff.same("EXEC");
        diff.same("SET", "x", "1", "PX", "20");
        Thread.sleep(60);
        diff.same("WATCH", "x");
        other.same("SET", "x", "2"); // but creating it again does
        diff.same("MULTI");
        diff.same("PING");
        diff.same("EXEC");
    }

    @Test
    void flushallTouchesWatchersOfStoredKeysOnly() throws InterruptedException {
        diff.same("WATCH", "missing");
        other.same("FLUSHALL");
        diff.same("MULTI");
        diff.same("PING");
        diff.same("EXEC");
        diff.same("SET", "k", "1");
        diff.same("WATCH", "k");
        other.same("FLUSHDB");
        diff.same("MULTI");
        diff.same("PING");
        diff.same("EXEC");
        diff.same("SET", "x", "1", "PX", "20");
        Thread.sleep(60);
        diff.same("WATCH", "x");
        other.same("FLUSHALL"); // stored but already expired at WATCH: no change
        diff.same("MULTI");
        diff.same("PING");
        diff.same("EXEC");
    }

    @Test
    void blockingCommandsInsideMultiAnswerAtOnce() {
        diff.same("MULTI");
        diff.same("BLPOP", "empty", "0");
        diff.same("BRPOP", "empty", "e2", "0");
        diff.same("BLMOVE", "empty", "d", "LEFT", "RIGHT", "0");
        diff.same("BRPOPLPUSH", "empty", "d", "0");
        diff.same("BLMPOP", "0", "1", "empty", "LEFT");
        diff.same("BZPOPMIN", "empty", "0");
        diff.same("BZPOPMAX", "empty", "0");
        diff.same("BZMPOP", "0", "1", "empty", "MIN");
        diff.same("BLPOP", "empty", "-1");
        diff.same("BLMOVE", "empty", "d", "LEFT", "UP", "0");
        diff.same("RPUSH", "full", "a", "b");
        diff.same("BLPOP", "full", "0");
        diff.same("BLMOVE", "full", "d", "LEFT", "RIGHT", "0");
        diff.same("EXEC");
        diff.same("LRANGE", "d", "0", "-1");
    }

    @Test
    void resetDiscardsTheTransactionAndTheWatches() {
        diff.same("CLIENT", "SETNAME", "nm");
        diff.same("WATCH", "k");
        diff.same("MULTI");
        diff.same("SET", "k", "1");
        diff.same("RESET");
        diff.same("CLIENT", "GETNAME");
        diff.same("EXEC");
        diff.same("EXISTS", "k");
        other.same("SET", "k", "2");
        diff.same("MULTI");
        diff.same("EXEC");
        diff.same("RESET", "x");
        assertThat(watchedKeys()).isZero();
    }

    @Test
    void metadataIsRedisOwn() {
        for (String name : List.of("multi", "exec", "discard", "watch", "unwatch", "reset")) {
            diff.same("COMMAND", "INFO", name);
        }
        diff.same("COMMAND", "GETKEYS", "WATCH", "a", "b");
    }

    /** The frames of a transaction come out in order, consecutive per shard; an aborted one emits nothing. */
    @Test
    void execFramesAreInOrderAndConsecutivePerShard() {
        Engine e = engine();
        String[] keys = IntStream.range(0, 4).mapToObj(s -> keyOnShard(e, "k", s)).toArray(String[]::new);
        RawClient c = kevy.raw();
        c.call("MULTI");
        c.call("SET", keys[2], "a");
        c.call("SET", keys[0], "5");
        c.call("INCR", keys[0]);
        c.call("RPUSH", keys[3], "x", "y");
        c.call("DEL", keys[2], keys[1]);
        c.call("LPOP", keys[3]);
        assertThat(c.call("EXEC")).startsWith("*6\r\n");
        List<FrameRecorder.Frame> got = frames.takeFrames();
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
        kevy.raw().call("SET", keys[1], "z");
        frames.take();
        c.call("MULTI");
        c.call("SET", keys[0], "never");
        assertThat(c.call("EXEC")).isEqualTo("*-1\r\n");
        assertThat(frames.take()).as("a dirty EXEC emits nothing").isEmpty();
    }

    @Test
    void watchesAreFreedOnDisconnect() {
        RawClient c = RawClient.connect(kevy.port());
        for (int i = 0; i < 50; i++) {
            c.call("WATCH", "w" + i);
        }
        assertThat(watchedKeys()).isEqualTo(50);
        c.close();
        await().atMost(Duration.ofSeconds(5)).until(() -> watchedKeys() == 0);
    }

    @Test
    void lettuceTransactions() {
        RedisCommands<String, String> r = kevy.lettuce();
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

        RedisCommands<String, String> rival = kevy.lettuce();
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
        for (int i = 0; i < engine().shardCount(); i++) {
            var s = engine().shard(i);
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
