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
 *
 * <p>A blocking list or sorted-set command reuses this as FEED.READ does ({@code io.kevy.feed.FeedWaiter}):
 * the handler finds nothing to pop under the key's shard lock, calls {@code Call.block(waiter, timeoutMs)},
 * registers {@code blocked::wake} for its keys under the same lock and returns; {@link #attempt} retries the
 * pop under the lock and re-registers when the keys are still empty; {@link #timedOut} writes the null reply.
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
     * deregisters from wherever {@code wake} was registered. Runs with no shard lock held (it may take the
     * locks of the shards it registered on), usually on the session's thread, but a cancellation may call it
     * from another thread.
     */
    void release();
}
