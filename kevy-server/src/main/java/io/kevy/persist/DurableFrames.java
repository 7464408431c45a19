package io.kevy.persist;

import io.kevy.engine.DurableBound;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One shard's fsynced position for {@code FEED.READ ... DURABLE}: the AOF writer notes, under the shard's lock, the
 * position after each appended frame; when it swaps the pending frames out it takes that position, and after
 * the fsync that covers them publishes it and wakes the parked readers.
 *
 * <p>Thread-safe: {@link #appended} and {@link #taken} under the shard's lock, {@link #durable} on the writer
 * thread, the reads from any thread.
 */
final class DurableFrames implements DurableBound {
    /** A durable position: every frame of {@code generation} below {@code end} is fsynced. */
    record Position(long generation, long end) {
    }

    private final Set<Runnable> waiters = ConcurrentHashMap.newKeySet();
    private volatile Position durable;
    // guarded by the shard's lock
    private long appendedGeneration;
    private long appendedEnd;

    DurableFrames(long generation, long next) {
        this.durable = new Position(generation, next);
        this.appendedGeneration = generation;
        this.appendedEnd = next;
    }

    /** A frame (or a new stream) ends at {@code end} of {@code generation}. Under the shard's lock. */
    void appended(long generation, long end) {
        appendedGeneration = generation;
        appendedEnd = end;
    }

    /** The position the frames swapped out now reach. Under the shard's lock. */
    Position taken() {
        return new Position(appendedGeneration, appendedEnd);
    }

    /** The frames up to {@code p} are fsynced (or a new stream starts there durably): publish and wake. */
    void durable(Position p) {
        if (p.equals(durable)) {
            return;
        }
        durable = p;
        for (Runnable w : waiters) {
            if (waiters.remove(w)) {
                w.run();
            }
        }
    }

    @Override
    public long end(long generation) {
        Position p = durable;
        return p.generation() == generation ? p.end() : 0;
    }

    @Override
    public boolean park(long generation, long offset, Runnable wake) {
        waiters.add(wake);
        Position p = durable; // registered first, then checked: a publish in between wakes it or is seen here
        if (p.generation() == generation && p.end() > offset) {
            waiters.remove(wake);
            return false;
        }
        return true;
    }

    @Override
    public void unpark(Runnable wake) {
        waiters.remove(wake);
    }
}
