package io.kevy.engine.dump;

import io.kevy.engine.struct.ListpackSizes;
import io.kevy.engine.text.RedisNumbers;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Redis's listpack ({@code src/listpack.c}, Redis 7.0): a 6-byte header (total bytes, element count as
 * little-endian u32/u16, 65535 when the count does not fit), the entries, and the {@code 0xFF} terminator. An
 * entry is its encoding, its data and its "backlen" (the length of encoding+data in 1-5 bytes, 7 bits per byte,
 * read right to left). Elements that are canonical integers ({@code lpStringToInt64}, the same rule as
 * {@link RedisNumbers#parseLongOr}) are stored as integers (7, 13, 16, 24, 32 or 64 bits), others as strings
 * with a 6, 12 or 32-bit length. A listpack is canonical: the same elements always make the same bytes.
 *
 * <p>Not thread-safe (a {@link Builder} is used by one thread); {@link #read} is a pure function.
 */
public final class Listpack {
    private static final int HEADER = 6;
    private static final int EOF = 0xff;

    private Listpack() {
    }

    /** Appends elements and produces the listpack bytes. */
    public static final class Builder {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private int count;

        public Builder() {
        }

        /** Appends {@code element}, integer-encoded when it is a canonical integer, as {@code lpAppend}. */
        public Builder add(byte[] element) {
            long v = RedisNumbers.parseLongOr(element, Long.MIN_VALUE);
            if (v != Long.MIN_VALUE || RedisNumbers.isLong(element)) {
                return addInteger(v);
            }
            int len = element.length;
            int encLen;
            if (len < 64) {
                out.write(0x80 | len);
                encLen = 1 + len;
            } else if (len < 4096) {
                out.write(0xe0 | (len >> 8));
                out.write(len & 0xff);
                encLen = 2 + len;
            } else {
                out.write(0xf0);
                writeLe(len, 4);
                encLen = 5 + len;
            }
            out.writeBytes(element);
            backlen(encLen);
            count++;
            return this;
        }

        /** Appends the integer {@code v}, as {@code lpAppendInteger}. */
        public Builder addInteger(long v) {
            int encLen;
            if (v >= 0 && v <= 127) {
                out.write((int) v);
                encLen = 1;
            } else if (v >= -4096 && v <= 4095) {
                long u = v < 0 ? (1L << 13) + v : v;
                out.write((int) (u >> 8) | 0xc0);
                out.write((int) (u & 0xff));
                encLen = 2;
            } else if (v >= -32768 && v <= 32767) {
                out.write(0xf1);
                writeLe(v, 2);
                encLen = 3;
            } else if (v >= -8388608 && v <= 8388607) {
                out.write(0xf2);
                writeLe(v, 3);
                encLen = 4;
            } else if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
                out.write(0xf3);
                writeLe(v, 4);
                encLen = 5;
            } else {
                out.write(0xf4);
                writeLe(v, 8);
                encLen = 9;
            }
            backlen(encLen);
            count++;
            return this;
        }

        /** Bytes the listpack would have now, terminator included (Redis's {@code lpBytes}). */
        public int bytes() {
            return HEADER + out.size() + 1;
        }

        /** Number of elements appended. */
        public int count() {
            return count;
        }

        /** The listpack: header, entries, terminator. */
        public byte[] build() {
            byte[] b = out.toByteArray();
            byte[] lp = new byte[HEADER + b.length + 1];
            System.arraycopy(b, 0, lp, HEADER, b.length);
            int total = lp.length;
            for (int i = 0; i < 4; i++) {
                lp[i] = (byte) (total >>> (8 * i));
            }
            int n = Math.min(count, 65535);
            lp[4] = (byte) n;
            lp[5] = (byte) (n >>> 8);
            lp[total - 1] = (byte) EOF;
            return lp;
        }

        private void writeLe(long v, int n) {
            for (int i = 0; i < n; i++) {
                out.write((int) (v >>> (8 * i)) & 0xff);
            }
        }

        private void backlen(long l) {
            if (l <= 127) {
                out.write((int) l);
            } else if (l < 16383) {
                out.write((int) (l >> 7));
                out.write((int) (l & 127) | 128);
            } else if (l < 2097151) {
                out.write((int) (l >> 14));
                out.write((int) ((l >> 7) & 127) | 128);
                out.write((int) (l & 127) | 128);
            } else if (l < 268435455) {
                out.write((int) (l >> 21));
                out.write((int) ((l >> 14) & 127) | 128);
                out.write((int) ((l >> 7) & 127) | 128);
                out.write((int) (l & 127) | 128);
            } else {
                out.write((int) (l >> 28));
                out.write((int) ((l >> 21) & 127) | 128);
                out.write((int) ((l >> 14) & 127) | 128);
                out.write((int) ((l >> 7) & 127) | 128);
                out.write((int) (l & 127) | 128);
            }
        }
    }

    /**
     * The elements of the listpack {@code lp}, integers as their decimal text, after checking all of it as
     * Redis's deep {@code lpValidateIntegrity} does: the header's byte count equals the length, every entry's
     * encoding, data and backlen lie inside and agree, the terminator ends it, the element count matches (unless
     * it is 65535).
     *
     * @throws DumpFormatException when any check fails
     */
    public static List<byte[]> read(byte[] lp) {
        int size = lp.length;
        if (size < HEADER + 1) {
            throw new DumpFormatException("listpack shorter than its header");
        }
        long total = le(lp, 0, 4);
        if (total != size) {
            throw new DumpFormatException("listpack byte count " + total + " differs from its length " + size);
        }
        if ((lp[size - 1] & 0xff) != EOF) {
            throw new DumpFormatException("listpack without its terminator");
        }
        int declared = (int) le(lp, 4, 2);
        List<byte[]> out = new ArrayList<>(Math.min(declared, 1024));
        int p = HEADER;
        while (p < size - 1) {
            int start = p;
            int b = lp[p] & 0xff;
            byte[] element;
            if ((b & 0x80) == 0) {
                element = RedisNumbers.toBytes(b);
                p += 1;
            } else if ((b & 0xc0) == 0x80) {
                int len = b & 0x3f;
                element = slice(lp, p + 1, len, size - 1);
                p += 1 + len;
            } else if ((b & 0xe0) == 0xc0) {
                need(lp, p, 2, size - 1);
                long u = ((b & 0x1f) << 8) | (lp[p + 1] & 0xff);
                element = RedisNumbers.toBytes(u >= 1 << 12 ? u - (1 << 13) : u);
                p += 2;
            } else if ((b & 0xf0) == 0xe0) {
                need(lp, p, 2, size - 1);
                int len = ((b & 0x0f) << 8) | (lp[p + 1] & 0xff);
                element = slice(lp, p + 2, len, size - 1);
                p += 2 + len;
            } else if (b == 0xf1 || b == 0xf2 || b == 0xf3 || b == 0xf4) {
                int n = b == 0xf1 ? 2 : b == 0xf2 ? 3 : b == 0xf3 ? 4 : 8;
                need(lp, p, 1 + n, size - 1);
                long u = le(lp, p + 1, n);
                long v = n == 8 ? u : (u << (64 - 8 * n)) >> (64 - 8 * n);
                element = RedisNumbers.toBytes(v);
                p += 1 + n;
            } else if (b == 0xf0) {
                need(lp, p, 5, size - 1);
                long len = le(lp, p + 1, 4);
                if (len > size) {
                    throw new DumpFormatException("listpack string longer than the listpack");
                }
                element = slice(lp, p + 5, (int) len, size - 1);
                p += 5 + (int) len;
            } else {
                throw new DumpFormatException("listpack entry with invalid encoding 0x" + Integer.toHexString(b));
            }
            long encLen = p - start;
            int backlenBytes = ListpackSizes.backlen(encLen);
            if (p + backlenBytes > size - 1) {
                throw new DumpFormatException("listpack entry's backlen outside the listpack");
            }
            if (decodeBacklen(lp, p + backlenBytes - 1, p) != encLen) {
                throw new DumpFormatException("listpack entry's backlen does not match its length");
            }
            p += backlenBytes;
            out.add(element);
        }
        if (declared != 65535 && declared != out.size()) {
            throw new DumpFormatException("listpack count " + declared + " differs from its " + out.size()
                    + " entries");
        }
        return out;
    }

    private static long decodeBacklen(byte[] lp, int last, int first) {
        long val = 0;
        int shift = 0;
        int p = last;
        while (true) {
            int b = lp[p] & 0xff;
            val |= (long) (b & 127) << shift;
            if ((b & 128) == 0) {
                return p == first ? val : -1;
            }
            shift += 7;
            p--;
            if (shift > 28 || p < first) {
                return -1;
            }
        }
    }

    private static void need(byte[] lp, int p, int n, int end) {
        if (p + n > end) {
            throw new DumpFormatException("listpack entry runs past the end");
        }
    }

    private static byte[] slice(byte[] lp, int from, int len, int end) {
        if ((long) from + len > end) {
            throw new DumpFormatException("listpack string runs past the end");
        }
        byte[] b = new byte[len];
        System.arraycopy(lp, from, b, 0, len);
        return b;
    }

    static long le(byte[] b, int at, int n) {
        long v = 0;
        for (int i = 0; i < n; i++) {
            v |= (long) (b[at + i] & 0xff) << (8 * i);
        }
        return v;
    }
}
