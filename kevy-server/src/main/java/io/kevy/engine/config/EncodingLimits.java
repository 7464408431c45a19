package io.kevy.engine.config;

/**
 * The encoding thresholds of Redis 7.0 that decide what OBJECT ENCODING reports for small collections
 * ({@code hash-max-listpack-entries}, {@code zset-max-listpack-value}, ...), live values that CONFIG SET changes.
 * kevy's value types read them where the encoding affects behaviour (for hashes: reply order and HSCAN; for
 * HyperLogLogs, {@code hll-sparse-max-bytes}, the stored bytes; for streams, {@code stream-node-max-*}, the
 * node boundaries that approximate trimming and DUMP see); the others only report the encoding.
 *
 * <p>Thread-safe: volatile fields, written by CONFIG SET, read under shard locks. {@link #DEFAULTS} holds Redis
 * 7.0's defaults and is never changed.
 */
public final class EncodingLimits {
    /** Redis 7.0's defaults; read-only by convention (no setter is called on it). */
    public static final EncodingLimits DEFAULTS = new EncodingLimits();

    private volatile long hashMaxListpackEntries = 512;
    private volatile long hashMaxListpackValue = 64;
    private volatile long setMaxIntsetEntries = 512;
    private volatile long zsetMaxListpackEntries = 128;
    private volatile long zsetMaxListpackValue = 64;
    private volatile int listMaxListpackSize = -2;
    private volatile int listCompressDepth = 0;
    private volatile long hllSparseMaxBytes = 3000;
    private volatile long streamNodeMaxBytes = 4096;
    private volatile long streamNodeMaxEntries = 100;

    /** Registers these limits under their Redis names (and the 6.x ziplist aliases) in {@code rc}. */
    public void register(RuntimeConfig rc) {
        if (this == DEFAULTS) {
            throw new IllegalStateException("the defaults are not configurable");
        }
        rc.integer("hash-max-listpack-entries", 0, Long.MAX_VALUE, () -> hashMaxListpackEntries,
                v -> hashMaxListpackEntries = v, "hash-max-ziplist-entries");
        rc.memory("hash-max-listpack-value", 0, Long.MAX_VALUE, () -> hashMaxListpackValue,
                v -> hashMaxListpackValue = v, "hash-max-ziplist-value");
        rc.integer("set-max-intset-entries", 0, Long.MAX_VALUE, () -> setMaxIntsetEntries,
                v -> setMaxIntsetEntries = v);
        rc.integer("zset-max-listpack-entries", 0, Long.MAX_VALUE, () -> zsetMaxListpackEntries,
                v -> zsetMaxListpackEntries = v, "zset-max-ziplist-entries");
        rc.memory("zset-max-listpack-value", 0, Long.MAX_VALUE, () -> zsetMaxListpackValue,
                v -> zsetMaxListpackValue = v, "zset-max-ziplist-value");
        rc.integer("list-max-listpack-size", Integer.MIN_VALUE, Integer.MAX_VALUE, () -> listMaxListpackSize,
                v -> listMaxListpackSize = (int) v, "list-max-ziplist-size");
        rc.integer("list-compress-depth", 0, Integer.MAX_VALUE, () -> listCompressDepth,
                v -> listCompressDepth = (int) v);
        rc.memory("hll-sparse-max-bytes", 0, Long.MAX_VALUE, () -> hllSparseMaxBytes, v -> hllSparseMaxBytes = v);
        rc.memory("stream-node-max-bytes", 0, Long.MAX_VALUE, () -> streamNodeMaxBytes, v -> streamNodeMaxBytes = v);
        rc.integer("stream-node-max-entries", 0, Long.MAX_VALUE, () -> streamNodeMaxEntries,
                v -> streamNodeMaxEntries = v);
    }

    /** Most fields of a listpack-encoded hash ({@code hash-max-listpack-entries}, default 512). */
    public long hashMaxListpackEntries() {
        return hashMaxListpackEntries;
    }

    /** Longest field or value of a listpack-encoded hash, bytes ({@code hash-max-listpack-value}, default 64). */
    public long hashMaxListpackValue() {
        return hashMaxListpackValue;
    }

    /** Most members of an intset-encoded set ({@code set-max-intset-entries}, default 512). */
    public long setMaxIntsetEntries() {
        return setMaxIntsetEntries;
    }

    /** Most members of a listpack-encoded sorted set ({@code zset-max-listpack-entries}, default 128). */
    public long zsetMaxListpackEntries() {
        return zsetMaxListpackEntries;
    }

    /** Longest member of a listpack-encoded sorted set, bytes ({@code zset-max-listpack-value}, default 64). */
    public long zsetMaxListpackValue() {
        return zsetMaxListpackValue;
    }

    /**
     * {@code list-max-listpack-size} (default -2): positive = most elements per quicklist node, -1..-5 = node
     * size limits of 4, 8, 16, 32, 64 KiB.
     */
    public int listMaxListpackSize() {
        return listMaxListpackSize;
    }

    /**
     * The longest sparse HyperLogLog string, header included, bytes ({@code hll-sparse-max-bytes}, default
     * 3000): an edit that would make it longer turns it dense.
     */
    public long hllSparseMaxBytes() {
        return hllSparseMaxBytes;
    }

    /**
     * Most bytes of a stream's listpack node before XADD starts a new one ({@code stream-node-max-bytes}, default
     * 4096; 0: Redis's 1 GiB listpack limit).
     */
    public long streamNodeMaxBytes() {
        return streamNodeMaxBytes;
    }

    /**
     * Most entries of a stream's listpack node, deleted-flagged ones included ({@code stream-node-max-entries},
     * default 100; 0: no count limit).
     */
    public long streamNodeMaxEntries() {
        return streamNodeMaxEntries;
    }

    /** {@code list-compress-depth} (default 0). */
    public int listCompressDepth() {
        return listCompressDepth;
    }
}
