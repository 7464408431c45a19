package io.kevy.engine;

import io.kevy.engine.command.CommandTable;
import io.kevy.engine.command.Dispatcher;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The storage engine: N {@link Shard}s, the command table, the sessions, the runtime config and the cron that
 * expires keys actively. The network server and the embedded store each own one engine and run commands
 * through its {@link #dispatcher()}.
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
    private final CommandTable commands;
    private final Dispatcher dispatcher;
    private final Sessions sessions = new Sessions();
    private final RuntimeConfig runtimeConfig = new RuntimeConfig();
    private final long startedAtMs;
    private final LongAdder keyspaceHits = new LongAdder();
    private final LongAdder keyspaceMisses = new LongAdder();
    private final Map<String, Consumer<StringBuilder>> infoSections = new LinkedHashMap<>();
    private volatile Host host = Host.EMBEDDED;
    private volatile Durability durability = Durability.NONE;
    private volatile String requirePass;
    private volatile ScheduledExecutorService cron;

    public Engine(EngineConfig config) {
        this.config = config;
        this.shards = new Shard[config.shards()];
        for (int i = 0; i < shards.length; i++) {
            shards[i] = new Shard(this, i, newGeneration(0));
        }
        this.commands = CommandTable.standard();
        this.dispatcher = new Dispatcher(this);
        this.startedAtMs = config.clock().millis();
        runtimeConfig.mutable("requirepass", () -> requirePass == null ? "" : requirePass, v -> {
            requirePass = v.isEmpty() ? null : v;
            return null;
        });
        runtimeConfig.readOnly("databases", () -> "1");
        runtimeConfig.mutable("hz", () -> Integer.toString(config.hz()), v -> null);
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

    public CommandTable commands() {
        return commands;
    }

    public Dispatcher dispatcher() {
        return dispatcher;
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

    /** Counts a read lookup for INFO's keyspace_hits / keyspace_misses. */
    public void countLookup(boolean hit) {
        (hit ? keyspaceHits : keyspaceMisses).increment();
    }

    public long keyspaceHits() {
        return keyspaceHits.sum();
    }

    public long keyspaceMisses() {
        return keyspaceMisses.sum();
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
     * §5); no frame is emitted. Watchers of any key are marked dirty. Callers must hold all shard locks.
     */
    public void flushAllLocked() {
        for (Shard s : shards) {
            s.signals().touchAll();
            s.keyspace().clear();
            s.resetStream(newGeneration(s.generation()), 0);
        }
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
        long periodMicros = 1_000_000L / config.hz();
        cron.scheduleAtFixedRate(this::cronTick, periodMicros, periodMicros, TimeUnit.MICROSECONDS);
    }

    /**
     * One cron tick: for each shard, sample keys with a TTL and reap expired ones, within a budget of a quarter
     * of the tick (Redis's ACTIVE_EXPIRE_CYCLE_SLOW_TIME_PERC), split across shards, then move some rehash
     * buckets. Each shard is locked only for its own slice.
     */
    void cronTick() {
        try {
            long budgetNanos = 250_000_000L / config.hz() / shards.length;
            for (Shard s : shards) {
                s.lock().lock();
                try {
                    long now = config.clock().millis();
                    s.keyspace().activeExpire(now, 20, System.nanoTime() + budgetNanos);
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
        if (cron != null) {
            cron.shutdownNow();
            cron = null;
        }
    }
}
