package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.DENYOOM;
import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.error.Errors;
import io.kevy.engine.type.ZSetValue;
import io.kevy.resp.Verbs;
import java.util.ArrayList;
import java.util.List;

/**
 * Sorted sets, Redis 7.0 semantics: this file registers the whole family and holds the element commands
 * (ZADD, ZINCRBY, ZREM, ZSCORE, ZMSCORE, ZCARD, ZRANK, ZREVRANK). The rest is split by theme:
 * {@link ZSetRangeCommands} (ranges, counts, range removal, ZRANGESTORE), {@link ZSetPopCommands} (ZPOPMIN,
 * ZPOPMAX, ZMPOP), {@link ZSetStoreCommands} (ZUNION, ZINTER, ZDIFF, their STORE forms, ZINTERCARD) and
 * {@link ZSetScanCommands} (ZSCAN, ZRANDMEMBER). Shared parsing lives in {@link ZSetArgs}.
 *
 * <p>Frames (feed contract §7): ZADD and ZINCRBY emit {@code ZADD k <score> <m> ...} for the members actually
 * added or changed, with their final scores and no flags; ZREM emits {@code ZREM k <members removed>}.
 */
final class ZSetCommands {
    /** Redis's command group of the family. */
    static final String GROUP = "sorted-set";

    /** ZADD's option bits, also used by GEOADD ({@link #add}). */
    static final int NX = 1;
    static final int XX = 2;
    static final int GT = 4;
    static final int LT = 8;
    static final int CH = 16;
    static final int INCR = 32;

    private ZSetCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("zadd", -4).flags(WRITE, DENYOOM, FAST).keys(1, 1, 1).group(GROUP).since("1.2.0")
                .summary("Add one or more members to a sorted set, or update its score if it already exists")
                .handler(c -> zadd(c, 0)));
        t.add(command("zincrby", 4).flags(WRITE, DENYOOM, FAST).keys(1, 1, 1).group(GROUP).since("1.2.0")
                .summary("Increment the score of a member in a sorted set").handler(c -> zadd(c, INCR)));
        t.add(command("zrem", -3).flags(WRITE, FAST).keys(1, 1, 1).group(GROUP).since("1.2.0")
                .summary("Remove one or more members from a sorted set").handler(ZSetCommands::zrem));
        t.add(command("zscore", 3).flags(READONLY, FAST).keys(1, 1, 1).group(GROUP).since("1.2.0")
                .summary("Get the score associated with the given member in a sorted set")
                .handler(ZSetCommands::zscore));
        t.add(command("zmscore", -3).flags(READONLY, FAST).keys(1, 1, 1).group(GROUP).since("6.2.0")
                .summary("Get the score associated with the given members in a sorted set")
                .handler(ZSetCommands::zmscore));
        t.add(command("zcard", 2).flags(READONLY, FAST).keys(1, 1, 1).group(GROUP).since("1.2.0")
                .summary("Get the number of members in a sorted set").handler(c -> {
                    ZSetValue z = c.read(c.arg(1), ZSetValue.class);
                    c.reply().integer(z == null ? 0 : z.size());
                }));
        t.add(command("zrank", -3).flags(READONLY, FAST).keys(1, 1, 1).group(GROUP).since("2.0.0")
                .summary("Determine the index of a member in a sorted set").handler(c -> zrank(c, false)));
        t.add(command("zrevrank", -3).flags(READONLY, FAST).keys(1, 1, 1).group(GROUP).since("2.0.0")
                .summary("Determine the index of a member in a sorted set, with scores ordered from high to low")
                .handler(c -> zrank(c, true)));
        ZSetRangeCommands.register(t);
        ZSetPopCommands.register(t);
        ZSetStoreCommands.register(t);
        ZSetScanCommands.register(t);
    }

    /** ZADD and ZINCRBY (which is ZADD with INCR set), as Redis's {@code zaddGenericCommand}. */
    private static void zadd(Call c, int initialFlags) {
        int flags = initialFlags;
        int scoreIdx = 2;
        for (; scoreIdx < c.argc(); scoreIdx++) {
            int f = flag(c, scoreIdx);
            if (f == 0) {
                break;
            }
            flags |= f;
        }
        int elements = c.argc() - scoreIdx;
        if (elements % 2 != 0 || elements == 0) {
            throw Call.fail(Errors.SYNTAX);
        }
        elements /= 2;
        boolean nx = (flags & NX) != 0;
        boolean xx = (flags & XX) != 0;
        boolean gt = (flags & GT) != 0;
        boolean lt = (flags & LT) != 0;
        boolean incr = (flags & INCR) != 0;
        if (nx && xx) {
            throw Call.fail(ZSetArgs.XX_AND_NX);
        }
        if ((gt && nx) || (lt && nx) || (gt && lt)) {
            throw Call.fail(ZSetArgs.GT_LT_NX);
        }
        if (incr && elements > 1) {
            throw Call.fail(ZSetArgs.INCR_PAIR);
        }
        double[] scores = new double[elements];
        byte[][] members = new byte[elements][];
        for (int j = 0; j < elements; j++) {
            scores[j] = ZSetArgs.score(c.arg(scoreIdx + j * 2));
            members[j] = c.arg(scoreIdx + j * 2 + 1);
        }
        add(c, flags, scores, members);
    }

    /**
     * The part of ZADD after parsing (Redis's {@code zaddGenericCommand} from the key lookup on): adds or updates
     * {@code members[j]} with {@code scores[j]} in the sorted set at argument 1 under the checked option
     * {@code flags}, emits {@code ZADD k <score> <m> ...} for what changed and replies as ZADD. GEOADD calls it
     * with the geohash scores.
     */
    static void add(Call c, int flags, double[] scores, byte[][] members) {
        int elements = scores.length;
        boolean nx = (flags & NX) != 0;
        boolean xx = (flags & XX) != 0;
        boolean gt = (flags & GT) != 0;
        boolean lt = (flags & LT) != 0;
        boolean incr = (flags & INCR) != 0;
        byte[] key = c.arg(1);
        ZSetValue z = c.value(key, ZSetValue.class);
        if (z == null) {
            if (xx) {
                replyZadd(c, flags, 0, 0, 0, 0);
                return;
            }
            z = new ZSetValue(c.engine().encodings());
            c.db(key).add(key, z);
        }
        // an effect frame's -0 is kept even where a client's would become 0: see ZSetValue#keepNegativeZero
        boolean frameScores = c.session().appliesFrames();
        int added = 0;
        int updated = 0;
        int processed = 0;
        double reported = 0;
        List<byte[]> frame = new ArrayList<>();
        for (int j = 0; j < elements; j++) {
            double score = scores[j];
            byte[] member = members[j];
            double cur = z.score(member);
            if (!Double.isNaN(cur)) {
                if (nx) {
                    continue;
                }
                if (incr) {
                    score += cur;
                    if (Double.isNaN(score)) {
                        throw Call.fail(ZSetArgs.SCORE_NAN); // INCR has one element: nothing changed yet
                    }
                }
                if ((gt && score <= cur) || (lt && score >= cur)) {
                    continue;
                }
                processed++;
                reported = score;
                if (score != cur) {
                    if (frameScores) {
                        z.keepNegativeZero(score);
                    }
                    addToFrame(frame, z.update(member, cur, score), member);
                    updated++;
                }
            } else if (!xx) {
                processed++;
                reported = score;
                if (frameScores) {
                    z.keepNegativeZero(score);
                }
                addToFrame(frame, z.insert(member, score), member);
                added++;
            }
        }
        if (!frame.isEmpty()) {
            frame.add(0, Verbs.ZADD);
            frame.add(1, key);
            c.emit(frame.toArray(new byte[0][]));
        }
        replyZadd(c, flags, added, updated, processed, reported);
    }

    private static void addToFrame(List<byte[]> frame, double score, byte[] member) {
        frame.add(ZSetValue.frameScore(score));
        frame.add(member);
    }

    private static int flag(Call c, int i) {
        if (c.argIs(i, "nx")) {
            return NX;
        } else if (c.argIs(i, "xx")) {
            return XX;
        } else if (c.argIs(i, "gt")) {
            return GT;
        } else if (c.argIs(i, "lt")) {
            return LT;
        } else if (c.argIs(i, "ch")) {
            return CH;
        } else if (c.argIs(i, "incr")) {
            return INCR;
        }
        return 0;
    }

    private static void replyZadd(Call c, int flags, int added, int updated, int processed, double score) {
        if ((flags & INCR) != 0) {
            if (processed > 0) {
                c.reply().doubleValue(score);
            } else {
                c.reply().nullBulk();
            }
        } else {
            c.reply().integer((flags & CH) != 0 ? added + updated : added);
        }
    }

    private static void zrem(Call c) {
        byte[] key = c.arg(1);
        ZSetValue z = c.value(key, ZSetValue.class);
        if (z == null) {
            c.reply().integer(0);
            return;
        }
        List<byte[]> removed = new ArrayList<>();
        for (int i = 2; i < c.argc(); i++) {
            if (z.remove(c.arg(i))) {
                removed.add(c.arg(i));
                if (z.size() == 0) {
                    c.db(key).remove(key);
                    break;
                }
            }
        }
        ZSetArgs.emitRemoved(c::emit, key, removed);
        c.reply().integer(removed.size());
    }

    private static void zscore(Call c) {
        ZSetValue z = c.read(c.arg(1), ZSetValue.class);
        double s = z == null ? Double.NaN : z.score(c.arg(2));
        if (Double.isNaN(s)) {
            c.reply().nullBulk();
        } else {
            c.reply().doubleValue(s);
        }
    }

    private static void zmscore(Call c) {
        ZSetValue z = c.read(c.arg(1), ZSetValue.class);
        c.reply().array(c.argc() - 2);
        for (int i = 2; i < c.argc(); i++) {
            double s = z == null ? Double.NaN : z.score(c.arg(i));
            if (Double.isNaN(s)) {
                c.reply().nullBulk();
            } else {
                c.reply().doubleValue(s);
            }
        }
    }

    /** ZRANK/ZREVRANK, with Redis 7.2's WITHSCORE option. */
    private static void zrank(Call c, boolean reverse) {
        if (c.argc() > 4) {
            throw Call.fail(Errors.wrongArity(c.spec().name()));
        }
        boolean withScore = false;
        if (c.argc() == 4) {
            if (!c.argIs(3, "withscore")) {
                throw Call.fail(Errors.SYNTAX);
            }
            withScore = true;
        }
        ZSetValue z = c.read(c.arg(1), ZSetValue.class);
        long rank = z == null ? -1 : z.rank(c.arg(2), reverse);
        if (rank < 0) {
            if (withScore) {
                c.reply().nullArray();
            } else {
                c.reply().nullBulk();
            }
            return;
        }
        if (withScore) {
            c.reply().array(2);
            c.reply().integer(rank);
            c.reply().doubleValue(z.score(c.arg(2)));
        } else {
            c.reply().integer(rank);
        }
    }
}
