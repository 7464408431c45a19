package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.DENYOOM;
import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.Keyspace;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.text.Bytes;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.resp.Verbs;
import java.util.Arrays;

/**
 * Bitmap commands on strings, Redis 7.0 semantics: SETBIT, GETBIT, BITCOUNT, BITPOS and BITOP here, BITFIELD and
 * BITFIELD_RO in {@link BitfieldCommands}. Bit arithmetic lives in {@link BitOps}.
 *
 * <p>Strings are immutable {@code byte[]} in the keyspace, so a bit write builds a new array (frames share
 * stored arrays): SETBIT and BITFIELD cost O(length of the string). Any bit write leaves the string {@code raw}
 * for OBJECT ENCODING, as Redis unshares it, even when no bit changed. Offsets are limited as Redis limits them
 * (their byte below {@code proto-max-bulk-len}, 512 MB by default), and by what a Java array holds when
 * proto-max-bulk-len is set above 2 GB.
 *
 * <p>Frames (feed contract §7, "in-place string edits become the new value"):
 * <ul>
 *   <li>SETBIT → {@code SET k <new> KEEPTTL}, only when the stored bytes changed: a new key (even for a 0 bit,
 *       which creates a zero-filled string), a longer string, or a flipped bit. Writing the bit it already has
 *       changes nothing and emits nothing (Redis 7.0 does not count it as a change either).</li>
 *   <li>BITOP → {@code SET dst <result>} (a plain SET: BITOP replaces any value and its TTL), or {@code DEL dst}
 *       when the result is empty and dst existed (Redis deletes dst then), else nothing.</li>
 * </ul>
 */
final class BitmapCommands {
    static final String GROUP = "bitmap";

    static final ErrorReply BIT_OFFSET = ErrorReply.err("bit offset is not an integer or out of range");
    private static final ErrorReply BIT_VALUE = ErrorReply.err("bit is not an integer or out of range");
    private static final ErrorReply BIT_ARGUMENT = ErrorReply.err("The bit argument must be 1 or 0.");
    private static final ErrorReply BITOP_NOT = ErrorReply.err("BITOP NOT must be called with a single source key.");

    /** Offsets whose byte is past this cannot be built as a Java array (with room for BITFIELD's 8-byte overhang). */
    private static final long MAX_OFFSET_BYTES = StringValues.MAX_ARRAY - 8;

    private static final int AND = 0;
    private static final int OR = 1;
    private static final int XOR = 2;
    private static final int NOT = 3;

    private BitmapCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("setbit", 4).flags(WRITE, DENYOOM).keys(1, 1, 1).group(GROUP).since("2.2.0")
                .summary("Sets or clears the bit at offset in the string value stored at key")
                .handler(BitmapCommands::setbit));
        t.add(command("getbit", 3).flags(READONLY, FAST).keys(1, 1, 1).group(GROUP).since("2.2.0")
                .summary("Returns the bit value at offset in the string value stored at key")
                .handler(BitmapCommands::getbit));
        t.add(command("bitcount", -2).flags(READONLY).keys(1, 1, 1).group(GROUP).since("2.6.0")
                .summary("Count set bits in a string").handler(BitmapCommands::bitcount));
        t.add(command("bitpos", -3).flags(READONLY).keys(1, 1, 1).group(GROUP).since("2.8.7")
                .summary("Find first bit set or clear in a string").handler(BitmapCommands::bitpos));
        t.add(command("bitop", -4).flags(WRITE, DENYOOM).keys(2, -1, 1).group(GROUP).since("2.6.0")
                .summary("Perform bitwise operations between strings").handler(BitmapCommands::bitop));
        BitfieldCommands.register(t);
    }

    /**
     * A bit offset argument (Redis's {@code getBitOffsetFromArgument}): a non-negative integer whose byte is below
     * {@code proto-max-bulk-len}; with {@code hash}, {@code #n} means {@code n * bits}.
     *
     * @throws io.kevy.engine.error.CommandException {@link #BIT_OFFSET} otherwise
     */
    static long bitOffset(Call c, int i, boolean hash, int bits) {
        byte[] a = c.arg(i);
        boolean useHash = hash && a.length > 0 && a[0] == '#';
        long offset = RedisNumbers.parseLong(useHash ? Arrays.copyOfRange(a, 1, a.length) : a,
                BIT_OFFSET);
        if (useHash) {
            offset *= bits; // wraps as Redis's C multiplication does
        }
        long bytes = offset >> 3;
        if (offset < 0 || (bytes >= StringValues.MIN_MAX_BULK
                && (bytes >= StringValues.maxBulkLen(c.engine()) || bytes >= MAX_OFFSET_BYTES))) {
            throw Call.fail(BIT_OFFSET);
        }
        return offset;
    }

    /**
     * A copy of {@code old} (null = empty) zero-extended to at least {@code length} bytes, allocated before
     * anything changes.
     *
     * @throws io.kevy.engine.error.CommandException OOM when the heap cannot hold it
     */
    static byte[] grownCopy(byte[] old, long length) {
        byte[] src = old == null ? Bytes.EMPTY : old;
        byte[] nv = StringValues.allocate(Math.max(src.length, length));
        System.arraycopy(src, 0, nv, 0, src.length);
        return nv;
    }

    /**
     * Ends a bit write to {@code key}: stores {@code nv} (keeping the TTL) and emits {@code SET k <new> KEEPTTL}
     * when it differs from {@code old} (null = the key was missing); otherwise only marks the string raw, as
     * Redis unshares it for any bit write. Either way the string's encoding is then {@code raw}.
     */
    static void finishWrite(Call c, byte[] key, byte[] old, byte[] nv) {
        if (old == null || !Arrays.equals(old, nv)) {
            StringEditCommands.store(c, key, nv, StringValues.HINT_RAW);
        } else {
            Keyspace.encodingHint(c.node(key), StringValues.HINT_RAW);
        }
    }

    private static void setbit(Call c) {
        byte[] key = c.arg(1);
        long offset = bitOffset(c, 2, false, 0);
        long on = c.longArg(3, BIT_VALUE);
        if ((on & ~1L) != 0) {
            throw Call.fail(BIT_VALUE);
        }
        byte[] old = c.value(key, byte[].class);
        int bit = old == null ? 0 : BitOps.getBit(old, offset);
        long needed = (offset >> 3) + 1;
        byte[] nv = old;
        if (old == null || needed > old.length || bit != on) {
            nv = grownCopy(old, needed);
            BitOps.setUnsigned(nv, offset, 1, on);
        }
        finishWrite(c, key, old, nv);
        c.reply().integer(bit);
    }

    private static void getbit(Call c) {
        long offset = bitOffset(c, 2, false, 0);
        byte[] v = c.read(c.arg(1), byte[].class);
        c.reply().integer(v == null ? 0 : BitOps.getBit(v, offset));
    }

    /** BITCOUNT key [start end [BYTE|BIT]], in Redis 7.0's order of checks (a missing key answers 0 first). */
    private static void bitcount(Call c) {
        byte[] p = c.read(c.arg(1), byte[].class);
        if (p == null) {
            c.reply().integer(0);
            return;
        }
        long start;
        long end;
        int firstMask = 0;
        int lastMask = 0;
        if (c.argc() == 4 || c.argc() == 5) {
            start = c.longArg(2);
            end = c.longArg(3);
            if (start < 0 && end < 0 && start > end) {
                c.reply().integer(0);
                return;
            }
            Span s = Span.of(start, end, p.length, c.argc() == 5 && unit(c, 4));
            start = s.start();
            end = s.end();
            firstMask = s.firstMask();
            lastMask = s.lastMask();
        } else if (c.argc() == 2) {
            start = 0;
            end = p.length - 1;
        } else {
            throw Call.fail(Errors.SYNTAX);
        }
        if (start > end) {
            c.reply().integer(0);
            return;
        }
        long count = BitOps.popcount(p, (int) start, (int) (end - start + 1));
        if (firstMask != 0) {
            count -= Integer.bitCount(p[(int) start] & firstMask);
        }
        if (lastMask != 0) {
            count -= Integer.bitCount(p[(int) end] & lastMask);
        }
        c.reply().integer(count);
    }

    /**
     * A BITCOUNT/BITPOS range {@code start..end} (in bits when {@code isBit}, else bytes; negative from the end)
     * clamped to a string of {@code bytes} bytes: the byte offsets {@code [start, end]} to scan and, for a BIT range,
     * the masks of the bits outside it in the first and last byte (0 = none), as Redis 7.0's bitcount/bitpos.
     */
    private record Span(long start, long end, int firstMask, int lastMask) {
        static Span of(long start, long end, long bytes, boolean isBit) {
            long[] r = Args.clampStringRange(start, end, isBit ? bytes << 3 : bytes);
            if (isBit && r[0] <= r[1]) {
                return new Span(r[0] >> 3, r[1] >> 3, ~((1 << (8 - (int) (r[0] & 7))) - 1) & 0xff,
                        (1 << (7 - (int) (r[1] & 7))) - 1);
            }
            return new Span(r[0], r[1], 0, 0);
        }
    }

    /** True for BIT, false for BYTE, else a syntax error. */
    private static boolean unit(Call c, int i) {
        if (c.argIs(i, "bit")) {
            return true;
        }
        if (c.argIs(i, "byte")) {
            return false;
        }
        throw Call.fail(Errors.SYNTAX);
    }

    /**
     * BITPOS key bit [start [end [BYTE|BIT]]], a port of Redis 7.0's {@code bitposCommand} with its quirks: a
     * missing key is all zeros (0 for a clear bit, -1 for a set one); looking for a clear bit in all-ones answers
     * the first bit after the string unless an end was given, then -1.
     */
    private static void bitpos(Call c) {
        long bit = c.longArg(2);
        if (bit != 0 && bit != 1) {
            throw Call.fail(BIT_ARGUMENT);
        }
        byte[] p = c.read(c.arg(1), byte[].class);
        if (p == null) {
            c.reply().integer(bit == 1 ? -1 : 0);
            return;
        }
        long start;
        long end;
        boolean endGiven = false;
        int firstMask = 0;
        int lastMask = 0;
        int argc = c.argc();
        if (argc == 4 || argc == 5 || argc == 6) {
            long totlen = p.length;
            start = c.longArg(3);
            boolean isBit = argc == 6 && unit(c, 5);
            if (argc >= 5) {
                end = c.longArg(4);
                endGiven = true;
            } else {
                end = totlen - 1;
            }
            Span s = Span.of(start, end, totlen, isBit);
            start = s.start();
            end = s.end();
            firstMask = s.firstMask();
            lastMask = s.lastMask();
        } else if (argc == 3) {
            start = 0;
            end = p.length - 1;
        } else {
            throw Call.fail(Errors.SYNTAX);
        }
        if (start > end) {
            c.reply().integer(-1);
            return;
        }
        c.reply().integer(findBit(p, (int) start, (int) end, (int) bit, firstMask, lastMask, endGiven));
    }

    /** The search of {@code bitposCommand} over bytes {@code [start, end]} with the edge masks of BIT ranges. */
    private static long findBit(byte[] p, int start, int end, int bit, int firstMask, int lastMask, boolean endGiven) {
        long bytes = end - start + 1;
        long pos;
        search:
        {
            if (firstMask != 0) {
                int tmp = bit == 1 ? p[start] & ~firstMask & 0xff : (p[start] | firstMask) & 0xff;
                if (lastMask != 0 && bytes == 1) {
                    tmp = bit == 1 ? tmp & ~lastMask & 0xff : (tmp | lastMask) & 0xff;
                }
                pos = BitOps.bitpos(new byte[] {(byte) tmp}, 0, 1, bit);
                if (bytes == 1 || (pos != -1 && pos != 8)) {
                    break search;
                }
                start++;
                bytes--;
            }
            long cur = bytes - (lastMask != 0 ? 1 : 0);
            if (cur > 0) {
                pos = BitOps.bitpos(p, start, (int) cur, bit);
                if (bytes == cur || (pos != -1 && pos != cur << 3)) {
                    break search;
                }
                start += (int) cur;
                bytes -= cur;
            }
            int tmp = bit == 1 ? p[end] & ~lastMask & 0xff : (p[end] | lastMask) & 0xff;
            pos = BitOps.bitpos(new byte[] {(byte) tmp}, 0, 1, bit);
        }
        if (endGiven && bit == 0 && pos == bytes << 3) {
            return -1;
        }
        if (pos != -1) {
            pos += (long) start << 3;
        }
        return pos;
    }

    /** BITOP AND|OR|XOR|NOT destkey key [key ...]; missing keys are empty strings. */
    private static void bitop(Call c) {
        int op;
        if (c.argIs(1, "and")) {
            op = AND;
        } else if (c.argIs(1, "or")) {
            op = OR;
        } else if (c.argIs(1, "xor")) {
            op = XOR;
        } else if (c.argIs(1, "not")) {
            op = NOT;
        } else {
            throw Call.fail(Errors.SYNTAX);
        }
        if (op == NOT && c.argc() != 4) {
            throw Call.fail(BITOP_NOT);
        }
        byte[] dst = c.arg(2);
        int n = c.argc() - 3;
        byte[][] src = new byte[n][];
        int maxLen = 0;
        for (int j = 0; j < n; j++) {
            src[j] = c.read(c.arg(j + 3), byte[].class);
            if (src[j] != null) {
                maxLen = Math.max(maxLen, src[j].length);
            }
        }
        if (maxLen == 0) {
            if (c.value(dst) != null) {
                c.db(dst).remove(dst);
                c.emit(Verbs.DEL, dst);
            }
            c.reply().integer(0);
            return;
        }
        byte[] res = grownCopy(null, maxLen);
        if (op == NOT) {
            for (int i = 0; i < maxLen; i++) {
                res[i] = (byte) ~src[0][i];
            }
        } else {
            combine(res, src, op);
        }
        Keyspace.encodingHint(c.db(dst).put(dst, res, false), StringValues.HINT_RAW);
        c.emit(Verbs.SET, dst, res);
        c.reply().integer(maxLen);
    }

    /** AND/OR/XOR of {@code src} into {@code res} (zeroed, the longest source's length); absent bytes are 0. */
    private static void combine(byte[] res, byte[][] src, int op) {
        byte[] first = src[0] == null ? Bytes.EMPTY : src[0];
        System.arraycopy(first, 0, res, 0, first.length);
        for (int j = 1; j < src.length; j++) {
            byte[] s = src[j] == null ? Bytes.EMPTY : src[j];
            if (op == AND) {
                for (int i = 0; i < res.length; i++) {
                    res[i] &= i < s.length ? s[i] : 0;
                }
            } else if (op == OR) {
                for (int i = 0; i < s.length; i++) {
                    res[i] |= s[i];
                }
            } else {
                for (int i = 0; i < s.length; i++) {
                    res[i] ^= s[i];
                }
            }
        }
    }
}
