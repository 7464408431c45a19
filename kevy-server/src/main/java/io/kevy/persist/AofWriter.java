package io.kevy.persist;

import io.kevy.engine.EffectListener;
import io.kevy.engine.Engine;
import io.kevy.engine.Shard;
import io.kevy.resp.EncodedEffect;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends every effect frame to its shard's {@code aof-{i}.aof}, off the network threads.
 *
 * <p><b>Design note.</b>
 * <ul>
 *   <li><i>Hand-off.</i> {@link #onEffect} runs under the shard's lock (it is an {@link EffectListener}): it
 *       encodes the frame into the shard's pending buffer (or copies its encoding when the shard has it:
 *       the request's bytes or the feed backlog's, {@link Shard#encoded}) and bumps a global append sequence. One writer thread
 *       swaps the pending buffers out (taking each shard lock only for the swap), writes them, and fsyncs per
 *       {@link Fsync}. Rotations (FLUSHALL's new generation, the start and end of a rewrite) travel in the same
 *       pending queue, so they are ordered with the frames around them.</li>
 *   <li><i>Group commit.</i> The writer reads the append sequence before swapping; every frame with a smaller
 *       or equal sequence was appended under a shard lock released before the swap took it, so after the
 *       fsync {@link #durableSeq()} covers it. A connection that wrote records {@link #appendSeq()} and
 *       releases its replies with {@link #whenDurable} (appendfsync always): one fsync releases every
 *       connection that wrote meanwhile.</li>
 *   <li><i>Rewrite.</i> {@link #beginNext} switches a shard to {@code aof-{i}.aof.next} (a new base offset,
 *       typically a snapshot's cursor); {@link #promoteNext} renames it over {@code aof-{i}.aof}. Until the
 *       rename, boot reads both files as one chain, so dying at any point loses nothing.</li>
 *   <li><i>Failure.</i> A failed write is truncated away and retried every second; meanwhile
 *       {@link #lastError()} is set, which makes the server refuse writes (MISCONF) as Redis does. A failed
 *       fsync is not retried: after one, the kernel may have dropped the dirty pages it could not write, so a
 *       later fsync that succeeds proves nothing about them (Redis #8347, the PostgreSQL "fsyncgate"). It sets
 *       {@link #fsyncFailed()} for good: writes are refused until a restart, nothing is written to the files
 *       any more, no reply waiting for that fsync is released as acknowledged, and {@link #close()} fails so
 *       that no clean-shutdown marker vouches for the files (the next boot starts new generations).</li>
 * </ul>
 *
 * <p>Thread-safe.
 */
public final class AofWriter implements EffectListener, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AofWriter.class);
    private static final int RECYCLE_LIMIT = 4 * 1024 * 1024;
    /** Under everysec and no, a shard buffer this large wakes the writer before its next cadence tick. */
    private static final int EAGER_WRITE_BYTES = 256 * 1024;
    /** Under everysec and no, the writer writes pending frames to the OS at most this often while busy. */
    private static final long CADENCE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final Engine engine;
    private final Path dir;
    /** CONFIG SET appendfsync changes it live ({@link #fsync(Fsync)}). */
    private volatile Fsync fsync;
    private final ShardLog[] logs;
    private final AtomicLong appendSeq = new AtomicLong();
    private final AtomicBoolean wake = new AtomicBoolean();
    private final ConcurrentLinkedQueue<Waiter> waiters = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private volatile long writtenSeq;
    private volatile long durableSeq;
    private volatile boolean running = true;
    /** Set by the writer before it parks with nothing pending; the next append then wakes it. */
    private volatile boolean idle;
    private volatile String lastError;
    /** Sticky: the first failed fsync's error; see the class's design note. */
    private volatile String fsyncError;
    private long lastFsyncNanos = System.nanoTime();

    private record Waiter(long seq, Runnable action) {
    }

    /** A change of file, ordered with the frames in the pending queue. */
    private record Rotation(Kind kind, long generation, long baseOffset, CompletableFuture<Void> done) {
        enum Kind { RESET, BEGIN_NEXT, PROMOTE_NEXT }
    }

    private static final class ShardLog {
        final int index;
        // guarded by the shard lock
        GrowableBytes current = new GrowableBytes(64 * 1024);
        GrowableBytes spare;
        List<Object> ops = new ArrayList<>();
        // writer thread only
        FileChannel channel;
        FileChannel nextChannel;
        boolean dirty;
        // FEED.READ DURABLE's bound; set at open
        DurableFrames durable;
        // read by INFO and the rewrite trigger
        volatile long size;
        volatile long nextSize;
        volatile long baseSize;

        ShardLog(int index) {
            this.index = index;
        }
    }

    private AofWriter(Engine engine, Path dir, Fsync fsync) {
        this.engine = engine;
        this.dir = dir;
        this.fsync = fsync;
        this.logs = new ShardLog[engine.shardCount()];
        for (int i = 0; i < logs.length; i++) {
            logs[i] = new ShardLog(i);
        }
        this.thread = new Thread(this::run, "kevy-aof-writer");
        thread.setDaemon(true);
    }

    /**
     * Opens the writer over the shards' AOF files. Each file must exist with a valid header (boot creates or
     * checks them); frames are appended at its end. Registers itself as a listener of every shard.
     */
    public static AofWriter open(Engine engine, Path dir, Fsync fsync) throws IOException {
        AofWriter w = new AofWriter(engine, dir, fsync);
        for (ShardLog l : w.logs) {
            Path p = aofPath(dir, l.index);
            l.channel = FileChannel.open(p, StandardOpenOption.WRITE);
            l.size = l.channel.size();
            l.baseSize = l.size;
            l.channel.position(l.size);
            FileFaults.synced(p, l.size);
            Shard s = engine.shard(l.index); // before clients: boot's frames are durable (fsynced by boot or close)
            l.durable = new DurableFrames(s.generation(), s.nextOffset());
        }
        for (int i = 0; i < w.logs.length; i++) {
            engine.shard(i).addListener(w);
        }
        w.thread.start();
        return w;
    }

    /** {@code dir/aof-{i}.aof}. */
    public static Path aofPath(Path dir, int shard) {
        return dir.resolve("aof-" + shard + ".aof");
    }

    /** {@code dir/aof-{i}.aof.next}, the file a rewrite fills until it is promoted. */
    public static Path nextPath(Path dir, int shard) {
        return dir.resolve("aof-" + shard + ".aof.next");
    }

    /**
     * Creates {@code path} holding only {@code header}, durably (tmp + fsync + rename + directory fsync).
     */
    static void createFile(Path path, AofHeader header) throws IOException {
        Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            writeFully(ch, ByteBuffer.wrap(header.encode()));
            ch.force(true);
        }
        Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        FileSync.directory(path.getParent());
    }

    public Fsync fsync() {
        return fsync;
    }

    /**
     * Switches the fsync schedule live ({@code CONFIG SET appendfsync}, as Redis allows). Replies already waiting
     * for an fsync under {@link Fsync#ALWAYS} are still released only by the fsync that covers them: the writer
     * fsyncs while any wait, whatever the new schedule. Thread-safe.
     */
    public void fsync(Fsync schedule) {
        this.fsync = java.util.Objects.requireNonNull(schedule, "schedule");
        LockSupport.unpark(thread);
    }

    @Override
    public void onEffect(Shard shard, long offset, byte[][] frame) {
        ShardLog l = logs[shard.index()];
        EncodedEffect encoded = shard.encoded();
        if (encoded.present()) { // the request's bytes, or the feed backlog's copy: copy them (Shard#encoded)
            l.current.write(encoded);
        } else {
            l.current.writeFrame(frame);
        }
        l.durable.appended(shard.generation(), offset + 1);
        appendSeq.incrementAndGet();
        if (fsync == Fsync.ALWAYS || idle || l.current.size() >= EAGER_WRITE_BYTES) {
            signal();
        }
    }

    @Override
    public void onStreamReset(Shard shard, long generation, long nextOffset) {
        logs[shard.index()].durable.appended(generation, nextOffset);
        rotate(shard.index(), new Rotation(Rotation.Kind.RESET, generation, nextOffset, new CompletableFuture<>()));
    }

    /**
     * Switches shard {@code index} to a new file {@code aof-{i}.aof.next} whose first frame has offset
     * {@code baseOffset}: every frame emitted after this call goes there. Callers must hold the shard's lock
     * (so the switch sits exactly between two frames, e.g. at a snapshot's cursor).
     *
     * @return completes when the new file exists durably
     */
    public CompletableFuture<Void> beginNext(int index, long generation, long baseOffset) {
        Rotation r = new Rotation(Rotation.Kind.BEGIN_NEXT, generation, baseOffset, new CompletableFuture<>());
        rotate(index, r);
        return r.done();
    }

    /**
     * Renames shard {@code index}'s {@code .next} file over its AOF (after fsyncing it). Takes the shard lock.
     *
     * @return completes when the rename is durable
     */
    public CompletableFuture<Void> promoteNext(int index) {
        Rotation r = new Rotation(Rotation.Kind.PROMOTE_NEXT, 0, 0, new CompletableFuture<>());
        Shard s = engine.shard(index);
        s.lock().lock();
        try {
            rotate(index, r);
        } finally {
            s.lock().unlock();
        }
        return r.done();
    }

    private void rotate(int index, Rotation r) {
        ShardLog l = logs[index];
        if (l.current.size() > 0) {
            l.ops.add(l.current);
            l.current = new GrowableBytes(64 * 1024);
        }
        l.ops.add(r);
        appendSeq.incrementAndGet();
        signal();
    }

    private void signal() {
        if (!wake.get() && wake.compareAndSet(false, true)) {
            LockSupport.unpark(thread);
        }
    }

    /** The sequence number of the latest appended frame (or rotation). */
    public long appendSeq() {
        return appendSeq.get();
    }

    /** Every append with a sequence at or below this is fsynced. */
    public long durableSeq() {
        return durableSeq;
    }

    /** Every append with a sequence at or below this has been written to the OS. */
    public long writtenSeq() {
        return writtenSeq;
    }

    /**
     * Runs {@code action} once appends up to {@code seq} are fsynced (on the writer thread, or at once when they
     * already are). With {@link Fsync#EVERYSEC} and {@link Fsync#NO} it runs at once.
     */
    public void whenDurable(long seq, Runnable action) {
        if (fsync != Fsync.ALWAYS || durableSeq >= seq) {
            action.run();
            return;
        }
        waiters.add(new Waiter(seq, action));
        signal();
    }

    /** The last write or fsync error, or null when the AOF is healthy. */
    public String lastError() {
        return lastError;
    }

    /**
     * Shard {@code index}'s fsynced position, for {@code FEED.READ ... DURABLE}. Under {@link Fsync#NO} it moves
     * only at the fsyncs of a rewrite, SAVE or shutdown.
     */
    public io.kevy.engine.DurableBound durableFrames(int index) {
        return logs[index].durable;
    }

    /** True once an fsync failed: writes stay refused until a restart (see the class's design note). */
    public boolean fsyncFailed() {
        return fsyncError != null;
    }

    /** Current size of shard {@code index}'s AOF chain, bytes. */
    public long size(int index) {
        ShardLog l = logs[index];
        return l.size + l.nextSize;
    }

    /** Size of shard {@code index}'s AOF right after its last rewrite or open, bytes. */
    public long baseSize(int index) {
        return logs[index].baseSize;
    }

    /**
     * Blocks until everything appended so far is written and fsynced, whatever the policy (clean shutdown,
     * SAVE of a rewrite).
     */
    public void syncNow() throws IOException {
        long target = appendSeq.get();
        CompletableFuture<Void> done = new CompletableFuture<>();
        waiters.add(new Waiter(target, () -> done.complete(null)));
        forceFsync = true;
        signal();
        try {
            done.get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IOException("AOF sync did not complete: " + e, e);
        }
        if (durableSeq < target) {
            throw new IOException("AOF fsync failed (" + fsyncError + "): the AOF may have lost writes");
        }
    }

    private volatile boolean forceFsync;

    private void run() {
        long cycled = -1;
        while (running) {
            if (fsync == Fsync.ALWAYS) {
                if (!wake.getAndSet(false)) {
                    LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(250));
                    wake.set(false);
                }
                cycle();
            } else {
                if (appendSeq.get() == cycled && waiters.isEmpty() && !forceFsync) {
                    parkIdle(cycled);
                }
                cycled = appendSeq.get();
                cycle();
                LockSupport.parkNanos(this, CADENCE_NANOS);
                wake.set(false);
            }
        }
        cycle();
    }

    /**
     * everysec and no: rather than one cycle per signalled frame (each cycle takes every shard lock and wakes
     * this thread, which on a small machine preempts a command thread), the writer sleeps
     * {@link #CADENCE_NANOS} after every cycle, so while frames keep coming it writes them at most once per
     * cadence, as Redis writes its AOF buffer once per event-loop turn. Only a cadence with no append at all
     * sends it to the long park (until the next append, or the everysec tick): an append sees {@code idle}
     * or the writer sees the append's sequence (both volatile), so none waits for the long park.
     */
    private void parkIdle(long cycledUpTo) {
        idle = true;
        if (appendSeq.get() == cycledUpTo && !wake.getAndSet(false)) {
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(fsync == Fsync.EVERYSEC ? 100 : 250));
        }
        idle = false;
        wake.set(false);
    }

    private void cycle() {
        if (fsyncError != null) { // nothing more is written; whoever waits for an fsync is told it failed
            releaseWaiters();
            return;
        }
        long target = appendSeq.get();
        List<List<Object>> taken = new ArrayList<>(logs.length);
        DurableFrames.Position[] reached = new DurableFrames.Position[logs.length];
        for (ShardLog l : logs) {
            Shard s = engine.shard(l.index);
            s.lock().lock();
            try {
                reached[l.index] = l.durable.taken();
                List<Object> ops = l.ops;
                if (l.current.size() > 0) {
                    ops.add(l.current);
                    l.current = l.spare != null ? l.spare : new GrowableBytes(64 * 1024);
                    l.spare = null;
                }
                l.ops = ops.isEmpty() ? ops : new ArrayList<>();
                taken.add(ops.isEmpty() ? List.of() : ops);
            } finally {
                s.lock().unlock();
            }
        }
        try {
            for (int i = 0; i < logs.length; i++) {
                write(logs[i], taken.get(i));
            }
            writtenSeq = target;
            boolean wantFsync = fsync == Fsync.ALWAYS || forceFsync
                    || (fsync == Fsync.EVERYSEC && System.nanoTime() - lastFsyncNanos >= 1_000_000_000L);
            boolean waitersPending = !waiters.isEmpty();
            if (wantFsync || waitersPending) {
                boolean force = fsync != Fsync.NO || forceFsync || waitersPending;
                if (force) {
                    for (ShardLog l : logs) {
                        if (l.dirty) {
                            try {
                                FileFaults.beforeFsync();
                                l.channel.force(false);
                                if (l.nextChannel != null) {
                                    l.nextChannel.force(false);
                                }
                            } catch (IOException | RuntimeException e) {
                                fsyncFailed(l, e);
                                return;
                            }
                            l.dirty = false;
                            if (FileFaults.active()) { // the power-loss test's record; no Path built otherwise
                                FileFaults.synced(aofPath(dir, l.index), l.size);
                                if (l.nextChannel != null) {
                                    FileFaults.synced(nextPath(dir, l.index), l.nextSize);
                                }
                            }
                        }
                    }
                    lastFsyncNanos = System.nanoTime();
                    forceFsync = false;
                    durableSeq = target;
                    for (ShardLog l : logs) {
                        l.durable.durable(reached[l.index]);
                    }
                }
            }
            if (lastError != null) {
                log.info("AOF writes recovered");
                lastError = null;
            }
        } catch (IOException | RuntimeException e) {
            if (lastError == null) {
                log.error("AOF write failed; write commands are refused until it recovers", e);
            }
            lastError = String.valueOf(e.getMessage());
            requeue(taken);
            LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
            return;
        }
        releaseWaiters();
    }

    /** The first failed fsync: refuse writes for good and fail whoever waits (see the class's design note). */
    private void fsyncFailed(ShardLog l, Exception e) {
        log.error("AOF fsync of shard {} failed: write commands are refused until a restart (a failed fsync is not "
                + "retried: the data it covered may be lost; see docs/operations.md)", l.index, e);
        fsyncError = String.valueOf(e.getMessage());
        lastError = fsyncError;
        releaseWaiters();
    }

    /** Runs the waiters now durable; after a failed fsync, every waiter (each checks durability itself). */
    private void releaseWaiters() {
        long durable = durableSeq;
        boolean failed = fsyncError != null;
        Iterator<Waiter> it = waiters.iterator();
        while (it.hasNext()) {
            Waiter w = it.next();
            if (w.seq() <= durable || failed) {
                it.remove();
                try {
                    w.action().run();
                } catch (RuntimeException e) {
                    log.warn("durability callback failed", e);
                }
            }
        }
    }

    /** Puts ops that could not be written back in front of the pending queue. */
    private void requeue(List<List<Object>> taken) {
        for (int i = 0; i < logs.length; i++) {
            List<Object> ops = taken.get(i);
            if (ops.isEmpty()) {
                continue;
            }
            ShardLog l = logs[i];
            Shard s = engine.shard(i);
            s.lock().lock();
            try {
                List<Object> merged = new ArrayList<>(ops);
                merged.addAll(l.ops);
                l.ops = merged;
            } finally {
                s.lock().unlock();
            }
        }
    }

    private void write(ShardLog l, List<Object> ops) throws IOException {
        int done = 0;
        try {
            for (Object op : ops) {
                if (op instanceof GrowableBytes b) {
                    FileChannel ch = l.nextChannel != null ? l.nextChannel : l.channel;
                    long before = ch.position();
                    try {
                        writeFully(ch, ByteBuffer.wrap(b.array(), 0, b.size()));
                    } catch (IOException e) {
                        ch.truncate(before);
                        ch.position(before);
                        throw e;
                    }
                    if (l.nextChannel != null) {
                        l.nextSize += b.size();
                    } else {
                        l.size += b.size();
                    }
                    l.dirty = true;
                    if (b.array().length <= RECYCLE_LIMIT) {
                        b.reset();
                        l.spare = b; // racy hand-back is fine: a lost spare only costs an allocation
                    }
                } else {
                    rotate(l, (Rotation) op);
                }
                done++;
            }
        } finally {
            if (done > 0) {
                ops.subList(0, done).clear();
            }
        }
    }

    private void rotate(ShardLog l, Rotation r) throws IOException {
        switch (r.kind()) {
            case RESET -> {
                if (l.nextChannel != null) {
                    l.nextChannel.close();
                    l.nextChannel = null;
                    l.nextSize = 0;
                    Files.deleteIfExists(nextPath(dir, l.index));
                }
                Path p = aofPath(dir, l.index);
                createFile(p, new AofHeader(r.generation(), r.baseOffset()));
                l.channel.close();
                l.channel = FileChannel.open(p, StandardOpenOption.WRITE);
                l.channel.position(l.channel.size());
                l.size = l.channel.size();
                l.baseSize = l.size;
                FileFaults.synced(p, l.size);
                l.durable.durable(new DurableFrames.Position(r.generation(), r.baseOffset()));
            }
            case BEGIN_NEXT -> {
                Path p = nextPath(dir, l.index);
                createFile(p, new AofHeader(r.generation(), r.baseOffset()));
                l.nextChannel = FileChannel.open(p, StandardOpenOption.WRITE);
                l.nextChannel.position(l.nextChannel.size());
                l.nextSize = l.nextChannel.size();
                FileFaults.synced(p, l.nextSize);
            }
            case PROMOTE_NEXT -> {
                if (l.nextChannel != null) {
                    l.nextChannel.force(true);
                    Files.move(nextPath(dir, l.index), aofPath(dir, l.index), StandardCopyOption.ATOMIC_MOVE,
                            StandardCopyOption.REPLACE_EXISTING);
                    FileSync.directory(dir);
                    l.channel.close();
                    l.channel = l.nextChannel;
                    l.nextChannel = null;
                    l.size = l.nextSize;
                    l.nextSize = 0;
                    l.baseSize = l.size;
                    FileFaults.synced(aofPath(dir, l.index), l.size);
                }
            }
            default -> throw new IllegalStateException(r.kind().toString());
        }
        r.done().complete(null);
    }

    static void writeFully(FileChannel ch, ByteBuffer b) throws IOException {
        FileFaults.beforeWrite();
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    /** Writes and fsyncs what is pending, stops the writer thread and closes the files. */
    @Override
    public void close() throws IOException {
        if (!running) {
            return;
        }
        IOException unsynced = null;
        try {
            syncNow();
        } catch (IOException e) {
            if (fsyncError == null) {
                throw e;
            }
            unsynced = e; // stop and close all the same, then report it: no clean-shutdown marker
        }
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (int i = 0; i < logs.length; i++) {
            engine.shard(i).removeListener(this);
            ShardLog l = logs[i];
            if (l.nextChannel != null) {
                l.nextChannel.close();
            }
            l.channel.close();
        }
        if (unsynced != null) {
            throw unsynced;
        }
    }
}
