package io.kevy.engine;

import io.kevy.common.Slots;
import io.kevy.engine.config.AccessPolicy;
import io.kevy.engine.config.EncodingLimits;
import io.kevy.engine.config.RedisConfigCatalog;
import io.kevy.engine.config.RuntimeConfig;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.session.Session;
import io.kevy.engine.session.Sessions;
import io.kevy.engine.session.WatchedKey;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The storage engine: N {@link Shard}s, the sessions, the runtime config, the statistics and the cron that
 * expires keys actively. It knows neither the command table nor the feed nor persistence: those are built
 * around it and attach to its shards as {@link EffectListener}s ({@code io.kevy.boot.KevyInstance} assembles
 * them for the network server and the embedded store).
 *
 * <p>Thread-safe. Shard state is guarded by each shard's lock; see {@link Shard} for the locking rules.
 * Close it to stop the cron.
 */
public final class Engine implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Engine.class);

    /** The largest generation value: 2^53 - 1, safe in JavaScript (feed contract §5). */
    public static final long MAX_GENERATION = (1L << 53) - 1;

    private final EngineConfig config;
    private final Shard[] shards;
    private final Sessions sessions = new Sessions();
    private final RuntimeConfig runtimeConfig = new RuntimeConfig();
    /** The script thread and the running script's busy state ({@link #scriptBusy}). */
    private final ScriptGate scriptGate = new ScriptGate();
    private volatile ServerState serverState = ServerState.NONE;
    private final long startedAtMs;
    private final LongAdder keyspaceHits = new LongAdder();
    private final LongAdder keyspaceMisses = new LongAdder();
    private final Map<String, Consumer<StringBuilder>> infoSections = new LinkedHashMap<>();
    private final EncodingLimits encodings = new EncodingLimits();
    private final AccessPolicy accessPolicy = new AccessPolicy();
    private final ConcurrentHashMap<String, LongAdder> errorCounts = new ConcurrentHashMap<>();
    private final LongAdder errorReplies = new LongAdder();
    private final AtomicLong readySequence = new AtomicLong();
    private final String runId = randomHex(40);
    private volatile String replId = randomHex(40);
    private volatile Host host = Host.EMBEDDED;
    private volatile Durability durability = Durability.NONE;
    private volatile String requirePass;
    private volatile ErrorReply writeRefusal;
    private volatile int hz;
    private volatile boolean activeExpire = true;
    private volatile ChannelCounts channelCounts = ChannelCounts.NONE;
    private volatile KeyTracking tracking = KeyTracking.NONE;
    private volatile ScheduledExecutorService cron;
    private volatile ScheduledThreadPoolExecutor timer;
    private volatile boolean closed;

    public Engine(EngineConfig config) {
        this.config = config;
        this.shards = new Shard[config.shards()];
        for (int i = 0; i < shards.length; i++) {
            shards[i] = new Shard(this, i, newGeneration(0));
        }
        this.startedAtMs = config.clock().millis();
        this.hz = config.hz();
        RedisConfigCatalog.register(runtimeConfig);
        runtimeConfig.mutable("requirepass", () -> requirePass == null ? "" : requirePass, v -> {
            requirePass = v.isEmpty() ? null : v;
            return null;
        });
        runtimeConfig.readOnly("databases", () -> "1");
        // Redis clamps hz into [1, 500] instead of refusing.
        runtimeConfig.integer("hz", 0, Integer.MAX_VALUE, () -> hz, v -> hz((int) Math.max(1, Math.min(500, v))));
        encodings.register(runtimeConfig);
        accessPolicy.register(runtimeConfig);
    }

    public EngineConfig config() {
        return config;
    }

    public Clock clock() {
        return config.clock();
    }

    public int shardCount() {
        return shards.length;
    }

    public Shard shard(int index) {
        return shards[index];
    }

    /** The shard index of {@code key} (feed contract §2). */
    public int shardIndex(byte[] key) {
        return Slots.shard(key, shards.length);
    }

    /** The shard owning {@code key}. */
    public Shard shardFor(byte[] key) {
        return shards[Slots.shard(key, shards.length)];
    }

    /** The Pub/Sub counts INFO prints; {@link ChannelCounts#NONE} until Pub/Sub is attached. */
    public ChannelCounts channelCounts() {
        return channelCounts;
    }

    /** Attaches the Pub/Sub counts ({@code io.kevy.boot.KevyInstance}). */
    public void channelCounts(ChannelCounts counts) {
        this.channelCounts = counts;
    }

    /** Client-side caching ({@code CLIENT TRACKING}); {@link KeyTracking#NONE} until attached. */
    public KeyTracking tracking() {
        return tracking;
    }

    /** Attaches client-side caching ({@code io.kevy.boot.KevyInstance}). */
    public void tracking(KeyTracking tracking) {
        this.tracking = tracking;
    }

    /**
     * The engine's timer (one daemon thread, cancelled tasks removed at once): timeouts of blocked clients.
     * Tasks must be short: they only hand work to the owning session's thread.
     *
     * @throws java.util.concurrent.RejectedExecutionException when the engine is closed
     */
    public ScheduledExecutorService timer() {
        ScheduledThreadPoolExecutor t = timer;
        if (t == null) {
            synchronized (this) {
                if (closed) {
                    throw new java.util.concurrent.RejectedExecutionException("engine closed");
                }
                t = timer;
                if (t == null) {
                    t = new ScheduledThreadPoolExecutor(1, r -> {
                        Thread th = new Thread(r, "kevy-timer");
                        th.setDaemon(true);
                        return th;
                    });
                    t.setRemoveOnCancelPolicy(true);
                    timer = t;
                }
            }
        }
        return t;
    }

    public Sessions sessions() {
        return sessions;
    }

    public RuntimeConfig runtimeConfig() {
        return runtimeConfig;
    }

    public long startedAtMs() {
        return startedAtMs;
    }

    /** The live encoding thresholds ({@code hash-max-listpack-entries}, ...), changed by CONFIG SET. */
    /** What keys' access clocks hold (LRU or LFU, from {@code maxmemory-policy}). */
    public AccessPolicy accessPolicy() {
        return accessPolicy;
    }

    public EncodingLimits encodings() {
        return encodings;
    }

    /** A random 40-hex-digit id of this engine instance (INFO's {@code run_id}). */
    public String runId() {
        return runId;
    }

    /** INFO's {@code master_replid}: random, changed by DEBUG CHANGE-REPL-ID. */
    public String replId() {
        return replId;
    }

    /** Draws a new {@link #replId()}. */
    public void changeReplId() {
        replId = randomHex(40);
    }

    /** Sets {@link #replId()}: a replica takes its primary's, as Redis's does at each sync. */
    public void replId(String id) {
        replId = id;
    }

    /**
     * The time of the last successful save, seconds since the epoch (LASTSAVE, INFO's {@code rdb_last_save_time}):
     * the {@link #durability()}'s, or the engine's start time when it has none.
     */
    public long lastSaveSeconds() {
        long s = durability.lastSaveSeconds();
        return s > 0 ? s : startedAtMs / 1000;
    }

    /** Background cycles per second, 1..500 (Redis's {@code hz}). */
    public int hz() {
        return hz;
    }

    /** Sets {@link #hz()} (clamped to 1..500) and reschedules a running cron. */
    public synchronized void hz(int value) {
        int v = Math.max(1, Math.min(500, value));
        if (v == hz) {
            return;
        }
        hz = v;
        if (cron != null) {
            cron.shutdownNow();
            cron = null;
            startCron();
        }
    }

    /** False while DEBUG SET-ACTIVE-EXPIRE 0 has turned the active expiry cycle off (lazy expiry still runs). */
    public boolean activeExpire() {
        return activeExpire;
    }

    public void activeExpire(boolean on) {
        this.activeExpire = on;
    }

    /**
     * Records that a script started: it turns busy {@code thresholdMs} after {@code startNanos}
     * ({@link System#nanoTime}; never when {@code thresholdMs <= 0}), after which other clients' commands answer
     * {@code -BUSY} (Redis's {@code busy-reply-threshold}); {@code abort} stops it even after writes, for
     * {@link #close} (SHUTDOWN NOSAVE: Redis's process exits under such a script). Called by the script runner
     * with every shard locked; {@link #scriptEnded} clears it.
     */
    public void scriptStarted(long startNanos, long thresholdMs, Runnable abort) {
        scriptStarted(startNanos, thresholdMs, abort, Errors.BUSY);
    }

    /**
     * As {@link #scriptStarted(long, long, Runnable)}, with the {@code -BUSY} reply other clients then get
     * ({@link Errors#BUSY} for EVAL, {@link Errors#BUSY_FUNCTION} for FCALL, as Redis's {@code slowevalerr} /
     * {@code slowscripterr}).
     */
    public void scriptStarted(long startNanos, long thresholdMs, Runnable abort, ErrorReply busyReply) {
        scriptGate.started(startNanos, thresholdMs, abort, busyReply);
    }

    /** The {@code -BUSY} reply of the running script ({@link #scriptStarted(long, long, Runnable, ErrorReply)}). */
    public ErrorReply scriptBusyReply() {
        return scriptGate.busyReply();
    }

    /** The running script ended (see {@link #scriptStarted}). */
    public void scriptEnded() {
        scriptGate.ended();
    }

    /** True while a script has run past its busy threshold. Thread-safe; read by the dispatcher per command. */
    public boolean scriptBusy() {
        return scriptGate.busy();
    }

    /** The script thread, and the lock waits of commands while a script runs ({@link ScriptGate}). */
    public ScriptGate scriptGate() {
        return scriptGate;
    }

    /**
     * Counts an error reply for INFO's {@code total_error_replies} and {@code errorstats} (by error code, at most
     * 128 codes, as Redis).
     */
    public void countError(ErrorReply error) {
        errorReplies.increment();
        String code = error.code();
        LongAdder a = errorCounts.get(code);
        if (a == null) {
            if (errorCounts.size() >= 128) {
                return;
            }
            a = errorCounts.computeIfAbsent(code, k -> new LongAdder());
        }
        a.increment();
    }

    /** Error replies since start or CONFIG RESETSTAT. */
    public long errorReplies() {
        return errorReplies.sum();
    }

    /** Error replies by code (INFO errorstats), a snapshot. */
    public Map<String, Long> errorCounts() {
        Map<String, Long> m = new java.util.TreeMap<>();
        errorCounts.forEach((k, v) -> m.put(k, v.sum()));
        return m;
    }

    /**
     * CONFIG RESETSTAT: clears keyspace hits and misses, error statistics, the shards' expired-key counters,
     * and the host's counters (the dispatcher clears the command statistics).
     */
    public void resetStats() {
        keyspaceHits.reset();
        keyspaceMisses.reset();
        errorReplies.reset();
        errorCounts.clear();
        for (Shard s : shards) {
            s.lock().lock();
            try {
                s.resetStats();
            } finally {
                s.lock().unlock();
            }
        }
        host.resetStats();
    }

    private static String randomHex(int digits) {
        byte[] b = new byte[digits / 2];
        ThreadLocalRandom.current().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    public Host host() {
        return host;
    }

    public void host(Host host) {
        this.host = host;
    }

    /**
     * Registers an extra INFO section (e.g. {@code feed}, {@code persistence}) written by {@code writer} as
     * {@code field:value\r\n} lines; INFO prints it after the built-in sections, under {@code # <Title>}.
     */
    public synchronized void registerInfoSection(String name, Consumer<StringBuilder> writer) {
        infoSections.put(name, writer);
    }

    /** The extra INFO sections by lower-case name, in registration order. */
    public synchronized Map<String, Consumer<StringBuilder>> infoSections() {
        return new LinkedHashMap<>(infoSections);
    }

    /**
     * Why writes of ordinary sessions are refused right now, or null: a read-only replica's {@code -READONLY You
     * can't write against a read only replica.} (Redis's processCommand, checked after MISCONF). Sessions that
     * are {@link io.kevy.engine.session.Session#master()} are never refused. Any thread.
     */
    public ErrorReply writeRefusal() {
        return writeRefusal;
    }

    /** Sets or (null) clears {@link #writeRefusal()}. Set by replication when the server becomes a replica. */
    public void writeRefusal(ErrorReply refusal) {
        this.writeRefusal = refusal;
    }

    /** The persistence layer (SAVE, the appendfsync-always barrier); {@link Durability#NONE} without one. */
    public Durability durability() {
        return durability;
    }

    public void durability(Durability durability) {
        this.durability = durability;
    }

    /** The password AUTH must present, or null when none is required. */
    public String requirePass() {
        return requirePass;
    }

    public void requirePass(String password) {
        this.requirePass = password == null || password.isEmpty() ? null : password;
    }

    /**
     * Counts a read lookup for INFO's keyspace_hits / keyspace_misses where no single shard lock is at hand
     * (SORT BY, LCS, ...); {@code Call.read} counts on the key's shard instead ({@link Shard#countLookup}).
     */
    public void countLookup(boolean hit) {
        (hit ? keyspaceHits : keyspaceMisses).increment();
    }

    public long keyspaceHits() {
        long n = keyspaceHits.sum();
        for (Shard s : shards) {
            n += s.keyspaceHits();
        }
        return n;
    }

    public long keyspaceMisses() {
        long n = keyspaceMisses.sum();
        for (Shard s : shards) {
            n += s.keyspaceMisses();
        }
        return n;
    }

    /** Locks every shard in ascending order. */
    public void lockAll() {
        for (Shard s : shards) {
            s.lock().lock();
        }
    }

    /** Unlocks every shard (reverse order). */
    public void unlockAll() {
        for (int i = shards.length - 1; i >= 0; i--) {
            shards[i].lock().unlock();
        }
    }

    /**
     * A random generation in [1, 2^53 - 1] different from {@code previous} (feed contract §5).
     */
    public static long newGeneration(long previous) {
        long g;
        do {
            g = ThreadLocalRandom.current().nextLong(1, MAX_GENERATION + 1);
        } while (g == previous);
        return g;
    }

    /**
     * Empties every shard and starts a new generation at offset 0 on each (FLUSHALL/FLUSHDB, feed contract
     * §5); the flush emits no frame, but shard 0's new stream starts with the frames of the {@link ServerState}
     * (the FUNCTION libraries, which FLUSHALL keeps, as Redis), so that its stream from offset 0 rebuilds them. Watchers of stored keys are marked dirty ({@link KeySignals#touchAll}). Callers
     * must hold all shard locks.
     */
    public void flushAllLocked() {
        for (Shard s : shards) {
            s.signals().touchAll();
            s.keyspace().clear();
            s.signals().markAllReady(); // blocked XREADGROUPs answer UNBLOCKED, as Redis 7.0
            s.resetStream(newGeneration(s.generation()), 0);
        }
        for (byte[][] f : serverState.frames()) { // FLUSHALL keeps the libraries: shard 0's new stream restates them
            shards[0].emit(f);
        }
    }

    /** The server-wide state outside the keyspace ({@link ServerState}): the FUNCTION libraries. */
    public ServerState serverState() {
        return serverState;
    }

    /** Sets the server-wide state outside the keyspace; called once while the instance is assembled. */
    public void serverState(ServerState state) {
        this.serverState = state;
    }

    /**
     * The next number of the engine-wide order in which keys with blocked clients become ready: ready keys are
     * served oldest first across the shards one thread holds (Redis serves its ready list in order).
     */
    long nextReadySequence() {
        return readySequence.incrementAndGet();
    }

    /**
     * Forgets every key {@code session} watches (UNWATCH, EXEC, DISCARD, RESET, disconnect): removes its entries
     * from the shards' registries, locking each shard in turn (a shard the caller holds is simply re-entered).
     * Call on the session's own thread, holding no shard lock or the locks of every watched key's shard.
     */
    public void unwatchAll(Session session) {
        List<WatchedKey> watched = session.watched();
        for (WatchedKey w : watched) {
            Shard s = shards[w.shard()];
            s.lock().lock();
            try {
                s.signals().unwatch(w);
            } finally {
                s.lock().unlock();
            }
        }
        watched.clear();
    }

    /** Total keys across shards, expired-but-not-reaped included (DBSIZE). */
    public long dbSize() {
        long n = 0;
        for (Shard s : shards) {
            s.lock().lock();
            try {
                n += s.keyspace().size();
            } finally {
                s.lock().unlock();
            }
        }
        return n;
    }

    /** Starts the background cycle of active expiry and incremental rehashing, {@code hz} times a second. */
    public synchronized void startCron() {
        if (cron != null) {
            return;
        }
        cron = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kevy-cron");
            t.setDaemon(true);
            return t;
        });
        long periodMicros = 1_000_000L / hz;
        cron.scheduleAtFixedRate(this::cronTick, periodMicros, periodMicros, TimeUnit.MICROSECONDS);
    }

    /**
     * One cron tick: for each shard, sample keys with a TTL and reap expired ones, within a budget of a quarter
     * of the tick (Redis's ACTIVE_EXPIRE_CYCLE_SLOW_TIME_PERC), split across shards, then move some rehash
     * buckets. Each shard is locked only for its own slice.
     */
    void cronTick() {
        try {
            long budgetNanos = 250_000_000L / hz / shards.length;
            for (Shard s : shards) {
                s.lock().lock();
                try {
                    long now = config.clock().millis();
                    if (activeExpire) {
                        s.keyspace().activeExpire(now, 20, System.nanoTime() + budgetNanos);
                    }
                    s.keyspace().rehashSteps(100);
                } finally {
                    s.lock().unlock();
                }
            }
        } catch (RuntimeException e) {
            log.error("cron tick failed", e);
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        scriptGate.close();
        if (cron != null) {
            cron.shutdownNow();
            cron = null;
        }
        if (timer != null) {
            timer.shutdownNow();
            timer = null;
        }
    }
}
