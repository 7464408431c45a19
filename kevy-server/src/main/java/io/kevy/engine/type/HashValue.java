package io.kevy.engine.type;

import io.kevy.engine.ValueType;
import io.kevy.engine.Verbs;
import io.kevy.engine.struct.Dict;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A hash: field to value, both immutable {@code byte[]}. OBJECT ENCODING reports {@code listpack} while the
 * hash is within Redis 7.0's {@code hash-max-listpack-entries} (128) and {@code hash-max-listpack-value} (64
 * bytes), {@code hashtable} once it has outgrown them (and from then on, as Redis does).
 *
 * <p>Not thread-safe: used under the owning shard's lock.
 */
public final class HashValue implements RedisValue {
    public static final int LISTPACK_MAX_ENTRIES = 128;
    public static final int LISTPACK_MAX_VALUE = 64;

    private final Dict<byte[]> fields = new Dict<>();
    private boolean hashtable;

    /** The value of {@code field}, or null. */
    public byte[] get(byte[] field) {
        return fields.get(field);
    }

    /** Sets {@code field}; returns the previous value or null when the field is new. */
    public byte[] put(byte[] field, byte[] value) {
        byte[] prev = fields.put(field, value);
        if (!hashtable && (fields.size() > LISTPACK_MAX_ENTRIES || field.length > LISTPACK_MAX_VALUE
                || value.length > LISTPACK_MAX_VALUE)) {
            hashtable = true;
        }
        return prev;
    }

    /** Removes {@code field}; returns true when it was present. */
    public boolean remove(byte[] field) {
        return fields.remove(field) != null;
    }

    /** The underlying table (iteration, HSCAN, HRANDFIELD). */
    public Dict<byte[]> fields() {
        return fields;
    }

    @Override
    public ValueType type() {
        return ValueType.HASH;
    }

    @Override
    public String encoding() {
        return hashtable ? "hashtable" : "listpack";
    }

    @Override
    public HashValue copy() {
        HashValue h = new HashValue();
        fields.forEach(n -> h.fields.put(n.key(), n.value()));
        h.hashtable = hashtable;
        return h;
    }

    @Override
    public int size() {
        return fields.size();
    }

    @Override
    public void rebuild(byte[] key, Consumer<byte[][]> frames) {
        List<byte[]> chunk = new ArrayList<>();
        fields.forEach(n -> {
            if (chunk.isEmpty()) {
                chunk.add(Verbs.HSET);
                chunk.add(key);
            }
            chunk.add(n.key());
            chunk.add(n.value());
            if ((chunk.size() - 2) / 2 == REBUILD_CHUNK) {
                frames.accept(chunk.toArray(new byte[0][]));
                chunk.clear();
            }
        });
        if (!chunk.isEmpty()) {
            frames.accept(chunk.toArray(new byte[0][]));
        }
    }

    @Override
    public long memoryUsage() {
        long[] bytes = {64};
        fields.forEach(n -> bytes[0] += 48 + n.key().length + n.value().length + 32);
        return bytes[0];
    }
}
