package io.kevy.engine.command;

import io.kevy.engine.ErrorReply;
import io.kevy.engine.Errors;
import io.kevy.engine.Glob;
import io.kevy.engine.RedisNumbers;
import io.kevy.engine.ReplySink;
import java.util.List;

/**
 * The cursor and options of the SCAN family as Redis 7.0's {@code scanGenericCommand} reads them, and the reply
 * shape {@code *2 [cursor, [elements...]]}. Shared by SCAN, HSCAN, SSCAN and ZSCAN.
 *
 * <p>Immutable; thread-safe.
 */
final class ScanArgs {
    static final ErrorReply INVALID_CURSOR = ErrorReply.err("invalid cursor");
    /** Redis's default COUNT. */
    static final long DEFAULT_COUNT = 10;

    private final long count;
    private final byte[] pattern;
    private final byte[] type;

    private ScanArgs(long count, byte[] pattern, byte[] type) {
        this.count = count;
        this.pattern = pattern;
        this.type = type;
    }

    /**
     * Parses a cursor as Redis's {@code parseScanCursorOrReply} ({@code strtoul}, base 10): no leading space,
     * optional sign ({@code -1} wraps to 2^64 - 1), digits up to 2^64 - 1, nothing after; the empty string is 0.
     *
     * @return the cursor as an unsigned 64-bit value
     * @throws io.kevy.engine.CommandException {@link #INVALID_CURSOR} otherwise
     */
    static long parseCursor(byte[] b) {
        if (b.length == 0) {
            return 0;
        }
        int i = 0;
        boolean negative = false;
        if (b[0] == '+' || b[0] == '-') {
            negative = b[0] == '-';
            i = 1;
        }
        if (i == b.length) {
            throw Call.fail(INVALID_CURSOR);
        }
        long v = 0;
        for (; i < b.length; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9 || Long.compareUnsigned(v, Long.divideUnsigned(-1L - d, 10)) > 0) {
                throw Call.fail(INVALID_CURSOR);
            }
            v = v * 10 + d;
        }
        return negative ? -v : v;
    }

    /**
     * Parses the options from argument {@code from} on: {@code COUNT n} (a positive integer), {@code MATCH glob},
     * and {@code TYPE t} when {@code allowType} (SCAN only). The last of each wins.
     *
     * @throws io.kevy.engine.CommandException {@link Errors#NOT_INTEGER} for a bad COUNT, {@link Errors#SYNTAX}
     *                                         for COUNT below 1 or anything else
     */
    static ScanArgs parse(Call c, int from, boolean allowType) {
        long count = DEFAULT_COUNT;
        byte[] pattern = null;
        byte[] type = null;
        int i = from;
        while (i < c.argc()) {
            boolean value = c.argc() - i >= 2;
            if (c.argIs(i, "count") && value) {
                count = RedisNumbers.parseLong(c.arg(i + 1), Errors.NOT_INTEGER);
                if (count < 1) {
                    throw Call.fail(Errors.SYNTAX);
                }
            } else if (c.argIs(i, "match") && value) {
                byte[] p = c.arg(i + 1);
                pattern = p.length == 1 && p[0] == '*' ? null : p;
            } else if (c.argIs(i, "type") && allowType && value) {
                type = c.arg(i + 1);
            } else {
                throw Call.fail(Errors.SYNTAX);
            }
            i += 2;
        }
        return new ScanArgs(count, pattern, type);
    }

    /** COUNT: how many elements one call aims at (a hint). */
    long count() {
        return count;
    }

    /** The TYPE filter as given, or null. */
    byte[] type() {
        return type;
    }

    /** True when MATCH was given with a pattern other than {@code *}. */
    boolean hasPattern() {
        return pattern != null;
    }

    /** True when {@code element} passes MATCH (case-sensitive glob); always true without MATCH. */
    boolean matches(byte[] element) {
        return pattern == null || Glob.matches(pattern, element, false);
    }

    /** Writes {@code *2 [<cursor as unsigned decimal>, [elements...]]}. */
    static void reply(ReplySink r, long cursor, List<byte[]> elements) {
        r.array(2);
        r.bulk(Long.toUnsignedString(cursor));
        r.array(elements.size());
        for (byte[] e : elements) {
            r.bulk(e);
        }
    }
}
