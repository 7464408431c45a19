package io.kevy.engine.dump;

/**
 * Redis's CRC-64 ({@code src/crc64.c}): the Jones polynomial {@code 0xad93d23594c935a9}, reflected input and
 * output, initial value 0, no final xor; {@code crc64("123456789") == 0xe9c6d914c4b8d9ca}. It guards DUMP
 * payloads and RDB files. Thread-safe (a constant table).
 */
public final class Crc64 {
    /** The Jones polynomial bit-reversed, for the reflected (LSB-first) algorithm. */
    private static final long POLY_REFLECTED = Long.reverse(0xad93d23594c935a9L);
    private static final long[] TABLE = new long[256];

    static {
        for (int i = 0; i < 256; i++) {
            long crc = i;
            for (int b = 0; b < 8; b++) {
                crc = (crc & 1) != 0 ? (crc >>> 1) ^ POLY_REFLECTED : crc >>> 1;
            }
            TABLE[i] = crc;
        }
    }

    private Crc64() {
    }

    /** The CRC of {@code data[from, to)} continuing from {@code crc} (0 to start). */
    public static long update(long crc, byte[] data, int from, int to) {
        long c = crc;
        for (int i = from; i < to; i++) {
            c = TABLE[(int) ((c ^ data[i]) & 0xff)] ^ (c >>> 8);
        }
        return c;
    }
}
