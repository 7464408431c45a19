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
    /** Stream entry ids (XADD's assigned id, XDEL's, XACK's, XCLAIM's, XSETID's last id, a stream SNAPSHOT's). */
    final byte[][] ids;
    /** A stream SNAPSHOT's entries: field, value ... per entry, parallel to ids; else null. */
    final byte[][][] entryFields;
    /** Consumer group and consumer (XGROUP, XCLAIM, XACK, XREADGROUP), else null. */
    final byte[] group;
    final byte[] consumer;
    /** Stream counters: last id, entries-added, max-deleted-id (XSETID, stream SNAPSHOT; parts may be null). */
    final byte[][] streamMeta;

    private RawChange(Parts p, boolean keysKnown, byte[][] keys, byte[][] pairs) {
        this.op = p.op;
        this.exact = p.exact;
        this.keysKnown = keysKnown;
        this.keys = keys;
        this.value = p.value;
        this.pairs = pairs;
        this.names = p.names;
        this.elements = p.elements;
        this.scores = p.scores;
        this.count = p.count;
        this.expireAt = p.expireAt;
        this.ttl = p.ttl;
        this.keepTtl = p.keepTtl;
        this.valueType = p.valueType;
        this.ids = p.ids;
        this.entryFields = p.entryFields;
        this.group = p.group;
        this.consumer = p.consumer;
        this.streamMeta = p.streamMeta;
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
        return new RawChange(parts(), true, kept.toArray(new byte[0][]),
                op == Op.MSET ? keptPairs.toArray(new byte[0][]) : pairs);
    }

    /** The parts of this change (to build a narrowed copy). */
    private Parts parts() {
        Parts p = new Parts(op, keys);
        p.exact = exact;
        p.value = value;
        p.names = names;
        p.elements = elements;
        p.scores = scores;
        p.count = count;
        p.expireAt = expireAt;
        p.ttl = ttl;
        p.keepTtl = keepTtl;
        p.valueType = valueType;
        p.ids = ids;
        p.entryFields = entryFields;
        p.group = group;
        p.consumer = consumer;
        p.streamMeta = streamMeta;
        return p;
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
        byte[][] ids = NONE;
        byte[][][] entryFields;
        byte[] group;
        byte[] consumer;
        byte[][] streamMeta;

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
            return new RawChange(this, keysKnown, keys, pairs);
        }
    }
}
