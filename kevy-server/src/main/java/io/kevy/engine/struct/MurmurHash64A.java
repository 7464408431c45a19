package io.kevy.engine.struct;

/**
 * MurmurHash2, 64-bit version (Austin Appleby's {@code MurmurHash64A}) in Redis's endian-neutral form: 8-byte
 * blocks read little endian on every platform, as Redis's {@code hyperloglog.c} does, so HyperLogLog registers
 * come out as Redis computes them.
 *
 * <p>Thread-safe (static, stateless).
 */
public final class MurmurHash64A {
    private static final long M = 0xc6a4a7935bd1e995L;
    private static final int R = 47;

    private MurmurHash64A() {
    }

    /**
     * The 64-bit hash of {@code data[off, off + len)} with {@code seed} (an unsigned 32-bit value, as Redis's
     * {@code unsigned int seed}).
     */
    public static long hash(byte[] data, int off, int len, int seed) {
        long h = (seed & 0xffffffffL) ^ (len * M);
        int end = off + (len & ~7);
        int i = off;
        for (; i < end; i += 8) {
            long k = (data[i] & 0xffL) | (data[i + 1] & 0xffL) << 8 | (data[i + 2] & 0xffL) << 16
                    | (data[i + 3] & 0xffL) << 24 | (data[i + 4] & 0xffL) << 32 | (data[i + 5] & 0xffL) << 40
                    | (data[i + 6] & 0xffL) << 48 | (data[i + 7] & 0xffL) << 56;
            k *= M;
            k ^= k >>> R;
            k *= M;
            h ^= k;
            h *= M;
        }
        int rest = len & 7;
        if (rest > 0) {
            for (int j = rest - 1; j >= 0; j--) {
                h ^= (data[i + j] & 0xffL) << (8 * j);
            }
            h *= M;
        }
        h ^= h >>> R;
        h *= M;
        h ^= h >>> R;
        return h;
    }
}
