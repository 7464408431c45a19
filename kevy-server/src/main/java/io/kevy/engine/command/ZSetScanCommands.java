package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandSpec.command;
import static io.kevy.engine.command.ZSetCommands.GROUP;
import io.kevy.engine.error.Errors;
import io.kevy.engine.struct.Dict;
import io.kevy.engine.struct.SkipList;
import io.kevy.engine.text.Bytes;
import io.kevy.engine.text.Glob;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.engine.type.ZSetValue;
import io.kevy.resp.ReplySink;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/**
 * Sorted-set commands that visit members in no fixed order: ZSCAN (Redis 7.0's {@code scanGenericCommand} for a
 * sorted set: a listpack-encoded set is returned whole with cursor 0; a larger one is walked with the member
 * table's reverse-binary cursor) and ZRANDMEMBER (Redis's four cases: negative count samples with repetition,
 * a count at or above the size returns the whole set in order, otherwise distinct random members).
 */
final class ZSetScanCommands {
    private ZSetScanCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("zscan", -3).flags(READONLY).keys(1, 1, 1).group(GROUP).since("2.8.0")
                .summary("Incrementally iterate sorted sets elements and associated scores")
                .handler(ZSetScanCommands::zscan));
        t.add(command("zrandmember", -2).flags(READONLY).keys(1, 1, 1).group(GROUP).since("6.2.0")
                .summary("Get one or multiple random elements from a sorted set")
                .handler(ZSetScanCommands::zrandmember));
    }

    private static void zscan(Call c) {
        long cursor = ScanCursor.parse(c.arg(2));
        ZSetValue z = c.read(c.arg(1), ZSetValue.class);
        if (z == null) {
            c.reply().array(2);
            c.reply().bulk(Bytes.utf8("0"));
            c.reply().array(0);
            return;
        }
        SetCommands.ScanOptions opts = SetCommands.ScanOptions.parse(c, 3);
        long count = opts.count;
        byte[] pattern = opts.pattern;
        List<byte[]> members = new ArrayList<>();
        List<Double> scores = new ArrayList<>();
        boolean listpack = z.encoding().equals("listpack");
        if (listpack) {
            for (SkipList.Node n = z.list().first(); n != null; n = n.next()) {
                members.add(n.member());
                scores.add(n.score());
            }
            cursor = 0;
        } else {
            long maxIterations = count * 10;
            do {
                cursor = z.dict().scan(cursor, n -> {
                    members.add(n.key());
                    scores.add(ZSetValue.scoreOf(n));
                });
            } while (cursor != 0 && maxIterations-- != 0 && members.size() < count); // as Redis: C truthiness
        }
        ReplySink out = c.reply();
        List<Integer> kept = new ArrayList<>(members.size());
        for (int i = 0; i < members.size(); i++) {
            if (pattern == null || Glob.matches(pattern, members.get(i), false)) {
                kept.add(i);
            }
        }
        out.array(2);
        out.bulk(Bytes.utf8(Long.toUnsignedString(cursor)));
        out.array(kept.size() * 2);
        for (int i : kept) {
            out.bulk(members.get(i));
            if (listpack) {
                out.bulk(Bytes.utf8(listpackScore(scores.get(i))));
            } else {
                out.bulkDouble(scores.get(i));
            }
        }
    }

    /**
     * A score as a listpack stores it (Redis's {@code d2string}), which ZSCAN returns verbatim: integral values
     * within half the {@code long long} range as integers, everything else as {@code %.17g}.
     */
    static String listpackScore(double d) {
        if (d == Math.rint(d) && d >= -(Long.MAX_VALUE / 2) && d <= Long.MAX_VALUE / 2) {
            return Long.toString((long) d);
        }
        return RedisNumbers.formatDouble(d);
    }

    private static void zrandmember(Call c) {
        if (c.argc() >= 3) {
            zrandmemberWithCount(c);
            return;
        }
        ZSetValue z = c.read(c.arg(1), ZSetValue.class);
        if (z == null) {
            c.reply().nullBulk();
            return;
        }
        c.reply().bulk(z.dict().randomNode(ThreadLocalRandom.current()).key());
    }

    private static void zrandmemberWithCount(Call c) {
        long l = ZSetArgs.rangeLong(c.arg(2), -Long.MAX_VALUE, Long.MAX_VALUE, null);
        boolean withScores = false;
        if (c.argc() > 4 || (c.argc() == 4 && !c.argIs(3, "withscores"))) {
            throw Call.fail(Errors.SYNTAX);
        } else if (c.argc() == 4) {
            withScores = true;
            if (l < -Long.MAX_VALUE / 2 || l > Long.MAX_VALUE / 2) {
                throw Call.fail(ZSetArgs.OUT_OF_RANGE);
            }
        }
        ZSetValue z = c.read(c.arg(1), ZSetValue.class);
        if (z == null || l == 0) {
            c.reply().array(0);
            return;
        }
        boolean unique = l > 0;
        long count = Math.abs(l);
        ReplySink out = c.reply();
        RandomGenerator rnd = ThreadLocalRandom.current();
        if (!unique || count == 1) {
            boolean scores = withScores;
            RepeatedPicks.write(c, count, scores, o -> { // closes the connection past its output limit, as Redis
                Dict.Node<Object> n = z.dict().randomNode(rnd);
                if (scores) {
                    o.pair();
                }
                o.bulk(n.key());
                if (scores) {
                    o.doubleValue(ZSetValue.scoreOf(n));
                }
            });
            return;
        }
        int size = z.size();
        List<SkipList.Node> picked;
        if (count >= size) {
            picked = ZSetRangeCommands.byRank(z, 0, -1, true); // Redis answers in descending order
        } else {
            List<SkipList.Node> all = new ArrayList<>(size);
            for (SkipList.Node n = z.list().first(); n != null; n = n.next()) {
                all.add(n);
            }
            int k = (int) count;
            for (int i = 0; i < k; i++) { // partial Fisher-Yates: the first k slots are a uniform sample
                int j = i + rnd.nextInt(size - i);
                SkipList.Node tmp = all.get(i);
                all.set(i, all.get(j));
                all.set(j, tmp);
            }
            picked = all.subList(0, k);
        }
        ZSetArgs.replyNodes(out, picked, withScores);
    }
}
