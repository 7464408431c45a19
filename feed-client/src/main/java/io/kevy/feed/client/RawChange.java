package io.kevy.feed.client;

/**
 * The decoded content of a frame or rebuild entry, in bytes (see {@link Change} for what each part means per
 * op). Package-private and immutable by convention.
 */
final class RawChange {
    static final byte[][] NONE = new byte[0][];
    /** The value of count, expireAt and ttl when the change has none. */
    static final long ABSENT = Long.MIN_VALUE;

    final Op op;
    final boolean exact;
    /** False when the keys are a guess or absent (unknown shapes, FLUSH, EVAL without keys): never filtered. */
    final boolean keysKnown;
    final byte[][] keys;
    final byte[] value;
    /** field, value, field, value ... (HSET, snapshot hash) or key, value ... (MSET). */
    final byte[][] pairs;
    /** hash field names (HDEL, HINCRBY). */
    final byte[][] names;
    /** list/set elements, zset members. */
    final byte[][] elements;
    /** scores parallel to elements (ZADD, snapshot zset), else null. */
    final double[] scores;
    final long count;
    final long expireAt;
    final long ttl;
    final boolean keepTtl;
    final ValueType valueType;

    RawChange(Op op, boolean exact, boolean keysKnown, byte[][] keys, byte[] value, byte[][] pairs, byte[][] names, byte[][] elements,
            double[] scores, long count, long expireAt, long ttl, boolean keepTtl, ValueType valueType) {
        this.op = op;
        this.exact = exact;
        this.keysKnown = keysKnown;
        this.keys = keys;
        this.value = value;
        this.pairs = pairs;
        this.names = names;
        this.elements = elements;
        this.scores = scores;
        this.count = count;
        this.expireAt = expireAt;
        this.ttl = ttl;
        this.keepTtl = keepTtl;
        this.valueType = valueType;
    }

    /**
     * This change narrowed to the keys {@code keep} accepts: the change itself when it keeps them all, null when
     * none; an MSET keeps the pairs of the kept keys. For single-key changes and DEL / MSET (the shapes whose
     * effect splits per key).
     */
    RawChange narrowed(java.util.function.Predicate<byte[]> keep) {
        java.util.List<byte[]> kept = new java.util.ArrayList<>(keys.length);
        java.util.List<byte[]> keptPairs = new java.util.ArrayList<>();
        for (int i = 0; i < keys.length; i++) {
            if (keep.test(keys[i])) {
                kept.add(keys[i]);
                if (op == Op.MSET) {
                    keptPairs.add(pairs[2 * i]);
                    keptPairs.add(pairs[2 * i + 1]);
                }
            }
        }
        if (kept.isEmpty()) {
            return null;
        }
        if (kept.size() == keys.length) {
            return this;
        }
        return new RawChange(op, exact, true, kept.toArray(new byte[0][]), value,
                op == Op.MSET ? keptPairs.toArray(new byte[0][]) : pairs, names, elements, scores, count, expireAt,
                ttl, keepTtl, valueType);
    }

    /** A builder-ish start: op and keys, nothing else known. */
    static Parts of(Op op, byte[]... keys) {
        return new Parts(op, keys);
    }

    /** Mutable assembly of a {@link RawChange}, used by the decoders only. */
    static final class Parts {
        Op op;
        boolean exact = true;
        boolean keysKnown = true;
        byte[][] keys;
        byte[] value;
        byte[][] pairs = NONE;
        byte[][] names = NONE;
        byte[][] elements = NONE;
        double[] scores;
        long count = ABSENT;
        long expireAt = ABSENT;
        long ttl = ABSENT;
        boolean keepTtl;
        ValueType valueType;

        Parts(Op op, byte[][] keys) {
            this.op = op;
            this.keys = keys;
        }

        Parts unknownKeys() {
            keysKnown = false;
            return this;
        }

        Parts inexact() {
            exact = false;
            return this;
        }

        RawChange build() {
            return new RawChange(op, exact, keysKnown, keys, value, pairs, names, elements, scores, count, expireAt, ttl,
                    keepTtl, valueType);
        }
    }
}
