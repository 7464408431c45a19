package io.kevy.engine.type;

import io.kevy.engine.ValueType;

/**
 * A collection value stored in the keyspace (strings are plain {@code byte[]}). Implementations are mutable
 * and not thread-safe: they are only touched under the owning shard's lock.
 */
public interface RedisValue {
    /** The Redis type. */
    ValueType type();

    /** What OBJECT ENCODING reports, mirroring Redis 7.0's thresholds (e.g. {@code "listpack"}). */
    String encoding();

    /** A deep copy (COPY, cross-shard RENAME). Member byte arrays are shared: they are immutable. */
    RedisValue copy();

    /** Number of elements (fields, members); a stored value is never empty. */
    int size();
}
