package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.text.Bytes;
import io.kevy.resp.ReplySink;
import java.util.ArrayList;
import java.util.List;

/**
 * LCS {@code key1 key2 [LEN] [IDX] [MINMATCHLEN n] [WITHMATCHLEN]}: the longest common subsequence of two
 * strings, computed with Redis 7.0's dynamic programme and walked back along the same path, so the string and
 * the match ranges are exactly Redis's (ties go the same way).
 *
 * <p>Errors in Redis's order: a non-string key, a syntax error or a bad MINMATCHLEN, LEN with IDX, and a table
 * of {@code (len1+1)*(len2+1)} 4-byte cells larger than {@code proto-max-bulk-len}. LEN alone needs only two
 * rows of the table; the string and IDX need all of it.
 */
final class LcsCommand {
    static final ErrorReply NOT_STRINGS = ErrorReply.err("The specified keys must contain string values");
    static final ErrorReply LEN_AND_IDX =
            ErrorReply.err("If you want both the length and indexes, please just use IDX.");
    static final ErrorReply TABLE_TOO_BIG =
            ErrorReply.err("Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len");
    static final ErrorReply TABLE_ALLOC_FAILED =
            ErrorReply.err("Insufficient memory, failed allocating transient memory for LCS");

    private LcsCommand() {
    }

    static void register(CommandTable t) {
        t.add(command("lcs", -3).flags(READONLY).keys(1, 2, 1).group("string").since("7.0.0")
                .summary("Finds the longest common substring.").handler(LcsCommand::lcs));
    }

    private static void lcs(Call c) {
        Object oa = c.value(c.arg(1));
        c.engine().countLookup(oa != null);
        Object ob = c.value(c.arg(2));
        c.engine().countLookup(ob != null);
        if ((oa != null && !(oa instanceof byte[])) || (ob != null && !(ob instanceof byte[]))) {
            throw Call.fail(NOT_STRINGS);
        }
        byte[] a = oa == null ? Bytes.EMPTY : (byte[]) oa;
        byte[] b = ob == null ? Bytes.EMPTY : (byte[]) ob;
        boolean getIdx = false;
        boolean getLen = false;
        boolean withMatchLen = false;
        long minMatchLen = 0;
        for (int j = 3; j < c.argc(); j++) {
            boolean more = j + 1 < c.argc();
            if (c.argIs(j, "idx")) {
                getIdx = true;
            } else if (c.argIs(j, "len")) {
                getLen = true;
            } else if (c.argIs(j, "withmatchlen")) {
                withMatchLen = true;
            } else if (c.argIs(j, "minmatchlen") && more) {
                minMatchLen = Math.max(0, c.longArg(++j));
            } else {
                throw Call.fail(Errors.SYNTAX);
            }
        }
        if (getIdx && getLen) {
            throw Call.fail(LEN_AND_IDX);
        }
        long cells = (long) (a.length + 1) * (b.length + 1);
        if (cells > StringValues.maxBulkLen(c.engine()) / 4) {
            throw Call.fail(TABLE_TOO_BIG);
        }
        if (getLen && !getIdx) {
            c.reply().integer(lengthOnly(a, b));
            return;
        }
        int[] dp = table(a, b, cells);
        reply(c.reply(), a, b, dp, getIdx, withMatchLen, minMatchLen);
    }

    /** LCS length with two rows of the table. */
    private static int lengthOnly(byte[] a, byte[] b) {
        int[] prev = new int[b.length + 1];
        int[] cur = new int[b.length + 1];
        for (int i = 1; i <= a.length; i++) {
            for (int j = 1; j <= b.length; j++) {
                cur[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length];
    }

    /** The full table: {@code dp[i*(blen+1)+j]} is the LCS length of a[0..i) and b[0..j). */
    private static int[] table(byte[] a, byte[] b, long cells) {
        int[] dp;
        try {
            if (cells > Integer.MAX_VALUE - 8) {
                throw new OutOfMemoryError();
            }
            dp = new int[(int) cells];
        } catch (OutOfMemoryError e) {
            throw Call.fail(TABLE_ALLOC_FAILED);
        }
        int w = b.length + 1;
        for (int i = 1; i <= a.length; i++) {
            int row = i * w;
            int up = row - w;
            for (int j = 1; j <= b.length; j++) {
                dp[row + j] = a[i - 1] == b[j - 1] ? dp[up + j - 1] + 1 : Math.max(dp[up + j], dp[row + j - 1]);
            }
        }
        return dp;
    }

    /** Walks the table back from the end as Redis does, building the string and the match ranges. */
    private static void reply(ReplySink out, byte[] a, byte[] b, int[] dp, boolean getIdx, boolean withMatchLen,
                              long minMatchLen) {
        int alen = a.length;
        int w = b.length + 1;
        int total = dp[alen * w + b.length];
        byte[] result = new byte[total];
        List<int[]> ranges = new ArrayList<>();
        int idx = total;
        int aStart = alen; // alen: no range in progress
        int aEnd = 0;
        int bStart = 0;
        int bEnd = 0;
        int i = alen;
        int j = b.length;
        while (i > 0 && j > 0) {
            boolean emit = false;
            if (a[i - 1] == b[j - 1]) {
                result[idx - 1] = a[i - 1];
                if (aStart == alen) {
                    aStart = i - 1;
                    aEnd = i - 1;
                    bStart = j - 1;
                    bEnd = j - 1;
                } else if (aStart == i && bStart == j) {
                    aStart--;
                    bStart--;
                } else {
                    emit = true;
                }
                if (aStart == 0 || bStart == 0) {
                    emit = true;
                }
                idx--;
                i--;
                j--;
            } else {
                int lcs1 = dp[(i - 1) * w + j];
                int lcs2 = dp[i * w + j - 1];
                if (lcs1 > lcs2) {
                    i--;
                } else {
                    j--;
                }
                if (aStart != alen) {
                    emit = true;
                }
            }
            if (emit) {
                int matchLen = aEnd - aStart + 1;
                if (minMatchLen == 0 || matchLen >= minMatchLen) {
                    ranges.add(new int[] {aStart, aEnd, bStart, bEnd, matchLen});
                }
                aStart = alen;
            }
        }
        if (!getIdx) {
            out.bulk(result);
            return;
        }
        out.map(2);
        out.bulk("matches");
        out.array(ranges.size());
        for (int[] r : ranges) {
            out.array(withMatchLen ? 3 : 2);
            out.array(2);
            out.integer(r[0]);
            out.integer(r[1]);
            out.array(2);
            out.integer(r[2]);
            out.integer(r[3]);
            if (withMatchLen) {
                out.integer(r[4]);
            }
        }
        out.bulk("len");
        out.integer(total);
    }
}
