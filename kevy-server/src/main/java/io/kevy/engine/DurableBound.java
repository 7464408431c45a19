package io.kevy.engine;

/**
 * Where one shard's fsynced frames end, for {@code FEED.READ ... DURABLE}: a read serves only frames below
 * {@link #end}, and a blocking read parks here until an fsync moves it. Implemented by the AOF writer (its
 * frames are durable once the fsync of the {@code appendfsync} policy covering them returned).
 *
 * <p>Thread-safe.
 */
public interface DurableBound {
    /**
     * @return the offset below which every frame of {@code generation} is fsynced; 0 when no frame of that
     *         generation is known durable yet
     */
    long end(long generation);

    /**
     * Registers {@code wake} to run (once, on the AOF writer's thread) when {@link #end} moves or the durable
     * generation changes, unless frames of {@code generation} at or past {@code offset} are already durable.
     *
     * @return false, with nothing registered, when they are: read again
     */
    boolean park(long generation, long offset, Runnable wake);

    /** Removes a wake-up registered by {@link #park}; idempotent. */
    void unpark(Runnable wake);
}
