package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.DENYOOM;
import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import static io.kevy.engine.command.ZSetCommands.GROUP;
import io.kevy.engine.error.Errors;
import io.kevy.engine.struct.SkipList;
import io.kevy.engine.type.ZSetValue;
import java.util.ArrayList;
import java.util.List;

/**
 * Sorted-set ranges: ZRANGE (BYSCORE, BYLEX, REV, LIMIT, WITHSCORES), ZRANGESTORE, ZRANGEBYSCORE,
 * ZREVRANGEBYSCORE, ZRANGEBYLEX, ZREVRANGEBYLEX, ZREVRANGE, ZCOUNT, ZLEXCOUNT and ZREMRANGEBYRANK/SCORE/LEX,
 * following Redis 7.0's {@code zrangeGenericCommand} and {@code zremrangeGenericCommand}, option order and
 * error texts included.
 *
 * <p>Frames (feed contract §7): ZREMRANGEBY* emit {@code ZREM k <members removed>}; ZRANGESTORE emits
 * {@code DEL dst} and the {@code ZADD dst ...} rebuild of a non-empty result.
 */
final class ZSetRangeCommands {
    /** How the range arguments are read; AUTO lets ZRANGE's BYSCORE/BYLEX keywords choose. */
    private enum Type { AUTO, RANK, SCORE, LEX }

    /** Direction; AUTO lets ZRANGE's REV keyword choose. */
    private enum Direction { AUTO, FORWARD, REVERSE }

    private ZSetRangeCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("zrange", -4).flags(READONLY).keys(1, 1, 1).group(GROUP).since("1.2.0")
                .summary("Return a range of members in a sorted set")
                .handler(c -> range(c, false, Type.AUTO, Direction.AUTO)));
        t.add(command("zrangestore", -5).flags(WRITE, DENYOOM).keys(1, 2, 1).group(GROUP).since("6.2.0")
                .summary("Store a range of members from sorted set into another key")
                .handler(c -> range(c, true, Type.AUTO, Direction.AUTO)));
        t.add(command("zrangebyscore", -4).flags(READONLY).keys(1, 1, 1).group(GROUP).since("1.0.5")
                .summary("Return a range of members in a sorted set, by score")
                .handler(c -> range(c, false, Type.SCORE, Direction.FORWARD)));
        t.add(command("zrevrangebyscore", -4).flags(READONLY).keys(1, 1, 1).group(GROUP).since("2.2.0")
                .summary("Return a range of members in a sorted set, by score, with scores ordered from high to low")
                .handler(c -> range(c, false, Type.SCORE, Direction.REVERSE)));
        t.add(command("zrangebylex", -4).flags(READONLY).keys(1, 1, 1).group(GROUP).since("2.8.9")
                .summary("Return a range of members in a sorted set, by lexicographical range")
                .handler(c -> range(c, false, Type.LEX, Direction.FORWARD)));
        t.add(command("zrevrangebylex", -4).flags(READONLY).keys(1, 1, 1).group(GROUP).since("2.8.9")
                .summary("Return a range of members in a sorted set, by lexicographical range, ordered from higher "
                        + "to lower strings.")
                .handler(c -> range(c, false, Type.LEX, Direction.REVERSE)));
        t.add(command("zrevrange", -4).flags(READONLY).keys(1, 1, 1).group(GROUP).since("1.2.0")
                .summary("Return a range of members in a sorted set, by index, with scores ordered from high to low")
                .handler(c -> range(c, false, Type.RANK, Direction.REVERSE)));
        t.add(command("zcount", 4).flags(READONLY, FAST).keys(1, 1, 1).group(GROUP).since("2.0.0")
                .summary("Count the members in a sorted set with scores within the given values")
                .handler(ZSetRangeCommands::zcount));
        t.add(command("zlexcount", 4).flags(READONLY, FAST).keys(1, 1, 1).group(GROUP).since("2.8.9")
                .summary("Count the number of members in a sorted set between a given lexicographical range")
                .handler(ZSetRangeCommands::zlexcount));
        t.add(command("zremrangebyrank", 4).flags(WRITE).keys(1, 1, 1).group(GROUP).since("2.0.0")
                .summary("Remove all members in a sorted set within the given indexes")
                .handler(c -> removeRange(c, Type.RANK)));
        t.add(command("zremrangebyscore", 4).flags(WRITE).keys(1, 1, 1).group(GROUP).since("1.2.0")
                .summary("Remove all members in a sorted set within the given scores")
                .handler(c -> removeRange(c, Type.SCORE)));
        t.add(command("zremrangebylex", 4).flags(WRITE).keys(1, 1, 1).group(GROUP).since("2.8.9")
                .summary("Remove all members in a sorted set between the given lexicographical range")
                .handler(c -> removeRange(c, Type.LEX)));
    }

    /**
     * Every ZRANGE form. {@code store} is ZRANGESTORE ({@code dst} at 1, source at 2); otherwise the source is at
     * 1. Options come after the source's two range arguments.
     */
    private static void range(Call c, boolean store, Type type, Direction direction) {
        int keyIdx = store ? 2 : 1;
        int minIdx = keyIdx + 1;
        int maxIdx = keyIdx + 2;
        boolean withScores = false;
        long offset = 0;
        long limit = -1;
        for (int j = keyIdx + 3; j < c.argc(); j++) {
            int left = c.argc() - j - 1;
            if (!store && c.argIs(j, "withscores")) {
                withScores = true;
            } else if (c.argIs(j, "limit") && left >= 2) {
                offset = c.longArg(j + 1);
                limit = c.longArg(j + 2);
                j += 2;
            } else if (direction == Direction.AUTO && c.argIs(j, "rev")) {
                direction = Direction.REVERSE;
            } else if (type == Type.AUTO && c.argIs(j, "bylex")) {
                type = Type.LEX;
            } else if (type == Type.AUTO && c.argIs(j, "byscore")) {
                type = Type.SCORE;
            } else {
                throw Call.fail(Errors.SYNTAX);
            }
        }
        boolean reverse = direction == Direction.REVERSE;
        if (type == Type.AUTO) {
            type = Type.RANK;
        }
        if (limit != -1 && type == Type.RANK) {
            throw Call.fail(ZSetArgs.LIMIT_NEEDS_BY);
        }
        if (withScores && type == Type.LEX) {
            throw Call.fail(ZSetArgs.WITHSCORES_BYLEX);
        }
        if (reverse && type != Type.RANK) {
            int tmp = maxIdx;
            maxIdx = minIdx;
            minIdx = tmp;
        }
        Bounds b = Bounds.parse(c, type, minIdx, maxIdx);
        ZSetValue z = c.read(c.arg(keyIdx), ZSetValue.class);
        List<SkipList.Node> nodes;
        if (z == null) {
            nodes = List.of();
        } else if (type == Type.SCORE) {
            nodes = walk(z, b.scores(), reverse ? z.list().lastInRange(b.scores()) : z.list().firstInRange(b.scores()),
                    offset, limit, reverse);
        } else if (type == Type.LEX) {
            nodes = walk(z, b.lex(), reverse ? z.lastInRange(b.lex()) : z.firstInRange(b.lex()), offset, limit,
                    reverse);
        } else {
            nodes = byRank(z, b.start(), b.end(), reverse);
        }
        if (store) {
            // Redis starts the result as a skiplist when a rank range is known to exceed the listpack limit
            ZSetValue result = new ZSetValue(type == Type.RANK && ZSetValue.exceedsListpack(nodes.size(), 0, c.engine().encodings()), c.engine().encodings());
            for (SkipList.Node n : nodes) {
                result.insert(n.member(), n.score());
            }
            ZSetArgs.store(c, c.arg(1), result);
        } else {
            ZSetArgs.replyNodes(c.reply(), nodes, withScores);
        }
    }

    /**
     * The two range arguments at {@code minIdx}/{@code maxIdx} parsed as {@code type} says: ranks
     * ({@code start}/{@code end}, {@link Type#RANK}), a score range or a lex range; the other fields are unset.
     */
    private record Bounds(long start, long end, SkipList.ScoreRange scores, SkipList.LexRange lex) {
        static Bounds parse(Call c, Type type, int minIdx, int maxIdx) {
            return switch (type) {
                case SCORE -> new Bounds(0, 0, ZSetArgs.scoreRange(c.arg(minIdx), c.arg(maxIdx)), null);
                case LEX -> new Bounds(0, 0, null, ZSetArgs.lexRange(c.arg(minIdx), c.arg(maxIdx)));
                default -> new Bounds(c.longArg(minIdx), c.longArg(maxIdx), null, null);
            };
        }
    }

    /** Elements at ranks {@code start..end} (negative from the end), ascending or descending. */
    static List<SkipList.Node> byRank(ZSetValue z, long start, long end, boolean reverse) {
        long len = z.size();
        long[] ranks = Args.clampRanks(start, end, len);
        if (ranks == null) {
            return List.of();
        }
        start = ranks[0];
        int n = (int) (ranks[1] - start + 1);
        List<SkipList.Node> out = new ArrayList<>(n);
        SkipList.Node x = z.list().byRank(reverse ? len - 1 - start : start);
        for (int i = 0; i < n && x != null; i++) {
            out.add(x);
            x = reverse ? x.prev() : x.next();
        }
        return out;
    }

    /** The element {@code offset} steps after {@code first} in the walk's direction, or null. */
    private static SkipList.Node skip(ZSetValue z, SkipList.Node first, long offset, boolean reverse) {
        if (first == null || offset < 0) {
            return null; // Redis walks a negative offset off the end
        }
        if (offset == 0) {
            return first;
        }
        long rank = z.list().rank(first);
        long target = reverse ? rank - offset : rank + offset;
        return target < 0 ? null : z.list().byRank(target);
    }

    /**
     * BYSCORE / BYLEX: from {@code first} (the range's first element in the walk's direction, or null) skip
     * {@code offset} elements, then take up to {@code limit} (negative: all) while they stay in {@code r}.
     */
    private static List<SkipList.Node> walk(ZSetValue z, SkipList.Range r, SkipList.Node first, long offset,
                                            long limit, boolean reverse) {
        if (offset > 0 && offset >= z.size()) {
            return List.of();
        }
        SkipList.Node x = skip(z, first, offset, reverse);
        List<SkipList.Node> out = new ArrayList<>();
        while (x != null && limit-- != 0) {
            if (reverse ? !r.gteMin(x) : !r.lteMax(x)) {
                break;
            }
            out.add(x);
            x = reverse ? x.prev() : x.next();
        }
        return out;
    }

    private static void zcount(Call c) {
        SkipList.ScoreRange r = ZSetArgs.scoreRange(c.arg(2), c.arg(3));
        ZSetValue z = c.read(c.arg(1), ZSetValue.class);
        if (z == null) {
            c.reply().integer(0);
            return;
        }
        c.reply().integer(count(z, z.list().firstInRange(r), z.list().lastInRange(r)));
    }

    private static void zlexcount(Call c) {
        SkipList.LexRange r = ZSetArgs.lexRange(c.arg(2), c.arg(3));
        ZSetValue z = c.read(c.arg(1), ZSetValue.class);
        if (z == null) {
            c.reply().integer(0);
            return;
        }
        c.reply().integer(z.lexCount(r));
    }

    /** Elements from {@code first} to {@code last} inclusive, by rank; 0 when either is null. */
    private static long count(ZSetValue z, SkipList.Node first, SkipList.Node last) {
        if (first == null || last == null) {
            return 0;
        }
        return Math.max(0, z.list().rank(last) - z.list().rank(first) + 1);
    }

    /** ZREMRANGEBYRANK / ZREMRANGEBYSCORE / ZREMRANGEBYLEX: removes the range, emits {@code ZREM k ...}. */
    private static void removeRange(Call c, Type type) {
        byte[] key = c.arg(1);
        Bounds b = Bounds.parse(c, type, 2, 3);
        ZSetValue z = c.value(key, ZSetValue.class);
        if (z == null) {
            c.reply().integer(0);
            return;
        }
        List<byte[]> removed = new ArrayList<>();
        switch (type) {
            case SCORE -> z.removeRange(b.scores(), n -> removed.add(n.member()));
            case LEX -> z.removeRange(b.lex(), n -> removed.add(n.member()));
            default -> {
                long[] ranks = Args.clampRanks(b.start(), b.end(), z.size());
                if (ranks == null) {
                    c.reply().integer(0);
                    return;
                }
                z.removeRangeByRank(ranks[0], ranks[1], n -> removed.add(n.member()));
            }
        }
        if (z.size() == 0) {
            c.db(key).remove(key);
        }
        ZSetArgs.emitRemoved(c::emit, key, removed);
        c.reply().integer(removed.size());
    }
}
