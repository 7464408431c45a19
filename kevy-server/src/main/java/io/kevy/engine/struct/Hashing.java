package io.kevy.engine.struct;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.SecureRandom;

/**
 * The keyed hash used by every {@link Dict}: a 64-bit multiply-xorshift mix over 8-byte words, seeded once
 * per process from {@link SecureRandom} so that an attacker who controls keys cannot aim them at one bucket
 * (the reason Redis seeds SipHash). Not a cryptographic MAC; only distribution and seed-dependence matter.
 *
 * <p>Thread-safe and allocation-free.
 */
public final class Hashing {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long SEED = new SecureRandom().nextLong() | 1L;
    private static final long M1 = 0xa0761d6478bd642fL;
    private static final long M2 = 0xe7037ed1a0b428dbL;

    private Hashing() {
    }

    /** Returns the 32-bit hash of {@code key[0..len)}. */
    public static int hash(byte[] key) {
        return hash(key, 0, key.length);
    }

    /** Returns the 32-bit hash of {@code key[off..off+len)}. */
    public static int hash(byte[] key, int off, int len) {
        long h = SEED ^ (len * M1);
        int i = off;
        int end = off + len;
        while (end - i >= 8) {
            long w = (long) LONGS.get(key, i);
            h = mix(h ^ w, M2);
            i += 8;
        }
        long tail = 0;
        int shift = 0;
        while (i < end) {
            tail |= (key[i++] & 0xffL) << shift;
            shift += 8;
        }
        h = mix(h ^ tail ^ M1, M2);
        h ^= h >>> 29;
        return (int) (h ^ (h >>> 32));
    }

    private static long mix(long a, long b) {
        long lo = a * b;
        long hi = Math.multiplyHigh(a, b);
        return lo ^ hi;
    }
}
