package io.kevy.engine.command;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Bit arithmetic on strings as Redis 7.0's {@code bitops.c} does it. Bit 0 is the most significant bit of byte 0;
 * bits beyond the end of an array read as 0 (Redis treats a string as zero-padded to infinity).
 *
 * <p>Thread-safe: static, stateless. Arrays passed in are only written by {@link #setUnsigned}, which callers
 * use on a private copy (stored strings are immutable).
 */
final class BitOps {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private BitOps() {
    }

    /** The number of set bits in {@code p[from..from+len)} (Redis's {@code redisPopcount}). */
    static long popcount(byte[] p, int from, int len) {
        long count = 0;
        int i = from;
        int end = from + len;
        for (; i + 8 <= end; i += 8) {
            count += Long.bitCount((long) LONGS.get(p, i));
        }
        for (; i < end; i++) {
            count += Integer.bitCount(p[i] & 0xff);
        }
        return count;
    }

    /**
     * The position of the first bit equal to {@code bit} in {@code p[from..from+len)}, counted from bit 0 of
     * {@code p[from]} (Redis's {@code redisBitpos}). When there is none: -1 when looking for a 1, and
     * {@code len * 8} (the first bit after the range, as if zero-padded) when looking for a 0.
     */
    static long bitpos(byte[] p, int from, int len, int bit) {
        int skip = bit == 1 ? 0 : 0xff; // a byte without the wanted bit
        int i = from;
        int end = from + len;
        long skipWord = bit == 1 ? 0L : -1L;
        while (i + 8 <= end && (long) LONGS.get(p, i) == skipWord) {
            i += 8;
        }
        for (; i < end; i++) {
            int b = p[i] & 0xff;
            if (b != skip) {
                int x = bit == 1 ? b : ~b & 0xff;
                return (long) (i - from) * 8 + Integer.numberOfLeadingZeros(x) - 24;
            }
        }
        return bit == 1 ? -1 : (long) len * 8;
    }

    /** The bit at {@code offset} of {@code p} (0 beyond its end). */
    static int getBit(byte[] p, long offset) {
        long idx = offset >>> 3;
        if (idx >= p.length) {
            return 0;
        }
        return (p[(int) idx] >> (7 - (int) (offset & 7))) & 1;
    }

    /**
     * The {@code bits}-bit unsigned integer at bit {@code offset}, most significant bit first (Redis's
     * {@code getUnsignedBitfield}); bits beyond the end of {@code p} read as 0. {@code bits} is 1..64.
     */
    static long getUnsigned(byte[] p, long offset, int bits) {
        long value = 0;
        for (int j = 0; j < bits; j++) {
            value = (value << 1) | getBit(p, offset + j);
        }
        return value;
    }

    /** As {@link #getUnsigned}, sign-extended from bit {@code bits - 1} (Redis's {@code getSignedBitfield}). */
    static long getSigned(byte[] p, long offset, int bits) {
        long value = getUnsigned(p, offset, bits);
        if (bits < 64 && (value & (1L << (bits - 1))) != 0) {
            value |= -1L << bits;
        }
        return value;
    }

    /**
     * Writes the low {@code bits} bits of {@code value} at bit {@code offset}, most significant first (Redis's
     * {@code setUnsignedBitfield}, also used for signed fields). {@code p} must cover every bit written.
     */
    static void setUnsigned(byte[] p, long offset, int bits, long value) {
        for (int j = 0; j < bits; j++) {
            int bitval = (int) (value >>> (bits - 1 - j)) & 1;
            long o = offset + j;
            int idx = (int) (o >>> 3);
            int shift = 7 - (int) (o & 7);
            p[idx] = (byte) ((p[idx] & ~(1 << shift)) | (bitval << shift));
        }
    }

    /**
     * Redis's {@code checkUnsignedBitfieldOverflow} without the limit: 1 when {@code value + incr} exceeds the
     * {@code bits}-bit unsigned range (or {@code value}, read as unsigned, already does), -1 when it goes below
     * 0, else 0. {@code value} is unsigned, {@code incr} signed.
     */
    static int unsignedOverflow(long value, long incr, int bits) {
        long max = (1L << bits) - 1; // bits <= 63
        long maxIncr = max - value;
        long minIncr = -value;
        if (Long.compareUnsigned(value, max) > 0 || (incr > 0 && incr > maxIncr)) {
            return 1;
        }
        if (incr < 0 && incr < minIncr) {
            return -1;
        }
        return 0;
    }

    /** The WRAP result of an unsigned field: {@code value + incr} modulo 2^bits. */
    static long unsignedWrap(long value, long incr, int bits) {
        return (value + incr) & ~(-1L << bits);
    }

    /** The SAT result of an unsigned field for an overflow in {@code direction} (1 or -1). */
    static long unsignedSaturate(int direction, int bits) {
        return direction > 0 ? (1L << bits) - 1 : 0;
    }

    /**
     * Redis's {@code checkSignedBitfieldOverflow} without the limit: 1 for an overflow above the {@code bits}-bit
     * signed range, -1 below it, else 0. The intermediate differences wrap as in Redis's C code (which makes
     * {@code SET i8 <-2^63>} count as an overflow upwards, as Redis does).
     */
    static int signedOverflow(long value, long incr, int bits) {
        long max = bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1;
        long min = -max - 1;
        long maxIncr = max - value;
        long minIncr = min - value;
        if (value > max || (bits != 64 && incr > maxIncr) || (value >= 0 && incr > 0 && incr > maxIncr)) {
            return 1;
        }
        if (value < min || (bits != 64 && incr < minIncr) || (value < 0 && incr < 0 && incr < minIncr)) {
            return -1;
        }
        return 0;
    }

    /** The WRAP result of a signed field: {@code value + incr} in two's complement, sign-extended from the top bit. */
    static long signedWrap(long value, long incr, int bits) {
        long c = value + incr;
        if (bits < 64) {
            long mask = -1L << bits;
            c = (c & (1L << (bits - 1))) != 0 ? c | mask : c & ~mask;
        }
        return c;
    }

    /** The SAT result of a signed field for an overflow in {@code direction} (1 or -1). */
    static long signedSaturate(int direction, int bits) {
        long max = bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1;
        return direction > 0 ? max : -max - 1;
    }
}
