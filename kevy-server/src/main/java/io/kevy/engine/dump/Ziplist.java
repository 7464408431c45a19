package io.kevy.engine.dump;

import io.kevy.engine.text.RedisNumbers;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads Redis's ziplist ({@code src/ziplist.c}), the compact encoding of RDB versions before 10 (Redis 6.x
 * DUMP payloads of small lists, hashes and sorted sets), which Redis 7.0 still loads. Header: total bytes and
 * tail offset (u32 LE), element count (u16 LE, 65535 = unknown); each entry: the previous entry's length (1 byte,
 * or {@code 0xFE} + u32 LE), the encoding (strings of 6/14/32-bit length; integers int8/16/24/32/64 or an
 * immediate 0..12 in the encoding byte), the data; then {@code 0xFF}. A pure function, thread-safe.
 */
public final class Ziplist {
    private static final int HEADER = 10;

    private Ziplist() {
    }

    /**
     * The elements of {@code zl}, integers as decimal text, after checking it as Redis's deep
     * {@code ziplistValidateIntegrity} does (sizes, tail offset, previous-entry lengths, terminator, count).
     *
     * @throws DumpFormatException when a check fails
     */
    public static List<byte[]> read(byte[] zl) {
        int size = zl.length;
        if (size < HEADER + 1) {
            throw new DumpFormatException("ziplist shorter than its header");
        }
        if (Listpack.le(zl, 0, 4) != size) {
            throw new DumpFormatException("ziplist byte count differs from its length");
        }
        if ((zl[size - 1] & 0xff) != 0xff) {
            throw new DumpFormatException("ziplist without its terminator");
        }
        long tail = Listpack.le(zl, 4, 4);
        int declared = (int) Listpack.le(zl, 8, 2);
        int end = size - 1;
        List<byte[]> out = new ArrayList<>(Math.min(declared, 1024));
        int p = HEADER;
        int prevLen = 0;
        int lastStart = HEADER;
        while (p < end) {
            int start = p;
            int b = zl[p] & 0xff;
            long prevlen;
            if (b < 254) {
                prevlen = b;
                p += 1;
            } else if (b == 254) {
                need(p, 5, end);
                prevlen = Listpack.le(zl, p + 1, 4);
                p += 5;
            } else {
                throw new DumpFormatException("ziplist entry with invalid previous length");
            }
            if (prevlen != prevLen) {
                throw new DumpFormatException("ziplist entry's previous length does not match");
            }
            need(p, 1, end);
            int e = zl[p] & 0xff;
            byte[] element;
            if ((e >> 6) == 0) {
                element = slice(zl, p + 1, e & 0x3f, end);
                p += 1 + (e & 0x3f);
            } else if ((e >> 6) == 1) {
                need(p, 2, end);
                int len = ((e & 0x3f) << 8) | (zl[p + 1] & 0xff);
                element = slice(zl, p + 2, len, end);
                p += 2 + len;
            } else if (e == 0x80) {
                need(p, 5, end);
                long len = ((long) (zl[p + 1] & 0xff) << 24) | ((zl[p + 2] & 0xff) << 16)
                        | ((zl[p + 3] & 0xff) << 8) | (zl[p + 4] & 0xff);
                if (len > size) {
                    throw new DumpFormatException("ziplist string longer than the ziplist");
                }
                element = slice(zl, p + 5, (int) len, end);
                p += 5 + (int) len;
            } else {
                int n = switch (e) {
                    case 0xc0 -> 2;
                    case 0xd0 -> 4;
                    case 0xe0 -> 8;
                    case 0xf0 -> 3;
                    case 0xfe -> 1;
                    default -> 0;
                };
                if (n > 0) {
                    need(p, 1 + n, end);
                    long u = Listpack.le(zl, p + 1, n);
                    long v = n == 8 ? u : (u << (64 - 8 * n)) >> (64 - 8 * n);
                    element = RedisNumbers.toBytes(v);
                    p += 1 + n;
                } else if (e >= 0xf1 && e <= 0xfd) {
                    element = RedisNumbers.toBytes((e & 0x0f) - 1);
                    p += 1;
                } else {
                    throw new DumpFormatException("ziplist entry with invalid encoding 0x" + Integer.toHexString(e));
                }
            }
            prevLen = p - start;
            lastStart = start;
            out.add(element);
        }
        if (!out.isEmpty() && tail != lastStart || out.isEmpty() && tail != HEADER) {
            throw new DumpFormatException("ziplist tail offset does not point at its last entry");
        }
        if (declared != 65535 && declared != out.size()) {
            throw new DumpFormatException("ziplist count differs from its entries");
        }
        return out;
    }

    private static void need(int p, int n, int end) {
        if ((long) p + n > end) {
            throw new DumpFormatException("ziplist entry runs past the end");
        }
    }

    private static byte[] slice(byte[] zl, int from, int len, int end) {
        need(from, len, end);
        byte[] b = new byte[len];
        System.arraycopy(zl, from, b, 0, len);
        return b;
    }
}
