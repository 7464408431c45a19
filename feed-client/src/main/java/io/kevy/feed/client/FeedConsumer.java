package io.kevy.feed.client;

import io.kevy.feed.client.metrics.FeedConsumerMetrics;
import io.lettuce.core.codec.RedisCodec;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows a kevy change feed and hands its changes to a {@link Sink} or {@link Handler} (feed contract §11):
 *
 * <pre>{@code
 * FeedConsumer<String, String> consumer = FeedConsumer.builder(StringCodec.UTF8)
 *     .source(FeedSource.connect("redis://127.0.0.1:6004"))
 *     .name("cache-invalidator")
 *     .prefixes("user:", "order:")
 *     .startFrom(StartFrom.TAIL)   // an empty cache that misses to the server needs only changes from now
 *     .handler(batch -> batch.forEach(c -> cache.invalidate(c.key())))
 *     .onRebuild(rebuild -> cache.invalidateAll())
 *     .meterRegistry(registry)
 *     .build();
 * consumer.start();   // ... consumer.close() drains, commits, stops
 * }</pre>
 *
 * <p>How it runs: one worker thread per shard reads its stream in offset order ({@code FEED.READ}, long-polling
 * with BLOCK when the server has it, else polling with backoff) and delivers batches to the sink, one at a
 * time per shard, while the next batch is already being read. A shard's cursor is stored only after the sink
 * accepted the batch, so delivery is at-least-once: after a crash at most the batch in flight per shard is
 * delivered again. FEEDRESYNC, a gone generation, a shard-count change and {@link #rebuild()} run the
 * {@link Rebuild} strategy (default {@link ScanRebuild}); shards resyncing together share one rebuild.
 * Connection failures are retried with exponential backoff and jitter; a rejected batch is retried, then
 * dead-lettered or the consumer stops; a cursor ahead of its stream stops it at once.
 *
 * <p>Lifecycle ({@link State}, ordered): NEW → STARTING → RUNNING → CLOSING → CLOSED, or FAILED from any
 * running state. Thread-safe. The consumer does not close the source or the cursor store it was given; it
 * closes its sink once, when it stops.
 *
 * @param <K> key type of the codec
 * @param <V> value type of the codec
 */
public final class FeedConsumer<K, V> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FeedConsumer.class);

    /** Default {@link Builder#startFrom}: {@link StartFrom#TAIL}. */
    public static final StartFrom DEFAULT_START_FROM = StartFrom.TAIL;
    /** Default {@link Builder#batchSize}: 256 frames scanned per read (FEED.READ COUNT). */
    public static final int DEFAULT_BATCH_SIZE = FeedSource.DEFAULT_COUNT;
    /** Default {@link Builder#block}: 1 s of long-poll per read when the server supports BLOCK. */
    public static final Duration DEFAULT_BLOCK = Duration.ofSeconds(1);
    /** Default first poll delay of an idle shard without BLOCK: 1 ms. */
    public static final Duration DEFAULT_POLL_MIN = Duration.ofMillis(1);
    /** Default largest poll delay of an idle shard without BLOCK: 100 ms. */
    public static final Duration DEFAULT_POLL_MAX = Duration.ofMillis(100);
    /** Default {@link Builder#durableOnly}: false (frames as soon as they are applied). */
    public static final boolean DEFAULT_DURABLE_ONLY = false;
    /** Default {@link Builder#exactPrefixFilter}: true. */
    public static final boolean DEFAULT_EXACT_PREFIX_FILTER = true;
    /** Default {@link Builder#handlerRetries}: 3 retries after the first attempt. */
    public static final int DEFAULT_HANDLER_RETRIES = 3;
    /** Default first retry delay (connection and handler): 100 ms. */
    public static final Duration DEFAULT_RETRY_INITIAL = Duration.ofMillis(100);
    /** Default longest retry delay: 5 s. */
    public static final Duration DEFAULT_RETRY_MAX = Duration.ofSeconds(5);
    /** Default {@link Builder#maxConnectionAttempts}: 0, retry connection failures without limit. */
    public static final int DEFAULT_MAX_CONNECTION_ATTEMPTS = 0;
    /** Default {@link Builder#maxFutileRebuilds}: 2. */
    public static final int DEFAULT_MAX_FUTILE_REBUILDS = 2;
    /** Default {@link Builder#rebuildGather}: 50 ms. */
    public static final Duration DEFAULT_REBUILD_GATHER = Duration.ofMillis(50);
    /** Default {@link Builder#deliveryTimeout}: 5 min. */
    public static final Duration DEFAULT_DELIVERY_TIMEOUT = Duration.ofMinutes(5);
    /** How long {@link #close()} waits for in-flight batches: 30 s. */
    public static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration SETUP_TIMEOUT = Duration.ofMinutes(2);
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._:@-]{1,200}");

    /** The consumer's lifecycle, in order; transitions only move forward. */
    public enum State {
        NEW, STARTING, RUNNING, CLOSING, CLOSED, FAILED
    }

    private final ConsumerSettings<K, V> settings;
    private final AtomicReference<State> state = new AtomicReference<>(State.NEW);
    private final Runtime<K, V> rt;
    private final CompletableFuture<Void> started = new CompletableFuture<>();
    private final CompletableFuture<Void> terminated = new CompletableFuture<>();
    private final List<Thread> threads = new ArrayList<>();
    private volatile List<ShardWorker<K, V>> workers = List.of();
    private final FeedConsumerMetrics metrics;
    private Thread supervisor;

    private FeedConsumer(ConsumerSettings<K, V> settings) {
        this.settings = settings;
        List<ConsumerListener> ls = new ArrayList<>();
        if (settings.listener() != null) {
            ls.add(settings.listener());
        }
        this.metrics = settings.meterRegistry() == null ? null
                : new FeedConsumerMetrics(settings.meterRegistry(), settings.name(), this::health);
        if (metrics != null) {
            ls.add(metrics);
        }
        byte[] ownKey = settings.cursorStore().ownKey(settings.name()).orElse(null);
        this.rt = new Runtime<>(settings, Listeners.of(ls), ownKey, () -> transition(State.FAILED));
    }

    /** A builder for a consumer whose keys and values {@code codec} decodes. */
    public static <K, V> Builder<K, V> builder(RedisCodec<K, V> codec) {
        return new Builder<>(codec);
    }

    /** A builder holding this consumer's settings (build() gives an equal, new consumer). */
    public Builder<K, V> toBuilder() {
        return new Builder<>(settings);
    }

    public ConsumerSettings<K, V> settings() {
        return settings;
    }

    public String name() {
        return settings.name();
    }

    public State state() {
        return state.get();
    }

    /** Why the consumer failed, if it did. */
    public Optional<ConsumerFailedException> failure() {
        return Optional.ofNullable(rt.failure());
    }

    /** Whether the server answered FEED.READ ... BLOCK (empty until the first read). */
    public Optional<Boolean> blockSupported() {
        return Optional.ofNullable(rt.blockSupported());
    }

    private boolean transition(State to) {
        while (true) {
            State from = state.get();
            if (from.ordinal() >= to.ordinal() || from == State.FAILED) {
                return false;
            }
            if (state.compareAndSet(from, to)) {
                return true;
            }
        }
    }

    /**
     * Starts the consumer in the background and returns at once. The stage completes when every shard has its
     * start cursor (after an initial rebuild, if one was needed), so changes made afterwards will be delivered;
     * it fails when the consumer fails or is closed first.
     *
     * @throws IllegalStateException when the consumer was started before, or when another running (or failed and
     *     not yet closed) consumer of the same name has its meters in the same {@code MeterRegistry}
     *     ({@link FeedConsumerMetrics#open()})
     */
    public CompletionStage<Void> start() {
        if (metrics != null && state.get() == State.NEW) {
            metrics.open();
        }
        if (!state.compareAndSet(State.NEW, State.STARTING)) {
            throw new IllegalStateException("consumer " + name() + " was already started (" + state.get() + ")");
        }
        supervisor = new Thread(this::setup, "kevy-feed-" + name());
        supervisor.setDaemon(true);
        supervisor.start();
        return started;
    }

    /** Waits until the consumer stopped (closed or failed). */
    public CompletionStage<Void> terminated() {
        return terminated;
    }

    /**
     * Whether the server still serves {@code c} although its generation is not the current one: after a failover
     * the promoted replica serves cursors of the old generation up to where it ended (docs/cdc.md, "Replicas and
     * failover"). One {@code FEED.READ ... COUNT 1}: frames or caught-up mean yes; FEEDRESYNC, a cursor ahead or
     * any server error mean no (upstream answers FEEDRESYNC to every other generation).
     */
    private boolean served(Cursor c) {
        try {
            retrying("FEED.READ", () -> settings.source().read(c, 1, List.of(), null).toCompletableFuture());
            return true;
        } catch (KevyServerException e) {
            return false;
        }
    }

    private <T> T retrying(String what, java.util.function.Supplier<CompletableFuture<T>> call) {
        io.github.resilience4j.retry.Retry.AsyncContext<Object> ctx = rt.connectionRetry.asyncContext();
        while (true) {
            rt.checkRunning();
            try {
                return rt.await(call.get(), SETUP_TIMEOUT, true);
            } catch (KevyConnectionException | KevyTimeoutException e) {
                rt.listener.onError(name(), -1, Runtime.kind(e), e);
                long delay = ctx.onError(e);
                if (delay < 0) {
                    throw rt.fail("consumer " + name() + ": " + what + " failed " + settings.maxConnectionAttempts()
                            + " times: " + e.getMessage(), e);
                }
                rt.listener.onRetry(name(), -1, Runtime.kind(e), e);
                LOG.warn("consumer {}: {} failed ({}), retrying in {} ms", name(), what, e.getMessage(), delay);
                rt.sleep(delay);
            }
        }
    }

    /** The supervisor: shard count, stored cursors, start policy, then one worker per shard. */
    private void setup() {
        try {
            int shards = retrying("FEED.SHARDS", () -> settings.source().shards().toCompletableFuture());
            for (int a : settings.assignment()) {
                if (a >= shards) {
                    throw new KevyConfigException("consumer " + name() + " is assigned shard " + a + " but the server "
                            + "has " + shards + " shard(s)");
                }
            }
            Optional<StoredCursors> stored = retrying("loading the cursors",
                    () -> CompletableFuture.supplyAsync(() -> settings.cursorStore().load(name())));
            if (stored.isPresent() && settings.volatileState()) {
                LOG.warn("consumer {}: its state is volatile (FeedConsumer.Builder.volatileState) but {} holds a "
                        + "cursor for it: ignored, starting from {} instead (resuming would leave the empty state "
                        + "without the keys written before the cursor). A volatile state needs no durable cursor "
                        + "store: use CursorStore.inMemory()", name(), settings.cursorStore(), settings.startFrom());
                stored = Optional.empty();
            }
            rt.committer.init(shards);
            rt.listener.onStart(name(), shards);
            RebuildCoordinator<K, V> coordinator = new RebuildCoordinator<>(rt, shards);
            List<ShardWorker<K, V>> ws = new ArrayList<>(shards);
            boolean countChanged = stored.isPresent() && stored.get().shards() != shards;
            if (countChanged) {
                LOG.warn("consumer {}: the stored cursors are for {} shard(s), the server has {}: rebuilding",
                        name(), stored.get().shards(), shards);
            }
            for (int i = 0; i < shards; i++) {
                final int shard = i;
                if (!settings.assigned(i)) {
                    if (stored.isPresent() && !countChanged) {
                        rt.committer.set(stored.get().cursor(i));
                    }
                    continue;
                }
                Cursor start = null;
                RebuildReason reason = null;
                Cursor carried = null;
                if (stored.isPresent() && !countChanged) {
                    Cursor c = stored.get().cursor(i);
                    Cursor tail = retrying("FEED.TAIL", () -> settings.source().tail(shard).toCompletableFuture());
                    if (tail.generation() != c.generation() && !served(c)) {
                        LOG.info("consumer {}: shard {} generation {} is gone (now {}): rebuilding", name(), i,
                                c.generation(), tail.generation());
                        reason = RebuildReason.GENERATION_GONE;
                        carried = tail;
                    } else {
                        start = c;
                    }
                } else if (countChanged || settings.startFrom() == StartFrom.REBUILD) {
                    reason = countChanged ? RebuildReason.SHARD_COUNT_CHANGED : RebuildReason.START;
                } else {
                    Cursor tail = retrying("FEED.TAIL", () -> settings.source().tail(shard).toCompletableFuture());
                    start = settings.startFrom() == StartFrom.EARLIEST ? tail.withOffset(0) : tail;
                }
                if (start != null) {
                    rt.committer.set(start);
                }
                ws.add(new ShardWorker<>(rt, coordinator, i, start,
                        reason == null ? null : new RebuildCoordinator.Request(i, reason, carried, null)));
            }
            if (stored.isEmpty() && settings.startFrom() != StartFrom.REBUILD) {
                rt.committer.save();
            }
            workers = List.copyOf(ws);
            synchronized (threads) {
                rt.checkRunning();
                threads.add(start(coordinator, "kevy-feed-" + name() + "-rebuild"));
                for (ShardWorker<K, V> w : ws) {
                    threads.add(start(w, "kevy-feed-" + name() + "-" + w.shard));
                }
            }
            CompletableFuture.allOf(ws.stream().map(w -> w.started).toArray(CompletableFuture[]::new))
                    .whenComplete((v, e) -> {
                        if (e != null) {
                            started.completeExceptionally(rt.failure() != null ? rt.failure() : e);
                        } else {
                            transition(State.RUNNING);
                            started.complete(null);
                        }
                    });
        } catch (Runtime.Stop e) {
            started.completeExceptionally(rt.failure() != null ? rt.failure()
                    : new KevyException("consumer " + name() + " closed before it started"));
        } catch (RuntimeException e) {
            ConsumerFailedException f = rt.fail("consumer " + name() + " could not start: " + e.getMessage(), e);
            started.completeExceptionally(f);
        }
        Thread reaper = new Thread(this::awaitThreads, "kevy-feed-" + name() + "-reaper");
        reaper.setDaemon(true);
        reaper.start();
    }

    private static Thread start(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Completes {@link #terminated()} once every thread ended, after closing the sink. */
    private void awaitThreads() {
        List<Thread> ts;
        synchronized (threads) {
            ts = new ArrayList<>(threads);
        }
        for (Thread t : ts) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        try {
            rt.sink.close();
        } catch (Exception e) {
            LOG.warn("consumer {}: closing the sink failed", name(), e);
        }
        if (rt.failure() == null) {
            transition(State.CLOSED);
        }
        terminated.complete(null);
    }

    /**
     * Rebuilds every shard ({@link RebuildReason#REQUESTED}): each worker finishes its current batch, then the
     * shards share one rebuild and continue from the tails taken at its start.
     *
     * @return completes when every shard was rebuilt
     * @throws IllegalStateException when the consumer is not running
     */
    public CompletionStage<Void> rebuild() {
        List<ShardWorker<K, V>> ws = workers;
        if (ws.isEmpty() || state.get().ordinal() > State.RUNNING.ordinal()) {
            throw new IllegalStateException("consumer " + name() + " is not running (" + state.get() + ")");
        }
        return CompletableFuture.allOf(ws.stream().map(ShardWorker::askRebuild).toArray(CompletableFuture[]::new));
    }

    /** Per-shard state, committed cursor, lag and last progress. */
    public Health health() {
        List<ShardHealth> shards = new ArrayList<>();
        for (ShardWorker<K, V> w : workers) {
            shards.add(w.health());
        }
        ConsumerFailedException f = rt.failure();
        return new Health(name(), state.get(), shards, f == null ? null : f.getMessage());
    }

    /**
     * Waits until the sink has every change that the server had applied when this call began: each shard's
     * committed cursor reaches the tail ({@code FEED.TAIL}) the shard had then, or nothing between the committed
     * cursor and that tail is for this consumer (every frame there is outside its prefixes: a long-poll read
     * only moves the cursor over such frames when its BLOCK time ends). Read-your-writes for derived state: a
     * write acknowledged before the call is delivered and committed when it returns true. A shard whose
     * generation changed meanwhile (FLUSHALL, a restart) must reach its new generation's tail. Polls every 5 ms.
     *
     * @param timeout how long to wait at most
     * @return true when caught up, false when the timeout passed first
     * @throws ConsumerFailedException when the consumer failed (before or while waiting)
     * @throws IllegalStateException when the consumer is not running
     * @throws KevyException when the server cannot be asked for its tails
     * @throws KevyInterruptedException when the calling thread is interrupted while waiting (its interrupt flag
     *     is set again before this is thrown)
     */
    public boolean awaitCaughtUp(Duration timeout) {
        try {
            return awaitCaughtUp0(timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KevyInterruptedException("consumer " + name() + ": interrupted while awaiting the tails", e);
        }
    }

    private boolean awaitCaughtUp0(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int shards = ask(settings.source().shards());
        Cursor[] targets = new Cursor[shards];
        for (int i = 0; i < shards; i++) {
            targets[i] = settings.assigned(i) ? ask(settings.source().tail(i)) : null;
        }
        while (true) {
            if (rt.failure() != null) {
                throw rt.failure();
            }
            if (state.get().ordinal() > State.RUNNING.ordinal()) {
                throw new IllegalStateException("consumer " + name() + " is not running (" + state.get() + ")");
            }
            boolean all = true;
            for (int i = 0; i < shards && all; i++) {
                if (!settings.assigned(i)) {
                    continue;
                }
                Cursor c = rt.committer.get(i);
                if (c != null && c.generation() != targets[i].generation()) {
                    Cursor now = ask(settings.source().tail(i));
                    if (now.generation() != targets[i].generation()) {
                        targets[i] = now;
                    }
                }
                all = c != null && c.generation() == targets[i].generation()
                        && (c.offset() >= targets[i].offset() || nothingFor(c, targets[i]));
            }
            if (all) {
                return true;
            }
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(5);
        }
    }

    /** True when no frame in [from, target) passes this consumer's filters (one read, at most MAX_COUNT frames). */
    private boolean nothingFor(Cursor from, Cursor target) throws InterruptedException {
        long gap = target.offset() - from.offset();
        if (gap > FeedSource.MAX_COUNT) {
            return false;
        }
        FrameBatch b;
        try {
            b = ask(settings.source().read(from, (int) gap, rt.prefixes, null));
        } catch (KevyServerException e) {
            return false; // FEEDRESYNC: the consumer's own read will get it too and rebuild
        }
        if (b.next().offset() < target.offset()) {
            return false;
        }
        for (Frame f : b.frames()) {
            if (f.offset() < target.offset() && rt.filter.apply(FrameDecoder.decode(f.argv())) != null) {
                return false;
            }
        }
        return true;
    }

    private static <T> T ask(CompletionStage<T> stage) throws InterruptedException {
        try {
            return stage.toCompletableFuture().get(SETUP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw RemoteFeedSource.map(e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new KevyTimeoutException("no answer in " + SETUP_TIMEOUT.toMillis() + " ms", e);
        }
    }

    /**
     * Stops: no new reads; batches in flight finish (up to {@link #CLOSE_TIMEOUT}) and their cursors are
     * stored; then the sink is closed and the consumer's meters are removed from its {@code MeterRegistry}
     * (a failed consumer keeps them until this call). Idempotent.
     */
    @Override
    public void close() {
        if (state.compareAndSet(State.NEW, State.CLOSED)) {
            terminated.complete(null);
            return;
        }
        transition(State.CLOSING);
        rt.stop(false);
        join(CLOSE_TIMEOUT);
        closeMetrics();
    }

    private void closeMetrics() {
        if (metrics != null) {
            metrics.close();
        }
    }

    /**
     * Stops as a crash would, for tests and emergency stops: threads are interrupted, nothing more is committed
     * (a batch being delivered is abandoned and will be delivered again by the next consumer).
     */
    public void abort() {
        if (state.compareAndSet(State.NEW, State.CLOSED)) {
            terminated.complete(null);
            return;
        }
        transition(State.CLOSING);
        rt.stop(true);
        synchronized (threads) {
            threads.forEach(Thread::interrupt);
        }
        join(CLOSE_TIMEOUT);
        closeMetrics();
    }

    private void join(Duration timeout) {
        if (supervisor != null) {
            try {
                supervisor.join(timeout.toMillis());
                terminated.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                LOG.warn("consumer {}: threads did not stop within {} ms", name(), timeout.toMillis());
            }
        }
    }

    @Override
    public String toString() {
        return "FeedConsumer[" + name() + ", " + state.get() + "]";
    }

    /**
     * Builds a {@link FeedConsumer}. Each setting may be set once ({@link IllegalStateException} "... was already
     * set") and is checked when set ({@link IllegalArgumentException}, {@link NullPointerException});
     * {@link #build()} checks the combination. Not thread-safe.
     */
    public static final class Builder<K, V> {
        private final RedisCodec<K, V> codec;
        private FeedSource source;
        private String name;
        private List<ByteBuffer> prefixes;
        private CursorStore cursorStore;
        private Sink<K, V> sink;
        private Handler<K, V> handler;
        private Rebuild<K, V> rebuild;
        private StartFrom startFrom;
        private Integer batchSize;
        private Duration block;
        private Duration pollMin;
        private Duration pollMax;
        private Boolean exactPrefixFilter;
        private Boolean durableOnly;
        private Integer handlerRetries;
        private Duration retryInitial;
        private Duration retryMax;
        private Integer maxConnectionAttempts;
        private DeadLetter<K, V> deadLetter;
        private Integer maxFutileRebuilds;
        private Duration rebuildGather;
        private Duration deliveryTimeout;
        private Clock clock;
        private MeterRegistry meterRegistry;
        private ConsumerListener listener;
        private java.util.Set<Integer> assignment;
        private Boolean volatileState;

        private Builder(RedisCodec<K, V> codec) {
            this.codec = Objects.requireNonNull(codec, "codec");
        }

        private Builder(ConsumerSettings<K, V> s) {
            this.codec = s.codec();
            this.source = s.source();
            this.name = s.name();
            this.prefixes = s.prefixes();
            this.cursorStore = s.cursorStore();
            this.sink = s.sink();
            this.handler = s.handler();
            this.rebuild = s.rebuild();
            this.startFrom = s.startFrom();
            this.batchSize = s.batchSize();
            this.block = s.block();
            this.pollMin = s.pollMin();
            this.pollMax = s.pollMax();
            this.exactPrefixFilter = s.exactPrefixFilter();
            this.durableOnly = s.durableOnly();
            this.handlerRetries = s.handlerRetries();
            this.retryInitial = s.retryInitial();
            this.retryMax = s.retryMax();
            this.maxConnectionAttempts = s.maxConnectionAttempts();
            this.deadLetter = s.deadLetter();
            this.maxFutileRebuilds = s.maxFutileRebuilds();
            this.rebuildGather = s.rebuildGather();
            this.deliveryTimeout = s.deliveryTimeout();
            this.clock = s.clock();
            this.meterRegistry = s.meterRegistry();
            this.listener = s.listener();
            this.assignment = s.assignment().isEmpty() ? null : s.assignment();
            this.volatileState = s.volatileState();
        }

        private static void unset(Object current, String what) {
            if (current != null) {
                throw new IllegalStateException(what + " was already set to " + current);
            }
        }

        private static Duration positive(Duration d, String what) {
            Objects.requireNonNull(d, what);
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(what + " must be positive, got " + d);
            }
            return d;
        }

        /** Required: where to read. */
        public Builder<K, V> source(FeedSource source) {
            unset(this.source, "source");
            this.source = Objects.requireNonNull(source, "source");
            return this;
        }

        /**
         * Required: the consumer's name (1-200 of {@code A-Z a-z 0-9 . _ : @ -}); it keys the stored cursors and
         * tags the metrics.
         */
        public Builder<K, V> name(String name) {
            unset(this.name, "name");
            Objects.requireNonNull(name, "name");
            if (!NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("name must be 1-200 of A-Z a-z 0-9 . _ : @ -, got '" + name + "'");
            }
            this.name = name;
            return this;
        }

        /** Only keys starting with one of these UTF-8 prefixes (default: every key). */
        public Builder<K, V> prefixes(String... prefixes) {
            byte[][] b = new byte[prefixes.length][];
            for (int i = 0; i < b.length; i++) {
                b[i] = Objects.requireNonNull(prefixes[i], "prefix").getBytes(StandardCharsets.UTF_8);
            }
            return prefixes(b);
        }

        /** Only keys starting with one of these byte prefixes (default: every key). */
        public Builder<K, V> prefixes(byte[]... prefixes) {
            unset(this.prefixes, "prefixes");
            List<ByteBuffer> p = new ArrayList<>();
            for (byte[] b : prefixes) {
                p.add(ByteBuffer.wrap(Objects.requireNonNull(b, "prefix").clone()).asReadOnlyBuffer());
            }
            this.prefixes = List.copyOf(p);
            return this;
        }

        /** Where cursors are stored (default: {@link CursorStore#inMemory()}, a new one per build). */
        public Builder<K, V> cursorStore(CursorStore store) {
            unset(this.cursorStore, "cursorStore");
            this.cursorStore = Objects.requireNonNull(store, "cursorStore");
            return this;
        }

        /** Where changes go (this or {@link #handler}, exactly one). */
        public Builder<K, V> sink(Sink<K, V> sink) {
            unset(this.sink, "sink");
            this.sink = Objects.requireNonNull(sink, "sink");
            return this;
        }

        /** A synchronous sink (this or {@link #sink}, exactly one). */
        public Builder<K, V> handler(Handler<K, V> handler) {
            unset(this.handler, "handler");
            this.handler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /** How to rebuild (default: {@link ScanRebuild#create()}, a new one per build). */
        public Builder<K, V> onRebuild(Rebuild<K, V> rebuild) {
            unset(this.rebuild, "onRebuild");
            this.rebuild = Objects.requireNonNull(rebuild, "onRebuild");
            return this;
        }

        /**
         * Declares that the sink's derived state is volatile (default false): it lives in the process's memory (a
         * map, a local cache, a {@link FeedMirror}) and is empty after every start. Such a state cannot resume
         * from a stored cursor (the frames before it are in no state any more), so the consumer then ignores a
         * stored cursor, logs a warning that names the cursor store, and starts as {@link #startFrom} says, whose
         * default becomes {@link StartFrom#REBUILD}. A state that outlives the process (a database, a search
         * index on disk, a Kafka topic, a remote cache) is durable: keep the default.
         */
        public Builder<K, V> volatileState(boolean volatileState) {
            unset(this.volatileState, "volatileState");
            this.volatileState = volatileState;
            return this;
        }

        /**
         * Where to start without a stored cursor (default {@link #DEFAULT_START_FROM}; {@link StartFrom#REBUILD}
         * with {@link #volatileState}).
         */
        public Builder<K, V> startFrom(StartFrom startFrom) {
            unset(this.startFrom, "startFrom");
            this.startFrom = Objects.requireNonNull(startFrom, "startFrom");
            return this;
        }

        /** Frames scanned per read, 1..4096 (default {@link #DEFAULT_BATCH_SIZE}). */
        public Builder<K, V> batchSize(int frames) {
            unset(this.batchSize, "batchSize");
            if (frames < 1 || frames > FeedSource.MAX_COUNT) {
                throw new IllegalArgumentException("batchSize must be in [1, 4096], got " + frames);
            }
            this.batchSize = frames;
            return this;
        }

        /**
         * Long-poll time per read when the server supports BLOCK (default {@link #DEFAULT_BLOCK});
         * {@link Duration#ZERO} never sends BLOCK. At most 1 minute.
         */
        public Builder<K, V> block(Duration block) {
            unset(this.block, "block");
            Objects.requireNonNull(block, "block");
            if (block.isNegative() || block.compareTo(Duration.ofMinutes(1)) > 0) {
                throw new IllegalArgumentException("block must be in [0, 1 min], got " + block);
            }
            this.block = block;
            return this;
        }

        /**
         * Idle polling without BLOCK: the first delay and the cap it doubles up to (defaults
         * {@link #DEFAULT_POLL_MIN}, {@link #DEFAULT_POLL_MAX}).
         */
        public Builder<K, V> pollInterval(Duration min, Duration max) {
            unset(this.pollMin, "pollInterval");
            positive(min, "poll min");
            positive(max, "poll max");
            if (max.compareTo(min) < 0) {
                throw new IllegalArgumentException("poll max " + max + " is below min " + min);
            }
            this.pollMin = min;
            this.pollMax = max;
            return this;
        }

        /**
         * Whether the consumer filters the keys of fail-open frames itself (MSET pairs, multi-key DEL, RENAME;
         * feed contract §8), default {@link #DEFAULT_EXACT_PREFIX_FILTER}. False delivers them whole.
         */
        public Builder<K, V> exactPrefixFilter(boolean exact) {
            unset(this.exactPrefixFilter, "exactPrefixFilter");
            this.exactPrefixFilter = exact;
            return this;
        }

        /**
         * Whether to read only frames the server's AOF has fsynced ({@code FEED.READ ... DURABLE}, ours; see
         * docs/cdc.md), default {@link #DEFAULT_DURABLE_ONLY}. Under {@code appendfsync everysec} a frame can
         * otherwise be delivered and then erased by a power loss (the generation changes and the consumer
         * rebuilds); with true nothing delivered is ever erased, at the cost of up to the fsync interval of
         * latency (about 1 s under everysec). Sinks that cannot take a change back (Kafka exactly-once, a ledger)
         * want true. Servers without DURABLE (upstream kevy: {@code ERR syntax error}) or without an fsync
         * schedule (no AOF, {@code appendfsync no}) make the consumer fall back to plain reads, with one WARN log
         * line saying so.
         */
        public Builder<K, V> durableOnly(boolean durable) {
            unset(this.durableOnly, "durableOnly");
            this.durableOnly = durable;
            return this;
        }

        /** Retries of a rejected batch before the failure policy, 0..1000 (default {@link #DEFAULT_HANDLER_RETRIES}). */
        public Builder<K, V> handlerRetries(int retries) {
            unset(this.handlerRetries, "handlerRetries");
            if (retries < 0 || retries > 1000) {
                throw new IllegalArgumentException("handlerRetries must be in [0, 1000], got " + retries);
            }
            this.handlerRetries = retries;
            return this;
        }

        /**
         * Retry delays (connections, rejected batches, rebuilds): exponential from {@code initial} to {@code max}
         * with ±50% jitter (defaults {@link #DEFAULT_RETRY_INITIAL}, {@link #DEFAULT_RETRY_MAX}).
         */
        public Builder<K, V> retryBackoff(Duration initial, Duration max) {
            unset(this.retryInitial, "retryBackoff");
            positive(initial, "retry initial");
            positive(max, "retry max");
            if (max.compareTo(initial) < 0) {
                throw new IllegalArgumentException("retry max " + max + " is below initial " + initial);
            }
            this.retryInitial = initial;
            this.retryMax = max;
            return this;
        }

        /** Attempts per connection outage before failing; 0 = no limit (default). */
        public Builder<K, V> maxConnectionAttempts(int attempts) {
            unset(this.maxConnectionAttempts, "maxConnectionAttempts");
            if (attempts < 0) {
                throw new IllegalArgumentException("maxConnectionAttempts must be >= 0, got " + attempts);
            }
            this.maxConnectionAttempts = attempts;
            return this;
        }

        /** Dead-letter rejected batches and continue (default: stop, cursor not advanced). */
        public Builder<K, V> deadLetter(DeadLetter<K, V> deadLetter) {
            unset(this.deadLetter, "deadLetter");
            this.deadLetter = Objects.requireNonNull(deadLetter, "deadLetter");
            return this;
        }

        /**
         * Consecutive rebuilds of a shard that may end without it catching up before the consumer fails, at least
         * 1 (default {@link #DEFAULT_MAX_FUTILE_REBUILDS}).
         */
        public Builder<K, V> maxFutileRebuilds(int rebuilds) {
            unset(this.maxFutileRebuilds, "maxFutileRebuilds");
            if (rebuilds < 1) {
                throw new IllegalArgumentException("maxFutileRebuilds must be >= 1, got " + rebuilds);
            }
            this.maxFutileRebuilds = rebuilds;
            return this;
        }

        /** How long a rebuild waits for other shards to join it (default {@link #DEFAULT_REBUILD_GATHER}). */
        public Builder<K, V> rebuildGather(Duration gather) {
            unset(this.rebuildGather, "rebuildGather");
            Objects.requireNonNull(gather, "rebuildGather");
            if (gather.isNegative()) {
                throw new IllegalArgumentException("rebuildGather must not be negative");
            }
            this.rebuildGather = gather;
            return this;
        }

        /** The longest a sink may take to accept a batch (default {@link #DEFAULT_DELIVERY_TIMEOUT}). */
        public Builder<K, V> deliveryTimeout(Duration timeout) {
            unset(this.deliveryTimeout, "deliveryTimeout");
            this.deliveryTimeout = positive(timeout, "deliveryTimeout");
            return this;
        }

        /** The clock for health times and change read times (default {@link Clock#systemUTC()}). */
        public Builder<K, V> clock(Clock clock) {
            unset(this.clock, "clock");
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** Registers the consumer's meters ({@link FeedConsumerMetrics}) in {@code registry} (default: none). */
        public Builder<K, V> meterRegistry(MeterRegistry registry) {
            unset(this.meterRegistry, "meterRegistry");
            this.meterRegistry = Objects.requireNonNull(registry, "meterRegistry");
            return this;
        }

        /** Callbacks on the consumer's events (default: none). */
        public Builder<K, V> listener(ConsumerListener listener) {
            unset(this.listener, "listener");
            this.listener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /**
         * Reads only these shards (default: every shard), as a Kafka consumer's {@code assign}: several consumers
         * of one name can split the shards (the Kafka Connect source tasks do). The stored record's other shards
         * keep the cursors loaded at start, so the cursor store must merge by shard when assigned consumers share
         * it; a record is saved only when one was loaded. An assigned shard the server does not have fails the
         * start ({@link KevyConfigException}).
         *
         * @throws IllegalArgumentException when empty or a shard is negative
         */
        public Builder<K, V> assign(java.util.Collection<Integer> shards) {
            unset(this.assignment, "assign");
            if (shards.isEmpty()) {
                throw new IllegalArgumentException("assign needs at least one shard");
            }
            for (int s : shards) {
                if (s < 0) {
                    throw new IllegalArgumentException("shard must be >= 0, got " + s);
                }
            }
            this.assignment = java.util.Set.copyOf(shards);
            return this;
        }

        /**
         * The consumer (not started).
         *
         * @throws IllegalStateException when source, name, or exactly one of sink and handler is missing
         */
        public FeedConsumer<K, V> build() {
            if (source == null) {
                throw new IllegalStateException("source is required");
            }
            if (name == null) {
                throw new IllegalStateException("name is required");
            }
            if ((sink == null) == (handler == null)) {
                throw new IllegalStateException("set exactly one of sink and handler");
            }
            return new FeedConsumer<>(new ConsumerSettings<>(codec, source, name,
                    prefixes == null ? List.of() : prefixes,
                    cursorStore == null ? CursorStore.inMemory() : cursorStore, sink, handler,
                    rebuild == null ? ScanRebuild.create() : rebuild,
                    startFrom != null ? startFrom
                            : Boolean.TRUE.equals(volatileState) ? StartFrom.REBUILD : DEFAULT_START_FROM,
                    batchSize == null ? DEFAULT_BATCH_SIZE : batchSize,
                    block == null ? DEFAULT_BLOCK : block,
                    pollMin == null ? DEFAULT_POLL_MIN : pollMin,
                    pollMax == null ? DEFAULT_POLL_MAX : pollMax,
                    exactPrefixFilter == null ? DEFAULT_EXACT_PREFIX_FILTER : exactPrefixFilter,
                    durableOnly == null ? DEFAULT_DURABLE_ONLY : durableOnly,
                    handlerRetries == null ? DEFAULT_HANDLER_RETRIES : handlerRetries,
                    retryInitial == null ? DEFAULT_RETRY_INITIAL : retryInitial,
                    retryMax == null ? DEFAULT_RETRY_MAX : retryMax,
                    maxConnectionAttempts == null ? DEFAULT_MAX_CONNECTION_ATTEMPTS : maxConnectionAttempts,
                    deadLetter,
                    maxFutileRebuilds == null ? DEFAULT_MAX_FUTILE_REBUILDS : maxFutileRebuilds,
                    rebuildGather == null ? DEFAULT_REBUILD_GATHER : rebuildGather,
                    deliveryTimeout == null ? DEFAULT_DELIVERY_TIMEOUT : deliveryTimeout,
                    clock == null ? Clock.systemUTC() : clock, meterRegistry, listener,
                    assignment == null ? java.util.Set.of() : assignment, Boolean.TRUE.equals(volatileState)));
        }
    }
}
