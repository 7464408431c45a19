package io.kevy.engine.type;

import java.util.function.Consumer;

/**
 * A collection value stored in the keyspace (strings are plain {@code byte[]}). Implementations are mutable
 * and not thread-safe: they are only touched under the owning shard's lock.
 *
 * <p>Read methods must not change the structure: a snapshot captures values and reads them from its own
 * thread while the shard goes on, replacing a captured value by a {@link #copy()} before writing to it (see
 * {@code Keyspace.valueForWrite}).
 */
public interface RedisValue {
    /** Most elements in one rebuild frame (feed contract §7: large values are split into frames of at most 1024). */
    int REBUILD_CHUNK = 1024;

    /** The Redis type. */
    ValueType type();

    /** What OBJECT ENCODING reports, mirroring Redis 7.0's thresholds (e.g. {@code "listpack"}). */
    String encoding();

    /** A deep copy (COPY, cross-shard RENAME). Member byte arrays are shared: they are immutable. */
    RedisValue copy();

    /**
     * Number of elements (fields, members, entries); a stored value is never empty, except a stream (XDEL of every
     * entry, XTRIM MAXLEN 0 and XGROUP CREATE MKSTREAM leave an empty stream, as in Redis).
     */
    int size();

    /**
     * Emits the commands that rebuild this value under {@code key} from nothing, in order, each carrying at most
     * {@link #REBUILD_CHUNK} elements: {@code HSET key f v ...}, {@code RPUSH key e ...}, {@code SADD key m ...},
     * {@code ZADD key score m ...} (feed contract §7: *STORE results and cross-shard RENAME/COPY).
     */
    void rebuild(byte[] key, Consumer<byte[][]> frames);

    /** Approximate bytes used by the value (MEMORY USAGE); need not be exact. */
    long memoryUsage();
}
