package io.kevy.engine.type;

import static io.kevy.engine.type.HyperLogLog.HEADER;
import static io.kevy.engine.type.HyperLogLog.REGISTERS;

/**
 * The sparse HyperLogLog representation of Redis 7.0 ({@code hyperloglog.c}): run-length opcodes after the
 * 16-byte header. ZERO {@code 00xxxxxx} is 1..64 zero registers, XZERO {@code 01xxxxxx yyyyyyyy} 1..16384 zero
 * registers (14 bits, most significant first), VAL {@code 1vvvvvxx} 1..4 registers of value 1..32.
 *
 * <p>{@link #set} edits the opcodes with Redis's steps (find the opcode, split it into at most five bytes, merge
 * equal neighbouring VALs in a window of five opcodes, promote to dense when needed), because those steps decide
 * the bytes a value ends with. A representation is valid when its runs add up to exactly 16384 registers: the
 * conversion to dense, the merge and the count refuse any other (an opcode that runs past register 16383
 * included, as Redis 7.0.15 with the CVE-2025-32023 fix does); an XZERO cut by the end of the string reads its
 * missing byte as 0, as Redis reads the string's terminator. Nothing is read outside the string.
 *
 * <p>Thread-safe (static, stateless).
 */
final class HllSparse {
    private static final int VAL_MAX_VALUE = 32;
    private static final int VAL_MAX_LEN = 4;
    private static final int ZERO_MAX_LEN = 64;

    private HllSparse() {
    }

    private static int at(byte[] b, int len, int i) {
        return i < len ? b[i] & 0xff : 0;
    }

    private static boolean isZero(int op) {
        return (op & 0xc0) == 0;
    }

    private static boolean isXzero(int op) {
        return (op & 0xc0) == 0x40;
    }

    private static boolean isVal(int op) {
        return (op & 0x80) != 0;
    }

    private static int valValue(int op) {
        return ((op >>> 2) & 0x1f) + 1;
    }

    private static int valLen(int op) {
        return (op & 3) + 1;
    }

    private static int xzeroLen(byte[] b, int len, int p) {
        return (((b[p] & 0x3f) << 8) | at(b, len, p + 1)) + 1;
    }

    static void putXzero(byte[] b, int p, int n) {
        b[p] = (byte) (((n - 1) >>> 8) | 0x40);
        b[p + 1] = (byte) ((n - 1) & 0xff);
    }

    private static byte val(int value, int n) {
        return (byte) (((value - 1) << 2 | (n - 1)) | 0x80);
    }

    /** The number of registers the opcode at {@code p} covers. */
    private static int span(byte[] b, int len, int p) {
        int op = b[p] & 0xff;
        return isZero(op) ? (op & 0x3f) + 1 : isVal(op) ? valLen(op) : xzeroLen(b, len, p);
    }

    /** Redis's {@code hllSparseSet}: 1 changed, 0 unchanged, -1 corrupted (nothing changed). */
    static int set(HyperLogLog h, int index, int count, long maxBytes) {
        if (count > VAL_MAX_VALUE) {
            return promote(h, index, count);
        }
        byte[] b = h.buf;
        int end = h.len;
        int p = HEADER;
        int first = 0;
        int prev = -1;
        int span = 0;
        while (p < end) {
            span = span(b, end, p);
            if (index <= first + span - 1) {
                break;
            }
            prev = p;
            p += isXzero(b[p] & 0xff) ? 2 : 1;
            first += span;
        }
        if (span == 0 || p >= end) {
            return -1;
        }
        int op = b[p] & 0xff;
        int oldLen = isXzero(op) ? 2 : 1;
        int next = p + oldLen >= end ? -1 : p + oldLen;
        int runlen = span;
        if (isVal(op)) {
            if (valValue(op) >= count) {
                return 0;
            }
            if (runlen == 1) {
                h.own(0);
                h.buf[p] = val(count, 1);
                merge(h, prev);
                return 1;
            }
        }
        if (isZero(op) && runlen == 1) {
            h.own(0);
            h.buf[p] = val(count, 1);
            merge(h, prev);
            return 1;
        }
        byte[] seq = new byte[5];
        int n = 0;
        int last = first + span - 1;
        if (isVal(op)) {
            int cur = valValue(op);
            if (index != first) {
                seq[n++] = val(cur, index - first);
            }
            seq[n++] = val(count, 1);
            if (index != last) {
                seq[n++] = val(cur, last - index);
            }
        } else {
            n = zeros(seq, n, index - first);
            seq[n++] = val(count, 1);
            n = zeros(seq, n, last - index);
        }
        int delta = n - oldLen;
        if (delta > 0 && (long) h.len + delta > maxBytes) {
            return promote(h, index, count);
        }
        h.own(8);
        b = h.buf;
        if (delta != 0 && next >= 0) {
            System.arraycopy(b, next, b, next + delta, end - next);
        }
        h.len += delta;
        System.arraycopy(seq, 0, b, p, n);
        merge(h, prev);
        return 1;
    }

    /** Writes the zero run of {@code n} registers (none when 0) as ZERO or XZERO at {@code seq[at]}. */
    private static int zeros(byte[] seq, int at, int n) {
        if (n == 0) {
            return at;
        }
        if (n > ZERO_MAX_LEN) {
            putXzero(seq, at, n);
            return at + 2;
        }
        seq[at] = (byte) (n - 1);
        return at + 1;
    }

    /**
     * Merges adjacent VALs of equal value while their run fits one opcode, looking at up to five opcodes from
     * {@code prev} (or the first), then marks the cached cardinality stale.
     */
    private static void merge(HyperLogLog h, int prev) {
        byte[] b = h.buf;
        int p = prev >= 0 ? prev : HEADER;
        int scan = 5;
        while (p < h.len && scan-- > 0) {
            int op = b[p] & 0xff;
            if (isXzero(op)) {
                p += 2;
                continue;
            }
            if (isZero(op)) {
                p++;
                continue;
            }
            if (p + 1 < h.len && isVal(b[p + 1] & 0xff)) {
                int nx = b[p + 1] & 0xff;
                int v = valValue(op);
                int sum = valLen(op) + valLen(nx);
                if (v == valValue(nx) && sum <= VAL_MAX_LEN) {
                    b[p + 1] = val(v, sum);
                    System.arraycopy(b, p + 1, b, p, h.len - p - 1);
                    h.len--;
                    continue;
                }
            }
            p++;
        }
        h.invalidateCache();
    }

    private static int promote(HyperLogLog h, int index, int count) {
        if (!h.toDense()) {
            return -1;
        }
        return h.denseSet(index, count);
    }

    /** The dense string of a sparse one (header copied, encoding dense), or null when corrupted. */
    static byte[] toDense(byte[] b, int len) {
        byte[] d = new byte[HyperLogLog.DENSE_SIZE];
        System.arraycopy(b, 0, d, 0, HEADER);
        d[4] = HyperLogLog.DENSE;
        int idx = 0;
        int p = HEADER;
        while (p < len) {
            int op = b[p] & 0xff;
            int run = span(b, len, p);
            if (run + idx > REGISTERS) {
                return null;
            }
            if (isVal(op)) {
                int v = valValue(op);
                for (int i = 0; i < run; i++) {
                    HyperLogLog.setRegister(d, d.length, idx + i, v);
                }
            }
            idx += run;
            p += isXzero(op) ? 2 : 1;
        }
        return idx == REGISTERS ? d : null;
    }

    /** Adds the register values to {@code histo}; false when they do not cover exactly 16384 registers. */
    static boolean histogram(byte[] b, int len, int[] histo) {
        int idx = 0;
        int p = HEADER;
        while (p < len) {
            int op = b[p] & 0xff;
            if (isZero(op)) {
                int run = (op & 0x3f) + 1;
                idx += run;
                histo[0] += run;
                p++;
            } else if (isXzero(op)) {
                int run = xzeroLen(b, len, p);
                idx += run;
                histo[0] += run;
                p += 2;
            } else {
                int run = valLen(op);
                idx += run;
                histo[valValue(op)] += run;
                p++;
            }
        }
        return idx == REGISTERS;
    }

    /** Raises {@code max}'s registers to this sparse HyperLogLog's; false when corrupted. */
    static boolean mergeInto(byte[] b, int len, byte[] max) {
        int i = 0;
        int p = HEADER;
        while (p < len) {
            int op = b[p] & 0xff;
            int run = span(b, len, p);
            if (run + i > REGISTERS) {
                return false;
            }
            if (isVal(op)) {
                int v = valValue(op);
                for (int j = i; j < i + run; j++) {
                    if (v > max[j]) {
                        max[j] = (byte) v;
                    }
                }
            }
            i += run;
            p += isXzero(op) ? 2 : 1;
        }
        return i == REGISTERS;
    }

    /** PFDEBUG DECODE's text: {@code z:<n>}, {@code Z:<n>}, {@code v:<value>,<n>}, space separated. */
    static String decode(byte[] b, int len) {
        StringBuilder sb = new StringBuilder();
        int p = HEADER;
        while (p < len) {
            int op = b[p] & 0xff;
            if (sb.length() > 0) {
                sb.append(' ');
            }
            if (isZero(op)) {
                sb.append("z:").append((op & 0x3f) + 1);
                p++;
            } else if (isXzero(op)) {
                sb.append("Z:").append(xzeroLen(b, len, p));
                p += 2;
            } else {
                sb.append("v:").append(valValue(op)).append(',').append(valLen(op));
                p++;
            }
        }
        return sb.toString();
    }
}
