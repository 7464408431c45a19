package io.kevy.engine;

/**
 * A command parked until something happens (FEED.READ BLOCK, and later BLPOP, BZPOPMIN, ...): the part of a
 * blocking command that knows how to finish it. The dispatcher wraps it in a {@link BlockedClient}, which
 * owns the session's state, the timeout and the cancellation; the waiter registers
 * {@link BlockedClient#wake()} wherever the awaited event is signalled (a shard's feed backlog, a key).
 *
 * <p>Every method except {@link #release()} runs on the session's own thread (its Netty event loop, or the
 * embedded caller's thread) with no shard lock held, one at a time, so implementations need no
 * synchronisation of their own state.
 */
public interface Waiter {
    /**
     * Tries to complete the command: either writes exactly one reply to {@code out} and returns true, or
     * writes nothing, makes sure {@link BlockedClient#wake() self.wake()} will be called on the next relevant
     * event (re-registering under the lock that guards that event), and returns false.
     *
     * @param self the blocked client this waiter belongs to
     * @param out  a fresh reply sink (discarded when the method returns false)
     */
    boolean attempt(BlockedClient self, ReplySink out);

    /** Writes the reply for a timeout (e.g. a null array for BLPOP, an empty batch for FEED.READ). */
    void timedOut(ReplySink out);

    /**
     * Called exactly once when the block ends, whatever ended it (reply, timeout, disconnect, CLIENT KILL):
     * deregisters from wherever {@code wake} was registered. May run on any thread; must not take a shard
     * lock that the caller might hold, and must be cheap.
     */
    void release();
}
