package io.kevy.engine.type;

import io.kevy.engine.config.EncodingLimits;
import io.kevy.engine.struct.Dict;
import io.kevy.engine.struct.InlineStringNode;
import io.kevy.resp.Verbs;
import java.util.Arrays;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * A hash: field to value, both immutable {@code byte[]}, in one of Redis 7.0's two encodings.
 *
 * <ul>
 *   <li><b>listpack</b>: while the hash has at most {@code hash-max-listpack-entries} fields (512 by default)
 *       and no field or value written to it was longer than {@code hash-max-listpack-value} bytes (64). The
 *       pairs are kept in insertion order and searched linearly, as Redis does, so HGETALL, HKEYS, HVALS, HSCAN
 *       and HRANDFIELD with a count at least the size reply in the same order as Redis.</li>
 *   <li><b>hashtable</b>: a {@link Dict} (order by hash, HSCAN by reverse-binary cursor). Once converted, a hash
 *       stays a hashtable, as in Redis.</li>
 * </ul>
 *
 * <p>The limits are the live CONFIG values ({@link EncodingLimits}); writers that have none at hand use
 * {@link EncodingLimits#DEFAULTS}. The listpack check follows Redis: the lengths of each written field and value
 * are checked against the value limit and the size against the entry limit.
 *
 * <p>Not thread-safe: used under the owning shard's lock. A stored hash is never empty (the commands delete the
 * key with its last field).
 */
public final class HashValue implements RedisValue {
    /** Pairs in insertion order, {@code [f0, v0, f1, v1, ...]}; null once converted to a hashtable. */
    private byte[][] pairs = new byte[8][];
    private int count;
    /** The hashtable encoding; null while listpack. */
    private Dict<byte[]> table;

    /** The value of {@code field}, or null. */
    public byte[] get(byte[] field) {
        if (table != null) {
            return table.get(field);
        }
        int i = indexOf(field);
        return i < 0 ? null : pairs[i + 1];
    }

    /** True when {@code field} is present. */
    public boolean contains(byte[] field) {
        return get(field) != null;
    }

    /** Sets {@code field} with the default limits; see {@link #put(byte[], byte[], EncodingLimits)}. */
    public byte[] put(byte[] field, byte[] value) {
        return put(field, value, EncodingLimits.DEFAULTS);
    }

    /**
     * Sets {@code field} to {@code value} (an existing field keeps its position). A listpack hash converts to a
     * hashtable first when {@code field} or {@code value} is longer than the value limit, and after the write when
     * it has more fields than the entry limit (Redis 7.0's {@code hashTypeSet}).
     *
     * @return the previous value, or null when the field is new
     */
    public byte[] put(byte[] field, byte[] value, EncodingLimits limits) {
        if (table == null && (field.length > limits.hashMaxListpackValue()
                || value.length > limits.hashMaxListpackValue())) {
            convert();
        }
        if (table != null) {
            return table.put(field, value);
        }
        int i = indexOf(field);
        if (i >= 0) {
            byte[] prev = pairs[i + 1];
            pairs[i + 1] = value;
            return prev;
        }
        if (2 * count + 2 > pairs.length) {
            pairs = Arrays.copyOf(pairs, Math.max(8, pairs.length * 2));
        }
        pairs[2 * count] = field;
        pairs[2 * count + 1] = value;
        count++;
        if (count > limits.hashMaxListpackEntries()) {
            convert();
        }
        return null;
    }

    /** Removes {@code field}; returns true when it was present. */
    public boolean remove(byte[] field) {
        if (table != null) {
            return table.remove(field) != null;
        }
        int i = indexOf(field);
        if (i < 0) {
            return false;
        }
        System.arraycopy(pairs, i + 2, pairs, i, 2 * count - i - 2);
        count--;
        pairs[2 * count] = null;
        pairs[2 * count + 1] = null;
        return true;
    }

    /** Calls {@code action(field, value)} for every pair, in listpack order or table order. */
    public void forEach(BiConsumer<byte[], byte[]> action) {
        if (table != null) {
            table.forEach(n -> action.accept(n.key(), n.value()));
            return;
        }
        for (int i = 0; i < 2 * count; i += 2) {
            action.accept(pairs[i], pairs[i + 1]);
        }
    }

    /**
     * One HSCAN step (Redis 7.0): a listpack hash returns every pair at once and cursor 0; a hashtable visits the
     * bucket(s) of {@code cursor} with the {@link Dict#scan} guarantee.
     *
     * @return the next cursor, 0 when the scan is complete
     */
    public long scan(long cursor, BiConsumer<byte[], byte[]> action) {
        if (table != null) {
            return table.scan(cursor, n -> action.accept(n.key(), n.value()));
        }
        forEach(action);
        return 0;
    }

    /** True while the listpack encoding is in use (HSCAN ignores COUNT then, as Redis). */
    public boolean isListpack() {
        return table == null;
    }

    /** A uniformly random pair as {@code {field, value}}; the hash must not be empty. */
    public byte[][] randomPair(RandomGenerator random) {
        if (table != null) {
            Dict.Node<byte[]> n = table.randomNode(random);
            return new byte[][] {n.key(), n.value()};
        }
        int i = 2 * random.nextInt(count);
        return new byte[][] {pairs[i], pairs[i + 1]};
    }

    /** Every pair as {@code [f0, v0, f1, v1, ...]} in iteration order (a fresh array). */
    public byte[][] toFlatArray() {
        byte[][] out = new byte[2 * size()][];
        int[] i = {0};
        forEach((f, v) -> {
            out[i[0]++] = f;
            out[i[0]++] = v;
        });
        return out;
    }

    @Override
    public ValueType type() {
        return ValueType.HASH;
    }

    @Override
    public String encoding() {
        return table == null ? "listpack" : "hashtable";
    }

    @Override
    public HashValue copy() {
        HashValue h = new HashValue();
        if (table != null) {
            h.table = new Dict<>(InlineStringNode::new);
            table.forEach(n -> h.table.put(n.key(), n.value()));
        } else {
            h.pairs = Arrays.copyOf(pairs, Math.max(8, 2 * count));
            h.count = count;
        }
        return h;
    }

    @Override
    public int size() {
        return table != null ? table.size() : count;
    }

    @Override
    public void rebuild(byte[] key, Consumer<byte[][]> frames) {
        byte[][] all = toFlatArray();
        for (int from = 0; from < all.length; from += 2 * REBUILD_CHUNK) {
            int n = Math.min(2 * REBUILD_CHUNK, all.length - from);
            byte[][] frame = new byte[2 + n][];
            frame[0] = Verbs.HSET;
            frame[1] = key;
            System.arraycopy(all, from, frame, 2, n);
            frames.accept(frame);
        }
    }

    @Override
    public long memoryUsage() {
        long[] bytes = {table == null ? 64 + 16L * count : 64 + 8L * table.buckets()};
        long perEntry = table == null ? 4 : 48;
        forEach((f, v) -> bytes[0] += perEntry + f.length + v.length);
        return bytes[0];
    }

    private int indexOf(byte[] field) {
        for (int i = 0; i < 2 * count; i += 2) {
            if (Arrays.equals(pairs[i], field)) {
                return i;
            }
        }
        return -1;
    }

    private void convert() {
        Dict<byte[]> t = new Dict<>(InlineStringNode::new);
        for (int i = 0; i < 2 * count; i += 2) {
            t.put(pairs[i], pairs[i + 1]);
        }
        table = t;
        pairs = null;
        count = 0;
    }
}
