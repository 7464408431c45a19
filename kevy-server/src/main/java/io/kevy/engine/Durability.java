package io.kevy.engine;

/**
 * What the persistence layer offers the rest of the engine: the persistence commands (SAVE, BGSAVE,
 * BGREWRITEAOF, LASTSAVE), the write barrier of {@code appendfsync always}, and the refusal of writes after a
 * disk error. {@link #NONE} is an engine without a data directory.
 *
 * <p>Implementations must be thread-safe.
 */
public interface Durability {
    /** No persistence: SAVE and friends report that there is nothing to save to. */
    Durability NONE = new Durability() {
    };

    /**
     * Saves a snapshot of every shard and returns once the files are durable.
     *
     * @return null on success, else the error text to reply (e.g. {@code "ERR ..."})
     */
    default String save() {
        return "ERR no data directory: this store does not persist";
    }

    /**
     * Starts a background snapshot.
     *
     * @param schedule BGSAVE SCHEDULE: when one is running, schedule another instead of failing
     * @return the status text to reply ({@code "Background saving started"}) or an error text starting with
     *         {@code "ERR "}
     */
    default String bgsave(boolean schedule) {
        return "ERR no data directory: this store does not persist";
    }

    /** Starts a background AOF rewrite; returns the status text or an error text starting with {@code "ERR "}. */
    default String bgrewriteaof() {
        return "ERR no data directory: this store does not persist";
    }

    /** Unix time in seconds of the last successful save (LASTSAVE); the start time when none. */
    default long lastSaveSeconds() {
        return 0;
    }

    /** True when replies of writes must wait for {@link #whenDurable} (appendfsync always). */
    default boolean gatesReplies() {
        return false;
    }

    /** A sequence number covering every change made so far. */
    default long currentSeq() {
        return 0;
    }

    /** Every change with a sequence at or below this is durable. */
    default long durableSeq() {
        return Long.MAX_VALUE;
    }

    /** Runs {@code action} once the changes up to {@code seq} are durable (at once when not gating). */
    default void whenDurable(long seq, Runnable action) {
        action.run();
    }

    /**
     * Shard {@code shard}'s fsynced position for {@code FEED.READ ... DURABLE}, or null when frames are never
     * fsynced on a schedule (no AOF, or {@code appendfsync no}).
     */
    default DurableBound durableBound(int shard) {
        return null;
    }

    /**
     * True once an fsync failed: the changes it covered may be lost, so replies waiting for {@link #whenDurable}
     * are never sent as acknowledgements (Redis #8347); {@link #writeError} stays set until a restart.
     */
    default boolean fsyncFailed() {
        return false;
    }

    /** Why writes are refused right now (an AOF write error), or null when they are accepted. */
    default String writeError() {
        return null;
    }
}
