package io.kevy.feed.client;

import io.kevy.common.Slots;
import io.lettuce.core.codec.RedisCodec;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link Rebuild} works with: the scope (shards, carried cursors, prefixes), the source to read keys
 * from, the codec, and {@link #deliver} to hand SNAPSHOT/VANISHED entries to the sink. Used by one rebuild on
 * one thread; not thread-safe.
 *
 * @param <K> key type
 * @param <V> value type
 */
public final class RebuildContext<K, V> {
    /** Delivers a SNAPSHOT batch and waits until the sink accepted it (with the consumer's retries). */
    interface Deliverer<K, V> {
        void deliver(Batch<K, V> batch) throws Exception;
    }

    private final String consumer;
    private final RebuildScope scope;
    private final FeedSource source;
    private final RedisCodec<K, V> codec;
    private final KeyFilter filter;
    private final Clock clock;
    private final Deliverer<K, V> deliverer;
    private final java.util.function.BooleanSupplier stopping;
    private long entries;
    private long keys;
    private long vanished;
    /** shard → key → the offset it was read at (exact reads only after the carried cursor: the others hold no frame). */
    private final java.util.Map<Integer, java.util.Map<java.nio.ByteBuffer, Long>> readAt = new java.util.HashMap<>();
    private boolean readsRecorded;

    RebuildContext(String consumer, RebuildScope scope, FeedSource source, RedisCodec<K, V> codec, KeyFilter filter,
            Clock clock, Deliverer<K, V> deliverer, java.util.function.BooleanSupplier stopping) {
        this.consumer = consumer;
        this.scope = scope;
        this.source = source;
        this.codec = codec;
        this.filter = filter;
        this.clock = clock;
        this.deliverer = deliverer;
        this.stopping = stopping;
    }

    public String consumer() {
        return consumer;
    }

    public RebuildScope scope() {
        return scope;
    }

    public FeedSource source() {
        return source;
    }

    public RedisCodec<K, V> codec() {
        return codec;
    }

    public Clock clock() {
        return clock;
    }

    /** True when the consumer is closing: a long rebuild should stop early (it is then run again later). */
    public boolean stopping() {
        return stopping.getAsBoolean();
    }

    /** The SCAN MATCH patterns covering the prefixes, glob characters escaped (one null = every key). */
    public List<byte[]> scanPatterns() {
        return filter.scanPatterns();
    }

    /**
     * True when this rebuild covers {@code key}: it maps to a rebuilt shard (feed contract §2), is under the
     * prefixes, and is not the consumer's own cursor key.
     */
    public boolean covers(byte[] key) {
        return scope.shards().contains(Slots.shard(key, scope.shardCount())) && filter.matches(key)
                && !filter.isOwnKey(key);
    }

    /** A SNAPSHOT entry for {@code snapshot}, numbered in this rebuild, with its shard's carried cursor. */
    public Change<K, V> snapshotEntry(KeySnapshot snapshot) {
        Cursor carried = scope.carried().get(Slots.shard(snapshot.key(), scope.shardCount()));
        Objects.requireNonNull(carried, "key not covered by this rebuild");
        return Change.snapshot(codec, carried, entries++, snapshot, clock.millis());
    }

    /**
     * Reads {@code keys} with their shards' cursors ({@link FeedSource#reads}, exact on our server and the
     * embedded store, and on upstream kevy where its EXEC is atomic): the building block of an exact rebuild. Pass each read to {@link #entry} to deliver it.
     */
    public java.util.concurrent.CompletionStage<List<KeyRead>> read(List<byte[]> keys) {
        return source.reads(keys, scope.shardCount());
    }

    /**
     * The entry for {@code read}: SNAPSHOT when the key existed, VANISHED when it did not, and records the
     * offset it was read at, so that the consumer then skips, for this key, the frames the read already holds
     * (exact rebuilds, feed contract §11.3; {@code ReadOverlap}).
     */
    public Change<K, V> entry(KeyRead read) {
        Cursor carried = scope.carried().get(read.at().shard());
        Objects.requireNonNull(carried, "key not covered by this rebuild");
        readsRecorded = true;
        // an exact read at the carried cursor holds no frame that is read again; a fallback read may hold later ones
        if (read.at().generation() == carried.generation()
                && (read.at().offset() > carried.offset() || !read.exact())) {
            readAt.computeIfAbsent(read.at().shard(), s -> new java.util.HashMap<>())
                    .put(java.nio.ByteBuffer.wrap(read.key()), read.at().offset());
        }
        return read.snapshot() != null ? snapshotEntry(read.snapshot()) : vanishedEntry(read.key());
    }

    /** True when {@link #entry} was used: the rebuild recorded its read offsets. */
    boolean readsRecorded() {
        return readsRecorded;
    }

    /** The recorded read offsets of {@code shard} (key → offset; empty when none). */
    java.util.Map<java.nio.ByteBuffer, Long> readOffsets(int shard) {
        return readAt.getOrDefault(shard, java.util.Map.of());
    }

    /** A VANISHED entry: the sink should delete {@code key}. */
    public Change<K, V> vanishedEntry(byte[] key) {
        Cursor carried = scope.carried().get(Slots.shard(key, scope.shardCount()));
        Objects.requireNonNull(carried, "key not covered by this rebuild");
        return Change.vanished(codec, carried, entries++, key, clock.millis());
    }

    /**
     * Delivers {@code entries} to the sink as one SNAPSHOT batch and waits until it is accepted.
     *
     * @throws Exception when the sink rejected the batch after the consumer's retries
     */
    public void deliver(List<Change<K, V>> batch) throws Exception {
        if (batch.isEmpty()) {
            return;
        }
        for (Change<K, V> c : batch) {
            if (c.op() == Op.VANISHED) {
                vanished++;
            } else {
                keys++;
            }
        }
        deliverer.deliver(Batch.ofSnapshot(consumer, scope, new ArrayList<>(batch)));
    }

    long keysDelivered() {
        return keys;
    }

    long vanishedDelivered() {
        return vanished;
    }
}
