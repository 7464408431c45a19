package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.BLOCKING;
import static io.kevy.engine.command.CommandFlag.DENYOOM;
import static io.kevy.engine.command.CommandFlag.NOSCRIPT;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.type.ListValue;
import io.kevy.resp.ReplySink;
import java.util.ArrayList;
import java.util.List;

/**
 * The blocking list commands (Redis 7.0 semantics, replies and error texts): BLPOP, BRPOP, BLMOVE, BRPOPLPUSH,
 * BLMPOP.
 *
 * <p>Each first behaves as its non-blocking form on the first key, in argument order, that holds a list (a key
 * of another type met before that is WRONGTYPE); when every key is empty it parks a {@link BlockingPop} on
 * them, which the next push serves in the order the clients blocked. The timeout is in seconds, fractions
 * allowed (0 = no limit); on timeout the reply is the null array. Inside MULTI/EXEC nothing blocks: an empty
 * result answers at once, the null array (BLMOVE and BRPOPLPUSH: the null bulk string).
 *
 * <p>Frames (feed contract §7) are those of LPOP/RPOP with a count and of LMOVE, whether the pop happens at
 * once or when a blocked client is served.
 */
final class BlockingListCommands {
    private static final String GROUP = "list";

    private BlockingListCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("blpop", -3).flags(WRITE, NOSCRIPT, BLOCKING).keys(1, -2, 1).keyFlags("RW", "access", "delete")
                .group(GROUP).since("2.0.0")
                .summary("Remove and get the first element in a list, or block until one is available")
                .complexity("O(N) where N is the number of provided keys.").handler(c -> bpop(c, true)));
        t.add(command("brpop", -3).flags(WRITE, NOSCRIPT, BLOCKING).keys(1, -2, 1).keyFlags("RW", "access", "delete")
                .group(GROUP).since("2.0.0")
                .summary("Remove and get the last element in a list, or block until one is available")
                .complexity("O(N) where N is the number of provided keys.").handler(c -> bpop(c, false)));
        t.add(command("blmove", 6).flags(WRITE, DENYOOM, NOSCRIPT, BLOCKING).keys(1, 2, 1).group(GROUP)
                .since("6.2.0").summary("Pop an element from a list, push it to another list and return it; or block "
                        + "until one is available").complexity("O(1)")
                .handler(c -> {
                    boolean from = ListCommands.isLeft(c, 3);
                    bmove(c, from, ListCommands.isLeft(c, 4), 5);
                }));
        t.add(command("brpoplpush", 4).flags(WRITE, DENYOOM, NOSCRIPT, BLOCKING).keys(1, 2, 1).group(GROUP)
                .since("2.2.0").summary("Pop an element from a list, push it to another list and return it; or block "
                        + "until one is available").complexity("O(1)")
                .handler(c -> bmove(c, false, true, 3)));
        t.add(command("blmpop", -5).flags(WRITE, BLOCKING).keys(0, 0, 0, Args.numkeys(2, 1, false))
                .group(GROUP).since("7.0.0").summary("Pop elements from a list, or block until one is available")
                .complexity("O(N+M) where N is the number of provided keys and M is the number of elements returned.")
                .handler(BlockingListCommands::blmpop));
    }

    /** BLPOP / BRPOP key [key ...] timeout. */
    private static void bpop(Call c, boolean left) {
        long timeout = BlockingPop.timeoutArg(c, c.argc() - 1);
        List<byte[]> keys = new ArrayList<>(c.argc() - 2);
        for (int i = 1; i < c.argc() - 1; i++) {
            keys.add(c.arg(i));
        }
        popOrPark(c, keys, left, -1, timeout);
    }

    /** BLMPOP timeout numkeys key [key ...] LEFT|RIGHT [COUNT count]: arguments first, then the timeout. */
    private static void blmpop(Call c) {
        ListCommands.MpopArgs a = ListCommands.MpopArgs.parse(c, 2);
        long timeout = BlockingPop.timeoutArg(c, 1);
        List<byte[]> keys = new ArrayList<>(a.keys());
        for (int i = a.firstKey(); i < a.firstKey() + a.keys(); i++) {
            keys.add(c.arg(i));
        }
        popOrPark(c, keys, a.left(), a.count(), timeout);
    }

    /** Pops from the first key holding a list, or parks on all of them (count -1: BLPOP's reply shape). */
    private static void popOrPark(Call c, List<byte[]> keys, boolean left, long count, long timeout) {
        for (byte[] key : keys) {
            if (c.value(key, ListValue.class) != null) {
                pop(c, key, left, count);
                return;
            }
        }
        if (!c.mayBlock()) {
            c.reply().nullArray();
            return;
        }
        new ListPop(c, keys, left, count).park(c, timeout);
    }

    /** Pops from {@code key} and replies BLPOP's {@code [key, element]} or BLMPOP's {@code [key, [elements]]}. */
    private static void pop(Call c, byte[] key, boolean left, long count) {
        byte[][] popped = ListCommands.popFrom(c, key, left, count == -1 ? 1 : count);
        if (count == -1) {
            ReplySink r = c.reply();
            r.array(2);
            r.bulk(key);
            r.bulk(popped[0]);
        } else {
            ListCommands.replyKeyAndElements(c.reply(), key, popped);
        }
    }

    /** BLMOVE / BRPOPLPUSH: LMOVE when src holds a list, else park on src (WRONGTYPE checks as LMOVE). */
    private static void bmove(Call c, boolean fromLeft, boolean toLeft, int timeoutAt) {
        long timeout = BlockingPop.timeoutArg(c, timeoutAt);
        byte[] src = c.arg(1);
        if (c.value(src, ListValue.class) != null) {
            c.reply().bulk(ListCommands.move(c, src, c.arg(2), fromLeft, toLeft));
            return;
        }
        if (!c.mayBlock()) {
            c.reply().nullBulk();
            return;
        }
        new ListMove(c, fromLeft, toLeft).park(c, timeout);
    }

    /** A parked BLPOP, BRPOP or BLMPOP. */
    private static final class ListPop extends BlockingPop {
        private final boolean left;
        private final long count;

        ListPop(Call c, List<byte[]> keys, boolean left, long count) {
            super(c, keys, ListValue.class);
            this.left = left;
            this.count = count;
        }

        @Override
        void pop(Call c, byte[] key) {
            BlockingListCommands.pop(c, key, left, count);
        }
    }

    /** A parked BLMOVE or BRPOPLPUSH: waits on src, and needs dst's shard too when served. */
    private static final class ListMove extends BlockingPop {
        private final byte[] dst;
        private final int dstShard;
        private final boolean fromLeft;
        private final boolean toLeft;

        ListMove(Call c, boolean fromLeft, boolean toLeft) {
            super(c, List.of(c.arg(1)), ListValue.class);
            this.dst = c.arg(2);
            this.dstShard = c.engine().shardIndex(dst);
            this.fromLeft = fromLeft;
            this.toLeft = toLeft;
        }

        @Override
        int otherShard() {
            return dstShard;
        }

        @Override
        void pop(Call c, byte[] key) {
            c.reply().bulk(ListCommands.move(c, key, dst, fromLeft, toLeft));
        }
    }
}
