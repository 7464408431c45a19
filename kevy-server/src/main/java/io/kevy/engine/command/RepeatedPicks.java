package io.kevy.engine.command;

import io.kevy.engine.error.ErrorReply;
import io.kevy.resp.ReplySink;

/**
 * The reply of a random pick repeated {@code |count|} times: ZRANDMEMBER, HRANDFIELD and SRANDMEMBER with a
 * negative count (and a count of 1), Redis 7.0's "CASE 1". Redis announces the count ({@code *<count>}, or
 * {@code *<2 count>} for RESP2 pairs), then writes one pick at a time and stops as soon as the client is over its
 * output limit ({@code CLIENT_CLOSE_ASAP}); the client is then closed with nothing sent, not even the replies
 * before it in the same pipeline. Without a limit (Redis's default) it writes on until memory runs out, so a count
 * of {@code -9223372036854775807} kills the server.
 *
 * <p>kevy answers the same way ({@link Call#replyOverLimit}, {@link Call#closeAsap}): a reply that fits the
 * connection's limits is written whole; one that does not closes the connection with nothing sent. Where Redis
 * has no limit, kevy stops at the most one reply buffer holds, so the connection is closed instead of the server
 * dying. A count too large for any reply (beyond {@code 2^31 - 1} elements: at least 12 GB) closes it at once.
 *
 * <p>A sink that builds a tree rather than bytes (a script's {@code redis.call}: Redis's Lua client has no output
 * limit; the embedded store) is refused a count above {@link #TREE_MAX} with {@link #TOO_LARGE} before anything
 * is written, where Redis would run out of memory.
 */
final class RepeatedPicks {
    /** The most picks a tree-building sink is given: 64 bytes a pick in a quarter of the heap. */
    static final long TREE_MAX = Math.max(1 << 16, Runtime.getRuntime().maxMemory() / 4 / 64);
    static final ErrorReply TOO_LARGE = ErrorReply.err("reply too large to build in memory");

    /** Writes one pick (a pair opens with {@link ReplySink#pair()}). */
    @FunctionalInterface
    interface Pick {
        void write(ReplySink out);
    }

    private RepeatedPicks() {
    }

    /**
     * Writes {@code count} (at least 1) picks as an array, or as an array of pairs when {@code pairs}
     * ({@link ReplySink#pairs}), unless the connection's output limit closes it first.
     */
    static void write(Call c, long count, boolean pairs, Pick pick) {
        ReplySink out = c.reply();
        boolean tree = out.bufferedBytes() < 0;
        if (tree && count > TREE_MAX) {
            throw Call.fail(TOO_LARGE);
        }
        if (count > (pairs ? Integer.MAX_VALUE / 2 : Integer.MAX_VALUE)) {
            // more than any reply buffer holds: over every limit, as Redis would be in the end
            if (!c.closeAsap()) {
                throw Call.fail(TOO_LARGE);
            }
            return;
        }
        if (pairs) {
            out.pairs((int) count);
        } else {
            out.array((int) count);
        }
        for (long i = 0; i < count; i++) {
            pick.write(out);
            if (c.replyOverLimit()) {
                c.closeAsap();
                return;
            }
        }
    }
}
