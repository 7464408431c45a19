package io.kevy.engine.session;

import io.kevy.engine.KeyWaiter;
import io.kevy.resp.ReplySink;

/**
 * A command parked until something happens (FEED.READ BLOCK, BLPOP, BZPOPMIN, ...): the part of a blocking
 * command that knows how to finish it. The dispatcher wraps it in a {@link BlockedClient}, which owns the
 * session's state, the timeout and the cancellation.
 *
 * <p>Two ways to be woken exist:
 * <ul>
 *   <li>{@link BlockedClient#wake()} registered where the event is signalled (FEED.READ on its shard's
 *       backlog): each wake runs {@link #attempt} on the session's thread;</li>
 *   <li>a {@link KeyWaiter} registered on keys (the blocking pops) is served directly by the thread that
 *       changed the key, under its lock, and uses {@link #attempt} only when that thread had to defer to it.</li>
 * </ul>
 *
 * <p>{@link #attempt} and {@link #timedOut} run on the session's own thread (its Netty event loop, or the
 * embedded caller's thread) with no shard lock held, one at a time, so implementations need no synchronisation
 * of their own state for them.
 */
public interface Waiter {
    /**
     * Tries to complete the command: either writes exactly one reply to {@code out} and returns true, or writes
     * nothing, makes sure it will be woken or served on the next relevant event (re-registering under the lock
     * that guards that event), and returns false. An attempt that changes data must first
     * {@linkplain BlockedClient#claim claim} {@code self} and change nothing when that fails; one that changes
     * nothing may leave the claim to the caller (its reply is dropped when the block ended meanwhile).
     *
     * @param self the blocked client this waiter belongs to
     * @param out  a fresh reply sink (discarded when the method returns false)
     */
    boolean attempt(BlockedClient self, ReplySink out);

    /** Writes the reply for a timeout (e.g. a null array for BLPOP, an empty batch for FEED.READ). */
    void timedOut(ReplySink out);

    /**
     * Called exactly once when the block ends, whatever ended it (reply, timeout, disconnect, CLIENT KILL):
     * deregisters from wherever it was registered. Runs with no shard lock held (it may take the locks of the
     * shards it registered on), usually on the session's thread, but a cancellation may call it from another
     * thread.
     */
    void release();
}
