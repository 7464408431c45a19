package io.kevy.engine.type;

import io.kevy.engine.struct.MurmurHash64A;
import java.util.Arrays;

/**
 * A HyperLogLog being read or edited, in Redis 7.0's own string representation ({@code hyperloglog.c}), so the
 * bytes a command leaves are the bytes Redis would leave and a value copied from Redis works here:
 *
 * <pre>
 *   header (16 bytes): "HYLL", encoding (0 dense, 1 sparse), 3 unused bytes, cached cardinality (8 bytes,
 *                      little endian; its top bit set = stale)
 *   dense:  16384 registers of 6 bits, packed from the least significant bit of each byte (12288 bytes)
 *   sparse: opcodes ZERO 00xxxxxx (1..64 zero registers), XZERO 01xxxxxx yyyyyyyy (1..16384 zero registers),
 *           VAL 1vvvvvxx (1..4 registers of value 1..32)
 * </pre>
 *
 * <p>An element's register is the low 14 bits of its MurmurHash64A (seed {@code 0xadc83b19}); its value is the
 * position of the first set bit of the remaining 50 bits, plus one. A sparse value grows in place and turns
 * dense when a register needs more than 32 or the string would exceed {@code hll-sparse-max-bytes}; the sparse
 * edits ({@link HllSparse}) follow Redis's steps exactly, since they decide the bytes.
 *
 * <p>The stored value is never changed: the first edit copies it ({@link #toBytes()} gives the result). Not
 * thread-safe: one command uses an instance.
 */
public final class HyperLogLog {
    /** Registers per HyperLogLog (Redis's HLL_REGISTERS, 2^14). */
    public static final int REGISTERS = 1 << 14;
    /** Header bytes: magic, encoding, unused, cached cardinality. */
    public static final int HEADER = 16;
    /** Length of a dense HyperLogLog string: header plus 16384 six-bit registers. */
    public static final int DENSE_SIZE = HEADER + (REGISTERS * 6 + 7) / 8;
    /** The largest register value (6 bits). */
    static final int REGISTER_MAX = 63;
    static final int DENSE = 0;
    static final int SPARSE = 1;
    private static final int SEED = 0xadc83b19;
    private static final int CACHE_BYTE = 15;

    /** The representation: {@code len} bytes of {@code buf}, which may have spare room after them. */
    byte[] buf;
    int len;
    /** True while {@code buf} is the stored value (or shared): it is copied before the first write. */
    private boolean shared;

    private HyperLogLog(byte[] buf, int len, boolean shared) {
        this.buf = buf;
        this.len = len;
        this.shared = shared;
    }

    /**
     * True when {@code v} passes Redis's {@code isHLLObjectOrReply}: at least a header, the magic {@code HYLL},
     * a known encoding, and exactly {@link #DENSE_SIZE} bytes when dense. A sparse body is checked only as it is
     * read (corruption then answers {@code INVALIDOBJ}).
     */
    public static boolean isValid(byte[] v) {
        if (v.length < HEADER || v[0] != 'H' || v[1] != 'Y' || v[2] != 'L' || v[3] != 'L') {
            return false;
        }
        int enc = v[4] & 0xff;
        return enc == SPARSE || (enc == DENSE && v.length == DENSE_SIZE);
    }

    /** A view of the stored value {@code v} (already {@linkplain #isValid valid}); edits copy it first. */
    public static HyperLogLog of(byte[] v) {
        return new HyperLogLog(v, v.length, true);
    }

    /** A new empty HyperLogLog as Redis creates it: sparse, one XZERO of 16384 registers, cardinality 0. */
    public static HyperLogLog empty() {
        byte[] b = new byte[HEADER + 2];
        b[0] = 'H';
        b[1] = 'Y';
        b[2] = 'L';
        b[3] = 'L';
        b[4] = SPARSE;
        HllSparse.putXzero(b, HEADER, REGISTERS);
        return new HyperLogLog(b, b.length, false);
    }

    /** A new empty dense HyperLogLog (every register 0, cardinality 0), for tests and PFSELFTEST. */
    public static HyperLogLog emptyDense() {
        byte[] b = new byte[DENSE_SIZE];
        b[0] = 'H';
        b[1] = 'Y';
        b[2] = 'L';
        b[3] = 'L';
        return new HyperLogLog(b, b.length, false);
    }

    /** True when the encoding is dense. */
    public boolean isDense() {
        return buf[4] == DENSE;
    }

    /**
     * Adds one element (Redis's {@code hllAdd}): 1 when a register grew, 0 when none did, -1 when the sparse
     * representation is corrupted (nothing changed).
     *
     * @param sparseMaxBytes {@code hll-sparse-max-bytes}: the longest sparse string before promotion
     */
    public int add(byte[] element, long sparseMaxBytes) {
        long hash = MurmurHash64A.hash(element, 0, element.length, SEED);
        int index = (int) (hash & (REGISTERS - 1));
        int count = Long.numberOfTrailingZeros((hash >>> 14) | (1L << 50)) + 1;
        return set(index, count, sparseMaxBytes);
    }

    /** Raises register {@code index} to {@code count} when lower: 1 changed, 0 unchanged, -1 corrupted. */
    public int set(int index, int count, long sparseMaxBytes) {
        if (isDense()) {
            return denseSet(index, count);
        }
        return HllSparse.set(this, index, count, sparseMaxBytes);
    }

    int denseSet(int index, int count) {
        if (count <= register(buf, len, index)) {
            return 0;
        }
        own(0);
        setRegister(buf, len, index, count);
        return 1;
    }

    /**
     * Turns a sparse representation dense (Redis's {@code hllSparseToDense}), keeping the header's cached
     * cardinality. False, with nothing changed, when the sparse registers do not add up to 16384.
     */
    public boolean toDense() {
        if (isDense()) {
            return true;
        }
        byte[] dense = HllSparse.toDense(buf, len);
        if (dense == null) {
            return false;
        }
        buf = dense;
        len = dense.length;
        shared = false;
        return true;
    }

    /** Marks the cached cardinality stale (Redis's {@code HLL_INVALIDATE_CACHE}). */
    public void invalidateCache() {
        if ((buf[CACHE_BYTE] & 0x80) == 0) {
            own(0);
            buf[CACHE_BYTE] |= (byte) 0x80;
        }
    }

    /** True when the header's cached cardinality is current. */
    public boolean cacheValid() {
        return (buf[CACHE_BYTE] & 0x80) == 0;
    }

    /** The cached cardinality (meaningful when {@link #cacheValid()}). */
    public long cachedCardinality() {
        long card = 0;
        for (int i = 7; i >= 0; i--) {
            card = card << 8 | (buf[8 + i] & 0xffL);
        }
        return card;
    }

    /** Stores {@code card} as the cached cardinality (little endian), which makes the cache valid. */
    public void cacheCardinality(long card) {
        own(0);
        for (int i = 0; i < 8; i++) {
            buf[8 + i] = (byte) (card >>> (8 * i));
        }
    }

    /**
     * The estimated cardinality (Redis's {@code hllCount}), or -1 when a sparse representation's registers do not
     * add up to 16384 (corrupted).
     */
    public long count() {
        int[] histo = new int[64];
        if (isDense()) {
            for (int i = 0; i < REGISTERS; i++) {
                histo[register(buf, len, i)]++;
            }
        } else if (!HllSparse.histogram(buf, len, histo)) {
            return -1;
        }
        return HllEstimator.estimate(histo);
    }

    /**
     * Raises each of {@code max}'s 16384 byte-wide registers to this HyperLogLog's (Redis's {@code hllMerge}).
     * False when a sparse representation is corrupted ({@code max} may then be partly raised).
     */
    public boolean mergeInto(byte[] max) {
        if (isDense()) {
            for (int i = 0; i < REGISTERS; i++) {
                int v = register(buf, len, i);
                if (v > max[i]) {
                    max[i] = (byte) v;
                }
            }
            return true;
        }
        return HllSparse.mergeInto(buf, len, max);
    }

    /** The estimated cardinality of byte-wide registers (PFCOUNT of several keys). */
    public static long countRegisters(byte[] max) {
        int[] histo = new int[64];
        for (byte b : max) {
            histo[b & REGISTER_MAX]++;
        }
        return HllEstimator.estimate(histo);
    }

    /** Register {@code index}'s value (dense). */
    public int register(int index) {
        return register(buf, len, index);
    }

    /** Sets dense register {@code index} to {@code val} (0..63) whatever it held (PFSELFTEST). */
    public void putRegister(int index, int val) {
        own(0);
        setRegister(buf, len, index, val);
    }

    /** PFDEBUG DECODE's text of a sparse representation: {@code Z:<n>}, {@code z:<n>}, {@code v:<value>,<n>}. */
    public String decode() {
        return HllSparse.decode(buf, len);
    }

    /** The representation's bytes: the stored value itself when nothing was edited, else a new exact array. */
    public byte[] toBytes() {
        return buf.length == len ? buf : Arrays.copyOf(buf, len);
    }

    /**
     * Makes {@code buf} private with room for {@code extra} more bytes after {@code len} (Redis's
     * {@code sdsMakeRoomFor} plus the unsharing of the stored value).
     */
    void own(int extra) {
        if (shared || buf.length < len + extra) {
            buf = Arrays.copyOf(buf, extra == 0 ? len : len + extra + 64); // spare room for the next edits
            shared = false;
        }
    }

    /** The dense register {@code index} of {@code b} (registers start after the header). */
    static int register(byte[] b, int len, int index) {
        int bit = index * 6;
        int at = HEADER + (bit >>> 3);
        int fb = bit & 7;
        int b0 = b[at] & 0xff;
        int b1 = at + 1 < len ? b[at + 1] & 0xff : 0;
        return ((b0 >>> fb) | (b1 << (8 - fb))) & REGISTER_MAX;
    }

    /** Sets the dense register {@code index} of {@code b} to {@code val} (0..63). */
    static void setRegister(byte[] b, int len, int index, int val) {
        int bit = index * 6;
        int at = HEADER + (bit >>> 3);
        int fb = bit & 7;
        b[at] = (byte) ((b[at] & ~(REGISTER_MAX << fb)) | (val << fb));
        if (at + 1 < len) {
            b[at + 1] = (byte) ((b[at + 1] & ~(REGISTER_MAX >>> (8 - fb))) | (val >>> (8 - fb)));
        }
    }
}
