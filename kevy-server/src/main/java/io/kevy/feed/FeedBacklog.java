package io.kevy.feed;

import io.kevy.engine.EffectListener;
import io.kevy.engine.Shard;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.resp.EncodedEffect;
import io.kevy.resp.RespFrames;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The in-memory backlog of one shard's stream (feed contract §6): a ring of the most recent frames, sized by
 * the RESP encoding of each frame ({@link #frameSize}), the budget counted in those sizes.
 *
 * <p><b>Design note.</b>
 * <ul>
 *   <li><i>Storage.</i> Each frame is stored as the RESP encoding of its argv ({@code *<argc>} then
 *       {@code $<len> <arg>} per argument), in large {@code byte[]} chunks ({@link #chunkSizeFor}: 4 MiB at the
 *       default budget, allocated by G1 as humongous objects in the old generation). A frame never spans
 *       chunks: when it does not fit in the rest of the current chunk, a new chunk starts at position 0; a
 *       frame larger than a chunk gets a chunk of its own size. The index is one {@code int} per retained frame,
 *       where it ends in its chunk, plus the offset of the first frame of each chunk; a frame starts where the
 *       previous one ended, at 0 when it is the first of its chunk, or at {@code headStart} when it is the
 *       oldest retained. Appending allocates nothing per frame, so young collections have nothing of the
 *       backlog to copy; and it touches 4 bytes of index per frame, not 12 (an address and a length): the
 *       index streams through the caches like the chunks do, and at a million frames/s the 12-byte index cost
 *       a write about as much as the frame bytes (issue 10, docs/benchmarks.md). Chunks are released once no
 *       retained frame lies in them, one kept as a spare for the next; the memory held is the budget plus at
 *       most about two chunks, the unused tails of chunks and the 64 KiB of frames a trim may be behind. The
 *       {@code *2 :<offset>} header of FEED.READ's frame is not
 *       stored (the offset is the frame's position in the ring); readers write it, and the accounting adds it
 *       back ({@link #headerSize}), so {@code bytes} and eviction follow the contract's sizes exactly while the
 *       memory held is smaller by the header (15 of the 62 bytes of a {@code SET} of a 16-byte key at
 *       offset 10M).</li>
 *   <li><i>Read-ahead.</i> A chunk's bytes and the index's entries were last written a whole ring ago
 *       (64 MiB, over a million frames) and are out of the caches when the append reaches them again. Written
 *       cold, each store waits for its line to come from memory, and the shard lock's release, a full fence on
 *       x86, waits for those stores: a profile of the server under {@code SET -P 16} had the lock's release at
 *       3.0% of its CPU with the feed on against 0.2% off. So the append reads one byte per line some 4 to 8 KiB
 *       ahead of where it writes ({@link #readAhead}, {@link #readAheadEnds}): the ~64 loads of a read-ahead
 *       overlap their misses, the lines arrive exclusive (no other core holds them) and stay in the caches
 *       until written (the feed's overhead before and after: docs/benchmarks.md).</li>
 *   <li><i>Locking.</i> The ring is guarded by the shard's lock: {@link #onEffect} and {@link #onStreamReset}
 *       run under it (the shard calls them from {@code emit} / {@code resetStream}), and readers take it only
 *       in {@link #snapshot}, long enough to finish an eviction run (at most 64 KiB of frames, {@link #trim}),
 *       check the cursor and copy the frames' <em>bytes</em> out (one {@code System.arraycopy} per run of
 *       frames in one chunk, at most {@value #MAX_COPY} bytes per snapshot beyond the first frame); they filter
 *       and write after releasing it (§6: readers never hold up writers for longer than that copy).</li>
 *   <li><i>Invariants.</i> The ring holds the frames {@code [firstOffset, firstOffset + count)} of the shard's
 *       current generation, contiguous, and {@code firstOffset + count == shard.nextOffset()}; {@code bytes}
 *       is the sum of their sizes. Whenever the ring is read ({@link #snapshot}, {@link #stats}), the
 *       oldest frames have been evicted while {@code bytes > budget}; the newest frame is always kept, even
 *       when it alone is larger than the budget. This keeps the frames §6's "evict while used + new > budget,
 *       then append" keeps (the longest run of newest frames within the budget), while the append needs the
 *       frame's exact size only after encoding it and evicts in runs, up to 64 KiB past the budget
 *       ({@link #trim}).</li>
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
    /** The most {@link #trim} leaves to the next reader or append: 64 KiB, a copy's worth of eviction work. */
    private static final int MAX_SLACK = 64 << 10;
    /** {@link #readAhead} runs when fewer bytes than this are read ahead of the write position. */
    private static final int READ_AHEAD = 4 << 10;
    /** A snapshot stops copying past this many bytes (after at least one frame); the reader steps again. */
    static final int MAX_COPY = 16 << 20;

    private final Shard shard;
    private final long budget;
    private final int chunkSize;
    /** How far past the budget appends may go before they evict (see {@link #trim}). */
    private final int slack;
    private final Set<Runnable> waiters = ConcurrentHashMap.newKeySet();
    private final AtomicInteger blockedReaders = new AtomicInteger();

    /** Chunk {@code seq} is {@code chunks[seq & (chunks.length - 1)]} for seq in [firstChunk, lastChunk]. */
    private byte[][] chunks = new byte[4][];
    /** Indexed like {@link #chunks}: the offset of the frame written at position 0 of the chunk. */
    private long[] chunkFirst = new long[4];
    private long firstChunk;
    private long lastChunk = -1;
    /** Chunk {@code lastChunk}, the one being written; null before the first frame. */
    private byte[] current;
    private int writePos;
    /** Bytes of {@link #current} before this have been read ahead of the writes ({@link #readAhead}). */
    private int readAheadTo;
    /** Where the read-ahead's loads go, so the JIT keeps them; never read. */
    private int readSink;
    /** One released chunk of {@code chunkSize} kept for the next one, so a full ring allocates none. */
    private byte[] spare;

    /** Per retained frame, a ring from {@code head}: the position in its chunk where the frame ends. */
    private int[] ends = new int[INITIAL_CAPACITY];
    private int head;
    private int count;
    private long firstOffset;
    /** Where the oldest retained frame (offset {@code firstOffset}) starts in chunk {@code firstChunk}. */
    private int headStart;
    private long bytes;
    private long evicted;

    /** A backlog for {@code shard} with {@code budget} bytes; register it with {@code shard.addListener}. */
    public FeedBacklog(Shard shard, long budget) {
        this(shard, budget, chunkSizeFor(budget));
    }

    /**
     * As the public constructor with an explicit chunk size in bytes (tests: small chunks to exercise
     * wrap-around).
     */
    FeedBacklog(Shard shard, long budget, int chunkSize) {
        if (chunkSize <= 0) {
            throw new IllegalArgumentException("chunk size must be positive: " + chunkSize);
        }
        this.shard = shard;
        this.budget = budget;
        this.chunkSize = chunkSize;
        this.slack = Math.min(chunkSize, MAX_SLACK);
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
     * The size the backlog counts for a frame (it holds {@link #headerSize} bytes less): the length of its RESP
     * encoding as FEED.READ sends it,
     * {@code *2\r\n:<offset>\r\n*<argc>\r\n} plus {@code $<len>\r\n<arg>\r\n} per argument (contract §6;
     * {@code SET k v} at offset 0 is 35 bytes).
     */
    public static long frameSize(long offset, byte[][] argv) {
        return headerSize(offset) + RespFrames.encodedSize(argv);
    }

    /** The size of a frame's {@code *2\r\n:<offset>\r\n} header: the part of {@link #frameSize} not stored. */
    static int headerSize(long offset) {
        return 4 + 1 + RedisNumbers.digits(offset) + 2;
    }

    /**
     * Appends a frame; once the retained frames are more than {@code slack} bytes past the budget, evicts the
     * oldest down to the budget, never the newest ({@link #trim}). Readers trim first, so they see what
     * contract §6's order (evict while {@code used + new > budget}, then append) leaves: the longest run of
     * newest frames that fits the budget, or the new frame alone.
     */
    @Override
    public void onEffect(Shard s, long offset, byte[][] frame) {
        int n = count;
        if (n == 0) {
            firstOffset = offset;
        } else if (offset != firstOffset + n) {
            throw new IllegalStateException("shard " + shard.index() + ": frame offset " + offset
                    + " does not follow " + (firstOffset + n - 1));
        }
        EncodedEffect encoded = s.encoded();
        int size = encoded.present() ? encoded.length() : -1; // the request's bytes when the frame is its command
        byte[] chunk = current;
        if (chunk == null || chunk.length - writePos < (size >= 0 ? size : RespFrames.maxEncodedSize(frame))) {
            chunk = chunkFor(frame, offset);
        }
        if (n == ends.length) {
            grow();
        }
        int start = writePos;
        if (n == 0) {
            headStart = start;
            releaseChunksBefore(lastChunk);
        }
        int end = size >= 0 ? encoded.copyTo(chunk, start) : RespFrames.encode(chunk, start, frame);
        assert end - start == RespFrames.encodedSize(frame);
        encoded.publish(chunk, start, end); // the AOF writer copies these bytes instead of encoding again
        int i = (head + n) & (ends.length - 1);
        ends[i] = end;
        if ((i & 1023) == 0) {
            readAheadEnds(i);
        }
        writePos = end;
        if (readAheadTo - end < READ_AHEAD) {
            readAhead(chunk, end);
        }
        count = n + 1;
        bytes += headerSize(offset) + end - start;
        if (bytes > budget + slack) {
            trim();
        }
        wakeAll();
    }

    /**
     * Evicts the oldest frames while the retained ones exceed the budget, never the newest (contract §6). The
     * append runs it only once {@code slack} bytes past the budget, so eviction reads the ring's index in
     * runs instead of one cold entry per append (that load was a fifth of the append's time); every reader of
     * the ring's bounds ({@link #snapshot}, {@link #stats}) runs it first, so none sees the extra frames.
     * Callers hold the shard's lock.
     */
    private void trim() {
        int n = count;
        long b = bytes;
        if (n <= 1 || b <= budget) {
            return;
        }
        // the oldest frames dropped one by one, in locals (the run is ~1,400 SET frames at the default slack):
        // a frame's chunk is released when the next retained frame starts the following chunk
        int mask = ends.length - 1;
        int h = head;
        long first = firstOffset;
        int start = headStart;
        long dropped = 0;
        long next = firstChunk + 1;
        long nextStarts = next <= lastChunk ? chunkFirst[(int) next & (chunks.length - 1)] : -1;
        while (n > 1 && b > budget) {
            int end = ends[h];
            b -= headerSize(first) + end - start;
            h = (h + 1) & mask;
            n--;
            first++;
            dropped++;
            if (first == nextStarts) {
                releaseChunksBefore(next);
                start = 0;
                next = firstChunk + 1;
                nextStarts = next <= lastChunk ? chunkFirst[(int) next & (chunks.length - 1)] : -1;
            } else {
                start = end;
            }
        }
        head = h;
        count = n;
        firstOffset = first;
        headStart = start;
        bytes = b;
        evicted += dropped;
    }

    /**
     * The chunk {@code frame} goes in when the current one may lack room for it (by {@link
     * RespFrames#maxEncodedSize}): the current one when its exact size fits, else a new one.
     *
     * @throws IllegalArgumentException when the frame's encoding would not fit in a Java array
     */
    private byte[] chunkFor(byte[][] frame, long offset) {
        long size = RespFrames.encodedSize(frame);
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("frame of " + size + " bytes");
        }
        if (current != null && current.length - writePos >= size) {
            return current;
        }
        return newChunk((int) size, offset);
    }

    /**
     * Starts chunk {@code lastChunk + 1} for the frame at {@code offset}: {@code chunkSize} bytes, or exactly
     * {@code n} for a larger frame.
     */
    private byte[] newChunk(int n, long offset) {
        if (lastChunk - firstChunk + 1 == chunks.length) {
            byte[][] c = new byte[chunks.length * 2][];
            long[] f = new long[c.length];
            for (long seq = firstChunk; seq <= lastChunk; seq++) {
                c[(int) seq & (c.length - 1)] = chunks[(int) seq & (chunks.length - 1)];
                f[(int) seq & (c.length - 1)] = chunkFirst[(int) seq & (chunks.length - 1)];
            }
            chunks = c;
            chunkFirst = f;
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
        chunkFirst[(int) lastChunk & (chunks.length - 1)] = offset;
        current = chunk;
        writePos = 0;
        readAheadTo = 0;
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

    /** A frame of the AOF tail read back at boot: refills the backlog like an append (feed contract §5, ours). */
    @Override
    public void onReplay(Shard s, long offset, byte[][] frame) {
        onEffect(s, offset, frame);
    }

    /**
     * Keeps the frames: generation {@code oldGeneration} ended at {@code nextOffset} and is a prefix of the new
     * (the shard records it in its generation history, {@link Shard#generationEnd}).
     */
    @Override
    public void onGenerationContinued(Shard s, long oldGeneration, long newGeneration, long nextOffset) {
        wakeAll();
    }

    @Override
    public void onStreamReset(Shard s, long generation, long nextOffset) {
        ends = new int[INITIAL_CAPACITY];
        chunks = new byte[4][];
        chunkFirst = new long[4];
        firstChunk = 0;
        lastChunk = -1;
        current = null;
        writePos = 0;
        readAheadTo = 0;
        spare = null;
        head = 0;
        headStart = 0;
        count = 0;
        bytes = 0;
        firstOffset = nextOffset;
        wakeAll();
    }

    private void grow() {
        int cap = ends.length;
        int[] e = new int[cap * 2];
        int first = Math.min(count, cap - head);
        System.arraycopy(ends, head, e, 0, first);
        System.arraycopy(ends, 0, e, first, count - first);
        ends = e;
        head = 0;
    }

    /**
     * Reads one byte per cache line of the chunk from where the last read-ahead stopped to {@code 2 *}
     * {@link #READ_AHEAD} bytes past {@code end} (about 64 lines at a time), so the writes that follow find
     * their lines in the caches (see the class's design note, <i>Read-ahead</i>).
     */
    private void readAhead(byte[] chunk, int end) {
        int from = Math.max(readAheadTo, end);
        int to = (int) Math.min(chunk.length, (long) end + 2 * READ_AHEAD); // a frame's own chunk may end near 2^31
        int x = 0;
        for (int i = from; i < to; i += 64) {
            x += chunk[i];
        }
        readSink += x;
        readAheadTo = to == chunk.length ? Integer.MAX_VALUE : to;
    }

    /**
     * As {@link #readAhead} for the index, whose 4 bytes per frame go cold the same way: entries 1024 to 2047
     * after {@code i}, one load per 16 (a cache line), run when {@code i} is a multiple of 1024.
     */
    private void readAheadEnds(int i) {
        int[] e = ends;
        int mask = e.length - 1;
        int x = 0;
        for (int j = 1024; j < 2048; j += 16) {
            x += e[(i + j) & mask];
        }
        readSink += x;
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
     * {@link Status#FRAMES}) the frames {@code [start, start + count)}, possibly none, as their argv's RESP
     * encodings (without the {@code *2 :<offset>} header) laid end to end in {@code data}: frame {@code i} is
     * {@code data[ends[i - 1] .. ends[i])} (from 0 for i = 0).
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
            trim();
            long gen = shard.generation();
            long next = shard.nextOffset();
            if (gen != generation) {
                Long end = shard.generationEnd(generation);
                if (end == null || Long.compareUnsigned(from, end) > 0) {
                    return Snapshot.of(Status.RESYNC, gen, next, from);
                }
                // an older generation's cursor at or before where it ended: a prefix of this stream
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
            int mask = ends.length - 1;
            int first = (head + (int) (from - firstOffset)) & mask;
            int want = (int) Math.min(max, next - from);
            long chunk = chunkOf(from);
            int start = startOf(from, first, chunk);
            // how many frames: up to want, and past the first only while the copy stays within MAX_COPY
            int n = 0;
            long total = 0;
            for (long c = chunk; n < want; n++) {
                if (n > 0 && c < lastChunk && firstOf(c + 1) == from + n) {
                    c++;
                    start = 0;
                }
                int end = ends[(first + n) & mask];
                if (n > 0 && total + end - start > MAX_COPY) {
                    break;
                }
                total += end - start;
                start = end;
            }
            // copy them: one System.arraycopy per chunk they lie in
            byte[] data = new byte[(int) total];
            int[] frameEnds = new int[n];
            start = startOf(from, first, chunk);
            int runStart = start;
            int p = 0;
            int runAt = 0;
            for (int i = 0; i < n; i++) {
                if (i > 0 && chunk < lastChunk && firstOf(chunk + 1) == from + i) {
                    System.arraycopy(chunkAt(chunk), runStart, data, runAt, start - runStart);
                    chunk++;
                    start = 0;
                    runStart = 0;
                    runAt = p;
                }
                int end = ends[(first + i) & mask];
                p += end - start;
                frameEnds[i] = p;
                start = end;
            }
            System.arraycopy(chunkAt(chunk), runStart, data, runAt, start - runStart);
            return new Snapshot(Status.FRAMES, gen, next, from, n, data, frameEnds);
        } finally {
            shard.lock().unlock();
        }
    }

    /** Where the retained frame at {@code offset} (ring slot {@code slot}, in {@code chunk}) starts in its chunk. */
    private int startOf(long offset, int slot, long chunk) {
        if (offset == firstOffset) {
            return headStart;
        }
        return offset == firstOf(chunk) ? 0 : ends[(slot - 1) & (ends.length - 1)];
    }

    /** The chunk that holds the retained frame at {@code offset}: the last one whose first frame is not after it. */
    private long chunkOf(long offset) {
        long c = lastChunk;
        while (firstOf(c) > offset) {
            c--;
        }
        return c;
    }

    private long firstOf(long chunk) {
        return chunkFirst[(int) chunk & (chunks.length - 1)];
    }

    private byte[] chunkAt(long chunk) {
        return chunks[(int) chunk & (chunks.length - 1)];
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
            trim();
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
