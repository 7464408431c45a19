package io.kevy.examples.search;

import io.kevy.feed.client.Batch;
import io.kevy.feed.client.Change;
import io.kevy.feed.client.CursorStore;
import io.kevy.feed.client.FeedConsumer;
import io.kevy.feed.client.FeedSource;
import io.kevy.feed.client.Handler;
import io.kevy.feed.client.KeySnapshot;
import io.kevy.feed.client.ScanRebuild;
import io.kevy.feed.client.ValueType;
import io.lettuce.core.KeyValue;
import io.lettuce.core.codec.StringCodec;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Keeps a {@link HashIndex} equal to the hashes under a prefix (e.g. {@code pkg:}) from the change feed.
 *
 * <p>Each change becomes the key's new document, computed from the frame and the key's current document (feed
 * contract §7 frames are effects): {@code HSET} adds fields, {@code HDEL} removes them (no field left = the
 * hash is gone), {@code DEL} (also an expiry) deletes, {@code RENAME} moves the document, TTL changes keep it,
 * and any other write (SET, a list push ...) means the key is no longer a hash, so its document goes. A change
 * whose effect the frame does not tell (upstream kevy's verbatim commands: {@link Change#exact()} false) is
 * resolved by reading the key's current value from the server. A batch is applied at once and is searchable
 * when {@link #handle} returns.
 *
 * <p>On FEEDRESYNC (and on a first start with {@link io.kevy.feed.client.StartFrom#REBUILD}) the consumer
 * rebuilds with a sweeping {@link ScanRebuild}: every live key under the prefix is read and indexed again, and
 * every indexed key the scan did not find is deleted (mark and sweep), so the index ends up holding exactly the
 * live keys.
 *
 * <p>Thread-safe: shards are handled concurrently; a key always comes from one shard, in order.
 */
public final class IndexUpdater implements Handler<String, String>, AutoCloseable {
    private static final long READ_TIMEOUT_SECONDS = 60;

    private final HashIndex index;
    private final FeedSource source;
    private final String prefix;
    private final FeedConsumer<String, String> consumer;
    private final LongAdder batches = new LongAdder();
    private final LongAdder changes = new LongAdder();
    private final LongAdder rebuildEntries = new LongAdder();
    private final LongAdder reads = new LongAdder();
    private volatile Consumer<Batch<String, String>> afterBatch = b -> { };

    /**
     * An updater of {@code index} from the keys under {@code prefix} read from {@code source} (neither is closed
     * by the updater).
     *
     * @param name        the consumer's name (it keys the stored cursors)
     * @param cursorStore where cursors are kept: {@link IndexCursorStore} for an index on disk (cursors and
     *                    documents commit together), {@link CursorStore#inMemory()} for one in memory
     * @param customize   adjusts the consumer builder (meters, start position, batch size ...)
     */
    public IndexUpdater(HashIndex index, FeedSource source, String name, String prefix, CursorStore cursorStore,
            UnaryOperator<FeedConsumer.Builder<String, String>> customize) {
        this.index = index;
        this.source = source;
        this.prefix = prefix;
        this.consumer = customize.apply(FeedConsumer.builder(StringCodec.UTF8).source(source).name(name)
                .prefixes(prefix).cursorStore(cursorStore)
                .handler(this)
                .onRebuild(ScanRebuild.<String, String>sweeping(index::keys))).build();
    }

    /**
     * Calls {@code hook} on the consumer's thread after each batch was applied and is searchable (for
     * measurements; a hook that blocks holds the consumer back). Set it before {@link #start()}.
     */
    public IndexUpdater afterBatch(Consumer<Batch<String, String>> hook) {
        this.afterBatch = hook;
        return this;
    }

    /** Starts following the feed; blocks until every shard has its start cursor (after a first rebuild, if any). */
    public IndexUpdater start() throws Exception {
        consumer.start().toCompletableFuture().get();
        return this;
    }

    @Override
    public void handle(Batch<String, String> batch) throws Exception {
        Map<String, Optional<Map<String, String>>> next = new LinkedHashMap<>();
        for (Change<String, String> c : batch) {
            apply(c, next);
        }
        index.apply(next);
        batches.increment();
        if (batch.kind() == Batch.Kind.SNAPSHOT) {
            rebuildEntries.add(batch.size());
        } else {
            changes.add(batch.size());
        }
        afterBatch.accept(batch);
    }

    private void apply(Change<String, String> c, Map<String, Optional<Map<String, String>>> next) throws Exception {
        switch (c.op()) {
            case SNAPSHOT:
                next.put(c.key(), c.valueType() == ValueType.HASH ? Optional.of(map(c.fields())) : Optional.empty());
                return;
            case VANISHED:
                next.put(c.key(), Optional.empty());
                return;
            case FLUSH:
                index.deleteAll();
                next.clear();
                return;
            default:
                break;
        }
        if (!c.exact()) {
            for (String k : c.keys()) {
                if (k.startsWith(prefix)) {
                    next.put(k, read(k));
                }
            }
            return;
        }
        switch (c.op()) {
            case HSET: {
                Map<String, String> doc = new TreeMap<>(current(c.key(), next).orElse(Map.of()));
                doc.putAll(map(c.fields()));
                next.put(c.key(), Optional.of(doc));
                return;
            }
            case HDEL: {
                Map<String, String> doc = new TreeMap<>(current(c.key(), next).orElse(Map.of()));
                c.fieldNames().forEach(doc::remove);
                next.put(c.key(), doc.isEmpty() ? Optional.empty() : Optional.of(doc));
                return;
            }
            case EXPIRE:
            case PERSIST:
                return;
            case RENAME: {
                String src = c.keys().get(0);
                String dst = c.keys().get(1);
                Optional<Map<String, String>> moved = src.startsWith(prefix) ? current(src, next) : read(dst);
                if (src.startsWith(prefix)) {
                    next.put(src, Optional.empty());
                }
                if (dst.startsWith(prefix)) {
                    next.put(dst, moved);
                }
                return;
            }
            default:
                // DEL, and every write that leaves a non-hash value (SET, MSET, list/set/zset writes)
                for (String k : c.keys()) {
                    if (k.startsWith(prefix)) {
                        next.put(k, Optional.empty());
                    }
                }
        }
    }

    private Optional<Map<String, String>> current(String key, Map<String, Optional<Map<String, String>>> next) {
        Optional<Map<String, String>> pending = next.get(key);
        return pending != null ? pending : index.get(key);
    }

    /** The key's current fields read from the server (empty when it is not a hash). */
    private Optional<Map<String, String>> read(String key) throws Exception {
        reads.increment();
        Optional<KeySnapshot> snap = source.snapshot(key.getBytes(StandardCharsets.UTF_8)).toCompletableFuture()
                .get(READ_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (snap.isEmpty() || snap.get().type() != ValueType.HASH) {
            return Optional.empty();
        }
        Map<String, String> m = new TreeMap<>();
        List<byte[]> flat = snap.get().value();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            m.put(new String(flat.get(i), StandardCharsets.UTF_8), new String(flat.get(i + 1), StandardCharsets.UTF_8));
        }
        return Optional.of(m);
    }

    private static Map<String, String> map(List<KeyValue<String, String>> pairs) {
        Map<String, String> m = new TreeMap<>();
        for (KeyValue<String, String> kv : pairs) {
            m.put(kv.getKey(), kv.getValue());
        }
        return m;
    }

    /** The consumer (health, state, rebuild()). */
    public FeedConsumer<String, String> consumer() {
        return consumer;
    }

    /** The index kept current. */
    public HashIndex index() {
        return index;
    }

    /** Batches applied (feed and rebuild). */
    public long batches() {
        return batches.sum();
    }

    /** Feed changes applied. */
    public long changes() {
        return changes.sum();
    }

    /** Rebuild entries applied (SNAPSHOT and VANISHED). */
    public long rebuildEntries() {
        return rebuildEntries.sum();
    }

    /** Keys read from the server to resolve inexact changes. */
    public long reads() {
        return reads.sum();
    }

    /** Stops the consumer: the batch in flight finishes and its cursor is saved. The index stays open. */
    @Override
    public void close() {
        consumer.close();
    }
}
