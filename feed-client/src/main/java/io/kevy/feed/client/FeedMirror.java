package io.kevy.feed.client;

import io.lettuce.core.codec.RedisCodec;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * A local, thread-safe copy of the keys under some prefixes, kept by a {@link FeedConsumer} (client-go's
 * informer cache is the model): typed values ({@link MirroredValue}: string (HyperLogLogs too), hash, list,
 * set, zset, stream: entries and counters from XADD / XTRIM / XDEL / XSETID, consumer groups not mirrored),
 * {@link #get} that never blocks, change listeners with the value before and after (the feed carries neither),
 * and readiness ({@link #synced()}, {@link #awaitSynced}: the first rebuild is complete).
 *
 * <pre>{@code
 * try (FeedSource source = FeedSource.connect("redis://127.0.0.1:6004");
 *      FeedMirror<String, String> users = FeedMirror.builder(StringCodec.UTF8)
 *              .source(source).name("users-mirror").prefixes("user:")
 *              .listener((key, before, after) -> System.out.println(key + ": " + before + " -> " + after))
 *              .build()) {
 *     users.start();
 *     users.awaitSynced(Duration.ofSeconds(30));
 *     Optional<MirroredValue<String>> ada = users.get("user:1");
 * }
 * }</pre>
 *
 * <p>Its state is volatile, so it always starts with a rebuild ({@link StartFrom#REBUILD}, cursors kept in
 * memory: {@link FeedConsumer.Builder#volatileState}); every FEEDRESYNC rebuilds it exactly (a sweeping
 * {@link ScanRebuild}; the consumer skips per key what each read already holds), so after each rebuild and
 * catch-up it equals the server for every command family. Against upstream kevy (no FEED.VALUE, no expiry
 * frames, verbatim commands) it reads again from the server the keys of every change whose frame does not say
 * the result (INCR, moves, scripts ...), and {@link #get} hides values whose expiry has passed.
 *
 * <p>Values are copied on write: a change to a key costs O(size of its value). Listeners run on the consumer's
 * shard threads, after the change is visible to {@link #get}; keys of one shard in feed order. A listener must
 * not block for long (it holds up its shard) and its exceptions are logged, not retried.
 *
 * @param <K> key type of the codec
 * @param <V> value type of the codec
 */
public final class FeedMirror<K, V> implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(FeedMirror.class);

    /** Called for each key whose value changed: before and after, null where the key was or is absent. */
    @FunctionalInterface
    public interface Listener<K, V> {
        void onChange(K key, MirroredValue<V> before, MirroredValue<V> after);
    }

    private final RedisCodec<K, V> codec;
    private final FeedSource source;
    private final Map<ByteBuffer, MirroredValue<V>> values = new ConcurrentHashMap<>();
    private final List<Listener<K, V>> listeners = new CopyOnWriteArrayList<>();
    private final CountDownLatch synced = new CountDownLatch(1);
    private final FeedConsumer<K, V> consumer;
    private volatile int shardCount;

    private FeedMirror(Builder<K, V> b) {
        this.codec = b.codec;
        this.source = Objects.requireNonNull(b.source, "source is required");
        this.listeners.addAll(b.listeners);
        FeedConsumer.Builder<K, V> cb = b.more.apply(FeedConsumer.builder(codec));
        cb.source(source).name(Objects.requireNonNull(b.name, "name is required"))
                .volatileState(true)
                .startFrom(StartFrom.REBUILD) // set here, so a consumer(b -> b.startFrom(TAIL)) is refused
                .sink(new MirrorSink())
                .onRebuild(ScanRebuild.sweeping(this::heldKeys));
        if (b.prefixes != null) {
            cb.prefixes(b.prefixes);
        }
        this.consumer = cb.build();
    }

    /** A builder for a mirror whose keys and values {@code codec} decodes. */
    public static <K, V> Builder<K, V> builder(RedisCodec<K, V> codec) {
        return new Builder<>(codec);
    }

    /** Starts following the feed (a rebuild first); the stage completes when the consumer runs. */
    public CompletionStage<Void> start() {
        return consumer.start();
    }

    /** True once the first rebuild is complete (the mirror held every key under the prefixes once). */
    public boolean synced() {
        return synced.getCount() == 0;
    }

    /**
     * Waits until {@link #synced()}, at most {@code timeout}.
     *
     * @return true when synced, false on timeout or when the consumer stopped first
     */
    public boolean awaitSynced(Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        try {
            while (System.nanoTime() < end) {
                if (synced.await(Math.min(50, Math.max(1, (end - System.nanoTime()) / 1_000_000)),
                        TimeUnit.MILLISECONDS)) {
                    return true;
                }
                FeedConsumer.State s = consumer.state();
                if (s == FeedConsumer.State.FAILED || s == FeedConsumer.State.CLOSED) {
                    return false;
                }
            }
            return synced();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * The key's value now; never blocks. Empty when the key is absent, or its expiry has passed (the server's
     * DEL frame may not have arrived yet).
     */
    public Optional<MirroredValue<V>> get(K key) {
        MirroredValue<V> v = values.get(codec.encodeKey(key));
        return v == null || v.expiredAt(System.currentTimeMillis()) ? Optional.empty() : Optional.of(v);
    }

    /** A copy of every key and value held, expired ones included (for a comparison or a dump). */
    public Map<K, MirroredValue<V>> snapshot() {
        Map<K, MirroredValue<V>> out = new LinkedHashMap<>();
        values.forEach((k, v) -> out.put(codec.decodeKey(k.duplicate()), v));
        return out;
    }

    /** How many keys are held. */
    public int size() {
        return values.size();
    }

    /** Adds a listener (also after start). */
    public void addListener(Listener<K, V> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** The consumer that keeps this mirror (health, metrics, {@link FeedConsumer#rebuild()}). */
    public FeedConsumer<K, V> consumer() {
        return consumer;
    }

    /** Stops the consumer (its in-flight batches drain); the values stay readable. */
    @Override
    public void close() {
        consumer.close();
    }

    private List<K> heldKeys() {
        List<K> out = new ArrayList<>(values.size());
        for (ByteBuffer k : values.keySet()) {
            out.add(codec.decodeKey(k.duplicate()));
        }
        return out;
    }

    private static ByteBuffer buf(byte[] b) {
        return ByteBuffer.wrap(b);
    }

    private void put(byte[] key, MirroredValue<V> after) {
        ByteBuffer k = buf(key);
        MirroredValue<V> before = after == null ? values.remove(k) : values.put(k, after);
        if (!Objects.equals(before, after) && !listeners.isEmpty()) {
            K decoded = codec.decodeKey(buf(key));
            for (Listener<K, V> l : listeners) {
                try {
                    l.onChange(decoded, before, after);
                } catch (RuntimeException e) {
                    LOG.warn("FeedMirror listener {} failed on {}", l, decoded, e);
                }
            }
        }
    }

    private MirroredValue<V> of(KeySnapshot s) {
        List<byte[]> v = s.value();
        long at = s.expireAtMillis() >= 0 ? s.expireAtMillis()
                : s.ttlMillis() >= 0 ? System.currentTimeMillis() + s.ttlMillis() : -1;
        switch (s.type()) {
            case STRING:
                return MirroredValue.ofString(codec, v.isEmpty() ? new byte[0] : v.get(0), at);
            case LIST:
                return MirroredValue.ofList(codec, v, at);
            case SET: {
                Set<ByteBuffer> m = new LinkedHashSet<>();
                for (byte[] b : v) {
                    m.add(buf(b));
                }
                return MirroredValue.ofSet(codec, m, at);
            }
            case HASH: {
                Map<ByteBuffer, byte[]> f = new LinkedHashMap<>();
                for (int i = 0; i + 1 < v.size(); i += 2) {
                    f.put(buf(v.get(i)), v.get(i + 1));
                }
                return MirroredValue.ofHash(codec, f, at);
            }
            case ZSET: {
                Map<ByteBuffer, Double> z = new LinkedHashMap<>();
                for (int i = 0; i + 1 < v.size(); i += 2) {
                    z.put(buf(v.get(i)), FrameDecoder.score(v.get(i + 1)));
                }
                return MirroredValue.ofZSet(codec, z, at);
            }
            case STREAM: {
                RawChange.Parts p = RawChange.of(Op.SNAPSHOT, s.key());
                Change.stream(p, v);
                return MirroredValue.ofStream(codec, streamOf(p.build()), at);
            }
            default:
                return null;
        }
    }

    /** A stream SNAPSHOT's content. */
    private static MirroredValue.StreamContent streamOf(RawChange r) {
        return new MirroredValue.StreamContent(List.of(r.ids), List.of(r.entryFields), ascii(r.streamMeta[0]),
                FrameDecoder.num(r.streamMeta[1]), ascii(r.streamMeta[2]));
    }

    private static String ascii(byte[] b) {
        return new String(b, java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** Reads {@code keys} afresh from the server (changes whose frame does not say the result). */
    private void reread(byte[][] keys) {
        List<byte[]> ks = List.of(keys);
        if (ks.isEmpty()) {
            return;
        }
        int shards = shardCount > 0 ? shardCount : source.shards().toCompletableFuture().join();
        shardCount = shards;
        for (KeyRead r : source.reads(ks, shards).toCompletableFuture().join()) {
            put(r.key(), r.snapshot() == null ? null : of(r.snapshot()));
        }
    }

    /** Applies one change (package-private for the tests). */
    void apply(Change<K, V> c) {
        RawChange r = c.raw();
        Op op = r.op;
        if (op == Op.SNAPSHOT) {
            put(r.keys[0], ofEntry(r));
            return;
        }
        if (op == Op.VANISHED) {
            put(r.keys[0], null);
            return;
        }
        if (op == Op.FLUSH) {
            for (ByteBuffer k : new ArrayList<>(values.keySet())) {
                byte[] b = new byte[k.remaining()];
                k.duplicate().get(b);
                put(b, null);
            }
            return;
        }
        if (op == Op.XGROUP || op == Op.XCLAIM || op == Op.XACK) {
            groupChange(r, c);
            return;
        }
        if (!r.exact || op == Op.LMOVE || op == Op.SMOVE || op == Op.STORE || op == Op.EVAL || op == Op.OTHER
                || op == Op.INCR) {
            reread(r.keys);
            return;
        }
        long now = System.currentTimeMillis();
        switch (op) {
            case SET: {
                MirroredValue<V> old = values.get(buf(r.keys[0]));
                long at = r.expireAt != RawChange.ABSENT ? r.expireAt : r.ttl != RawChange.ABSENT ? now + r.ttl
                        : r.keepTtl && old != null ? old.rawExpireAt() : -1;
                put(r.keys[0], MirroredValue.ofString(codec, r.value, at));
                return;
            }
            case MSET:
                for (int i = 0; i < r.keys.length; i++) {
                    put(r.keys[i], MirroredValue.ofString(codec, r.pairs[2 * i + 1], -1));
                }
                return;
            case DEL:
                for (byte[] k : r.keys) {
                    put(k, null);
                }
                return;
            case EXPIRE: {
                MirroredValue<V> old = values.get(buf(r.keys[0]));
                if (old != null) {
                    put(r.keys[0], old.withExpireAt(r.expireAt != RawChange.ABSENT ? r.expireAt : now + r.ttl));
                }
                return;
            }
            case PERSIST: {
                MirroredValue<V> old = values.get(buf(r.keys[0]));
                if (old != null) {
                    put(r.keys[0], old.withExpireAt(-1));
                }
                return;
            }
            case RENAME: {
                MirroredValue<V> old = values.get(buf(r.keys[0]));
                if (old == null) {
                    reread(r.keys); // a RENAME of a key the mirror lacks: upstream's failed RENAME, or a stale mirror
                } else if (!java.util.Arrays.equals(r.keys[0], r.keys[1])) {
                    put(r.keys[0], null);
                    put(r.keys[1], old);
                }
                return;
            }
            case XADD:
            case XTRIM:
            case XDEL:
            case XSETID:
                applyStream(r);
                return;
            default:
                applyCollection(r, c.argv());
        }
    }

    /**
     * Consumer-group frames: groups are not mirrored, so only {@code XGROUP CREATE ... MKSTREAM} of a missing key
     * changes the value (an empty stream).
     */
    private void groupChange(RawChange r, Change<K, V> c) {
        if (!c.subcommand().equals("CREATE") || values.containsKey(buf(r.keys[0]))) {
            return;
        }
        for (byte[] a : c.argv()) {
            if (ascii(a).equalsIgnoreCase("MKSTREAM")) {
                put(r.keys[0], MirroredValue.ofStream(codec, MirroredValue.StreamContent.empty(), -1));
                return;
            }
        }
    }

    /** XADD (explicit id, MAXLEN = n), XTRIM (MAXLEN = n or MINID id), XDEL, XSETID: ours, exact. */
    private void applyStream(RawChange r) {
        byte[] key = r.keys[0];
        MirroredValue<V> old = values.get(buf(key));
        MirroredValue.StreamContent sc = old != null && old.type() == ValueType.STREAM ? old.rawStream() : null;
        if (sc == null && r.op != Op.XADD) {
            reread(r.keys); // the mirror lacks the stream these frames change: read it
            return;
        }
        if (sc == null) {
            sc = MirroredValue.StreamContent.empty();
        }
        List<byte[]> ids = new ArrayList<>(sc.ids());
        List<byte[][]> fields = new ArrayList<>(sc.fields());
        String lastId = sc.lastId();
        long added = sc.entriesAdded();
        String maxDeleted = sc.maxDeletedId();
        switch (r.op) {
            case XADD -> {
                byte[] id = StreamIds.text(r.ids[0]).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                // ids only grow: an id at or below the last one is already in the value (a read that held it)
                if (StreamIds.compare(id, lastId.getBytes(java.nio.charset.StandardCharsets.US_ASCII)) > 0) {
                    ids.add(id);
                    fields.add(r.pairs);
                    lastId = ascii(id);
                    added = added < 0 ? -1 : added + 1;
                }
            }
            case XDEL -> {
                for (byte[] id : r.ids) {
                    for (int i = 0; i < ids.size(); i++) {
                        if (StreamIds.compare(ids.get(i), id) == 0) {
                            ids.remove(i);
                            fields.remove(i);
                            if (StreamIds.compare(id, maxDeleted.getBytes(java.nio.charset.StandardCharsets.US_ASCII))
                                    > 0) {
                                maxDeleted = StreamIds.text(id);
                            }
                            break;
                        }
                    }
                }
            }
            case XSETID -> {
                lastId = StreamIds.text(r.streamMeta[0]);
                if (r.streamMeta[1] != null) {
                    added = FrameDecoder.num(r.streamMeta[1]);
                }
                if (r.streamMeta[2] != null) {
                    maxDeleted = StreamIds.text(r.streamMeta[2]);
                }
            }
            default -> {
            }
        }
        if ((r.op == Op.XADD || r.op == Op.XTRIM) && r.count != RawChange.ABSENT) {
            int drop = (int) Math.max(0, ids.size() - Math.max(0, r.count));
            ids.subList(0, drop).clear();
            fields.subList(0, drop).clear();
        } else if (r.op == Op.XTRIM && r.ids.length == 1) {
            while (!ids.isEmpty() && StreamIds.compare(ids.get(0), r.ids[0]) < 0) {
                ids.remove(0);
                fields.remove(0);
            }
        }
        put(key, MirroredValue.ofStream(codec, new MirroredValue.StreamContent(ids, fields, lastId, added,
                maxDeleted), old == null ? -1 : old.rawExpireAt()));
    }

    /** A rebuild's SNAPSHOT entry as a value. */
    private MirroredValue<V> ofEntry(RawChange r) {
        long at = r.expireAt != RawChange.ABSENT ? r.expireAt : -1;
        switch (r.valueType) {
            case STRING:
                return MirroredValue.ofString(codec, r.value, at);
            case LIST:
                return MirroredValue.ofList(codec, List.of(r.elements), at);
            case SET: {
                Set<ByteBuffer> m = new LinkedHashSet<>();
                for (byte[] e : r.elements) {
                    m.add(buf(e));
                }
                return MirroredValue.ofSet(codec, m, at);
            }
            case HASH: {
                Map<ByteBuffer, byte[]> f = new LinkedHashMap<>();
                for (int i = 0; i + 1 < r.pairs.length; i += 2) {
                    f.put(buf(r.pairs[i]), r.pairs[i + 1]);
                }
                return MirroredValue.ofHash(codec, f, at);
            }
            case ZSET: {
                Map<ByteBuffer, Double> z = new LinkedHashMap<>();
                for (int i = 0; i < r.elements.length; i++) {
                    z.put(buf(r.elements[i]), r.scores[i]);
                }
                return MirroredValue.ofZSet(codec, z, at);
            }
            case STREAM:
                return MirroredValue.ofStream(codec, streamOf(r), at);
            default:
                return null;
        }
    }

    private void applyCollection(RawChange r, List<byte[]> argv) {
        byte[] key = r.keys[0];
        MirroredValue<V> old = values.get(buf(key));
        long at = old == null ? -1 : old.rawExpireAt();
        switch (r.op) {
            case HSET:
            case HDEL: {
                Map<ByteBuffer, byte[]> f = old != null && old.type() == ValueType.HASH
                        ? new LinkedHashMap<>(old.rawFields()) : new LinkedHashMap<>();
                if (r.op == Op.HSET) {
                    for (int i = 0; i + 1 < r.pairs.length; i += 2) {
                        f.put(buf(r.pairs[i]), r.pairs[i + 1]);
                    }
                } else {
                    for (byte[] n : r.names) {
                        f.remove(buf(n));
                    }
                }
                put(key, MirroredValue.ofHash(codec, f, at));
                return;
            }
            case SADD:
            case SREM: {
                Set<ByteBuffer> m = old != null && old.type() == ValueType.SET
                        ? new LinkedHashSet<>(old.rawMembers()) : new LinkedHashSet<>();
                for (byte[] e : r.elements) {
                    if (r.op == Op.SADD) {
                        m.add(buf(e));
                    } else {
                        m.remove(buf(e));
                    }
                }
                put(key, MirroredValue.ofSet(codec, m, at));
                return;
            }
            case ZADD:
            case ZREM: {
                Map<ByteBuffer, Double> z = old != null && old.type() == ValueType.ZSET
                        ? new HashMap<>(old.rawScores()) : new HashMap<>();
                for (int i = 0; i < r.elements.length; i++) {
                    if (r.op == Op.ZADD) {
                        z.put(buf(r.elements[i]), r.scores[i]);
                    } else {
                        z.remove(buf(r.elements[i]));
                    }
                }
                put(key, MirroredValue.ofZSet(codec, z, at));
                return;
            }
            default:
                break;
        }
        List<byte[]> l = old != null && old.type() == ValueType.LIST ? new ArrayList<>(old.rawItems())
                : new ArrayList<>();
        switch (r.op) {
            case LPUSH -> {
                for (byte[] e : r.elements) {
                    l.add(0, e);
                }
            }
            case RPUSH -> l.addAll(List.of(r.elements));
            case LPOP -> l.subList(0, (int) Math.min(l.size(), r.count)).clear();
            case RPOP -> l.subList((int) Math.max(0, l.size() - r.count), l.size()).clear();
            case LSET -> {
                long i = r.count < 0 ? l.size() + r.count : r.count;
                if (i >= 0 && i < l.size()) {
                    l.set((int) i, r.value);
                }
            }
            case LINSERT -> {
                boolean before = new String(argv.get(2), java.nio.charset.StandardCharsets.US_ASCII)
                        .equalsIgnoreCase("BEFORE");
                for (int i = 0; i < l.size(); i++) {
                    if (java.util.Arrays.equals(l.get(i), argv.get(3))) {
                        l.add(before ? i : i + 1, r.value);
                        break;
                    }
                }
            }
            case LREM -> lrem(l, r.count, r.value);
            case LTRIM -> {
                long n = l.size();
                long start = FrameDecoder.num(argv.get(2));
                long stop = FrameDecoder.num(argv.get(3));
                start = start < 0 ? Math.max(0, n + start) : start;
                stop = stop < 0 ? n + stop : Math.min(stop, n - 1);
                l = start > stop || start >= n ? new ArrayList<>() : new ArrayList<>(l.subList((int) start,
                        (int) stop + 1));
            }
            default -> {
                reread(r.keys);
                return;
            }
        }
        put(key, MirroredValue.ofList(codec, l, at));
    }

    private static void lrem(List<byte[]> l, long count, byte[] value) {
        if (count >= 0) {
            long left = count == 0 ? Long.MAX_VALUE : count;
            for (int i = 0; i < l.size() && left > 0; ) {
                if (java.util.Arrays.equals(l.get(i), value)) {
                    l.remove(i);
                    left--;
                } else {
                    i++;
                }
            }
        } else {
            long left = -count;
            for (int i = l.size() - 1; i >= 0 && left > 0; i--) {
                if (java.util.Arrays.equals(l.get(i), value)) {
                    l.remove(i);
                    left--;
                }
            }
        }
    }

    /** The consumer's sink: applies each change; the end of a rebuild of every shard marks the mirror synced. */
    private final class MirrorSink implements Sink<K, V> {
        @Override
        public CompletionStage<Void> deliver(Batch<K, V> batch) {
            try {
                for (Change<K, V> c : batch) {
                    apply(c);
                }
                return CompletableFuture.completedFuture(null);
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }

        @Override
        public CompletionStage<Void> beginRebuild(RebuildScope scope) {
            shardCount = scope.shardCount();
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletionStage<Void> endRebuild(RebuildScope scope, RebuildResult result) {
            if (scope.allShards()) {
                synced.countDown();
            }
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public String toString() {
            return "FeedMirror.sink";
        }
    }

    /**
     * Builds a {@link FeedMirror}: source and name required. The mirror sets the consumer's sink, rebuild,
     * start and volatile state itself; {@link #consumer} may set anything else (metrics, batch size ...). Not
     * thread-safe.
     */
    public static final class Builder<K, V> {
        private final RedisCodec<K, V> codec;
        private FeedSource source;
        private String name;
        private byte[][] prefixes;
        private final List<Listener<K, V>> listeners = new ArrayList<>();
        private UnaryOperator<FeedConsumer.Builder<K, V>> more = UnaryOperator.identity();

        private Builder(RedisCodec<K, V> codec) {
            this.codec = Objects.requireNonNull(codec, "codec");
        }

        /** Required: where to read. The mirror does not close it. */
        public Builder<K, V> source(FeedSource source) {
            this.source = Objects.requireNonNull(source, "source");
            return this;
        }

        /** Required: the consumer's name (as {@link FeedConsumer.Builder#name}). */
        public Builder<K, V> name(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /** Only keys under these UTF-8 prefixes (default every key). */
        public Builder<K, V> prefixes(String... prefixes) {
            this.prefixes = new byte[prefixes.length][];
            for (int i = 0; i < prefixes.length; i++) {
                this.prefixes[i] = prefixes[i].getBytes(java.nio.charset.StandardCharsets.UTF_8);
            }
            return this;
        }

        /** A change listener (more may be added, here or with {@link FeedMirror#addListener}). */
        public Builder<K, V> listener(Listener<K, V> listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /**
         * Further consumer settings; setting sink, handler, onRebuild, startFrom or volatileState there fails
         * {@link #build()} with an {@link IllegalStateException} ("... was already set", or "set exactly one of
         * sink and handler" for a handler).
         */
        public Builder<K, V> consumer(UnaryOperator<FeedConsumer.Builder<K, V>> settings) {
            this.more = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /** The mirror (not started). */
        public FeedMirror<K, V> build() {
            return new FeedMirror<>(this);
        }
    }
}
