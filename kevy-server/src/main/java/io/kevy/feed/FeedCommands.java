package io.kevy.feed;

import static io.kevy.engine.command.CommandFlag.BLOCKING;
import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.LOADING;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.STALE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.DurableBound;
import io.kevy.engine.command.Call;
import io.kevy.engine.command.CommandTable;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.session.BlockedClient;
import io.kevy.resp.ReplySink;
import java.util.ArrayList;
import java.util.List;

/**
 * The change feed on the wire (feed contract §4): FEED.SHARDS, FEED.TAIL, FEED.READ (COUNT, PREFIX and our
 * BLOCK extension) and PREFIX.STATS, with every reply shape and error text of the contract in its validation
 * order. The read logic itself is {@link FeedRead}, shared with the embedded store. Registered per instance,
 * as the handlers use that instance's {@link Feed} ({@code io.kevy.boot.KevyInstance}).
 *
 * <p>None of these commands is locked by the dispatcher: each locks the one shard it reads, briefly
 * (PREFIX.STATS one shard at a time).
 */
public final class FeedCommands {
    private FeedCommands() {
    }

    /** Adds the feed commands, answering from {@code feed}, to {@code t}. */
    public static void register(CommandTable t, Feed feed) {
        t.add(command("feed.shards", 1).flags(READONLY, FAST, LOADING, STALE).group("server").since("1.0.0")
                .summary("Returns the number of shards, each an independent change stream (answered with the feed off).")
                .handler(c -> c.reply().integer(feed.shards())));
        t.add(command("feed.tail", 2).flags(READONLY, FAST, LOADING, STALE).group("server").since("1.0.0")
                .summary("Returns [generation, next_offset] of a shard: where a fresh consumer starts.")
                .handler(c -> tail(c, feed)));
        t.add(command("feed.read", -4).flags(READONLY, BLOCKING, LOADING, STALE).group("server").since("1.0.0")
                .summary("Reads frames of a shard from a cursor: FEED.READ shard generation offset [COUNT n] "
                        + "[PREFIX prefix [PREFIX prefix ...]] [BLOCK ms] [DURABLE] "
                        + "(DURABLE: only frames the AOF has fsynced).")
                .handler(c -> read(c, feed)));
        t.add(command("prefix.stats", 2).flags(READONLY, LOADING, STALE).group("server").since("1.0.0")
                .summary("Counts live keys under a byte prefix across all shards, and those with a TTL (O(keys)).")
                .handler(c -> prefixStats(c, feed)));
    }

    private static void tail(Call c, Feed feed) {
        int shard = shardArg(c, feed);
        if (!feed.enabled()) {
            throw Call.fail(FeedReplies.DISABLED);
        }
        FeedReplies.writeCursor(c.reply(), feed.tail(shard));
    }

    /** Parses and range-checks the shard argument (argument 1), in the order of §4. */
    private static int shardArg(Call c, Feed feed) {
        long shard = parseU64(c.arg(1), FeedReplies.INVALID_SHARD);
        if (Long.compareUnsigned(shard, feed.shards()) >= 0) {
            throw Call.fail(FeedReplies.SHARD_OUT_OF_RANGE);
        }
        return (int) shard;
    }

    private static void read(Call c, Feed feed) {
        // 1. the cursor's three integers
        long shard = parseU64(c.arg(1), FeedReplies.INVALID_SHARD);
        long generation = parseU64(c.arg(2), FeedReplies.INVALID_GENERATION);
        long offset = parseU64(c.arg(3), FeedReplies.INVALID_OFFSET);
        // 2. options, left to right
        int count = Feed.DEFAULT_COUNT;
        List<byte[]> prefixes = new ArrayList<>(0);
        long blockMs = -1;
        boolean durableOnly = false;
        for (int i = 4; i < c.argc(); i += 2) {
            if (c.argIs(i, "durable")) { // ours: a flag, so the next word is the next option
                durableOnly = true;
                i--;
                continue;
            }
            boolean hasValue = i + 1 < c.argc();
            if (c.argIs(i, "count")) {
                if (!hasValue) {
                    throw Call.fail(FeedReplies.INVALID_COUNT);
                }
                count = Feed.clampCount(clampU64(parseU64(c.arg(i + 1), FeedReplies.INVALID_COUNT)));
            } else if (c.argIs(i, "prefix")) {
                if (!hasValue) {
                    throw Call.fail(FeedReplies.PREFIX_REQUIRES_VALUE);
                }
                prefixes.add(c.arg(i + 1));
            } else if (c.argIs(i, "block")) {
                if (!hasValue) {
                    throw Call.fail(FeedReplies.INVALID_BLOCK);
                }
                blockMs = clampU64(parseU64(c.arg(i + 1), FeedReplies.INVALID_BLOCK));
            } else {
                throw Call.fail(Errors.SYNTAX);
            }
        }
        // 3. range, then the feed being on
        if (Long.compareUnsigned(shard, feed.shards()) >= 0) {
            throw Call.fail(FeedReplies.SHARD_OUT_OF_RANGE);
        }
        if (!feed.enabled()) {
            throw Call.fail(FeedReplies.DISABLED);
        }
        DurableBound bound = null;
        if (durableOnly) {
            bound = c.engine().durability().durableBound((int) shard);
            if (bound == null) {
                throw Call.fail(FeedReplies.DURABLE_UNAVAILABLE);
            }
        }
        // 4. the cursor, on the owning shard
        FeedRead read = feed.open((int) shard, generation, offset, count, PrefixFilter.of(prefixes), bound);
        FeedRead.Result result = read.step();
        if (result != null) {
            FeedReplies.write(c.reply(), result);
            return;
        }
        if (blockMs < 0 || !c.mayBlock()) {
            FeedReplies.write(c.reply(), read.idle());
            return;
        }
        FeedWaiter waiter = new FeedWaiter(read);
        BlockedClient blocked = c.block(waiter, blockMs);
        waiter.park(blocked);
    }

    private static void prefixStats(Call c, Feed feed) {
        Feed.PrefixStats st = feed.prefixStats(c.arg(1));
        ReplySink r = c.reply();
        r.array(4);
        r.bulk("keys");
        r.integer(st.keys());
        r.bulk("expires");
        r.integer(st.expires());
    }

    /** An unsigned value above {@link Long#MAX_VALUE} (negative as a signed long) becomes Long.MAX_VALUE. */
    private static long clampU64(long u) {
        return u < 0 ? Long.MAX_VALUE : u;
    }

    /**
     * Parses an unsigned 64-bit decimal as §4 defines it: an optional leading {@code +}, then one or more
     * digits (leading zeros allowed), at most 2^64 - 1. The result is the value's bit pattern.
     */
    static long parseU64(byte[] b, ErrorReply error) {
        int i = 0;
        if (b.length > 0 && b[0] == '+') {
            i = 1;
        }
        if (i == b.length) {
            throw Call.fail(error);
        }
        long v = 0;
        for (; i < b.length; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                throw Call.fail(error);
            }
            // v * 10 + d must not pass 2^64 - 1
            if (Long.compareUnsigned(v, Long.divideUnsigned(-1L, 10)) > 0) {
                throw Call.fail(error);
            }
            long t = v * 10;
            long nv = t + d;
            if (Long.compareUnsigned(nv, t) < 0) {
                throw Call.fail(error);
            }
            v = nv;
        }
        return v;
    }
}
