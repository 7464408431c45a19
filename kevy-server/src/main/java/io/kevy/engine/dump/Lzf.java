package io.kevy.engine.dump;

/**
 * LZF as Redis builds it ({@code src/lzf_c.c}, {@code lzf_d.c}: HLOG 16, VERY_FAST, no ULTRA_FAST), so that
 * compressed strings in DUMP payloads come out as Redis writes them. Redis's hash table starts with whatever an
 * earlier call left in it (INIT_HTAB 0), which can, rarely, let Redis find a back-reference this clean-table
 * version does not: the output is then a different but equally valid compression of the same bytes.
 *
 * <p>Format: {@code 000LLLLL} + L+1 literal bytes; {@code LLLooooo oooooooo} a back-reference of L+2 bytes
 * (L in 1..6) at distance o+1; {@code 111ooooo LLLLLLLL oooooooo} one of L+9 bytes. Thread-safe (no state).
 */
public final class Lzf {
    private static final int HLOG = 16;
    private static final int HSIZE = 1 << HLOG;
    private static final int MAX_LIT = 1 << 5;
    private static final int MAX_OFF = 1 << 13;
    private static final int MAX_REF = (1 << 8) + (1 << 3);

    private Lzf() {
    }

    /**
     * Compresses {@code in} into at most {@code outLen} bytes, as {@code lzf_compress(in, in.length, out,
     * outLen)} does.
     *
     * @return the compressed bytes, or null when they do not fit in {@code outLen} (Redis then stores the string
     *     as it is)
     */
    public static byte[] compress(byte[] in, int outLen) {
        int inLen = in.length;
        if (inLen == 0 || outLen <= 0) {
            return null;
        }
        byte[] out = new byte[outLen];
        // Slots hold input positions; 0 reads as empty, as Redis's offsets from the input start do.
        int[] htab = new int[HSIZE];
        int ip = 0;
        int op = 0;
        int lit = 0;
        op++; // start run
        int hval = ((in[0] & 0xff) << 8) | (in[1 < inLen ? 1 : 0] & 0xff);
        if (inLen < 2) {
            hval = 0;
        }
        while (ip < inLen - 2) {
            hval = (hval << 8) | (in[ip + 2] & 0xff);
            int slot = idx(hval);
            int stored = htab[slot];
            int ref = stored == 0 ? -1 : stored;
            htab[slot] = ip;
            int off = ip - ref - 1;
            if (ref > 0 && off >= 0 && off < MAX_OFF
                    && in[ref + 2] == in[ip + 2] && in[ref] == in[ip] && in[ref + 1] == in[ip + 1]) {
                int len = 2;
                int maxlen = inLen - ip - len;
                maxlen = Math.min(maxlen, MAX_REF);
                if (op + 3 + 1 >= outLen && op - (lit == 0 ? 1 : 0) + 3 + 1 >= outLen) {
                    return null;
                }
                out[op - lit - 1] = (byte) (lit - 1); // stop run
                if (lit == 0) {
                    op--; // undo run if length is zero
                }
                len = matchLength(in, ref, ip, maxlen);
                len -= 2; // len is now #octets - 1
                ip++;
                if (len < 7) {
                    out[op++] = (byte) ((off >> 8) + (len << 5));
                } else {
                    out[op++] = (byte) ((off >> 8) + (7 << 5));
                    out[op++] = (byte) (len - 7);
                }
                out[op++] = (byte) off;
                lit = 0;
                op++; // start run
                ip += len + 1;
                if (ip >= inLen - 2) {
                    break;
                }
                ip -= 2;
                hval = ((in[ip] & 0xff) << 8) | (in[ip + 1] & 0xff);
                hval = (hval << 8) | (in[ip + 2] & 0xff);
                htab[idx(hval)] = ip;
                ip++;
                hval = (hval << 8) | (in[ip + 2] & 0xff);
                htab[idx(hval)] = ip;
                ip++;
            } else {
                if (op >= outLen) {
                    return null;
                }
                lit++;
                out[op++] = in[ip++];
                if (lit == MAX_LIT) {
                    out[op - lit - 1] = (byte) (lit - 1); // stop run
                    lit = 0;
                    op++; // start run
                }
            }
        }
        if (op + 3 > outLen) {
            return null;
        }
        while (ip < inLen) {
            lit++;
            out[op++] = in[ip++];
            if (lit == MAX_LIT) {
                out[op - lit - 1] = (byte) (lit - 1);
                lit = 0;
                op++;
                if (op > outLen) {
                    return null;
                }
            }
        }
        out[op - lit - 1] = (byte) (lit - 1); // end run
        if (lit == 0) {
            op--;
        }
        return java.util.Arrays.copyOf(out, op);
    }

    /**
     * The length of the match at {@code ref} for {@code ip}, whose first 3 bytes are known equal, as lzf_c.c
     * counts it: 16 unrolled steps when more than 16 bytes may follow (which can run up to 2 bytes past
     * {@code maxlen}, as Redis's does), then byte by byte up to {@code maxlen}.
     */
    private static int matchLength(byte[] in, int ref, int ip, int maxlen) {
        int len = 2;
        if (maxlen > 16) {
            for (int k = 0; k < 16; k++) {
                len++;
                if (in[ref + len] != in[ip + len]) {
                    return len;
                }
            }
        }
        do {
            len++;
        } while (len < maxlen && in[ref + len] == in[ip + len]);
        return len;
    }

    /** Redis's VERY_FAST hash slot of the 3 bytes in the low 24 bits of {@code h} (32-bit unsigned arithmetic). */
    private static int idx(int h) {
        return ((h >>> (3 * 8 - HLOG)) - h * 5) & (HSIZE - 1);
    }

    /**
     * Decompresses {@code in[from, from+len)} into exactly {@code outLen} bytes.
     *
     * @return the bytes, or null when the input is not valid LZF or does not decompress to exactly
     *     {@code outLen} bytes
     */
    public static byte[] decompress(byte[] in, int from, int len, int outLen) {
        byte[] out = new byte[outLen];
        int ip = from;
        int end = from + len;
        int op = 0;
        while (ip < end) {
            int ctrl = in[ip++] & 0xff;
            if (ctrl < (1 << 5)) {
                int n = ctrl + 1;
                if (op + n > outLen || ip + n > end) {
                    return null;
                }
                System.arraycopy(in, ip, out, op, n);
                op += n;
                ip += n;
            } else {
                int n = ctrl >> 5;
                int ref = op - ((ctrl & 0x1f) << 8) - 1;
                if (ip >= end) {
                    return null;
                }
                if (n == 7) {
                    n += in[ip++] & 0xff;
                    if (ip >= end) {
                        return null;
                    }
                }
                ref -= in[ip++] & 0xff;
                n += 2;
                if (op + n > outLen || ref < 0) {
                    return null;
                }
                for (int i = 0; i < n; i++) {
                    out[op++] = out[ref++];
                }
            }
        }
        return op == outLen ? out : null;
    }
}
