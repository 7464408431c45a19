package io.kevy.persist;

import io.kevy.engine.Durability;
import io.kevy.engine.Engine;
import io.kevy.engine.Keyspace;
import io.kevy.engine.Shard;
import io.kevy.engine.StreamResetListener;
import io.kevy.engine.command.Dispatcher;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running persistence of one engine: boots the data directory ({@link BootLoader}), appends frames to the
 * AOF ({@link AofWriter}), takes snapshots (SAVE, BGSAVE, {@code save} rules), rewrites the AOF (BGREWRITEAOF
 * and growth), keeps the generation files current, and writes the clean-shutdown markers.
 *
 * <p><b>Snapshots.</b> Each shard is captured under its lock — key and value references, expiry times and the
 * stream cursor in the same no-append window (feed contract §10) — and then written by a background thread
 * while the shard goes on; collections the capture holds are copied before a write changes them. The pause is
 * the capture alone (see {@code docs/operations.md} for the figure on 1M keys); INFO persistence reports it as
 * {@code kevy_last_capture_pause_ms}.
 *
 * <p>Thread-safe.
 */
public final class Persistence implements Durability, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Persistence.class);

    private final Engine engine;
    private final PersistenceConfig cfg;
    private final Path dir;
    /** Null when the AOF is disabled, or until the boot writes a full disk deferred are done ({@link #pending}). */
    private volatile AofWriter aof;
    /** The boot whose writes wait for space (writes are refused meanwhile), or null. */
    private volatile BootLoader pending;
    /** How long {@link #close()} waits for an interrupted background save to stop, seconds. */
    private static final long BACKGROUND_STOP_SECONDS = 60;
    private final ScheduledExecutorService background;
    private final AtomicBoolean busy = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final StreamResetListener generationListener;
    private volatile boolean bgsaveScheduled;
    private volatile boolean bgsaveInProgress;
    private volatile boolean rewriteInProgress;
    private volatile long lastSaveMs;
    private volatile List<PersistenceConfig.SaveRule> saveRules;
    /** The AOF's fsync schedule: the config's, until {@code CONFIG SET appendfsync} changes it. */
    private volatile Fsync fsync;
    private volatile long lastBgsaveAttemptMs;
    private volatile boolean lastBgsaveOk = true;
    private volatile long lastBgsaveSeconds = -1;
    private volatile boolean lastRewriteOk = true;
    private volatile long lastRewriteSeconds = -1;
    private volatile long lastCapturePauseMs;
    private final AtomicLong saves = new AtomicLong();
    private final AtomicLong rewrites = new AtomicLong();
    private final AtomicLong keysSaved = new AtomicLong();
    /** Progress of the running BGSAVE / BGREWRITEAOF: start time (ms, -1 when none), keys written, keys due. */
    private volatile long backgroundStartMs = -1;
    private final AtomicLong saveKeysProcessed = new AtomicLong();
    private volatile long saveKeysTotal;
    private final long loadedKeys;
    private final DataDirLock dirLock;

    private Persistence(Engine engine, PersistenceConfig cfg, AofWriter aof, long loadedKeys, DataDirLock dirLock,
                        BootLoader pending) {
        this.pending = pending;
        this.engine = engine;
        this.dirLock = dirLock;
        this.cfg = cfg;
        this.dir = cfg.dir();
        this.aof = aof;
        this.loadedKeys = loadedKeys;
        this.lastSaveMs = engine.clock().millis();
        this.saveRules = cfg.saveRules();
        this.fsync = cfg.fsync();
        this.background = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kevy-persistence");
            t.setDaemon(true);
            return t;
        });
        this.generationListener = (shard, generation, nextOffset) -> generationChanged(shard, generation);
    }

    /**
     * Boots {@code cfg.dir()} into {@code engine}, replaying through {@code dispatcher} (loads data, decides
     * generations, refills the feed backlogs of listeners already attached), then starts appending and the
     * save/rewrite schedule.
     *
     * <p>The directory is locked first ({@code kevy.lock}, held until {@link #shutdown} or {@link #close}), before
     * any other file in it is read or written.
     *
     * @throws DataDirInUseException when another server or store holds the directory's lock
     * @throws IOException naming the file and the reason when the data directory cannot be used
     */
    public static Persistence start(Engine engine, Dispatcher dispatcher, PersistenceConfig cfg) throws IOException {
        Files.createDirectories(cfg.dir());
        DataDirLock lock = DataDirLock.acquire(cfg.dir());
        Persistence p;
        try {
            p = boot(engine, dispatcher, cfg, lock);
        } catch (IOException | RuntimeException | Error e) {
            lock.close();
            throw e;
        }
        for (int i = 0; i < engine.shardCount(); i++) {
            engine.shard(i).addResetListener(p.generationListener);
        }
        engine.durability(p);
        engine.registerInfoSection("persistence", p::appendInfo);
        p.background.scheduleWithFixedDelay(p::tick, 1, 1, TimeUnit.SECONDS);
        return p;
    }

    private static Persistence boot(Engine engine, Dispatcher dispatcher, PersistenceConfig cfg, DataDirLock lock)
            throws IOException {
        BootLoader loader = new BootLoader(engine, dispatcher, cfg);
        BootLoader.ShardBoot[] boots = loader.boot();
        long keys = 0;
        for (BootLoader.ShardBoot b : boots) {
            keys += b.keys();
        }
        if (!loader.deferred().isEmpty()) {
            return new Persistence(engine, cfg, null, keys, lock, loader);
        }
        AofWriter aof = cfg.aof() ? AofWriter.open(engine, cfg.dir(), cfg.fsync()) : null;
        return new Persistence(engine, cfg, aof, keys, lock, null);
    }

    /**
     * Once a second while boot writes wait for space: retries them all under every shard's lock and opens the
     * AOF writer before releasing the locks, so no frame falls between the new files and the writer. Writes are
     * accepted from then on.
     */
    private void retryDeferredBoot() {
        BootLoader b = pending;
        if (b == null || closed.get()) {
            return;
        }
        engine.lockAll();
        try {
            b.completeDeferred();
            aof = cfg.aof() ? AofWriter.open(engine, dir, fsync) : null;
            pending = null;
            log.info("the boot files of shards deferred for want of space are written: writes are accepted");
        } catch (IOException e) {
            log.debug("deferred boot writes still fail: {}", e.getMessage());
        } finally {
            engine.unlockAll();
        }
    }

    public PersistenceConfig config() {
        return cfg;
    }

    /** The AOF writer, or null when the AOF is disabled. */
    public AofWriter aof() {
        return aof;
    }

    /** Keys loaded at boot. */
    public long loadedKeys() {
        return loadedKeys;
    }

    /**
     * A new generation (FLUSHALL/FLUSHDB, a full sync, a promotion's continued stream): record its generation
     * history, then the generation (and, without an AOF, drop the stale snapshot). Under the shard's lock.
     */
    private void generationChanged(Shard s, long generation) {
        int shard = s.index();
        try {
            GenerationFiles.writeHistory(dir, shard, s.generationHistory());
            GenerationFiles.writeGeneration(dir, shard, generation);
            if (aof == null) {
                Files.deleteIfExists(SnapshotFormat.path(dir, shard));
            }
        } catch (IOException e) {
            log.error("shard {}: cannot record generation {}", shard, generation, e);
        }
    }

    /* ---------------------------------------------------------------- snapshots */

    @Override
    public String save() {
        if (pending != null) {
            return writeError();
        }
        if (!busy.compareAndSet(false, true)) {
            return "ERR Background save already in progress";
        }
        try {
            snapshotAll(false);
            return null;
        } catch (IOException | RuntimeException e) {
            log.error("SAVE failed", e);
            return "ERR " + e.getMessage();
        } finally {
            busy.set(false);
        }
    }

    @Override
    public String bgsave(boolean schedule) {
        if (pending != null) {
            return writeError();
        }
        if (!busy.compareAndSet(false, true)) {
            if (schedule) {
                bgsaveScheduled = true;
                return "Background saving scheduled";
            }
            return rewriteInProgress
                    ? "ERR Background append only file rewriting in progress; use BGSAVE SCHEDULE"
                    : "ERR Background save already in progress";
        }
        startBackground(false);
        return "Background saving started";
    }

    @Override
    public String bgrewriteaof() {
        if (pending != null) {
            return writeError();
        }
        if (aof == null) {
            return "ERR the AOF is disabled (persistence.aof = false)";
        }
        if (aof.fsyncFailed()) { // its files are written no more until a restart
            return writeError();
        }
        if (!busy.compareAndSet(false, true)) {
            return rewriteInProgress ? "ERR Background append only file rewriting already in progress"
                    : "ERR Background save in progress; try again when it is done";
        }
        startBackground(true);
        return "Background append only file rewriting started";
    }

    private void startBackground(boolean rewrite) {
        if (rewrite) {
            rewriteInProgress = true;
        } else {
            bgsaveInProgress = true;
        }
        lastBgsaveAttemptMs = engine.clock().millis();
        backgroundStartMs = lastBgsaveAttemptMs;
        background.execute(() -> {
            long t0 = System.nanoTime();
            boolean ok = false;
            try {
                snapshotAll(rewrite);
                ok = true;
            } catch (IOException | RuntimeException e) {
                if (closed.get()) {
                    log.info("{} stopped: the server is stopping ({})", rewrite ? "BGREWRITEAOF" : "BGSAVE",
                            e.toString());
                } else {
                    log.error(rewrite ? "BGREWRITEAOF failed" : "BGSAVE failed", e);
                }
            } finally {
                backgroundStartMs = -1;
                long secs = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
                if (rewrite) {
                    lastRewriteOk = ok;
                    lastRewriteSeconds = secs;
                    rewriteInProgress = false;
                } else {
                    lastBgsaveOk = ok;
                    lastBgsaveSeconds = secs;
                    bgsaveInProgress = false;
                }
                busy.set(false);
                if (bgsaveScheduled) {
                    bgsaveScheduled = false;
                    bgsave(false);
                }
            }
        });
    }

    /**
     * Snapshots every shard in turn: capture under the lock (with the AOF switched to a new file at the same
     * cursor when rewriting), write in this thread, release the capture, promote the new AOF.
     */
    private void snapshotAll(boolean rewrite) throws IOException {
        long total = 0;
        for (int i = 0; i < engine.shardCount(); i++) {
            Shard shard = engine.shard(i);
            shard.lock().lock();
            try {
                total += shard.keyspace().size();
            } finally {
                shard.lock().unlock();
            }
        }
        saveKeysProcessed.set(0);
        saveKeysTotal = total;
        long maxPause = 0;
        for (int i = 0; i < engine.shardCount(); i++) {
            maxPause = Math.max(maxPause, snapshotShard(i, rewrite));
        }
        lastCapturePauseMs = maxPause;
        lastSaveMs = engine.clock().millis();
        saves.incrementAndGet();
        if (rewrite) {
            rewrites.incrementAndGet();
        }
    }

    /** Snapshots shard {@code i}; returns the capture pause in ms. */
    private long snapshotShard(int i, boolean rewrite) throws IOException {
        Shard shard = engine.shard(i);
        Keyspace.Capture capture;
        long gen;
        long next;
        long dirty;
        List<byte[][]> serverFrames;
        long t0 = System.nanoTime();
        shard.lock().lock();
        try {
            capture = shard.keyspace().beginCapture();
            serverFrames = i == 0 ? engine.serverState().frames() : List.of(); // frozen with the cursor
            gen = shard.generation();
            next = shard.nextOffset();
            dirty = shard.dirty();
            if (rewrite) {
                aof.beginNext(i, gen, next);
            }
        } finally {
            shard.lock().unlock();
        }
        long pauseMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        try {
            SnapshotWriter.Result r = SnapshotWriter.write(SnapshotFormat.path(dir, i), capture, serverFrames, gen,
                    next, i, engine.shardCount(), engine.clock().millis(), saveKeysProcessed);
            keysSaved.addAndGet(r.keys());
        } finally {
            Snapshots.endCapture(shard);
        }
        if (rewrite) {
            try {
                aof.promoteNext(i).get(60, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IOException("shard " + i + ": AOF rewrite could not be promoted: " + e, e);
            }
        }
        shard.lock().lock();
        try {
            shard.subtractDirty(dirty);
        } finally {
            shard.lock().unlock();
        }
        return pauseMs;
    }

    /** The save rules and the AOF growth trigger, once a second. */
    private void tick() {
        try {
            if (pending != null) {
                retryDeferredBoot();
                return;
            }
            long now = engine.clock().millis();
            List<PersistenceConfig.SaveRule> rules = saveRules;
            if (!busy.get() && !rules.isEmpty()) {
                long dirty = changesSinceSave();
                boolean retryDelayOver = lastBgsaveOk || now - lastBgsaveAttemptMs >= 5000;
                for (PersistenceConfig.SaveRule r : rules) {
                    if (dirty >= r.changes() && now - lastSaveMs >= r.seconds() * 1000 && retryDelayOver) {
                        log.info("{} changes in {} seconds: saving", r.changes(), r.seconds());
                        bgsave(false);
                        break;
                    }
                }
            }
            if (aof != null && !busy.get() && cfg.autoRewritePercentage() > 0) {
                for (int i = 0; i < engine.shardCount(); i++) {
                    long size = aof.size(i);
                    long base = Math.max(aof.baseSize(i), 1);
                    if (size >= cfg.autoRewriteMinBytes() && (size - base) * 100 / base >= cfg.autoRewritePercentage()) {
                        log.info("AOF of shard {} grew to {} bytes ({}% over {}): rewriting", i, size,
                                (size - base) * 100 / base, base);
                        bgrewriteaof();
                        break;
                    }
                }
            }
        } catch (RuntimeException e) {
            log.error("persistence tick failed", e);
        }
    }

    /** The snapshot rules in force: the configured ones until CONFIG SET save changes them. */
    public List<PersistenceConfig.SaveRule> saveRules() {
        return saveRules;
    }

    /** Replaces the snapshot rules (CONFIG SET save); an empty list disables automatic snapshots. */
    /** The AOF's fsync schedule now (the config's, or what {@code CONFIG SET appendfsync} made it). */
    public Fsync fsync() {
        return fsync;
    }

    /**
     * Changes the AOF's fsync schedule live ({@code CONFIG SET appendfsync}); without an AOF it is only kept, as
     * Redis keeps the parameter with {@code appendonly no}. Thread-safe.
     */
    public void fsync(Fsync schedule) {
        this.fsync = schedule;
        AofWriter w = aof;
        if (w != null) {
            w.fsync(schedule);
        }
    }

    public void saveRules(List<PersistenceConfig.SaveRule> rules) {
        this.saveRules = List.copyOf(rules);
    }

    /** Writes since the last successful save, over all shards. */
    public long changesSinceSave() {
        long n = 0;
        for (int i = 0; i < engine.shardCount(); i++) {
            n += engine.shard(i).dirty();
        }
        return n;
    }

    @Override
    public long lastSaveSeconds() {
        return lastSaveMs / 1000;
    }

    /* ---------------------------------------------------------------- the write barrier */

    @Override
    public boolean gatesReplies() {
        return aof != null && aof.fsync() == Fsync.ALWAYS;
    }

    @Override
    public long currentSeq() {
        return aof == null ? 0 : aof.appendSeq();
    }

    @Override
    public long durableSeq() {
        return aof == null ? Long.MAX_VALUE : aof.durableSeq();
    }

    @Override
    public void whenDurable(long seq, Runnable action) {
        if (aof == null) {
            action.run();
        } else {
            aof.whenDurable(seq, action);
        }
    }

    @Override
    public io.kevy.engine.DurableBound durableBound(int shard) {
        AofWriter w = aof;
        return w == null || w.fsync() == Fsync.NO ? null : w.durableFrames(shard);
    }

    @Override
    public boolean fsyncFailed() {
        return aof != null && aof.fsyncFailed();
    }

    @Override
    public String writeError() {
        BootLoader b = pending;
        if (b != null) {
            return "MISCONF Errors writing to the AOF file: " + b.deferredError();
        }
        AofWriter w = aof;
        String e = w == null ? null : w.lastError();
        return e == null ? null : "MISCONF Errors writing to the AOF file: " + e;
    }

    /* ---------------------------------------------------------------- shutdown */

    /**
     * A clean stop, after clients are gone: waits for a background save, saves when asked (or, without an
     * explicit choice, when save rules are configured, as Redis does), fsyncs and closes the AOF, then writes
     * each shard's clean-shutdown marker — only when the files hold exactly the state at the marker.
     *
     * @param save true for SHUTDOWN SAVE, false for NOSAVE, null for the default
     */
    public void shutdown(Boolean save) throws IOException {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            stopAndMark(save);
        } finally {
            dirLock.close();
        }
    }

    private void stopAndMark(Boolean save) throws IOException {
        background.shutdown();
        try {
            background.awaitTermination(10, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (pending != null) {
            log.info("stopping with boot writes still waiting for space: no save, no clean-shutdown marker (the "
                    + "next start begins new generations)");
            return;
        }
        boolean doSave = save == null ? !saveRules.isEmpty() && aof == null : save;
        boolean saved = false;
        if (doSave) {
            busy.set(true);
            snapshotAll(false);
            saved = true;
        }
        if (aof != null) {
            aof.close();
        }
        if (aof == null && !saved) {
            log.info("no AOF and no shutdown snapshot: the next start begins new generations");
            return;
        }
        for (int i = 0; i < engine.shardCount(); i++) {
            Shard s = engine.shard(i);
            s.lock().lock();
            try {
                GenerationFiles.writeMarker(dir, i, new GenerationFiles.Marker(s.generation(), s.nextOffset()));
            } finally {
                s.lock().unlock();
            }
        }
        log.info("clean shutdown markers written for {} shards", engine.shardCount());
    }

    /**
     * Stops without a clean-shutdown marker (as after a crash the next boot starts new generations). A background
     * save in progress is interrupted and waited for (up to 60 s) before the data directory's lock is released.
     */
    @Override
    public void close() throws IOException {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        background.shutdownNow();
        try {
            awaitBackground();
            if (aof != null) {
                aof.close();
            }
        } finally {
            dirLock.close();
        }
    }

    /**
     * Waits for an interrupted background save to stop before the data directory is released: it could
     * otherwise still rename its snapshot into a directory that a new server has taken meanwhile. An interrupted
     * save fails at its next file operation and renames nothing; its {@code .tmp} file is removed at the next boot.
     */
    private void awaitBackground() {
        try {
            if (!background.awaitTermination(BACKGROUND_STOP_SECONDS, TimeUnit.SECONDS)) {
                log.warn("the background save did not stop within {} s; releasing {} anyway",
                        BACKGROUND_STOP_SECONDS, dir);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /* ---------------------------------------------------------------- INFO */

    private void appendInfo(StringBuilder out) {
        boolean aofOn = aof != null;
        field(out, "loading", 0);
        field(out, "async_loading", 0);
        long started = backgroundStartMs;
        boolean running = started >= 0;
        field(out, "current_save_keys_processed", running ? saveKeysProcessed.get() : 0);
        field(out, "current_save_keys_total", running ? saveKeysTotal : 0);
        field(out, "rdb_changes_since_last_save", changesSinceSave());
        field(out, "rdb_bgsave_in_progress", bgsaveInProgress ? 1 : 0);
        long runningSeconds = running ? (engine.clock().millis() - started) / 1000 : -1;
        field(out, "rdb_current_bgsave_time_sec", bgsaveInProgress ? runningSeconds : -1);
        field(out, "rdb_last_save_time", lastSaveSeconds());
        out.append("rdb_last_bgsave_status:").append(lastBgsaveOk ? "ok" : "err").append("\r\n");
        field(out, "rdb_last_bgsave_time_sec", lastBgsaveSeconds);
        field(out, "rdb_saves", saves.get());
        field(out, "rdb_last_load_keys_loaded", loadedKeys);
        field(out, "aof_enabled", aofOn ? 1 : 0);
        field(out, "aof_rewrite_in_progress", rewriteInProgress ? 1 : 0);
        field(out, "aof_rewrite_scheduled", 0);
        field(out, "aof_last_rewrite_time_sec", lastRewriteSeconds);
        field(out, "aof_current_rewrite_time_sec", rewriteInProgress ? runningSeconds : -1);
        out.append("aof_last_bgrewrite_status:").append(lastRewriteOk ? "ok" : "err").append("\r\n");
        field(out, "aof_rewrites", rewrites.get());
        out.append("aof_last_write_status:").append(writeError() != null ? "err" : "ok").append("\r\n");
        if (aofOn) {
            long size = 0;
            long base = 0;
            for (int i = 0; i < engine.shardCount(); i++) {
                size += aof.size(i);
                base += aof.baseSize(i);
            }
            field(out, "aof_current_size", size);
            field(out, "aof_base_size", base);
            out.append("kevy_appendfsync:").append(aof.fsync().configName()).append("\r\n");
        }
        field(out, "kevy_last_capture_pause_ms", lastCapturePauseMs);
        field(out, "kevy_keys_saved", keysSaved.get());
    }

    private static void field(StringBuilder out, String name, long value) {
        out.append(name).append(':').append(value).append("\r\n");
    }
}
