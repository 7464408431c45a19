package io.kevy.engine;

/**
 * A blocked command registered on keys (BLPOP, BLMOVE, BZPOPMIN, ...): each key's shard keeps its waiters in
 * FIFO order ({@link KeySignals#block}), and when a change touches such a key the thread that made the change
 * serves the waiters before it releases its locks ({@link ShardLocks#serveReady}), so a client that pushes to a
 * key other clients wait on hands the data to the first of them before any other command can pop it (Redis's
 * {@code handleClientsBlockedOnKeys}).
 *
 * <p>{@link #serve} runs on the thread that changed the key, with the key's shard locked; {@link #waiting} on
 * any thread.
 */
public interface KeyWaiter {
    /** What one {@link #serve} call did. */
    enum Served {
        /** The waiter took its data and replied; it leaves the key's queue. */
        SERVED,
        /** Nothing for this waiter (another type, no data, or it ended meanwhile): try the next waiter. */
        SKIPPED,
        /**
         * The data is for this waiter but it needs a lock this thread may not wait for (a lower shard, held by
         * someone else): it was woken to finish on its own thread, and no later waiter of the key is served now,
         * so the FIFO order holds.
         */
        DEFERRED
    }

    /** False once the blocked command ended (served, timed out, cancelled); the registries then drop it. */
    boolean waiting();

    /**
     * Serves this waiter from {@code key} if the key holds data for it: pops, emits the pop's frames, replies.
     * Called with {@code key}'s shard locked (held in {@code locks}); may take more locks through
     * {@link ShardLocks#acquire}.
     */
    Served serve(byte[] key, ShardLocks locks);
}
