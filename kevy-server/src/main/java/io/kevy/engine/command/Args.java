package io.kevy.engine.command;

import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.text.RedisNumbers;

/**
 * Argument parsing shared by several command families, with Redis 7.0's error texts: non-negative counts
 * ({@code getPositiveLongFromObjectOrReply}) and {@code numkeys key [key ...]} lists (LMPOP, SINTERCARD, ...).
 * Failures throw before any change, as handlers require.
 */
final class Args {
    /** Redis's default text for a negative (or non-integer) count. */
    static final ErrorReply MUST_BE_POSITIVE = ErrorReply.err("value is out of range, must be positive");
    static final ErrorReply NUMKEYS_NOT_POSITIVE = ErrorReply.err("numkeys should be greater than 0");

    private Args() {
    }

    /** Argument {@code i} as an integer {@code >= 0}; {@code error} for a non-integer or a negative value. */
    static long nonNegative(Call c, int i, ErrorReply error) {
        long v = c.longArg(i, error);
        if (v < 0) {
            throw Call.fail(error);
        }
        return v;
    }

    /** {@code numkeys} at argument {@code i}: at least 1, else "numkeys should be greater than 0". */
    static long numkeys(Call c, int i) {
        long n = c.longArg(i, NUMKEYS_NOT_POSITIVE);
        if (n < 1) {
            throw Call.fail(NUMKEYS_NOT_POSITIVE);
        }
        return n;
    }

    /**
     * The {@link KeyFinder} of {@code [dst] numkeys key [key ...] [more...]} commands: numkeys at
     * {@code numkeysAt}, at least {@code after} arguments after the keys, and the destination at argument 1 first
     * when {@code destination}; null (the handler reports the error) when numkeys is malformed.
     */
    static KeyFinder numkeys(int numkeysAt, int after, boolean destination) {
        return argv -> {
            if (argv.length <= numkeysAt) {
                return null;
            }
            long n = RedisNumbers.parseLongOr(argv[numkeysAt], -1);
            if (n < 1 || n > argv.length - numkeysAt - 1 - after) {
                return null;
            }
            int extra = destination ? 1 : 0;
            int[] pos = new int[(int) n + extra];
            if (destination) {
                pos[0] = 1;
            }
            for (int i = 0; i < n; i++) {
                pos[extra + i] = numkeysAt + 1 + i;
            }
            return pos;
        };
    }

    /**
     * Ranks {@code start..end} (negative from the end) of a list or sorted set of {@code len} elements, clamped as
     * Redis does: {@code {first, last}} with {@code 0 <= first <= last < len}, or null when the range holds no
     * element (LRANGE, LTRIM, ZRANGE, ZREMRANGEBYRANK).
     */
    static long[] clampRanks(long start, long end, long len) {
        if (start < 0) {
            start = len + start;
        }
        if (end < 0) {
            end = len + end;
        }
        if (start < 0) {
            start = 0;
        }
        if (start > end || start >= len) {
            return null;
        }
        return new long[] {start, Math.min(end, len - 1)};
    }

    /**
     * Redis's range normalisation for strings (GETRANGE, BITCOUNT, BITPOS): negatives count from the end, then both
     * are clamped to {@code [0, totlen - 1]}; {@code {start, end}}, empty when {@code start > end}.
     */
    static long[] clampStringRange(long start, long end, long totlen) {
        if (start < 0) {
            start = totlen + start;
        }
        if (end < 0) {
            end = totlen + end;
        }
        if (start < 0) {
            start = 0;
        }
        if (end < 0) {
            end = 0;
        }
        if (end >= totlen) {
            end = totlen - 1;
        }
        return new long[] {start, end};
    }
}
