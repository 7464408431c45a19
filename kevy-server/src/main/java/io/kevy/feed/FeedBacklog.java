package io.kevy.feed;

import io.kevy.engine.EffectListener;
import io.kevy.engine.RedisNumbers;
import io.kevy.engine.Shard;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The in-memory backlog of one shard's stream (feed contract §6): a ring of the most recent frames, sized by
 * the RESP encoding of each frame ({@link #frameSize}).
 *
 * <p><b>Design note.</b>
 * <ul>
 *   <li><i>Locking.</i> The ring is guarded by the shard's lock: {@link #onEffect} and {@link #onStreamReset}
 *       run under it (the shard calls them from {@code emit} / {@code resetStream}), and readers take it only
 *       in {@link #snapshot}, long enough to check the cursor and copy frame <em>references</em> out; they
 *       filter and encode after releasing it (§6: readers never hold up writers for longer than that copy).
 *       Frames are immutable, so a copied reference stays valid after eviction.</li>
 *   <li><i>Invariants.</i> The ring holds the frames {@code [firstOffset, firstOffset + count)} of the shard's
 *       current generation, contiguous, and {@code firstOffset + count == shard.nextOffset()}; {@code bytes}
 *       is the sum of their sizes. On append, the oldest frames are evicted while {@code bytes + size >
 *       budget}; the newest frame is always kept, even when it alone is larger than the budget.</li>
 *   <li><i>Stream reset</i> (FLUSHALL/FLUSHDB, boot): the ring empties and starts at the new offset.</li>
 *   <li><i>Boot refill.</i> On a clean restart the AOF tail is handed back through {@link #onReplay} in offset
 *       order and retained like appends, up to the budget, so cursors from before the restart stay valid.</li>
 *   <li><i>Waiters.</i> Blocked readers (FEED.READ BLOCK, the embedded blocking read) register a wake-up in a
 *       concurrent set; every append or reset removes and runs them all. A wake-up only enqueues work, so it is
 *       safe under the lock. Registration happens under the lock after checking that the reader is still at
 *       the tail ({@link #parkAtTail}), so no frame can slip between the check and the registration.</li>
 *   <li><i>Failure.</i> Nothing here allocates beyond the ring's growth; an {@code OutOfMemoryError} while
 *       growing propagates to the writing command like any other.</li>
 * </ul>
 */
public final class FeedBacklog implements EffectListener {
    private static final int INITIAL_CAPACITY = 16;

    private final Shard shard;
    private final long budget;
    private final Set<Runnable> waiters = ConcurrentHashMap.newKeySet();
    private final AtomicInteger blockedReaders = new AtomicInteger();

    private byte[][][] ring = new byte[INITIAL_CAPACITY][][];
    private int head;
    private int count;
    private long firstOffset;
    private long bytes;
    private long evicted;

    /** A backlog for {@code shard} with {@code budget} bytes; register it with {@code shard.addListener}. */
    public FeedBacklog(Shard shard, long budget) {
        this.shard = shard;
        this.budget = budget;
        shard.lock().lock();
        try {
            this.firstOffset = shard.nextOffset();
        } finally {
            shard.lock().unlock();
        }
    }

    public Shard shard() {
        return shard;
    }

    /** The budget in bytes. */
    public long budget() {
        return budget;
    }

    /**
     * The size of a frame in the backlog: the length of its RESP encoding as FEED.READ sends it,
     * {@code *2\r\n:<offset>\r\n*<argc>\r\n} plus {@code $<len>\r\n<arg>\r\n} per argument (contract §6;
     * {@code SET k v} at offset 0 is 35 bytes).
     */
    public static long frameSize(long offset, byte[][] argv) {
        long n = 4 + 1 + RedisNumbers.digits(offset) + 2 + 1 + RedisNumbers.digits(argv.length) + 2;
        for (byte[] a : argv) {
            n += 1 + RedisNumbers.digits(a.length) + 2 + a.length + 2;
        }
        return n;
    }

    @Override
    public void onEffect(Shard s, long offset, byte[][] frame) {
        if (count == 0) {
            firstOffset = offset;
        } else if (offset != firstOffset + count) {
            throw new IllegalStateException("shard " + shard.index() + ": frame offset " + offset
                    + " does not follow " + (firstOffset + count - 1));
        }
        long size = frameSize(offset, frame);
        while (count > 0 && bytes + size > budget) {
            evictOldest();
        }
        if (count == ring.length) {
            grow();
        }
        ring[(head + count) & (ring.length - 1)] = frame;
        count++;
        bytes += size;
        wakeAll();
    }

    /** A frame of the AOF tail read back at boot: refills the backlog like an append (feed contract §5, ours). */
    @Override
    public void onReplay(Shard s, long offset, byte[][] frame) {
        onEffect(s, offset, frame);
    }

    @Override
    public void onStreamReset(Shard s, long generation, long nextOffset) {
        ring = new byte[INITIAL_CAPACITY][][];
        head = 0;
        count = 0;
        bytes = 0;
        firstOffset = nextOffset;
        wakeAll();
    }

    /** Drops the oldest frame; its size is recomputed rather than stored (8 bytes less per retained frame). */
    private void evictOldest() {
        bytes -= frameSize(firstOffset, ring[head]);
        ring[head] = null;
        head = (head + 1) & (ring.length - 1);
        count--;
        firstOffset++;
        evicted++;
    }

    private void grow() {
        int cap = ring.length;
        byte[][][] r = new byte[cap * 2][][];
        int first = Math.min(count, cap - head);
        System.arraycopy(ring, head, r, 0, first);
        System.arraycopy(ring, 0, r, first, count - first);
        ring = r;
        head = 0;
    }

    private void wakeAll() {
        if (waiters.isEmpty()) {
            return;
        }
        for (Runnable w : waiters.toArray(new Runnable[0])) {
            if (waiters.remove(w)) {
                w.run();
            }
        }
    }

    /** The outcome of checking a cursor and copying frames (see {@link #snapshot}). */
    enum Status { FRAMES, RESYNC, AHEAD }

    /**
     * What a reader copied out under the lock: the status, the shard's position at that moment, and (for
     * {@link Status#FRAMES}) the frames {@code [start, start + frames.length)}, possibly none.
     */
    record Snapshot(Status status, long generation, long next, long start, byte[][][] frames) {
    }

    /**
     * Checks the cursor {@code (generation, from)} against the stream in contract §4's order and copies up to
     * {@code max} frame references from {@code from} on, under the shard's lock:
     * a foreign generation → {@link Status#RESYNC}; {@code from} past the tail → {@link Status#AHEAD}; at the
     * tail → no frames; before the oldest retained frame → {@link Status#RESYNC}; else the frames.
     */
    Snapshot snapshot(long generation, long from, int max) {
        shard.lock().lock();
        try {
            long gen = shard.generation();
            long next = shard.nextOffset();
            if (gen != generation) {
                return new Snapshot(Status.RESYNC, gen, next, from, null);
            }
            if (Long.compareUnsigned(from, next) > 0) {
                return new Snapshot(Status.AHEAD, gen, next, from, null);
            }
            if (from == next) {
                return new Snapshot(Status.FRAMES, gen, next, from, new byte[0][][]);
            }
            if (count == 0 || from < firstOffset) {
                return new Snapshot(Status.RESYNC, gen, next, from, null);
            }
            int n = (int) Math.min(max, next - from);
            byte[][][] out = new byte[n][][];
            int mask = ring.length - 1;
            int start = (head + (int) (from - firstOffset)) & mask;
            int first = Math.min(n, ring.length - start);
            System.arraycopy(ring, start, out, 0, first);
            if (first < n) {
                System.arraycopy(ring, 0, out, first, n - first);
            }
            return new Snapshot(Status.FRAMES, gen, next, from, out);
        } finally {
            shard.lock().unlock();
        }
    }

    /**
     * Registers {@code wake} to run on the next append or stream reset, provided the stream is still at
     * {@code (generation, offset)}; returns false (nothing registered) when it has moved on, so the reader
     * should read again.
     */
    boolean parkAtTail(long generation, long offset, Runnable wake) {
        shard.lock().lock();
        try {
            if (shard.generation() != generation || shard.nextOffset() != offset) {
                return false;
            }
            waiters.add(wake);
            return true;
        } finally {
            shard.lock().unlock();
        }
    }

    /** Removes a wake-up registered by {@link #parkAtTail}; safe from any thread, takes no lock. */
    void unpark(Runnable wake) {
        waiters.remove(wake);
    }

    /** Counts a reader starting (+1) or ending (-1) a blocking wait (INFO's readers_blocked). */
    void countBlocked(int delta) {
        blockedReaders.addAndGet(delta);
    }

    /** A consistent view of the backlog for INFO; takes the shard's lock. */
    public Stats stats() {
        shard.lock().lock();
        try {
            return new Stats(shard.generation(), shard.nextOffset(), count == 0 ? shard.nextOffset() : firstOffset,
                    count, bytes, budget, evicted, blockedReaders.get());
        } finally {
            shard.lock().unlock();
        }
    }

    /**
     * The backlog's figures at one moment.
     *
     * @param generation     the shard's current generation
     * @param nextOffset     the offset the next frame will get (the tail)
     * @param oldestOffset   the oldest retained offset ({@code nextOffset} when the backlog is empty)
     * @param frames         frames retained
     * @param bytes          their total size in bytes (contract §6)
     * @param budget         the budget in bytes
     * @param framesEvicted  frames evicted since start
     * @param readersBlocked readers waiting for the next frame (FEED.READ BLOCK)
     */
    public record Stats(long generation, long nextOffset, long oldestOffset, long frames, long bytes, long budget,
                        long framesEvicted, int readersBlocked) {
    }

    @Override
    public String toString() {
        return "FeedBacklog[shard " + shard.index() + ", " + count + " frames, " + bytes + "/" + budget + " bytes, "
                + "offsets [" + firstOffset + ", " + (firstOffset + count) + ")]";
    }
}
