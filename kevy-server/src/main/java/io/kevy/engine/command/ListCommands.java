package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.DENYOOM;
import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.engine.type.ListValue;
import io.kevy.resp.ReplySink;
import io.kevy.resp.Verbs;
import java.util.Arrays;

/**
 * List commands (Redis 7.0 semantics, replies and error texts): LPUSH, RPUSH, LPUSHX, RPUSHX, LPOP, RPOP,
 * LLEN, LRANGE, LINDEX, LSET, LREM, LTRIM, LINSERT, LPOS, LMOVE, RPOPLPUSH, LMPOP.
 *
 * <p>Effect frames (feed contract §7): pushes verbatim with the upper-case verb (the X variants as LPUSH/RPUSH
 * when applied); pops as {@code LPOP k n} / {@code RPOP k n} with the number popped; moves as the pop on the
 * source's shard plus the push of the moved value on the destination's shard; LSET, LINSERT, LREM and LTRIM
 * verbatim when they changed the list. Emptied lists are deleted. Nothing is emitted for no-ops.
 *
 * <p>The pop and move primitives ({@link #popFrom}, {@link #move}) are package-private so the blocking
 * commands can serve a woken client with exactly the same state change, frames included.
 */
final class ListCommands {
    private static final byte[] ONE = Verbs.ascii("1");
    private static final ErrorReply RANK_ZERO = ErrorReply.err("RANK can't be zero: use 1 to start from the first "
            + "match, 2 from the second ... or use negative to start from the end of the list");
    private static final ErrorReply COUNT_NEGATIVE = ErrorReply.err("COUNT can't be negative");
    private static final ErrorReply MAXLEN_NEGATIVE = ErrorReply.err("MAXLEN can't be negative");
    private static final ErrorReply LMPOP_COUNT = ErrorReply.err("count should be greater than 0");

    private ListCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("lpush", -3).flags(WRITE, DENYOOM, FAST).keys(1, 1, 1).group("list").since("1.0.0")
                .summary("Prepend one or multiple elements to a list").handler(c -> push(c, true, false)));
        t.add(command("rpush", -3).flags(WRITE, DENYOOM, FAST).keys(1, 1, 1).group("list").since("1.0.0")
                .summary("Append one or multiple elements to a list").handler(c -> push(c, false, false)));
        t.add(command("lpushx", -3).flags(WRITE, DENYOOM, FAST).keys(1, 1, 1).group("list").since("2.2.0")
                .summary("Prepend an element to a list, only if the list exists").handler(c -> push(c, true, true)));
        t.add(command("rpushx", -3).flags(WRITE, DENYOOM, FAST).keys(1, 1, 1).group("list").since("2.2.0")
                .summary("Append an element to a list, only if the list exists").handler(c -> push(c, false, true)));
        t.add(command("lpop", -2).flags(WRITE, FAST).keys(1, 1, 1).group("list").since("1.0.0")
                .summary("Remove and get the first elements in a list").handler(c -> pop(c, true)));
        t.add(command("rpop", -2).flags(WRITE, FAST).keys(1, 1, 1).group("list").since("1.0.0")
                .summary("Remove and get the last elements in a list").handler(c -> pop(c, false)));
        t.add(command("llen", 2).flags(READONLY, FAST).keys(1, 1, 1).group("list").since("1.0.0")
                .summary("Get the length of a list").handler(c -> {
                    ListValue l = c.read(c.arg(1), ListValue.class);
                    c.reply().integer(l == null ? 0 : l.size());
                }));
        t.add(command("lrange", 4).flags(READONLY).keys(1, 1, 1).group("list").since("1.0.0")
                .summary("Get a range of elements from a list").handler(ListCommands::lrange));
        t.add(command("lindex", 3).flags(READONLY).keys(1, 1, 1).group("list").since("1.0.0")
                .summary("Get an element from a list by its index").handler(ListCommands::lindex));
        t.add(command("lset", 4).flags(WRITE, DENYOOM).keys(1, 1, 1).group("list").since("1.0.0")
                .summary("Set the value of an element in a list by its index").handler(ListCommands::lset));
        t.add(command("lrem", 4).flags(WRITE).keys(1, 1, 1).group("list").since("1.0.0")
                .summary("Remove elements from a list").handler(ListCommands::lrem));
        t.add(command("ltrim", 4).flags(WRITE).keys(1, 1, 1).group("list").since("1.0.0")
                .summary("Trim a list to the specified range").handler(ListCommands::ltrim));
        t.add(command("linsert", 5).flags(WRITE, DENYOOM).keys(1, 1, 1).group("list").since("2.2.0")
                .summary("Insert an element before or after another element in a list")
                .handler(ListCommands::linsert));
        t.add(command("lpos", -3).flags(READONLY).keys(1, 1, 1).group("list").since("6.0.6")
                .summary("Return the index of matching elements on a list").handler(ListCommands::lpos));
        t.add(command("lmove", 5).flags(WRITE, DENYOOM).keys(1, 2, 1).group("list").since("6.2.0")
                .summary("Pop an element from a list, push it to another list and return it")
                .handler(c -> lmove(c, isLeft(c, 3), isLeft(c, 4))));
        t.add(command("rpoplpush", 3).flags(WRITE, DENYOOM).keys(1, 2, 1).group("list").since("1.2.0")
                .summary("Remove the last element in a list, prepend it to another list and return it")
                .handler(c -> lmove(c, false, true)));
        t.add(command("lmpop", -4).flags(WRITE).keys(0, 0, 0, Args.numkeys(1, 1, false))
                .group("list").since("7.0.0").summary("Pop elements from a list").handler(ListCommands::lmpop));
    }

    // ---- shared primitives (also used by the blocking commands) ----

    /**
     * Pops up to {@code count} (at least 1) elements from the head ({@code left}) or tail of the list at
     * {@code key}, deletes the key when the list is emptied, and emits {@code LPOP key n} / {@code RPOP key n}
     * with the number popped (feed contract §7).
     *
     * @return the popped elements in pop order (never empty), or null when {@code key} does not exist
     * @throws io.kevy.engine.error.CommandException WRONGTYPE when {@code key} holds another type (nothing changed)
     */
    static byte[][] popFrom(Call c, byte[] key, boolean left, long count) {
        ListValue l = c.value(key, ListValue.class);
        if (l == null) {
            return null;
        }
        int n = (int) Math.min(count, l.size());
        byte[][] out = new byte[n][];
        for (int i = 0; i < n; i++) {
            out[i] = l.pop(left);
        }
        deleteIfEmpty(c, key, l);
        c.emit(left ? Verbs.LPOP : Verbs.RPOP, key, n == 1 ? ONE : RedisNumbers.toBytes(n));
        return out;
    }

    /**
     * Moves one element from the head ({@code fromLeft}) or tail of the list at {@code src} to the head
     * ({@code toLeft}) or tail of the list at {@code dst} (created when absent), as LMOVE does. Emits the pop
     * ({@code LPOP src 1} / {@code RPOP src 1}) on src's shard and the push ({@code LPUSH dst v} /
     * {@code RPUSH dst v}) on dst's shard (feed contract §7). When src and dst are the same key the push is
     * emitted first: replaying push-then-pop never empties the list, so a one-element rotation keeps the key
     * and its TTL on a mirror, exactly as it does here.
     *
     * @return the moved element, or null when {@code src} does not exist (nothing changed)
     * @throws io.kevy.engine.error.CommandException WRONGTYPE when src or dst holds another type (nothing changed)
     */
    static byte[] move(Call c, byte[] src, byte[] dst, boolean fromLeft, boolean toLeft) {
        ListValue from = c.value(src, ListValue.class);
        if (from == null) {
            return null;
        }
        boolean same = Arrays.equals(src, dst);
        ListValue to = same ? from : c.value(dst, ListValue.class);
        byte[] v = from.pop(fromLeft);
        if (to == null) {
            to = new ListValue();
            c.db(dst).add(dst, to);
        }
        to.push(v, toLeft);
        deleteIfEmpty(c, src, from);
        byte[][] pop = {fromLeft ? Verbs.LPOP : Verbs.RPOP, src, ONE};
        byte[][] push = {toLeft ? Verbs.LPUSH : Verbs.RPUSH, dst, v};
        if (same) {
            c.emit(push);
            c.emit(pop);
        } else {
            c.emit(pop);
            c.emit(push);
        }
        return v;
    }

    /** The LMPOP / BLMPOP reply: {@code *2 [key, *n elements]}. */
    static void replyKeyAndElements(ReplySink r, byte[] key, byte[][] elements) {
        r.array(2);
        r.bulk(key);
        replyElements(r, elements);
    }

    /** Parses LEFT / RIGHT at argument {@code i}: true for LEFT, syntax error otherwise. */
    static boolean isLeft(Call c, int i) {
        if (c.argIs(i, "left")) {
            return true;
        }
        if (c.argIs(i, "right")) {
            return false;
        }
        throw Call.fail(Errors.SYNTAX);
    }

    // ---- handlers ----

    private static void push(Call c, boolean left, boolean onlyIfExists) {
        byte[] key = c.arg(1);
        ListValue l = c.value(key, ListValue.class);
        if (l == null) {
            if (onlyIfExists) {
                c.reply().integer(0);
                return;
            }
            l = new ListValue();
            c.db(key).add(key, l);
        }
        byte[][] frame = c.argv().clone();
        frame[0] = left ? Verbs.LPUSH : Verbs.RPUSH;
        for (int i = 2; i < c.argc(); i++) {
            l.push(c.arg(i), left);
        }
        c.emit(frame);
        c.reply().integer(l.size());
    }

    private static void pop(Call c, boolean left) {
        if (c.argc() > 3) {
            throw Call.fail(Errors.wrongArity(c.spec().name()));
        }
        boolean hasCount = c.argc() == 3;
        long count = hasCount ? Args.nonNegative(c, 2, Args.MUST_BE_POSITIVE) : 1;
        byte[] key = c.arg(1);
        ListValue l = c.value(key, ListValue.class);
        if (l == null) {
            if (hasCount) {
                c.reply().nullArray();
            } else {
                c.reply().nullBulk();
            }
            return;
        }
        if (count == 0) {
            c.reply().array(0);
            return;
        }
        byte[][] popped = popFrom(c, key, left, count);
        if (hasCount) {
            replyElements(c.reply(), popped);
        } else {
            c.reply().bulk(popped[0]);
        }
    }

    private static void lrange(Call c) {
        long start = c.longArg(2);
        long end = c.longArg(3);
        ListValue l = c.read(c.arg(1), ListValue.class);
        if (l == null) {
            c.reply().array(0);
            return;
        }
        long[] ranks = Args.clampRanks(start, end, l.size());
        if (ranks == null) {
            c.reply().array(0);
            return;
        }
        c.reply().array((int) (ranks[1] - ranks[0] + 1));
        for (long i = ranks[0]; i <= ranks[1]; i++) {
            c.reply().bulk(l.get((int) i));
        }
    }

    private static void lindex(Call c) {
        ListValue l = c.read(c.arg(1), ListValue.class);
        if (l == null) {
            c.reply().nullBulk();
            return;
        }
        long i = resolve(c.longArg(2), l.size());
        c.reply().bulkOrNull(i < 0 ? null : l.get((int) i));
    }

    private static void lset(Call c) {
        byte[] key = c.arg(1);
        ListValue l = c.value(key, ListValue.class);
        if (l == null) {
            throw Call.fail(Errors.NO_SUCH_KEY);
        }
        long i = resolve(c.longArg(2), l.size());
        if (i < 0) {
            throw Call.fail(Errors.INDEX_OUT_OF_RANGE);
        }
        l.set((int) i, c.arg(3));
        c.emit(Verbs.LSET, key, c.arg(2), c.arg(3));
        c.reply().ok();
    }

    private static void lrem(Call c) {
        long count = c.longArg(2);
        byte[] key = c.arg(1);
        ListValue l = c.value(key, ListValue.class);
        if (l == null) {
            c.reply().integer(0);
            return;
        }
        int removed = l.removeMatching(c.arg(3), count);
        if (removed > 0) {
            deleteIfEmpty(c, key, l);
            c.emit(Verbs.LREM, key, c.arg(2), c.arg(3));
        }
        c.reply().integer(removed);
    }

    private static void ltrim(Call c) {
        long start = c.longArg(2);
        long end = c.longArg(3);
        byte[] key = c.arg(1);
        ListValue l = c.value(key, ListValue.class);
        if (l == null) {
            c.reply().ok();
            return;
        }
        long len = l.size();
        long[] ranks = Args.clampRanks(start, end, len);
        long ltrim = ranks == null ? len : ranks[0];
        long rtrim = ranks == null ? 0 : len - ranks[1] - 1;
        if (ltrim + rtrim > 0) {
            l.removeFirst((int) ltrim);
            l.removeLast((int) rtrim);
            deleteIfEmpty(c, key, l);
            c.emit(Verbs.LTRIM, key, c.arg(2), c.arg(3));
        }
        c.reply().ok();
    }

    private static void linsert(Call c) {
        boolean after;
        if (c.argIs(2, "after")) {
            after = true;
        } else if (c.argIs(2, "before")) {
            after = false;
        } else {
            throw Call.fail(Errors.SYNTAX);
        }
        byte[] key = c.arg(1);
        ListValue l = c.value(key, ListValue.class);
        if (l == null) {
            c.reply().integer(0);
            return;
        }
        int at = l.indexOf(c.arg(3));
        if (at < 0) {
            c.reply().integer(-1);
            return;
        }
        l.insert(after ? at + 1 : at, c.arg(4));
        c.emit(Verbs.LINSERT, key, c.arg(2), c.arg(3), c.arg(4));
        c.reply().integer(l.size());
    }

    private static void lpos(Call c) {
        byte[] ele = c.arg(2);
        long rank = 1;
        long count = -1;
        long maxlen = 0;
        for (int j = 3; j < c.argc(); j++) {
            boolean moreArgs = j + 1 < c.argc();
            if (c.argIs(j, "rank") && moreArgs) {
                rank = c.longArg(++j);
                if (rank == 0) {
                    throw Call.fail(RANK_ZERO);
                }
            } else if (c.argIs(j, "count") && moreArgs) {
                count = Args.nonNegative(c, ++j, COUNT_NEGATIVE);
            } else if (c.argIs(j, "maxlen") && moreArgs) {
                maxlen = Args.nonNegative(c, ++j, MAXLEN_NEGATIVE);
            } else {
                throw Call.fail(Errors.SYNTAX);
            }
        }
        boolean fromTail = false;
        if (rank < 0) {
            // Redis negates in C long arithmetic: RANK -9223372036854775808 stays negative, which makes every
            // match qualify (7.0.15 accepts it); Java's wrapping arithmetic reproduces that exactly.
            rank = -rank;
            fromTail = true;
        }
        ListValue l = c.read(c.arg(1), ListValue.class);
        if (l == null) {
            if (count != -1) {
                c.reply().array(0);
            } else {
                c.reply().nullBulk();
            }
            return;
        }
        int len = l.size();
        long matches = 0;
        long found = -1;
        long[] hits = count != -1 ? new long[Math.min(len, 16)] : null;
        int nhits = 0;
        for (int index = 0; index < len && (maxlen == 0 || index < maxlen); index++) {
            int at = fromTail ? len - 1 - index : index;
            if (Arrays.equals(l.get(at), ele)) {
                matches++;
                if (matches >= rank) {
                    if (hits == null) {
                        found = at;
                        break;
                    }
                    if (nhits == hits.length) {
                        hits = Arrays.copyOf(hits, Math.min(len, nhits * 2));
                    }
                    hits[nhits++] = at;
                    if (count != 0 && matches - rank + 1 >= count) {
                        break;
                    }
                }
            }
        }
        if (hits == null) {
            if (found < 0) {
                c.reply().nullBulk();
            } else {
                c.reply().integer(found);
            }
            return;
        }
        c.reply().array(nhits);
        for (int i = 0; i < nhits; i++) {
            c.reply().integer(hits[i]);
        }
    }

    private static void lmove(Call c, boolean fromLeft, boolean toLeft) {
        c.reply().bulkOrNull(move(c, c.arg(1), c.arg(2), fromLeft, toLeft));
    }

    private static void lmpop(Call c) {
        MpopArgs a = MpopArgs.parse(c, 1);
        for (int k = a.firstKey(); k < a.firstKey() + a.keys(); k++) {
            byte[] key = c.arg(k);
            byte[][] popped = popFrom(c, key, a.left(), a.count());
            if (popped != null) {
                replyKeyAndElements(c.reply(), key, popped);
                return;
            }
        }
        c.reply().nullArray();
    }

    /**
     * The arguments of LMPOP and BLMPOP from {@code numkeys} on: {@code numkeys key [key ...] LEFT|RIGHT
     * [COUNT count]}, validated in Redis 7.0's order ({@code lmpopGenericCommand}).
     *
     * @param firstKey the index of the first key
     * @param keys     how many keys
     * @param left     LEFT (pop from the head)
     * @param count    how many elements to pop, at least 1
     */
    record MpopArgs(int firstKey, int keys, boolean left, long count) {
        static MpopArgs parse(Call c, int numkeysAt) {
            long numkeys = Args.numkeys(c, numkeysAt);
            if (numkeys >= c.argc() - numkeysAt - 1) {
                throw Call.fail(Errors.SYNTAX);
            }
            int whereAt = numkeysAt + 1 + (int) numkeys;
            boolean left = isLeft(c, whereAt);
            long count = -1;
            for (int j = whereAt + 1; j < c.argc(); j++) {
                if (count == -1 && c.argIs(j, "count") && j + 1 < c.argc()) {
                    count = c.longArg(++j, LMPOP_COUNT);
                    if (count < 1) {
                        throw Call.fail(LMPOP_COUNT);
                    }
                } else {
                    throw Call.fail(Errors.SYNTAX);
                }
            }
            return new MpopArgs(numkeysAt + 1, (int) numkeys, left, count == -1 ? 1 : count);
        }
    }

    // ---- helpers ----

    /** A Redis list index resolved against {@code len} (negative counts from the tail); -1 when out of range. */
    private static long resolve(long index, int len) {
        long i = index < 0 ? len + index : index;
        return i >= 0 && i < len ? i : -1;
    }

    private static void replyElements(ReplySink r, byte[][] elements) {
        r.array(elements.length);
        for (byte[] e : elements) {
            r.bulk(e);
        }
    }

    private static void deleteIfEmpty(Call c, byte[] key, ListValue l) {
        if (l.isEmpty()) {
            c.db(key).remove(key);
        }
    }
}
