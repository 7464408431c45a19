package io.kevy.engine.struct;

import io.kevy.engine.text.RedisNumbers;

/**
 * The byte sizes of Redis's listpack elements ({@code src/listpack.c}, Redis 7.0): an element is its encoding,
 * its data and its backlen. Canonical integers ({@code lpStringToInt64}) take 1 (7-bit), 2 (13-bit), 3 (16-bit),
 * 4 (24-bit), 5 (32-bit) or 9 (64-bit) bytes before the backlen; strings 1 + length (under 64 bytes), 2 + length
 * (under 4096) or 5 + length. The backlen takes 1 to 5 bytes (7 bits each). A listpack adds a 6-byte header
 * and a 1-byte terminator. Used where Redis's decisions depend on listpack bytes (stream nodes close at
 * {@code stream-node-max-bytes}). Pure functions; thread-safe.
 */
public final class ListpackSizes {
    /** Header (total bytes u32, element count u16) plus terminator, bytes. */
    public static final int EMPTY = 7;

    private ListpackSizes() {
    }

    /** Bytes of {@code element} as {@code lpAppend} stores it (integer-encoded when canonical), backlen included. */
    public static int element(byte[] element) {
        long v = RedisNumbers.parseLongOr(element, Long.MIN_VALUE);
        if (v != Long.MIN_VALUE || RedisNumbers.isLong(element)) {
            return integer(v);
        }
        int len = element.length;
        int encLen = len < 64 ? 1 + len : len < 4096 ? 2 + len : 5 + len;
        return encLen + backlen(encLen);
    }

    /** Bytes of the integer {@code v} as {@code lpAppendInteger} stores it, backlen included. */
    public static int integer(long v) {
        int encLen;
        if (v >= 0 && v <= 127) {
            encLen = 1;
        } else if (v >= -4096 && v <= 4095) {
            encLen = 2;
        } else if (v >= -32768 && v <= 32767) {
            encLen = 3;
        } else if (v >= -8388608 && v <= 8388607) {
            encLen = 4;
        } else if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
            encLen = 5;
        } else {
            encLen = 9;
        }
        return encLen + backlen(encLen);
    }

    /** Bytes of the backlen of an element whose encoding and data take {@code encLen} bytes. */
    public static int backlen(long encLen) {
        return encLen <= 127 ? 1 : encLen < 16383 ? 2 : encLen < 2097151 ? 3 : encLen < 268435455 ? 4 : 5;
    }
}
