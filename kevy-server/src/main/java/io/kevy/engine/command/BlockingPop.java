package io.kevy.engine.command;

import io.kevy.engine.Engine;
import io.kevy.engine.KeyWaiter;
import io.kevy.engine.Shard;
import io.kevy.engine.ShardLocks;
import io.kevy.engine.error.CommandException;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.session.BlockedClient;
import io.kevy.engine.session.Session;
import io.kevy.engine.session.Waiter;
import io.kevy.engine.struct.Dict;
import io.kevy.engine.text.Bytes;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.resp.ReplySink;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A blocking pop (BLPOP, BLMOVE, BZPOPMIN, ...) parked on its keys: the {@link KeyWaiter} that the thread
 * which makes one of the keys hold data serves under the key's lock, before any other command can take the
 * data, and the {@link Waiter} that times out with a null array.
 *
 * <p><b>Serving.</b> The served pop runs exactly the code of the non-blocking command ({@code popFrom},
 * {@code move}, {@code pop}) on behalf of the blocked session, so it changes the data and emits the same
 * effect frames (feed contract §7: {@code LPOP k 1}, the pop and the push of a move, {@code ZREM k m}); its
 * reply goes out through the session's channel, held like any write's reply under appendfsync always. A
 * BLMOVE whose destination is on a shard the serving thread may not wait for is deferred to the blocked
 * client's own thread ({@link #attempt}), which locks the shards in order and serves its keys again; the key's
 * later waiters wait behind it, so the FIFO order holds.
 *
 * <p><b>Readiness.</b> Any frame that touches a key with waiters makes it ready; serving then checks that the
 * key holds a value of the waiter's type. So a waiter is served by whatever gives its key data: a push, LMOVE,
 * RENAME, SORT ... STORE, ZUNIONSTORE, ZADD ... Redis 7.0 signals a key only when it is created, so where a
 * STORE overwrites a key of another type in place, Redis leaves the waiter blocked and kevy serves it (ours).
 * Stream readers (XREAD, XREADGROUP) are the exception: their {@link #hasData} answers only after the changes
 * Redis 7.0 signals a stream on (an entry added, a group destroyed, the key replaced), as Redis does.
 *
 * <p><b>Registration.</b> The handler parks it on every distinct key with the keys' shards locked by the
 * dispatcher, right after finding them empty, so no push can slip in between; {@link #release} takes it off
 * the keys again, one shard at a time, when the block ends.
 *
 * <p>Thread-safety: {@link #serve} runs on the serving thread under the key's lock, the other methods on the
 * session's thread; the fields are final or written before the waiter is registered.
 */
abstract class BlockingPop implements Waiter, KeyWaiter {
    private static final Logger log = LoggerFactory.getLogger(BlockingPop.class);

    private final Dispatcher dispatcher;
    private final Engine engine;
    private final Session session;
    private final CommandSpec spec;
    private final byte[][] argv;
    private final byte[][] keys;
    private final Class<?> type;
    private BlockedClient blocked;

    /**
     * @param keys the keys to wait on, in argument order (duplicates are dropped)
     * @param type the value class the pop takes ({@code ListValue} or {@code ZSetValue})
     */
    BlockingPop(Call c, List<byte[]> keys, Class<?> type) {
        this.dispatcher = c.dispatcher();
        this.engine = c.engine();
        this.session = c.session();
        this.spec = c.spec();
        this.argv = c.argv();
        this.keys = distinct(keys);
        this.type = type;
    }

    /**
     * A timeout in seconds at argument {@code i} as Redis 7.0 reads it (fractions allowed, rounded up to whole
     * milliseconds): 0 means none, and so does a timeout so large that its deadline would overflow (Redis then
     * never times out either).
     *
     * @return the timeout in ms, 0 for none
     * @throws CommandException "timeout is not a float or out of range", "timeout is negative"
     */
    static long timeoutArg(Call c, int i) {
        long ms = RedisNumbers.secondsToMillis(c.arg(i), Errors.TIMEOUT_NOT_FLOAT);
        if (ms < 0) {
            throw Call.fail(Errors.TIMEOUT_NEGATIVE);
        }
        return ms > Long.MAX_VALUE - c.now() ? 0 : ms;
    }

    /** Blocks {@code c}'s session on the keys for {@code timeoutMs} (0 = no limit). Under the keys' locks. */
    final void park(Call c, long timeoutMs) {
        blocked = c.block(this, timeoutMs);
        for (byte[] k : keys) {
            c.shard(k).signals().block(k, this);
        }
    }

    /**
     * Whether {@code value}, of the waiter's type, holds data for this waiter; true for pops (a stored list or
     * sorted set is never empty); XREAD's and XREADGROUP's waiters check that the stream was signalled since they
     * last looked and that its last id is after theirs (a false answer consumes the signal, as in Redis).
     */
    boolean hasData(byte[] key, Object value) {
        return true;
    }

    /**
     * The error that ends the block when a key is deleted or holds another type, or null to keep waiting (pops,
     * XREAD). XREADGROUP answers {@code -UNBLOCKED the stream key no longer exists}, as Redis 7.0.
     */
    ErrorReply whenGone() {
        return null;
    }

    /** The index of a shard the pop needs besides the key's (BLMOVE's destination), or -1. */
    int otherShard() {
        return -1;
    }

    /**
     * Pops from {@code key}, which holds a value of the waiter's type, for the blocked session and writes its
     * reply to {@code c.reply()}; emits the frames. May fail with a {@link CommandException} before changing
     * anything (BLMOVE's destination of the wrong type).
     */
    abstract void pop(Call c, byte[] key);

    @Override
    public boolean waiting() {
        return blocked.waiting();
    }

    @Override
    public Served serve(byte[] key, ShardLocks locks) {
        Shard shard = engine.shardFor(key);
        long now = engine.clock().millis();
        Dict.Node<Object> n = shard.keyspace().peek(key, now);
        if (n == null || !type.isInstance(n.value())) {
            ErrorReply gone = whenGone();
            if (gone == null || !blocked.claim()) {
                return Served.SKIPPED;
            }
            ReplySink out = session.channel().newAsyncReply();
            engine.countError(gone);
            out.error(gone);
            blocked.complete(out, false);
            return Served.SERVED;
        }
        if (!hasData(key, n.value())) {
            return Served.SKIPPED;
        }
        int other = otherShard();
        if (other >= 0 && !locks.acquire(other)) {
            blocked.wake();
            return Served.DEFERRED;
        }
        if (!blocked.claim()) {
            return Served.SKIPPED; // timed out or cancelled meanwhile
        }
        ReplySink out = session.channel().newAsyncReply();
        Call c = new Call(dispatcher, session, out, argv, spec, now);
        boolean wrote = true;
        try {
            pop(c, key);
        } catch (CommandException e) {
            engine.countError(e.reply());
            out.error(e.reply());
            wrote = false;
        } catch (RuntimeException e) {
            log.error("serving {} of client {} failed", spec.name(), session.id(), e);
            ErrorReply error = ErrorReply.err("internal error in '" + spec.name() + "': " + e);
            engine.countError(error);
            out.error(error);
            wrote = false;
        }
        blocked.complete(out, wrote);
        return Served.SERVED;
    }

    /**
     * Runs when a serving thread deferred to this client: locks the keys' shards and the other shard in
     * ascending order and serves the keys again, this client first in its queue if it is still waiting and its
     * key still holds data. The reply, if any, goes out through {@link BlockedClient#complete}.
     */
    @Override
    public boolean attempt(BlockedClient self, ReplySink out) {
        boolean[] need = new boolean[engine.shardCount()];
        for (byte[] k : keys) {
            need[engine.shardIndex(k)] = true;
        }
        if (otherShard() >= 0) {
            need[otherShard()] = true;
        }
        ShardLocks locks = new ShardLocks(engine);
        try {
            for (int i = 0; i < need.length; i++) {
                if (need[i]) {
                    locks.lock(i);
                }
            }
            for (byte[] k : keys) {
                engine.shardFor(k).signals().markReady(k);
            }
            locks.serveReady();
        } finally {
            locks.unlockAll();
        }
        return false;
    }

    /** A timeout answers the null array (also for BLMOVE and BRPOPLPUSH, as Redis 7.0). */
    @Override
    public void timedOut(ReplySink out) {
        out.nullArray();
    }

    @Override
    public void release() {
        for (byte[] k : keys) {
            Shard s = engine.shardFor(k);
            s.lock().lock();
            try {
                s.signals().unblock(k, this);
            } finally {
                s.lock().unlock();
            }
        }
    }

    private static byte[][] distinct(List<byte[]> keys) {
        Set<Bytes> seen = new HashSet<>();
        List<byte[]> out = new ArrayList<>(keys.size());
        for (byte[] k : keys) {
            if (seen.add(Bytes.wrap(k))) {
                out.add(k);
            }
        }
        return out.toArray(new byte[0][]);
    }
}
