package io.kevy.engine.command;

import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.type.StreamId;

/**
 * Stream id arguments as Redis 7.0 parses them ({@code streamGenericParseIDOrReply}): {@code <ms>-<seq>}, or
 * {@code <ms>} alone (the sequence then takes a default), each part an unsigned 64-bit decimal; {@code -} and
 * {@code +} for the smallest and largest id unless strict; at most 127 bytes. Every failure is
 * {@link #INVALID}. One difference: wherever {@code string2ll} fails Redis falls back to {@code strtoull}, which
 * also takes leading blanks in either part ({@code " 5-1"}, {@code "5- 7"}: checked against redis-server 7.0.15)
 * and, in the sequence, a {@code -} that wraps modulo 2^64 on magnitudes past 2^63 ({@code
 * 5--18446744073709551610} is {@code 5-6}); kevy takes an optional {@code +} but refuses blanks and {@code -}.
 */
final class StreamIds {
    static final ErrorReply INVALID = ErrorReply.err("Invalid stream ID specified as stream command argument");
    private static final int MAX_LENGTH = 127;

    /** An XADD id: {@code id}, and whether the sequence was given ({@code <ms>-*} leaves it to XADD). */
    record AddId(StreamId id, boolean seqGiven) {
    }

    private StreamIds() {
    }

    /** A strict id ({@code -} and {@code +} refused); {@code missingSeq} when only ms is given. */
    static StreamId strict(byte[] b, long missingSeq) {
        if (b.length == 1 && (b[0] == '-' || b[0] == '+')) {
            throw Call.fail(INVALID);
        }
        return parse(b, missingSeq);
    }

    /** An id, {@code -} and {@code +} included; {@code missingSeq} when only ms is given. */
    static StreamId parse(byte[] b, long missingSeq) {
        if (b.length > MAX_LENGTH) {
            throw Call.fail(INVALID);
        }
        if (b.length == 1 && b[0] == '-') {
            return StreamId.MIN;
        }
        if (b.length == 1 && b[0] == '+') {
            return StreamId.MAX;
        }
        int dash = indexOf(b, (byte) '-');
        if (dash < 0) {
            return new StreamId(u64(b, 0, b.length), missingSeq);
        }
        return new StreamId(u64(b, 0, dash), u64(b, dash + 1, b.length));
    }

    /** An XADD id: strict, {@code <ms>-*} accepted (sequence not given). */
    static AddId forAdd(byte[] b) {
        if (b.length > MAX_LENGTH || (b.length == 1 && (b[0] == '-' || b[0] == '+'))) {
            throw Call.fail(INVALID);
        }
        int dash = indexOf(b, (byte) '-');
        if (dash >= 0 && dash == b.length - 2 && b[b.length - 1] == '*') {
            return new AddId(new StreamId(u64(b, 0, dash), 0), false);
        }
        return new AddId(parse(b, 0), true);
    }

    /**
     * A range bound (XRANGE, XPENDING): {@code (id} is exclusive (strict after the parenthesis, then moved by one
     * with "invalid start/end ID for the interval" at the edge); a partial id takes {@code missingSeq}.
     */
    static StreamId bound(byte[] b, long missingSeq, boolean start) {
        if (b.length > 1 && b[0] == '(') {
            byte[] rest = java.util.Arrays.copyOfRange(b, 1, b.length);
            StreamId id = strict(rest, missingSeq);
            StreamId moved = start ? id.next() : id.previous();
            if (moved == null) {
                throw Call.fail(ErrorReply.err("invalid " + (start ? "start" : "end") + " ID for the interval"));
            }
            return moved;
        }
        return parse(b, missingSeq);
    }

    private static int indexOf(byte[] b, byte c) {
        for (int i = 0; i < b.length; i++) {
            if (b[i] == c) {
                return i;
            }
        }
        return -1;
    }

    /** Unsigned decimal in {@code b[from, to)}: digits, an optional leading {@code +}, at most 2^64-1. */
    private static long u64(byte[] b, int from, int to) {
        int i = from;
        if (i < to && b[i] == '+') {
            i++;
        }
        if (i >= to) {
            throw Call.fail(INVALID);
        }
        long v = 0;
        for (; i < to; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                throw Call.fail(INVALID);
            }
            // v * 10 + d must stay below 2^64
            if (Long.compareUnsigned(v, Long.divideUnsigned(-1L, 10)) > 0) {
                throw Call.fail(INVALID);
            }
            long t = v * 10;
            if (Long.compareUnsigned(t + d, t) < 0) {
                throw Call.fail(INVALID);
            }
            v = t + d;
        }
        return v;
    }
}
