package io.kevy.feed;

import io.kevy.engine.EffectListener;
import io.kevy.engine.RedisNumbers;
import io.kevy.engine.RespFrames;
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
 *   <li><i>Storage.</i> Each frame is stored as the RESP encoding FEED.READ sends ({@code *2 [:offset, *argv]},
 *       exactly {@link #frameSize} bytes) in large {@code byte[]} chunks ({@link #chunkSizeFor}: 4 MiB at the
 *       default budget, allocated by G1 as humongous objects in the old generation), with a primitive index per
 *       retained offset (a {@code long[]} of addresses {@code chunkSeq * chunkSize + pos} and an {@code int[]}
 *       of lengths). A frame never spans chunks: when it does not fit in the rest of the current chunk, a new
 *       chunk starts; a frame larger than a chunk gets a chunk of its own size. Appending allocates nothing per
 *       frame, so young collections have nothing of the backlog to copy (issue 10's feed overhead). Chunks are
 *       released once no retained frame lies in them, one kept as a spare for the next; the memory held is the
 *       budget plus at most about two chunks and the unused tails of chunks.</li>
 *   <li><i>Locking.</i> The ring is guarded by the shard's lock: {@link #onEffect} and {@link #onStreamReset}
 *       run under it (the shard calls them from {@code emit} / {@code resetStream}), and readers take it only
 *       in {@link #snapshot}, long enough to check the cursor and copy the frames' <em>bytes</em> out (one
 *       {@code System.arraycopy} per run of frames in one chunk, at most {@value #MAX_COPY} bytes per
 *       snapshot beyond the first frame); they filter and write after releasing it (§6: readers never hold up
 *       writers for longer than that copy).</li>
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
 *   <li><i>Failure.</i> Nothing here allocates beyond the index's growth and new chunks; an
 *       {@code OutOfMemoryError} while growing propagates to the writing command like any other.</li>
 * </ul>
 */
public final class FeedBacklog implements EffectListener {
    private static final int INITIAL_CAPACITY = 16;
    /** The largest chunk: 4 MiB, a G1 humongous object (allocated in the old generation) up to 8 MiB regions. */
    static final int MAX_CHUNK = 4 << 20;
    private static final int MIN_CHUNK = 4 << 10;
    /** A snapshot stops copying past this many bytes (after at least one frame); the reader steps again. */
    static final int MAX_COPY = 16 << 20;

    private final Shard shard;
    private final long budget;
    private final int chunkSize;
    /** log2 of {@link #chunkSize}: addresses split into chunk and position with a shift and a mask. */
    private final int chunkShift;
    private final Set<Runnable> waiters = ConcurrentHashMap.newKeySet();
    private final AtomicInteger blockedReaders = new AtomicInteger();

    /** Chunk {@code seq} is {@code chunks[seq & (chunks.length - 1)]} for seq in [firstChunk, lastChunk]. */
    private byte[][] chunks = new byte[4][];
    private long firstChunk;
    private long lastChunk = -1;
    private int writePos;
    /** One released chunk of {@code chunkSize} kept for the next one, so a full ring allocates none. */
    private byte[] spare;

    /** Per retained frame, ring-indexed like the old frame ring: its address (chunk seq * chunkSize + pos). */
    private long[] addr = new long[INITIAL_CAPACITY];
    /** Per retained frame: its encoded length (= {@link #frameSize}). */
    private int[] len = new int[INITIAL_CAPACITY];
    private int head;
    private int count;
    private long firstOffset;
    private long bytes;
    private long evicted;

    /** A backlog for {@code shard} with {@code budget} bytes; register it with {@code shard.addListener}. */
    public FeedBacklog(Shard shard, long budget) {
        this(shard, budget, chunkSizeFor(budget));
    }

    /**
     * As the public constructor with an explicit chunk size, a power of two (tests: small chunks to exercise
     * wrap-around).
     */
    FeedBacklog(Shard shard, long budget, int chunkSize) {
        if (Integer.bitCount(chunkSize) != 1) {
            throw new IllegalArgumentException("chunk size must be a power of two: " + chunkSize);
        }
        this.shard = shard;
        this.budget = budget;
        this.chunkSize = chunkSize;
        this.chunkShift = Integer.numberOfTrailingZeros(chunkSize);
        shard.lock().lock();
        try {
            this.firstOffset = shard.nextOffset();
        } finally {
            shard.lock().unlock();
        }
    }

    /** A sixteenth of the budget as a power of two, within [4 KiB, 4 MiB] (64 MiB budget: 4 MiB chunks). */
    static int chunkSizeFor(long budget) {
        long c = Long.highestOneBit(Math.max(1, budget / 16));
        return (int) Math.max(MIN_CHUNK, Math.min(MAX_CHUNK, c));
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
        return 4 + 1 + RedisNumbers.digits(offset) + 2 + RespFrames.encodedSize(argv);
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
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("frame of " + size + " bytes");
        }
        while (count > 0 && bytes + size > budget) {
            evictOldest();
        }
        if (count == addr.length) {
            grow();
        }
        int n = (int) size;
        byte[] chunk = lastChunk >= firstChunk ? chunks[(int) lastChunk & (chunks.length - 1)] : null;
        if (chunk == null || chunk.length - writePos < n) {
            chunk = newChunk(n);
        }
        int end = encode(chunk, writePos, offset, frame);
        assert end - writePos == n;
        int slot = (head + count) & (addr.length - 1);
        addr[slot] = (lastChunk << chunkShift) + writePos;
        len[slot] = n;
        writePos = end;
        count++;
        bytes += size;
        wakeAll();
    }

    /** Starts chunk {@code lastChunk + 1}: {@code chunkSize} bytes, or exactly {@code n} for a larger frame. */
    private byte[] newChunk(int n) {
        if (lastChunk - firstChunk + 1 == chunks.length) {
            byte[][] c = new byte[chunks.length * 2][];
            for (long seq = firstChunk; seq <= lastChunk; seq++) {
                c[(int) seq & (c.length - 1)] = chunks[(int) seq & (chunks.length - 1)];
            }
            chunks = c;
        }
        byte[] chunk;
        if (n > chunkSize) {
            chunk = new byte[n];
        } else if (spare != null) {
            chunk = spare;
            spare = null;
        } else {
            chunk = new byte[chunkSize];
        }
        if (lastChunk < firstChunk) {
            firstChunk = lastChunk + 1;
        }
        lastChunk++;
        chunks[(int) lastChunk & (chunks.length - 1)] = chunk;
        writePos = 0;
        return chunk;
    }

    /** Releases the chunks before {@code seq} (no retained frame lies in them); keeps one as the spare. */
    private void releaseChunksBefore(long seq) {
        while (firstChunk < seq) {
            int i = (int) firstChunk & (chunks.length - 1);
            if (chunks[i].length == chunkSize) {
                spare = chunks[i];
            }
            chunks[i] = null;
            firstChunk++;
        }
    }

    /**
     * Writes {@code *2\r\n:<offset>\r\n*<argc>\r\n} and {@code $<len>\r\n<arg>\r\n} per argument at
     * {@code p}; returns the end position.
     */
    private static int encode(byte[] b, int p, long offset, byte[][] frame) {
        b[p++] = '*';
        b[p++] = '2';
        p = RespFrames.crlf(b, p);
        b[p++] = ':';
        p = RespFrames.crlf(b, RespFrames.putLong(b, p, offset));
        return RespFrames.encode(b, p, frame);
    }

    /** A frame of the AOF tail read back at boot: refills the backlog like an append (feed contract §5, ours). */
    @Override
    public void onReplay(Shard s, long offset, byte[][] frame) {
        onEffect(s, offset, frame);
    }

    @Override
    public void onStreamReset(Shard s, long generation, long nextOffset) {
        addr = new long[INITIAL_CAPACITY];
        len = new int[INITIAL_CAPACITY];
        chunks = new byte[4][];
        firstChunk = 0;
        lastChunk = -1;
        writePos = 0;
        spare = null;
        head = 0;
        count = 0;
        bytes = 0;
        firstOffset = nextOffset;
        wakeAll();
    }

    /** Drops the oldest frame, and the chunks no retained frame lies in any more (never the one being filled). */
    private void evictOldest() {
        bytes -= len[head];
        head = (head + 1) & (addr.length - 1);
        count--;
        firstOffset++;
        evicted++;
        releaseChunksBefore(count == 0 ? lastChunk : addr[head] >>> chunkShift);
    }

    private void grow() {
        int cap = addr.length;
        long[] a = new long[cap * 2];
        int[] l = new int[cap * 2];
        int first = Math.min(count, cap - head);
        System.arraycopy(addr, head, a, 0, first);
        System.arraycopy(addr, 0, a, first, count - first);
        System.arraycopy(len, head, l, 0, first);
        System.arraycopy(len, 0, l, first, count - first);
        addr = a;
        len = l;
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
     * {@link Status#FRAMES}) the frames {@code [start, start + count)}, possibly none, as their RESP encodings
     * laid end to end in {@code data}: frame {@code i} is {@code data[ends[i - 1] .. ends[i])} (from 0 for i = 0).
     */
    record Snapshot(Status status, long generation, long next, long start, int count, byte[] data, int[] ends) {
        private static final byte[] NO_BYTES = new byte[0];
        private static final int[] NO_ENDS = new int[0];

        static Snapshot of(Status status, long generation, long next, long start) {
            return new Snapshot(status, generation, next, start, 0, NO_BYTES, NO_ENDS);
        }
    }

    /**
     * Checks the cursor {@code (generation, from)} against the stream in contract §4's order and copies up to
     * {@code max} frames from {@code from} on, under the shard's lock:
     * a foreign generation → {@link Status#RESYNC}; {@code from} past the tail → {@link Status#AHEAD}; at the
     * tail → no frames; before the oldest retained frame → {@link Status#RESYNC}; else the frames' bytes (fewer
     * than {@code max} when they pass {@value #MAX_COPY} bytes; always at least one).
     */
    Snapshot snapshot(long generation, long from, int max) {
        shard.lock().lock();
        try {
            long gen = shard.generation();
            long next = shard.nextOffset();
            if (gen != generation) {
                return Snapshot.of(Status.RESYNC, gen, next, from);
            }
            if (Long.compareUnsigned(from, next) > 0) {
                return Snapshot.of(Status.AHEAD, gen, next, from);
            }
            if (from == next) {
                return Snapshot.of(Status.FRAMES, gen, next, from);
            }
            if (count == 0 || from < firstOffset) {
                return Snapshot.of(Status.RESYNC, gen, next, from);
            }
            int mask = addr.length - 1;
            int first = (head + (int) (from - firstOffset)) & mask;
            int want = (int) Math.min(max, next - from);
            int n = 0;
            long total = 0;
            while (n < want && (n == 0 || total + len[(first + n) & mask] <= MAX_COPY)) {
                total += len[(first + n) & mask];
                n++;
            }
            byte[] data = new byte[(int) total];
            int[] ends = new int[n];
            int p = 0;
            for (int i = 0; i < n; ) {
                // a run of frames that lie back to back in one chunk: one copy
                int slot = (first + i) & mask;
                long a = addr[slot];
                int runLen = len[slot];
                ends[i++] = p + runLen;
                while (i < n) {
                    int s2 = (first + i) & mask;
                    if (addr[s2] != a + runLen || addr[s2] >>> chunkShift != a >>> chunkShift) {
                        break;
                    }
                    runLen += len[s2];
                    ends[i++] = p + runLen;
                }
                byte[] chunk = chunks[(int) (a >>> chunkShift) & (chunks.length - 1)];
                System.arraycopy(chunk, (int) (a & (chunkSize - 1)), data, p, runLen);
                p += runLen;
            }
            return new Snapshot(Status.FRAMES, gen, next, from, n, data, ends);
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
