package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.DENYOOM;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import static io.kevy.engine.command.ZSetCommands.GROUP;
import io.kevy.engine.error.Errors;
import io.kevy.engine.struct.Dict;
import io.kevy.engine.struct.SkipList;
import io.kevy.engine.type.SetValue;
import io.kevy.engine.type.ZSetValue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Sorted-set algebra: ZUNION, ZINTER, ZDIFF, ZUNIONSTORE, ZINTERSTORE, ZDIFFSTORE and ZINTERCARD, as Redis 7.0's
 * {@code zunionInterDiffGenericCommand}: inputs are read (and type-checked) before the options; WEIGHTS and
 * AGGREGATE SUM|MIN|MAX for union and intersection; a weighted score that is NaN ({@code 0 * inf}) counts as 0,
 * and so does a sum of {@code inf} and {@code -inf}. Union and intersection visit the inputs from the smallest to
 * the largest (stable for equal sizes), which fixes the order of floating-point sums as Redis does.
 *
 * <p>Inputs are sorted sets or plain sets, whose members count with score 1 (Redis's {@code zsetopsrc} over a
 * set); any other type is WRONGTYPE.
 *
 * <p>Frames (feed contract §7): the STORE forms emit {@code DEL dst} and the {@code ZADD dst ...} rebuild of a
 * non-empty result, or {@code DEL dst} alone when an empty result removed an existing key.
 */
final class ZSetStoreCommands {
    private enum Op { UNION, INTER, DIFF }

    private enum Aggregate { SUM, MIN, MAX }

    /** One input: a sorted set or a plain set (both null when the key is missing) and its weight. */
    private static final class Source {
        final ZSetValue z;
        final SetValue set;
        double weight = 1;

        Source(ZSetValue z, SetValue set) {
            this.z = z;
            this.set = set;
        }

        int size() {
            return z != null ? z.size() : set != null ? set.size() : 0;
        }

        /** The score of {@code member} in this input (1 for a plain set's member), or NaN when absent. */
        double find(byte[] member) {
            if (z != null) {
                return z.score(member);
            }
            return set != null && set.contains(member) ? 1.0 : Double.NaN;
        }

        /** Calls {@code hit} with each member and its unweighted score, until it returns false. */
        void forEach(Hit hit) {
            if (z != null) {
                for (SkipList.Node x = z.list().first(); x != null; x = x.next()) {
                    if (!hit.accept(x.member(), x.score())) {
                        return;
                    }
                }
            } else if (set != null) {
                for (byte[] m : set.members()) {
                    if (!hit.accept(m, 1.0)) {
                        return;
                    }
                }
            }
        }
    }

    private ZSetStoreCommands() {
    }

    static void register(CommandTable t) {
        KeyFinder reads = Args.numkeys(1, 0, false);
        KeyFinder stores = Args.numkeys(2, 0, true);
        t.add(command("zunion", -3).flags(READONLY).keys(0, 0, 0, reads).group(GROUP).since("6.2.0")
                .summary("Add multiple sorted sets").handler(c -> setOp(c, false, Op.UNION, false)));
        t.add(command("zinter", -3).flags(READONLY).keys(0, 0, 0, reads).group(GROUP).since("6.2.0")
                .summary("Intersect multiple sorted sets").handler(c -> setOp(c, false, Op.INTER, false)));
        t.add(command("zdiff", -3).flags(READONLY).keys(0, 0, 0, reads).group(GROUP).since("6.2.0")
                .summary("Subtract multiple sorted sets").handler(c -> setOp(c, false, Op.DIFF, false)));
        t.add(command("zintercard", -3).flags(READONLY).keys(0, 0, 0, reads).group(GROUP).since("7.0.0")
                .summary("Intersect multiple sorted sets and return the cardinality of the result")
                .handler(c -> setOp(c, false, Op.INTER, true)));
        t.add(command("zunionstore", -4).flags(WRITE, DENYOOM).keys(1, 1, 1, stores).group(GROUP).since("2.0.0")
                .summary("Add multiple sorted sets and store the resulting sorted set in a new key")
                .handler(c -> setOp(c, true, Op.UNION, false)));
        t.add(command("zinterstore", -4).flags(WRITE, DENYOOM).keys(1, 1, 1, stores).group(GROUP).since("2.0.0")
                .summary("Intersect multiple sorted sets and store the resulting sorted set in a new key")
                .handler(c -> setOp(c, true, Op.INTER, false)));
        t.add(command("zdiffstore", -4).flags(WRITE, DENYOOM).keys(1, 1, 1, stores).group(GROUP).since("6.2.0")
                .summary("Subtract multiple sorted sets and store the resulting sorted set in a new key")
                .handler(c -> setOp(c, true, Op.DIFF, false)));
    }

    private static void setOp(Call c, boolean store, Op op, boolean cardinalityOnly) {
        int numkeysIdx = store ? 2 : 1;
        long setnum = c.longArg(numkeysIdx);
        if (setnum < 1) {
            throw Call.fail(ZSetArgs.atLeastOneKey(c.spec().name()));
        }
        if (setnum > c.argc() - (numkeysIdx + 1)) {
            throw Call.fail(Errors.SYNTAX);
        }
        int n = (int) setnum;
        List<Source> sources = new ArrayList<>(n);
        int j = numkeysIdx + 1;
        for (int i = 0; i < n; i++, j++) {
            Object v = c.value(c.arg(j));
            c.engine().countLookup(v != null);
            if (v != null && !(v instanceof ZSetValue) && !(v instanceof SetValue)) {
                throw Call.fail(Errors.WRONGTYPE);
            }
            sources.add(new Source(v instanceof ZSetValue z ? z : null, v instanceof SetValue set ? set : null));
        }
        Aggregate aggregate = Aggregate.SUM;
        boolean withScores = false;
        long limit = 0;
        while (j < c.argc()) {
            int remaining = c.argc() - j;
            if (op != Op.DIFF && !cardinalityOnly && remaining >= n + 1 && c.argIs(j, "weights")) {
                j++;
                for (int i = 0; i < n; i++, j++) {
                    sources.get(i).weight = ZSetArgs.score(c.arg(j), ZSetArgs.WEIGHT_NOT_FLOAT);
                }
            } else if (op != Op.DIFF && !cardinalityOnly && remaining >= 2 && c.argIs(j, "aggregate")) {
                j++;
                if (c.argIs(j, "sum")) {
                    aggregate = Aggregate.SUM;
                } else if (c.argIs(j, "min")) {
                    aggregate = Aggregate.MIN;
                } else if (c.argIs(j, "max")) {
                    aggregate = Aggregate.MAX;
                } else {
                    throw Call.fail(Errors.SYNTAX);
                }
                j++;
            } else if (!store && !cardinalityOnly && c.argIs(j, "withscores")) {
                j++;
                withScores = true;
            } else if (cardinalityOnly && remaining >= 2 && c.argIs(j, "limit")) {
                limit = ZSetArgs.nonNegative(c.arg(j + 1), ZSetArgs.LIMIT_NEGATIVE);
                j += 2;
            } else {
                throw Call.fail(Errors.SYNTAX);
            }
        }
        if (op != Op.DIFF) {
            sources.sort(Comparator.comparingInt(Source::size)); // List.sort is stable
        }
        if (cardinalityOnly) {
            c.reply().integer(interCard(sources, limit));
            return;
        }
        ZSetValue result = new ZSetValue(true, c.engine().encodings());
        switch (op) {
            case INTER -> inter(sources, aggregate, result);
            case UNION -> union(sources, aggregate, result);
            default -> diff(sources, result);
        }
        if (store) {
            result.convertToListpackIfFits();
            ZSetArgs.store(c, c.arg(1), result);
            return;
        }
        List<SkipList.Node> nodes = new ArrayList<>(result.size());
        for (SkipList.Node x = result.list().first(); x != null; x = x.next()) {
            nodes.add(x);
        }
        ZSetArgs.replyNodes(c.reply(), nodes, withScores);
    }

    private static double aggregate(double target, double value, Aggregate a) {
        switch (a) {
            case MIN:
                return value < target ? value : target;
            case MAX:
                return value > target ? value : target;
            default:
                double sum = target + value;
                return Double.isNaN(sum) ? 0.0 : sum;
        }
    }

    private static double weighted(double score, double weight) {
        double s = score * weight;
        return Double.isNaN(s) ? 0.0 : s;
    }

    /**
     * Walks the smallest input and calls {@code hit} with each member found in every input and its aggregated
     * score, until {@code hit} returns false.
     */
    private static void forEachInCommon(List<Source> sources, Aggregate a, Hit hit) {
        Source first = sources.get(0);
        if (first.size() == 0) {
            return;
        }
        first.forEach((member, firstScore) -> {
            double score = weighted(firstScore, first.weight);
            for (int k = 1; k < sources.size(); k++) {
                Source s = sources.get(k);
                double v = s.find(member);
                if (Double.isNaN(v)) {
                    return true;
                }
                score = aggregate(score, v * s.weight, a);
            }
            return hit.accept(member, score);
        });
    }

    @FunctionalInterface
    private interface Hit {
        boolean accept(byte[] member, double score);
    }

    private static void inter(List<Source> sources, Aggregate a, ZSetValue result) {
        forEachInCommon(sources, a, (m, s) -> {
            result.insert(m, s);
            return true;
        });
    }

    private static long interCard(List<Source> sources, long limit) {
        long[] count = {0};
        forEachInCommon(sources, Aggregate.SUM, (m, s) -> {
            count[0]++;
            return limit == 0 || count[0] < limit;
        });
        return count[0];
    }

    private static void union(List<Source> sources, Aggregate a, ZSetValue result) {
        Dict<Object> acc = new Dict<>();
        for (Source src : sources) {
            if (src.size() == 0) {
                continue;
            }
            src.forEach((member, unweighted) -> {
                double score = weighted(unweighted, src.weight);
                Dict.Node<Object> e = acc.find(member);
                if (e == null) {
                    acc.addAbsent(member).aux(Double.doubleToRawLongBits(score));
                } else {
                    double cur = Double.longBitsToDouble(e.aux());
                    e.aux(Double.doubleToRawLongBits(aggregate(cur, score, a)));
                }
                return true;
            });
        }
        acc.forEach(e -> result.insert(e.key(), Double.longBitsToDouble(e.aux())));
    }

    private static void diff(List<Source> sources, ZSetValue result) {
        Source first = sources.get(0);
        if (first.size() == 0) {
            return;
        }
        first.forEach((member, score) -> {
            for (int k = 1; k < sources.size(); k++) {
                if (!Double.isNaN(sources.get(k).find(member))) {
                    return true;
                }
            }
            result.insert(member, score);
            return true;
        });
    }
}
