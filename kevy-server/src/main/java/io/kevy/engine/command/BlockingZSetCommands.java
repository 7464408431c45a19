package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.BLOCKING;
import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.NOSCRIPT;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import static io.kevy.engine.command.ZSetCommands.GROUP;
import io.kevy.engine.struct.SkipList;
import io.kevy.engine.type.ZSetValue;
import io.kevy.resp.ReplySink;
import java.util.ArrayList;
import java.util.List;

/**
 * The blocking sorted-set pops (Redis 7.0 semantics, replies and error texts): BZPOPMIN, BZPOPMAX, BZMPOP.
 *
 * <p>Each pops at once from the first key, in argument order, that holds a sorted set (a key of another type
 * met before that is WRONGTYPE), replying {@code [key, member, score]} (BZPOPMIN/BZPOPMAX) or
 * {@code [key, [[member, score], ...]]} (BZMPOP); when every key is empty it parks a {@link BlockingPop} on
 * them, served by the next write that gives one of them members, in the order the clients blocked. The timeout
 * is in seconds, fractions allowed (0 = no limit); on timeout, and at once inside MULTI/EXEC, the reply is
 * the null array.
 *
 * <p>Frames (feed contract §7): {@code ZREM k <members popped>}, as ZPOPMIN/ZPOPMAX.
 */
final class BlockingZSetCommands {
    private BlockingZSetCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("bzpopmin", -3).flags(WRITE, NOSCRIPT, BLOCKING, FAST).keys(1, -2, 1)
                .keyFlags("RW", "access", "delete").group(GROUP).since("5.0.0")
                .summary("Remove and return the member with the lowest score from one or more sorted sets, or block "
                        + "until one is available")
                .complexity("O(log(N)) with N being the number of elements in the sorted set.")
                .handler(c -> bzpop(c, false)));
        t.add(command("bzpopmax", -3).flags(WRITE, NOSCRIPT, BLOCKING, FAST).keys(1, -2, 1)
                .keyFlags("RW", "access", "delete").group(GROUP).since("5.0.0")
                .summary("Remove and return the member with the highest score from one or more sorted sets, or block "
                        + "until one is available")
                .complexity("O(log(N)) with N being the number of elements in the sorted set.")
                .handler(c -> bzpop(c, true)));
        t.add(command("bzmpop", -5).flags(WRITE, BLOCKING).keys(0, 0, 0, Args.numkeys(2, 0, false))
                .group(GROUP).since("7.0.0")
                .summary("Remove and return members with scores in a sorted set or block until one is available")
                .complexity("O(K) + O(M*log(N)) where K is the number of provided keys, N being the number of "
                        + "elements in the sorted set, and M being the number of elements popped.")
                .handler(BlockingZSetCommands::bzmpop));
    }

    /** BZPOPMIN / BZPOPMAX key [key ...] timeout. */
    private static void bzpop(Call c, boolean max) {
        long timeout = BlockingPop.timeoutArg(c, c.argc() - 1);
        List<byte[]> keys = new ArrayList<>(c.argc() - 2);
        for (int i = 1; i < c.argc() - 1; i++) {
            keys.add(c.arg(i));
        }
        popOrPark(c, keys, max, -1, timeout);
    }

    /** BZMPOP timeout numkeys key [key ...] MIN|MAX [COUNT count]: arguments first, then the timeout. */
    private static void bzmpop(Call c) {
        ZSetPopCommands.MpopArgs a = ZSetPopCommands.MpopArgs.parse(c, 2);
        long timeout = BlockingPop.timeoutArg(c, 1);
        List<byte[]> keys = new ArrayList<>(a.keys());
        for (int i = a.firstKey(); i < a.firstKey() + a.keys(); i++) {
            keys.add(c.arg(i));
        }
        popOrPark(c, keys, a.max(), a.count(), timeout);
    }

    /** Pops from the first key holding a sorted set, or parks on all (count -1: BZPOPMIN's reply shape). */
    private static void popOrPark(Call c, List<byte[]> keys, boolean max, long count, long timeout) {
        for (byte[] key : keys) {
            if (c.value(key, ZSetValue.class) != null) {
                pop(c, key, max, count);
                return;
            }
        }
        if (!c.mayBlock()) {
            c.reply().nullArray();
            return;
        }
        new ZSetPop(c, keys, max, count).park(c, timeout);
    }

    private static void pop(Call c, byte[] key, boolean max, long count) {
        ZSetValue z = c.value(key, ZSetValue.class);
        List<SkipList.Node> popped = ZSetPopCommands.pop(c, key, z, max, count == -1 ? 1 : count);
        if (count == -1) {
            ReplySink r = c.reply();
            SkipList.Node n = popped.get(0);
            r.array(3);
            r.bulk(key);
            r.bulk(n.member());
            r.doubleValue(n.score());
        } else {
            ZSetPopCommands.replyWithKey(c.reply(), key, popped);
        }
    }

    /** A parked BZPOPMIN, BZPOPMAX or BZMPOP. */
    private static final class ZSetPop extends BlockingPop {
        private final boolean max;
        private final long count;

        ZSetPop(Call c, List<byte[]> keys, boolean max, long count) {
            super(c, keys, ZSetValue.class);
            this.max = max;
            this.count = count;
        }

        @Override
        void pop(Call c, byte[] key) {
            BlockingZSetCommands.pop(c, key, max, count);
        }
    }
}
