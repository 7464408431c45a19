package io.kevy.engine;

/**
 * The shard locks one thread holds for one unit of work (a command, an EXEC, the serving of blocked clients),
 * and the serving of the blocked clients its changes made ready.
 *
 * <p><b>Lock order.</b> A thread waits for a shard lock only when its index is above every lock it holds
 * ({@link #lock}); a lower one it only tries ({@link #acquire}, {@code tryLock}). Every wait is therefore for a
 * higher index than anything the waiter holds, so no cycle of waits can form, whatever was taken with
 * {@code tryLock} before.
 *
 * <p><b>Serving.</b> {@link #serveReady} serves the waiters of the keys the work made ready, before the locks
 * are released: a push hands its data to the clients blocked on the key before any other command can pop it
 * (Redis serves ready keys right after the command that readied them). A served move (BLMOVE) whose
 * destination is on a shard this thread may not wait for is deferred to the blocked client's own thread,
 * which takes the locks in order and serves again.
 *
 * <p>Not thread-safe: owned by one thread.
 */
public final class ShardLocks {
    private final Engine engine;
    private final boolean[] held;
    /** Locks to release: the ones taken here (not those {@linkplain #adopt adopted}), in acquisition order. */
    private final int[] owned;
    private int ownedCount;
    private int max = -1;
    /** Waits through {@link ScriptGate#lock} (a command's locks: BUSY rather than waiting for a script for good). */
    private boolean forCommand;

    public ShardLocks(Engine engine) {
        this.engine = engine;
        this.held = new boolean[engine.shardCount()];
        this.owned = new int[engine.shardCount()];
    }

    /**
     * Serves the keys made ready on shard {@code index}, which the caller holds, when there are any; a no-op
     * otherwise, without allocating. Locks taken while serving are released before returning; the caller's are
     * not.
     */
    public static void serveHeld(Engine engine, int index) {
        if (engine.shard(index).signals().hasReady()) {
            serveAdopting(engine, new int[] {index});
        }
    }

    /** As {@link #serveHeld(Engine, int)} for the shards {@code indexes}, all held by the caller. */
    public static void serveHeld(Engine engine, int[] indexes) {
        for (int s : indexes) {
            if (engine.shard(s).signals().hasReady()) {
                serveAdopting(engine, indexes);
                return;
            }
        }
    }

    /** As {@link #serveHeld(Engine, int)} when the caller holds every shard. */
    public static void serveAllHeld(Engine engine) {
        for (int s = 0; s < engine.shardCount(); s++) {
            if (engine.shard(s).signals().hasReady()) {
                int[] all = new int[engine.shardCount()];
                for (int i = 0; i < all.length; i++) {
                    all[i] = i;
                }
                serveAdopting(engine, all);
                return;
            }
        }
    }

    private static void serveAdopting(Engine engine, int[] indexes) {
        ShardLocks locks = new ShardLocks(engine);
        for (int a : indexes) {
            locks.adopt(a);
        }
        try {
            locks.serveReady();
        } finally {
            locks.unlockAll();
        }
    }

    /** Records that the caller already holds shard {@code index} (this object will not unlock it). */
    public void adopt(int index) {
        if (!held[index]) {
            held[index] = true;
            max = Math.max(max, index);
        }
    }

    /**
     * Locks shard {@code index}, waiting if needed. It must be above every held shard (ascending order), or held
     * already (then nothing happens).
     *
     * @throws IllegalStateException when that would break the lock order
     */
    public void lock(int index) {
        if (held[index]) {
            return;
        }
        if (index < max) {
            throw new IllegalStateException("lock order: shard " + index + " after shard " + max);
        }
        if (forCommand) {
            engine.scriptGate().lock(engine.shard(index).lock());
        } else {
            engine.shard(index).lock().lock();
        }
        take(index);
    }

    /**
     * Makes {@link #lock} wait as a command does ({@link ScriptGate#lock}: {@code -BUSY} once a running script is
     * past its threshold). Returns this.
     */
    public ShardLocks forCommand() {
        this.forCommand = true;
        return this;
    }

    /** Locks every shard, ascending (nothing may be held yet, except shards this object adopted or locked). */
    public void lockAll() {
        for (int i = 0; i < held.length; i++) {
            lock(i);
        }
    }

    /**
     * Makes sure shard {@code index} is held without risking a deadlock: true when held already or now; a shard
     * above every held one is waited for, a lower one only tried (false when another thread holds it).
     */
    public boolean acquire(int index) {
        if (held[index]) {
            return true;
        }
        if (index > max) {
            engine.shard(index).lock().lock();
        } else if (!engine.shard(index).lock().tryLock()) {
            return false;
        }
        take(index);
        return true;
    }

    /** True when shard {@code index} is held. */
    public boolean holds(int index) {
        return held[index];
    }

    private void take(int index) {
        held[index] = true;
        owned[ownedCount++] = index;
        max = Math.max(max, index);
    }

    /**
     * Serves the blocked clients of every ready key of the held shards, oldest ready key first, until no held
     * shard has a ready key left (serving may make more keys ready, and take more locks).
     */
    public void serveReady() {
        while (true) {
            KeySignals next = null;
            long first = Long.MAX_VALUE;
            for (int i = 0; i < held.length; i++) {
                if (held[i]) {
                    KeySignals s = engine.shard(i).signals();
                    long q = s.firstReadySequence();
                    if (q < first) {
                        first = q;
                        next = s;
                    }
                }
            }
            if (next == null) {
                return;
            }
            next.serveFirstReady(this);
        }
    }

    /** Releases the locks this object took, last taken first. */
    public void unlockAll() {
        for (int i = ownedCount - 1; i >= 0; i--) {
            int s = owned[i];
            held[s] = false;
            engine.shard(s).lock().unlock();
        }
        ownedCount = 0;
        max = -1;
        for (int i = 0; i < held.length; i++) {
            if (held[i]) {
                max = i;
            }
        }
    }
}
