package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.DENYOOM;
import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.struct.Dict;
import io.kevy.engine.text.Glob;
import io.kevy.engine.type.RedisValue;
import io.kevy.engine.type.SetValue;
import io.kevy.resp.ReplySink;
import io.kevy.resp.Verbs;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * Set commands on one set (Redis 7.0 semantics, replies and error texts): SADD, SREM, SMEMBERS, SISMEMBER,
 * SMISMEMBER, SCARD, SPOP, SRANDMEMBER, SMOVE, SSCAN. The multi-set algebra (SINTER, SUNION, SDIFF, their
 * STORE forms, SINTERCARD) is in {@link SetAlgebraCommands}, registered from here.
 *
 * <p>Effect frames (feed contract §7): {@code SADD k <members added>}, {@code SREM k <members removed>}, SPOP
 * as {@code SREM k <popped>} (split into frames of at most {@link RedisValue#REBUILD_CHUNK} members), SMOVE as
 * {@code SREM src m} plus {@code SADD dst m} (when m was new there). Emptied sets are deleted; no-ops emit
 * nothing.
 */
final class SetCommands {
    private static final ErrorReply COUNT_RANGE = ErrorReply.err(
            "value is out of range, value must between -9223372036854775807 and 9223372036854775807");
    /** SPOP with count: above {@code size / SPOP_MOVE_STRATEGY_MUL}, keep the rest rather than pop (Redis). */
    private static final int SPOP_MOVE_STRATEGY_MUL = 5;
    /** SRANDMEMBER with count: above {@code size / SRANDMEMBER_SUB_STRATEGY_MUL}, copy and remove (Redis). */
    private static final int SRANDMEMBER_SUB_STRATEGY_MUL = 3;

    private SetCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("sadd", -3).flags(WRITE, DENYOOM, FAST).keys(1, 1, 1).group("set").since("1.0.0")
                .summary("Add one or more members to a set").handler(SetCommands::sadd));
        t.add(command("srem", -3).flags(WRITE, FAST).keys(1, 1, 1).group("set").since("1.0.0")
                .summary("Remove one or more members from a set").handler(SetCommands::srem));
        t.add(command("smembers", 2).flags(READONLY).keys(1, 1, 1).group("set").since("1.0.0")
                .summary("Get all the members in a set").handler(SetCommands::smembers));
        t.add(command("sismember", 3).flags(READONLY, FAST).keys(1, 1, 1).group("set").since("1.0.0")
                .summary("Determine if a given value is a member of a set").handler(c -> {
                    SetValue s = c.read(c.arg(1), SetValue.class);
                    c.reply().integer(s != null && s.contains(c.arg(2)) ? 1 : 0);
                }));
        t.add(command("smismember", -3).flags(READONLY, FAST).keys(1, 1, 1).group("set").since("6.2.0")
                .summary("Returns the membership associated with the given elements for a set").handler(c -> {
                    SetValue s = c.read(c.arg(1), SetValue.class);
                    c.reply().array(c.argc() - 2);
                    for (int i = 2; i < c.argc(); i++) {
                        c.reply().integer(s != null && s.contains(c.arg(i)) ? 1 : 0);
                    }
                }));
        t.add(command("scard", 2).flags(READONLY, FAST).keys(1, 1, 1).group("set").since("1.0.0")
                .summary("Get the number of members in a set").handler(c -> {
                    SetValue s = c.read(c.arg(1), SetValue.class);
                    c.reply().integer(s == null ? 0 : s.size());
                }));
        t.add(command("spop", -2).flags(WRITE, FAST).keys(1, 1, 1).group("set").since("1.0.0")
                .summary("Remove and return one or multiple random members from a set").handler(SetCommands::spop));
        t.add(command("srandmember", -2).flags(READONLY).keys(1, 1, 1).group("set").since("1.0.0")
                .summary("Get one or multiple random members from a set").handler(SetCommands::srandmember));
        t.add(command("smove", 4).flags(WRITE, FAST).keys(1, 2, 1).group("set").since("1.0.0")
                .summary("Move a member from one set to another").handler(SetCommands::smove));
        t.add(command("sscan", -3).flags(READONLY).keys(1, 1, 1).group("set").since("2.8.0")
                .summary("Incrementally iterate Set elements").handler(SetCommands::sscan));
        SetAlgebraCommands.register(t);
    }

    private static void sadd(Call c) {
        byte[] key = c.arg(1);
        SetValue s = c.value(key, SetValue.class);
        if (s == null) {
            s = new SetValue(c.engine().encodings());
            c.db(key).add(key, s);
        }
        List<byte[]> frame = new ArrayList<>(c.argc());
        frame.add(Verbs.SADD);
        frame.add(key);
        for (int i = 2; i < c.argc(); i++) {
            if (s.add(c.arg(i))) {
                frame.add(c.arg(i));
            }
        }
        int added = frame.size() - 2;
        if (added > 0) {
            c.emit(frame.toArray(new byte[0][]));
        }
        c.reply().integer(added);
    }

    private static void srem(Call c) {
        byte[] key = c.arg(1);
        SetValue s = c.value(key, SetValue.class);
        if (s == null) {
            c.reply().integer(0);
            return;
        }
        List<byte[]> frame = new ArrayList<>(c.argc());
        frame.add(Verbs.SREM);
        frame.add(key);
        for (int i = 2; i < c.argc() && !s.isEmpty(); i++) {
            if (s.remove(c.arg(i))) {
                frame.add(c.arg(i));
            }
        }
        int removed = frame.size() - 2;
        if (removed > 0) {
            deleteIfEmpty(c, key, s);
            c.emit(frame.toArray(new byte[0][]));
        }
        c.reply().integer(removed);
    }

    private static void smembers(Call c) {
        SetValue s = c.read(c.arg(1), SetValue.class);
        if (s == null) {
            c.reply().set(0);
            return;
        }
        replyMembers(c.reply(), s);
    }

    private static void spop(Call c) {
        if (c.argc() > 3) {
            throw Call.fail(Errors.SYNTAX);
        }
        byte[] key = c.arg(1);
        RandomGenerator rnd = ThreadLocalRandom.current();
        if (c.argc() == 2) {
            SetValue s = c.value(key, SetValue.class);
            if (s == null) {
                c.reply().nullBulk();
                return;
            }
            byte[] m = s.random(rnd);
            s.remove(m);
            deleteIfEmpty(c, key, s);
            c.emit(Verbs.SREM, key, m);
            c.reply().bulk(m);
            return;
        }
        long count = Args.nonNegative(c, 2, Args.MUST_BE_POSITIVE);
        SetValue s = c.value(key, SetValue.class);
        if (s == null || count == 0) {
            c.reply().set(0);
            return;
        }
        int size = s.size();
        List<byte[]> popped;
        if (count >= size) {
            // the whole set, in its iteration order
            popped = s.members();
            c.db(key).remove(key);
        } else if (count * SPOP_MOVE_STRATEGY_MUL > size) {
            // most of the set: pick the members that stay, reply with the rest in iteration order
            SetValue kept = new SetValue(c.engine().encodings());
            for (long remaining = size - count; remaining > 0; remaining--) {
                byte[] m = s.random(rnd);
                kept.add(m);
                s.remove(m);
            }
            popped = s.members();
            c.node(key).value(kept);
        } else {
            popped = new ArrayList<>((int) count);
            for (long i = 0; i < count; i++) {
                byte[] m = s.random(rnd);
                s.remove(m);
                popped.add(m);
            }
        }
        emitChunked(Verbs.SREM, key, popped, c::emit);
        c.reply().set(popped.size()); // Redis's addReplySetLen
        for (byte[] m : popped) {
            c.reply().bulk(m);
        }
    }

    private static void srandmember(Call c) {
        if (c.argc() > 3) {
            throw Call.fail(Errors.SYNTAX);
        }
        RandomGenerator rnd = ThreadLocalRandom.current();
        if (c.argc() == 2) {
            SetValue s = c.read(c.arg(1), SetValue.class);
            c.reply().bulkOrNull(s == null ? null : s.random(rnd));
            return;
        }
        long l = c.longArg(2);
        if (l == Long.MIN_VALUE) {
            throw Call.fail(COUNT_RANGE);
        }
        boolean unique = l >= 0;
        long count = Math.abs(l);
        SetValue s = c.read(c.arg(1), SetValue.class);
        if (s == null || count == 0) {
            c.reply().array(0);
            return;
        }
        int size = s.size();
        ReplySink r = c.reply();
        if (!unique || count == 1) {
            // closes the connection past its output limit, as Redis
            RepeatedPicks.write(c, count, false, o -> o.bulk(s.random(rnd)));
            return;
        }
        if (count >= size) {
            r.array(size); // an array, not a set, as Redis's srandmemberWithCountCommand
            s.forEach(r::bulk);
            return;
        }
        int n = (int) count;
        List<byte[]> picked;
        if (count * SRANDMEMBER_SUB_STRATEGY_MUL > size) {
            // a large share: partial Fisher-Yates over a copy of the members
            picked = s.members();
            for (int i = 0; i < n; i++) {
                int j = i + rnd.nextInt(size - i);
                byte[] tmp = picked.get(i);
                picked.set(i, picked.get(j));
                picked.set(j, tmp);
            }
            picked = picked.subList(0, n);
        } else {
            // a small share: sample until n distinct members
            picked = new ArrayList<>(n);
            Dict<Object> seen = new Dict<>();
            while (picked.size() < n) {
                byte[] m = s.random(rnd);
                Dict.Node<Object> node = seen.findOrAdd(m);
                if (node.value() == null) {
                    node.value(Boolean.TRUE);
                    picked.add(m);
                }
            }
        }
        r.array(n);
        for (byte[] m : picked) {
            r.bulk(m);
        }
    }

    private static void smove(Call c) {
        byte[] srcKey = c.arg(1);
        byte[] dstKey = c.arg(2);
        byte[] m = c.arg(3);
        SetValue src = c.value(srcKey, SetValue.class);
        if (src == null) {
            c.reply().integer(0);
            return;
        }
        SetValue dst = c.value(dstKey, SetValue.class);
        if (src == dst) {
            c.reply().integer(src.contains(m) ? 1 : 0);
            return;
        }
        if (!src.remove(m)) {
            c.reply().integer(0);
            return;
        }
        deleteIfEmpty(c, srcKey, src);
        c.emit(Verbs.SREM, srcKey, m);
        if (dst == null) {
            dst = new SetValue(c.engine().encodings());
            c.db(dstKey).add(dstKey, dst);
        }
        if (dst.add(m)) {
            c.emit(Verbs.SADD, dstKey, m);
        }
        c.reply().integer(1);
    }

    private static void sscan(Call c) {
        long cursor = ScanCursor.parse(c.arg(2));
        SetValue s = c.read(c.arg(1), SetValue.class);
        if (s == null) {
            replyScan(c.reply(), 0, List.of());
            return;
        }
        ScanOptions opts = ScanOptions.parse(c, 3);
        List<byte[]> found = new ArrayList<>();
        Consumer<byte[]> collect = found::add;
        long maxIterations = opts.count * 10;
        do {
            cursor = s.scan(cursor, collect);
        } while (cursor != 0 && maxIterations-- != 0 && found.size() < opts.count);
        if (opts.pattern != null) {
            found.removeIf(m -> !Glob.matches(opts.pattern, m, false));
        }
        replyScan(c.reply(), cursor, found);
    }

    // ---- helpers shared with SetAlgebraCommands (and usable by the other *SCAN commands) ----

    /** The options of SSCAN/HSCAN/ZSCAN: {@code [MATCH pattern] [COUNT count]} (last one wins). */
    static final class ScanOptions {
        /** The pattern, or null when absent or exactly {@code *} (matches everything). */
        final byte[] pattern;
        final long count;

        private ScanOptions(byte[] pattern, long count) {
            this.pattern = pattern;
            this.count = count;
        }

        /** Parses the options from argument {@code from} on, with Redis's errors (syntax error, not an integer). */
        static ScanOptions parse(Call c, int from) {
            byte[] pattern = null;
            long count = 10;
            for (int i = from; i < c.argc(); i += 2) {
                boolean hasValue = i + 1 < c.argc();
                if (c.argIs(i, "count") && hasValue) {
                    count = c.longArg(i + 1);
                    if (count < 1) {
                        throw Call.fail(Errors.SYNTAX);
                    }
                } else if (c.argIs(i, "match") && hasValue) {
                    byte[] p = c.arg(i + 1);
                    pattern = p.length == 1 && p[0] == '*' ? null : p;
                } else {
                    throw Call.fail(Errors.SYNTAX);
                }
            }
            return new ScanOptions(pattern, count);
        }
    }

    /** {@code *2 [cursor (unsigned decimal), *n items]}. */
    static void replyScan(ReplySink r, long cursor, List<byte[]> items) {
        r.array(2);
        r.bulk(Long.toUnsignedString(cursor));
        r.array(items.size());
        for (byte[] item : items) {
            r.bulk(item);
        }
    }

    /** The members of {@code s} as a set reply (an array on RESP2), in iteration order. */
    static void replyMembers(ReplySink r, SetValue s) {
        r.set(s.size());
        s.forEach(r::bulk);
    }

    /** Emits {@code verb key m ...} frames of at most {@link RedisValue#REBUILD_CHUNK} members each. */
    static void emitChunked(byte[] verb, byte[] key, List<byte[]> members, Consumer<byte[][]> emit) {
        for (int from = 0; from < members.size(); from += RedisValue.REBUILD_CHUNK) {
            int n = Math.min(RedisValue.REBUILD_CHUNK, members.size() - from);
            byte[][] f = new byte[n + 2][];
            f[0] = verb;
            f[1] = key;
            for (int j = 0; j < n; j++) {
                f[j + 2] = members.get(from + j);
            }
            emit.accept(f);
        }
    }

    static void deleteIfEmpty(Call c, byte[] key, SetValue s) {
        if (s.isEmpty()) {
            c.db(key).remove(key);
        }
    }
}
