package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.DENYOOM;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.config.EncodingLimits;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.type.SetValue;
import io.kevy.resp.Verbs;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Set algebra over several keys (Redis 7.0 semantics): SINTER, SUNION, SDIFF, SINTERSTORE, SUNIONSTORE,
 * SDIFFSTORE, SINTERCARD. Missing keys are empty sets; every key is type-checked before anything happens, so a
 * WRONGTYPE anywhere fails the whole command. Keys may live on different shards: the dispatcher has locked
 * them all.
 *
 * <p>Results are built as Redis builds them (a fresh set that starts as an intset), so their encoding and,
 * for integer results, their reply order match Redis. A {@code *STORE} replaces the destination (dropping its
 * TTL) and emits {@code DEL dst} then {@code SADD dst ...} frames of at most 1024 members when the result is
 * not empty, or {@code DEL dst} alone when an empty result deleted an existing key (feed contract §7).
 */
final class SetAlgebraCommands {
    private static final ErrorReply TOO_MANY_KEYS = ErrorReply.err("Number of keys can't be greater than number of args");
    private static final ErrorReply LIMIT_NEGATIVE = ErrorReply.err("LIMIT can't be negative");

    private SetAlgebraCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("sinter", -2).flags(READONLY).keys(1, -1, 1).group("set").since("1.0.0")
                .summary("Intersect multiple sets").handler(c -> sinter(c, 1, null)));
        t.add(command("sunion", -2).flags(READONLY).keys(1, -1, 1).group("set").since("1.0.0")
                .summary("Add multiple sets").handler(c -> unionOrDiff(c, 1, null, false)));
        t.add(command("sdiff", -2).flags(READONLY).keys(1, -1, 1).group("set").since("1.0.0")
                .summary("Subtract multiple sets").handler(c -> unionOrDiff(c, 1, null, true)));
        t.add(command("sinterstore", -3).flags(WRITE, DENYOOM).keys(1, -1, 1).group("set").since("1.0.0")
                .summary("Intersect multiple sets and store the resulting set in a key")
                .handler(c -> sinter(c, 2, c.arg(1))));
        t.add(command("sunionstore", -3).flags(WRITE, DENYOOM).keys(1, -1, 1).group("set").since("1.0.0")
                .summary("Add multiple sets and store the resulting set in a key")
                .handler(c -> unionOrDiff(c, 2, c.arg(1), false)));
        t.add(command("sdiffstore", -3).flags(WRITE, DENYOOM).keys(1, -1, 1).group("set").since("1.0.0")
                .summary("Subtract multiple sets and store the resulting set in a key")
                .handler(c -> unionOrDiff(c, 2, c.arg(1), true)));
        t.add(command("sintercard", -3).flags(READONLY).keys(0, 0, 0, Args.numkeys(1, 0, false))
                .group("set").since("7.0.0").summary("Intersect multiple sets and return the cardinality of the result")
                .handler(SetAlgebraCommands::sintercard));
    }

    private static void sintercard(Call c) {
        long numkeys = Args.numkeys(c, 1);
        if (numkeys > c.argc() - 2) {
            throw Call.fail(TOO_MANY_KEYS);
        }
        int end = 2 + (int) numkeys;
        long limit = 0;
        for (int j = end; j < c.argc(); j++) {
            if (c.argIs(j, "limit") && j + 1 < c.argc()) {
                limit = Args.nonNegative(c, ++j, LIMIT_NEGATIVE);
            } else {
                throw Call.fail(Errors.SYNTAX);
            }
        }
        SetValue[] sets = lookup(c, 2, end, true);
        c.reply().integer(intersect(sets, limit, null));
    }

    /**
     * SINTER / SINTERSTORE over the keys at {@code [from, argc)}: iterates the smallest set and keeps the
     * members every other set has. {@code dst} null replies the members; otherwise stores them.
     */
    private static void sinter(Call c, int from, byte[] dst) {
        SetValue[] sets = lookup(c, from, c.argc(), dst == null);
        List<byte[]> out = new ArrayList<>();
        intersect(sets, 0, out);
        if (dst == null) {
            c.reply().set(out.size());
            for (byte[] m : out) {
                c.reply().bulk(m);
            }
            return;
        }
        SetValue result = new SetValue(c.engine().encodings());
        out.forEach(result::add);
        store(c, dst, result);
    }

    /**
     * The intersection of {@code sets} (null entries are empty sets): collects the members into {@code out}
     * when it is not null, and returns how many there are, stopping at {@code limit} (0 = no limit).
     */
    private static long intersect(SetValue[] sets, long limit, List<byte[]> out) {
        for (SetValue s : sets) {
            if (s == null) {
                return 0;
            }
        }
        SetValue[] bySize = sets.clone();
        Arrays.sort(bySize, Comparator.comparingInt(SetValue::size));
        SetValue first = bySize[0];
        long count = 0;
        for (byte[] m : first.members()) {
            boolean everywhere = true;
            for (int j = 1; j < bySize.length && everywhere; j++) {
                everywhere = bySize[j] == first || bySize[j].contains(m);
            }
            if (everywhere) {
                count++;
                if (out != null) {
                    out.add(m);
                }
                if (limit != 0 && count >= limit) {
                    break;
                }
            }
        }
        return count;
    }

    /** SUNION / SDIFF and their STORE forms over the keys at {@code [from, argc)}. */
    private static void unionOrDiff(Call c, int from, byte[] dst, boolean diff) {
        SetValue[] sets = lookup(c, from, c.argc(), true);
        SetValue result = diff ? difference(sets, c.engine().encodings()) : union(sets, c.engine().encodings());
        if (dst == null) {
            SetCommands.replyMembers(c.reply(), result);
        } else {
            store(c, dst, result);
        }
    }

    private static SetValue union(SetValue[] sets, EncodingLimits limits) {
        SetValue result = new SetValue(limits);
        for (SetValue s : sets) {
            if (s != null) {
                s.forEach(result::add);
            }
        }
        return result;
    }

    /**
     * The first set minus the others, with Redis's choice of algorithm (it decides the result's encoding):
     * check each member of the first against the others when that is cheaper, else copy the first set and
     * remove the members of the others.
     */
    private static SetValue difference(SetValue[] sets, EncodingLimits limits) {
        SetValue result = new SetValue(limits);
        SetValue first = sets[0];
        if (first == null) {
            return result;
        }
        long checkWork = 0;
        long removeWork = 0;
        for (int j = 0; j < sets.length; j++) {
            if (j > 0 && sets[j] == first) {
                return result; // the first set subtracted from itself
            }
            if (sets[j] != null) {
                checkWork += first.size();
                removeWork += sets[j].size();
            }
        }
        if (checkWork / 2 <= removeWork) {
            first.forEach(m -> {
                for (int j = 1; j < sets.length; j++) {
                    if (sets[j] != null && sets[j].contains(m)) {
                        return;
                    }
                }
                result.add(m);
            });
        } else {
            first.forEach(result::add);
            for (int j = 1; j < sets.length && !result.isEmpty(); j++) {
                if (sets[j] != null) {
                    sets[j].forEach(result::remove);
                }
            }
        }
        return result;
    }

    /** The sets at {@code [from, to)}, null for missing keys; WRONGTYPE (before any change) for other types. */
    private static SetValue[] lookup(Call c, int from, int to, boolean read) {
        SetValue[] sets = new SetValue[to - from];
        for (int i = from; i < to; i++) {
            sets[i - from] = read ? c.read(c.arg(i), SetValue.class) : c.value(c.arg(i), SetValue.class);
        }
        return sets;
    }

    /**
     * Stores {@code result} at {@code dst} (replacing any value and TTL) or deletes dst when the result is
     * empty, emits the frames (feed contract §7) and replies with the result's size.
     */
    private static void store(Call c, byte[] dst, SetValue result) {
        boolean existed = c.node(dst) != null;
        if (result.isEmpty()) {
            if (existed) {
                c.db(dst).remove(dst);
                c.emit(Verbs.DEL, dst);
            }
            c.reply().integer(0);
            return;
        }
        c.db(dst).put(dst, result, false);
        c.emit(Verbs.DEL, dst);
        result.rebuild(dst, c::emit);
        c.reply().integer(result.size());
    }
}
