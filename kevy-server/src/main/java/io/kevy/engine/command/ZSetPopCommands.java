package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import static io.kevy.engine.command.ZSetCommands.GROUP;
import io.kevy.engine.Shard;
import io.kevy.engine.error.Errors;
import io.kevy.engine.struct.SkipList;
import io.kevy.engine.type.ZSetValue;
import io.kevy.resp.ReplySink;
import java.util.ArrayList;
import java.util.List;

/**
 * ZPOPMIN, ZPOPMAX and ZMPOP (Redis 7.0's {@code genericZpopCommand} and {@code zmpopGenericCommand}). The pop
 * itself, {@link #pop}, and the reply writers are shared with the blocking forms (BZPOPMIN, BZPOPMAX, BZMPOP).
 *
 * <p>Frames (feed contract §7): {@code ZREM k <members popped>}; nothing when nothing was popped.
 */
final class ZSetPopCommands {
    private ZSetPopCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("zpopmin", -2).flags(WRITE, FAST).keys(1, 1, 1).group(GROUP).since("5.0.0")
                .summary("Remove and return members with the lowest scores in a sorted set")
                .handler(c -> zpop(c, false)));
        t.add(command("zpopmax", -2).flags(WRITE, FAST).keys(1, 1, 1).group(GROUP).since("5.0.0")
                .summary("Remove and return members with the highest scores in a sorted set")
                .handler(c -> zpop(c, true)));
        t.add(command("zmpop", -4).flags(WRITE).keys(0, 0, 0, Args.numkeys(1, 0, false)).group(GROUP)
                .since("7.0.0").summary("Remove and return members with scores in a sorted set")
                .handler(ZSetPopCommands::zmpop));
    }

    /**
     * Pops up to {@code count} (at least 1) members with the lowest scores, or the highest when {@code max}, from
     * {@code z}, the live sorted set stored at {@code key} on {@code shard}. Deletes the key when it becomes empty
     * and emits {@code ZREM key <popped members>} on the shard (feed contract §7). The caller holds the shard's
     * lock and writes the reply.
     *
     * @return the popped nodes in pop order (each still carries its member and score); never empty
     */
    static List<SkipList.Node> pop(Call c, byte[] key, ZSetValue z, boolean max, long count) {
        Shard shard = c.shard(key);
        int n = (int) Math.min(count, z.size());
        List<SkipList.Node> popped = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            SkipList.Node x = max ? z.list().last() : z.list().first();
            z.remove(x.member());
            popped.add(x);
        }
        if (z.size() == 0) {
            shard.keyspace().remove(key);
        }
        ZSetArgs.emitRemoved(c::emit, key, ZSetArgs.members(popped)); // c.emit: the frame names its command
        return popped;
    }

    /**
     * Replies ZPOPMIN/ZPOPMAX's shape: a flat array {@code member, score, member, score ...}, except with a
     * count on RESP3, where Redis 7.0 nests the pairs ({@code use_nested_array}).
     */
    static void replyPopped(ReplySink out, List<SkipList.Node> popped, boolean counted) {
        if (counted) {
            ZSetArgs.replyNodes(out, popped, true);
        } else {
            ZSetArgs.replyFlat(out, popped);
        }
    }

    /** Replies ZMPOP's shape: {@code [key, [[member, score], ...]]}. */
    static void replyWithKey(ReplySink out, byte[] key, List<SkipList.Node> popped) {
        out.array(2);
        out.bulk(key);
        out.array(popped.size());
        for (SkipList.Node n : popped) {
            out.array(2);
            out.bulk(n.member());
            out.doubleValue(n.score());
        }
    }

    private static void zpop(Call c, boolean max) {
        if (c.argc() > 3) {
            throw Call.fail(Errors.SYNTAX);
        }
        long count = -1;
        if (c.argc() == 3) {
            count = ZSetArgs.nonNegative(c.arg(2), ZSetArgs.MUST_BE_POSITIVE);
        }
        byte[] key = c.arg(1);
        ZSetValue z = c.value(key, ZSetValue.class);
        if (z == null || count == 0) {
            c.reply().array(0);
            return;
        }
        replyPopped(c.reply(), pop(c, key, z, max, count == -1 ? 1 : count), count != -1);
    }

    /** ZMPOP numkeys key [key ...] MIN|MAX [COUNT count]: pops from the first non-empty key. */
    private static void zmpop(Call c) {
        MpopArgs a = MpopArgs.parse(c, 1);
        for (int i = a.firstKey(); i < a.firstKey() + a.keys(); i++) {
            byte[] key = c.arg(i);
            ZSetValue z = c.value(key, ZSetValue.class);
            if (z != null) {
                replyWithKey(c.reply(), key, pop(c, key, z, a.max(), a.count()));
                return;
            }
        }
        c.reply().nullArray();
    }

    /**
     * The arguments of ZMPOP and BZMPOP from {@code numkeys} on: {@code numkeys key [key ...] MIN|MAX
     * [COUNT count]}, validated in Redis 7.0's order ({@code zmpopGenericCommand}).
     *
     * @param firstKey the index of the first key
     * @param keys     how many keys
     * @param max      MAX (pop the highest scores)
     * @param count    how many members to pop, at least 1
     */
    record MpopArgs(int firstKey, int keys, boolean max, long count) {
        static MpopArgs parse(Call c, int numkeysAt) {
            long numkeys = ZSetArgs.rangeLong(c.arg(numkeysAt), 1, Long.MAX_VALUE, ZSetArgs.NUMKEYS_POSITIVE);
            if (numkeys >= c.argc() - numkeysAt - 1) {
                throw Call.fail(Errors.SYNTAX);
            }
            int whereIdx = numkeysAt + 1 + (int) numkeys;
            boolean max;
            if (c.argIs(whereIdx, "min")) {
                max = false;
            } else if (c.argIs(whereIdx, "max")) {
                max = true;
            } else {
                throw Call.fail(Errors.SYNTAX);
            }
            long count = -1;
            for (int j = whereIdx + 1; j < c.argc(); j++) {
                boolean moreArgs = j < c.argc() - 1;
                if (count == -1 && c.argIs(j, "count") && moreArgs) {
                    j++;
                    count = ZSetArgs.rangeLong(c.arg(j), 1, Long.MAX_VALUE, ZSetArgs.COUNT_POSITIVE);
                } else {
                    throw Call.fail(Errors.SYNTAX);
                }
            }
            return new MpopArgs(numkeysAt + 1, (int) numkeys, max, count == -1 ? 1 : count);
        }
    }
}
