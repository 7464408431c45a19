package io.kevy.examples.cache;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * A read-through Caffeine cache of the hashes {@code <prefix><id>} in kevy: a miss loads the hash with
 * {@code HGETALL} over lettuce; an absent key is cached too (as empty), so a burst of lookups of a missing id
 * costs one read. Entries stay until {@link #invalidateKey} or {@link #invalidateAll} removes them: the cache
 * has no time-based expiry, because the change feed tells it when an entry is stale ({@link CacheInvalidator}).
 *
 * <p>Why an invalidation cannot be lost to a concurrent load: Caffeine computes a missing entry atomically per
 * key, and {@code invalidate} of a key whose load is in flight waits for the load to finish, then removes the
 * loaded value. So a load that read the old value just before a write is removed by that write's invalidation,
 * which comes after the write in the feed.
 *
 * <p>Thread-safe. Values are unmodifiable maps with fields in name order.
 */
public final class HashCache {
    /** Default {@link #HashCache(StatefulRedisConnection, String, long) maximum size}: 100,000 entries. */
    public static final long DEFAULT_MAX_SIZE = 100_000;

    private final StatefulRedisConnection<String, String> connection;
    private final String prefix;
    private final LoadingCache<String, Optional<Map<String, String>>> cache;
    private final LongAdder loads = new LongAdder();
    private final LongAdder invalidations = new LongAdder();

    /**
     * A cache of the hashes under {@code prefix}, read over {@code connection} (not closed by the cache).
     *
     * @param maximumSize the most entries kept (least recently and frequently used ones are evicted first)
     */
    public HashCache(StatefulRedisConnection<String, String> connection, String prefix, long maximumSize) {
        this.connection = Objects.requireNonNull(connection, "connection");
        this.prefix = Objects.requireNonNull(prefix, "prefix");
        this.cache = Caffeine.newBuilder().maximumSize(maximumSize).build(this::load);
    }

    private Optional<Map<String, String>> load(String id) {
        loads.increment();
        Map<String, String> fields = connection.sync().hgetall(prefix + id);
        return fields.isEmpty() ? Optional.empty() : Optional.of(Collections.unmodifiableMap(new TreeMap<>(fields)));
    }

    /** The key prefix, e.g. {@code user:}. */
    public String prefix() {
        return prefix;
    }

    /**
     * The hash of {@code id} (key {@code prefix + id}), from the cache or loaded from kevy; empty when the key
     * does not exist (or is not a hash with fields).
     *
     * @throws io.lettuce.core.RedisException when a load fails (nothing is cached then)
     */
    public Optional<Map<String, String>> get(String id) {
        return cache.get(id);
    }

    /**
     * What the cache would serve for {@code id} without loading: null when nothing is cached, else the cached
     * hash (empty when the cached answer is "absent").
     */
    public Optional<Map<String, String>> peek(String id) {
        return cache.getIfPresent(id);
    }

    /**
     * Drops the entry of kevy key {@code key}; keys outside the prefix are ignored.
     *
     * @return true when the key is under the prefix
     */
    public boolean invalidateKey(String key) {
        if (key == null || !key.startsWith(prefix)) {
            return false;
        }
        cache.invalidate(key.substring(prefix.length()));
        invalidations.increment();
        return true;
    }

    /** Drops every entry (after a rebuild, the feed cannot say which entries are stale). */
    public void invalidateAll() {
        cache.invalidateAll();
    }

    /** The cached entries now, id → hash (empty optional = cached as absent); a copy. */
    public Map<String, Optional<Map<String, String>>> entries() {
        return new LinkedHashMap<>(cache.asMap());
    }

    /** Entries cached now (approximate while writers run). */
    public long size() {
        return cache.estimatedSize();
    }

    /** Loads from kevy since creation. */
    public long loads() {
        return loads.sum();
    }

    /** {@link #invalidateKey} calls for keys under the prefix since creation. */
    public long invalidations() {
        return invalidations.sum();
    }
}
