package io.kevy.engine.type;

import io.kevy.engine.config.EncodingLimits;
import io.kevy.engine.struct.Dict;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.resp.Verbs;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * A set of immutable {@code byte[]} members, with Redis 7.0's two encodings: {@code intset} while every member
 * is a canonical integer ({@code string2ll} rules, see {@link RedisNumbers}) and there are at most
 * {@code set-max-intset-entries} (the live limit of the {@link EncodingLimits} it was created with, read at each
 * add as Redis reads its config); {@code hashtable} from the first member that breaks either rule on, for good
 * (as in Redis).
 *
 * <p>The intset is a sorted {@code long[]}: membership by binary search, iteration in ascending numeric order,
 * exactly like Redis's intset, so SMEMBERS, SUNION, SSCAN ... of integer sets reply in the same order as
 * Redis. The hashtable is a {@link Dict} of the members (random members via {@link Dict#randomNode}, SSCAN via
 * {@link Dict#scan}).
 *
 * <p>Not thread-safe: used under the owning shard's lock.
 */
public final class SetValue implements RedisValue {
    /** Redis 7.0's default {@code set-max-intset-entries}. */
    public static final int MAX_INTSET_ENTRIES = 512;

    private static final Object PRESENT = Boolean.TRUE;

    /** The sorted members while the encoding is intset; null once it is a hashtable. */
    private long[] ints = new long[4];
    private int intCount;
    /** The members once the encoding is hashtable; null while it is an intset. */
    private Dict<Object> dict;

    private final EncodingLimits limits;

    /** An empty set under Redis's default limits (encoding intset until a member says otherwise). */
    public SetValue() {
        this(EncodingLimits.DEFAULTS);
    }

    /** An empty set whose encoding follows {@code limits} (the engine's live CONFIG values). */
    public SetValue(EncodingLimits limits) {
        this.limits = limits;
    }

    /** True while the encoding is intset. */
    public boolean isIntset() {
        return dict == null;
    }

    @Override
    public ValueType type() {
        return ValueType.SET;
    }

    @Override
    public String encoding() {
        return dict == null ? "intset" : "hashtable";
    }

    @Override
    public int size() {
        return dict == null ? intCount : dict.size();
    }

    public boolean isEmpty() {
        return size() == 0;
    }

    /** Adds {@code member}; returns true when it was not present. */
    public boolean add(byte[] member) {
        if (dict == null) {
            long v = RedisNumbers.parseLongOr(member, Long.MIN_VALUE);
            if (v != Long.MIN_VALUE || RedisNumbers.isLong(member)) {
                int at = Arrays.binarySearch(ints, 0, intCount, v);
                if (at >= 0) {
                    return false;
                }
                insertInt(-at - 1, v);
                if (intCount > limits.setMaxIntsetEntries()) {
                    toHashtable();
                }
                return true;
            }
            toHashtable();
        }
        Dict.Node<Object> n = dict.findOrAdd(member);
        if (n.value() != null) {
            return false;
        }
        n.value(PRESENT);
        return true;
    }

    /** Removes {@code member}; returns true when it was present. */
    public boolean remove(byte[] member) {
        if (dict != null) {
            return dict.remove(member) != null;
        }
        int at = intIndex(member);
        if (at < 0) {
            return false;
        }
        System.arraycopy(ints, at + 1, ints, at, intCount - at - 1);
        intCount--;
        return true;
    }

    /** True when {@code member} is in the set. */
    public boolean contains(byte[] member) {
        return dict != null ? dict.containsKey(member) : intIndex(member) >= 0;
    }

    /** Calls {@code action} for each member: ascending numeric order for an intset, table order otherwise. */
    public void forEach(Consumer<byte[]> action) {
        if (dict != null) {
            dict.forEach(n -> action.accept(n.key()));
        } else {
            for (int i = 0; i < intCount; i++) {
                action.accept(RedisNumbers.toBytes(ints[i]));
            }
        }
    }

    /** The members in {@link #forEach} order. */
    public List<byte[]> members() {
        List<byte[]> out = new ArrayList<>(size());
        forEach(out::add);
        return out;
    }

    /** A uniformly random member ({@link Dict#randomNode} for a hashtable); null when empty. */
    public byte[] random(RandomGenerator rnd) {
        if (dict != null) {
            Dict.Node<Object> n = dict.randomNode(rnd);
            return n == null ? null : n.key();
        }
        return intCount == 0 ? null : RedisNumbers.toBytes(ints[rnd.nextInt(intCount)]);
    }

    /**
     * One SSCAN step. A hashtable emits the bucket(s) named by {@code cursor} and returns the next cursor (0
     * when done), with the Redis guarantee of {@link Dict#scan}; an intset emits every member at once and
     * returns 0, as Redis does for its compact encodings.
     */
    public long scan(long cursor, Consumer<byte[]> action) {
        if (dict == null) {
            forEach(action);
            return 0;
        }
        return dict.scan(cursor, n -> action.accept(n.key()));
    }

    @Override
    public SetValue copy() {
        SetValue s = new SetValue(limits);
        if (dict == null) {
            s.ints = Arrays.copyOf(ints, Math.max(4, intCount));
            s.intCount = intCount;
        } else {
            s.ints = null;
            s.dict = new Dict<>();
            dict.forEach(n -> s.dict.put(n.key(), PRESENT));
        }
        return s;
    }

    /** {@code SADD key m ...}, at most {@link #REBUILD_CHUNK} members per frame. */
    @Override
    public void rebuild(byte[] key, Consumer<byte[][]> frames) {
        List<byte[]> chunk = new ArrayList<>();
        forEach(m -> {
            if (chunk.isEmpty()) {
                chunk.add(Verbs.SADD);
                chunk.add(key);
            }
            chunk.add(m);
            if (chunk.size() - 2 == REBUILD_CHUNK) {
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
        if (dict == null) {
            return 48 + 16 + 8L * ints.length;
        }
        long[] bytes = {64 + 8 * dict.buckets()};
        dict.forEach(n -> bytes[0] += 48 + 16 + n.key().length);
        return bytes[0];
    }

    private int intIndex(byte[] member) {
        long v = RedisNumbers.parseLongOr(member, Long.MIN_VALUE);
        if (v == Long.MIN_VALUE && !RedisNumbers.isLong(member)) {
            return -1;
        }
        int at = Arrays.binarySearch(ints, 0, intCount, v);
        return at >= 0 ? at : -1;
    }

    private void insertInt(int at, long v) {
        if (intCount == ints.length) {
            ints = Arrays.copyOf(ints, ints.length * 2);
        }
        System.arraycopy(ints, at, ints, at + 1, intCount - at);
        ints[at] = v;
        intCount++;
    }

    private void toHashtable() {
        Dict<Object> d = new Dict<>();
        for (int i = 0; i < intCount; i++) {
            d.put(RedisNumbers.toBytes(ints[i]), PRESENT);
        }
        dict = d;
        ints = null;
        intCount = 0;
    }
}
