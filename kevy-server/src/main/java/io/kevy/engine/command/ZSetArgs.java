package io.kevy.engine.command;

import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.struct.SkipList;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.engine.text.Strtod;
import io.kevy.engine.type.RedisValue;
import io.kevy.engine.type.ZSetValue;
import io.kevy.resp.ReplySink;
import io.kevy.resp.Verbs;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What the sorted-set command families share: Redis 7.0's error texts for them, parsing of scores, score ranges
 * ({@code 1.5}, {@code (1.5}, {@code -inf}, {@code +inf}) and lex ranges ({@code [a}, {@code (a}, {@code -},
 * {@code +}), count arguments, the key finders of the {@code numkeys} commands, reply writers and the
 * {@code *STORE} epilogue with its frames (feed contract §7).
 *
 * <p>Stateless; thread-safe.
 */
final class ZSetArgs {
    static final ErrorReply XX_AND_NX = ErrorReply.err("XX and NX options at the same time are not compatible");
    static final ErrorReply GT_LT_NX = ErrorReply.err("GT, LT, and/or NX options at the same time are not compatible");
    static final ErrorReply INCR_PAIR = ErrorReply.err("INCR option supports a single increment-element pair");
    static final ErrorReply SCORE_NAN = ErrorReply.err("resulting score is not a number (NaN)");
    static final ErrorReply LIMIT_NEEDS_BY =
            ErrorReply.err("syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX");
    static final ErrorReply WITHSCORES_BYLEX =
            ErrorReply.err("syntax error, WITHSCORES not supported in combination with BYLEX");
    static final ErrorReply WEIGHT_NOT_FLOAT = ErrorReply.err("weight value is not a float");
    static final ErrorReply LIMIT_NEGATIVE = ErrorReply.err("LIMIT can't be negative");
    static final ErrorReply NUMKEYS_POSITIVE = ErrorReply.err("numkeys should be greater than 0");
    static final ErrorReply COUNT_POSITIVE = ErrorReply.err("count should be greater than 0");
    static final ErrorReply MUST_BE_POSITIVE = ErrorReply.err("value is out of range, must be positive");
    static final ErrorReply OUT_OF_RANGE = ErrorReply.err("value is out of range");

    private ZSetArgs() {
    }

    /** {@code ERR at least 1 input key is needed for '<command>' command}. */
    static ErrorReply atLeastOneKey(String command) {
        return ErrorReply.err("at least 1 input key is needed for '" + command + "' command");
    }

    /** A score or increment (Redis's {@code string2d}); {@link Errors#NOT_FLOAT} when it is not a valid float. */
    static double score(byte[] b) {
        return score(b, Errors.NOT_FLOAT);
    }

    /** A float argument with Redis's {@code string2d} rules; {@code error} when it is not one. */
    static double score(byte[] b, ErrorReply error) {
        double d = Strtod.parseStrict(b);
        if (Double.isNaN(d)) {
            throw Call.fail(error);
        }
        return d;
    }

    /**
     * A score range from {@code min} and {@code max} (Redis's {@code zslParseRange}): a leading {@code (} makes a
     * bound exclusive; the rest is read by strtod to the end and must not be NaN.
     *
     * @throws io.kevy.engine.error.CommandException {@link Errors#MIN_MAX_NOT_FLOAT}
     */
    static SkipList.ScoreRange scoreRange(byte[] min, byte[] max) {
        boolean minEx = min.length > 0 && min[0] == '(';
        boolean maxEx = max.length > 0 && max[0] == '(';
        double lo = Strtod.parseRangeBound(min, minEx ? 1 : 0);
        double hi = Strtod.parseRangeBound(max, maxEx ? 1 : 0);
        if (Double.isNaN(lo) || Double.isNaN(hi)) {
            throw Call.fail(Errors.MIN_MAX_NOT_FLOAT);
        }
        return new SkipList.ScoreRange(lo, minEx, hi, maxEx);
    }

    /**
     * A lex range from {@code min} and {@code max} (Redis's {@code zslParseLexRange}): {@code [x} inclusive,
     * {@code (x} exclusive, {@code -} and {@code +} the ends.
     *
     * @throws io.kevy.engine.error.CommandException {@link Errors#MIN_MAX_NOT_STRING_RANGE}
     */
    static SkipList.LexRange lexRange(byte[] min, byte[] max) {
        byte[] lo = lexBound(min);
        byte[] hi = lexBound(max);
        if (lo == null || hi == null) {
            throw Call.fail(Errors.MIN_MAX_NOT_STRING_RANGE);
        }
        return new SkipList.LexRange(lo, min[0] != '[', hi, max[0] != '[');
    }

    private static byte[] lexBound(byte[] b) {
        if (b.length == 0) {
            return null;
        }
        switch (b[0]) {
            case '+':
            case '-':
                if (b.length > 1 && b[1] != 0) {
                    return null; // C compares c[1] with '\0', so "+\0..." is still "+"
                }
                return b[0] == '+' ? SkipList.LEX_MAX : SkipList.LEX_MIN;
            case '(':
            case '[':
                return java.util.Arrays.copyOfRange(b, 1, b.length);
            default:
                return null;
        }
    }

    /**
     * A long in {@code [min, max]} (Redis's {@code getRangeLongFromObjectOrReply}): {@code error} when it is not
     * an integer or out of range; with a null {@code error}, {@link Errors#NOT_INTEGER} and Redis's
     * "value must between" text.
     */
    static long rangeLong(byte[] b, long min, long max, ErrorReply error) {
        long v = RedisNumbers.parseLong(b, error == null ? Errors.NOT_INTEGER : error);
        if (v < min || v > max) {
            throw Call.fail(error != null ? error
                    : ErrorReply.err("value is out of range, value must between " + min + " and " + max));
        }
        return v;
    }

    /** A count of 0 or more (Redis's {@code getPositiveLongFromObjectOrReply}); {@code error} otherwise. */
    static long nonNegative(byte[] b, ErrorReply error) {
        return rangeLong(b, 0, Long.MAX_VALUE, error);
    }


    /**
     * Replies the nodes as an array of members; with {@code withScores}, as {@link ReplySink#pairs} of member
     * and score (a double): flat on RESP2, {@code [member, score]} pairs on RESP3 (Redis 7.0's
     * {@code zrangeResultEmit*}, {@code ZPOPMIN key count}, {@code ZRANDMEMBER ... WITHSCORES}).
     */
    static void replyNodes(ReplySink out, List<SkipList.Node> nodes, boolean withScores) {
        if (withScores) {
            out.pairs(nodes.size());
        } else {
            out.array(nodes.size());
        }
        for (SkipList.Node n : nodes) {
            if (withScores) {
                out.pair();
            }
            out.bulk(n.member());
            if (withScores) {
                out.doubleValue(n.score());
            }
        }
    }

    /** Replies the nodes as one flat array {@code member, score, ...} on both protocols (scores are doubles). */
    static void replyFlat(ReplySink out, List<SkipList.Node> nodes) {
        out.array(nodes.size() * 2);
        for (SkipList.Node n : nodes) {
            out.bulk(n.member());
            out.doubleValue(n.score());
        }
    }

    /**
     * Emits {@code ZREM key m ...} for removed members (feed contract §7), in frames of at most
     * {@link RedisValue#REBUILD_CHUNK} members; nothing when none was removed.
     */
    static void emitRemoved(Consumer<byte[][]> emit, byte[] key, List<byte[]> members) {
        for (int from = 0; from < members.size(); from += RedisValue.REBUILD_CHUNK) {
            int to = Math.min(members.size(), from + RedisValue.REBUILD_CHUNK);
            byte[][] frame = new byte[2 + to - from][];
            frame[0] = Verbs.ZREM;
            frame[1] = key;
            for (int i = from; i < to; i++) {
                frame[2 + i - from] = members.get(i);
            }
            emit.accept(frame);
        }
    }

    /** The members of removed nodes, in order. */
    static List<byte[]> members(List<SkipList.Node> nodes) {
        List<byte[]> out = new ArrayList<>(nodes.size());
        for (SkipList.Node n : nodes) {
            out.add(n.member());
        }
        return out;
    }

    /**
     * Stores a *STORE result under {@code dst} and replies its size: a non-empty result replaces whatever was
     * there (TTL cleared) with frames {@code DEL dst} and the {@code ZADD dst ...} rebuild; an empty one deletes
     * {@code dst} with {@code DEL dst} when it existed, and nothing otherwise (feed contract §7).
     */
    static void store(Call c, byte[] dst, ZSetValue result) {
        if (result.size() > 0) {
            c.db(dst).put(dst, result, false);
            c.emit(Verbs.DEL, dst);
            result.rebuild(dst, c::emit);
        } else if (c.node(dst) != null) {
            c.db(dst).remove(dst);
            c.emit(Verbs.DEL, dst);
        }
        c.reply().integer(result.size());
    }
}
