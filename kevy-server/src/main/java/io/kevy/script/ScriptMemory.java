package io.kevy.script;

/**
 * The memory cap of scripts. luaj allocates on the JVM heap with no allocator hook, so a script is stopped with
 * Lua's {@code not enough memory} when the heap is above {@link #HIGH_WATER} of {@code -Xmx} and, after a
 * collection, still above {@link #LIVE_MARK} of it, checked (a) by the instruction hook every {@link ScriptHook#CHECK_EVERY} instructions, which
 * bounds what a loop can add between checks, and (b) before {@code string.rep} builds a result of
 * {@link #LARGE} bytes or more, the one library function whose result is not bounded by what the script holds
 * already. A single allocation the JVM cannot make at all fails with {@link OutOfMemoryError} in the script's
 * thread; the runner answers it with the same error (nothing was allocated).
 *
 * <p>The heap's used bytes include garbage, so crossing the mark triggers a {@code System.gc()} and only the used
 * bytes after it count; between two such collections ({@link #GC_INTERVAL_NANOS}) a check passes, the 10% of
 * headroom absorbing what a script allocates meanwhile. The dataset shares the heap: a server whose data alone
 * fills 80% of it stops every script that reaches a check once the heap is 90% full.
 *
 * <p>Not thread-safe: used by the one running script (the runner's lock).
 */
final class ScriptMemory {
    /** The fraction of the maximum heap a script may not keep the heap above. */
    static final double HIGH_WATER = 0.9;
    /**
     * The fraction of the maximum heap the live bytes (after the collection the high-water mark triggers) may not
     * reach: below {@link #HIGH_WATER}, so that a script growing just under the mark does not pay a full
     * collection at every check, only once per tenth of the heap it allocates.
     */
    static final double LIVE_MARK = 0.8;
    /** A {@code string.rep} result this large or larger is checked first, bytes. */
    static final long LARGE = 64 * 1024;
    /** The least time between two collections asked for by the check, ns. */
    static final long GC_INTERVAL_NANOS = 10_000_000L;
    /** Lua's text for an allocation failure. */
    static final String NOT_ENOUGH_MEMORY = "not enough memory";

    private final Runtime runtime = Runtime.getRuntime();
    private long lastGc = System.nanoTime() - GC_INTERVAL_NANOS;

    /**
     * The hook's periodic check: true when the heap is over the high-water mark and, after a collection, still
     * over the {@link #LIVE_MARK}. Between two collections ({@link #GC_INTERVAL_NANOS}) it passes unverified.
     */
    boolean exhausted() {
        long max = runtime.maxMemory();
        if (used() < (long) (max * HIGH_WATER)) {
            return false;
        }
        if (System.nanoTime() - lastGc < GC_INTERVAL_NANOS) {
            return false; // unverified (garbage counts): the next check after the interval decides
        }
        collect();
        return used() >= (long) (max * LIVE_MARK);
    }

    /**
     * The check before one allocation of {@code bytes}: true when it would take the heap over the high-water
     * mark even after a collection (always verified: it decides one allocation, not a trend).
     */
    boolean refuses(long bytes) {
        long limit = (long) (runtime.maxMemory() * HIGH_WATER);
        if (used() + bytes < limit) {
            return false;
        }
        collect();
        return used() + bytes >= limit;
    }

    private void collect() {
        System.gc();
        lastGc = System.nanoTime();
    }

    private long used() {
        return runtime.totalMemory() - runtime.freeMemory();
    }
}
