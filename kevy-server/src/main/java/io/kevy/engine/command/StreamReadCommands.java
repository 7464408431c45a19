package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.BLOCKING;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.text.Bytes;
import io.kevy.engine.type.StreamGroup;
import io.kevy.engine.type.StreamId;
import io.kevy.engine.type.StreamValue;
import io.kevy.resp.ReplySink;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * XREAD (Redis 7.0 semantics, replies and error texts): the entries after an id of one or more streams, and with
 * BLOCK a wait for the first entry added after it, parked like BLPOP ({@link BlockingPop}): the command that adds
 * the entry serves the waiter under the key's lock. {@code $} means the stream's last id at the time of the call.
 * A served waiter replies with the one stream that got data ({@code [[key, entries]]}), at most COUNT entries
 * (1000 when COUNT is not given), as Redis does. Inside MULTI, BLOCK answers at once. A read: no frames.
 *
 * <p>XREADGROUP reads through a consumer group: {@code >} delivers entries after the group's last id (each becomes
 * pending for the consumer unless NOACK), another id re-reads the consumer's own pending entries after it (a
 * deleted one comes as {@code [id, nil]}). Its frames (feed contract §7) rebuild the group exactly: {@code XGROUP
 * CREATECONSUMER k g c} when it created the consumer, per delivered or re-delivered pending entry {@code XCLAIM
 * k g c 0 <id> TIME <ms> RETRYCOUNT <n> FORCE JUSTID}, then {@code XGROUP SETID k g <last id> ENTRIESREAD <n>}
 * when the group moved (Redis propagates the XCLAIMs with LASTID, which leaves entries-read behind on a replica,
 * and does not propagate history re-reads at all; here both are exact).
 */
final class StreamReadCommands {
    /** Entries a blocked XREAD without COUNT gets when served (Redis's {@code XREAD_BLOCKED_DEFAULT_COUNT}). */
    static final int BLOCKED_DEFAULT_COUNT = 1000;
    static final ErrorReply UNBALANCED = ErrorReply.err("Unbalanced XREAD list of streams: for each stream key an ID "
            + "or '$' must be specified.");
    private static final ErrorReply TIMEOUT_NOT_INTEGER = ErrorReply.err("timeout is not an integer or out of range");
    private static final ErrorReply TIMEOUT_OUT_OF_RANGE = ErrorReply.err("timeout is out of range");

    private StreamReadCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("xread", -4).flags(READONLY, BLOCKING).keys(0, 0, 0, StreamReadCommands::keys)
                .keywordSearch("STREAMS", 1)
                .group(StreamCommands.GROUP).since("5.0.0")
                .summary("Return never seen elements in multiple streams, with IDs greater than the ones reported by "
                        + "the caller for each stream. Can block.")
                .complexity("For each stream mentioned: O(N) with N being the number of elements being returned, it "
                        + "means that XREAD-ing with a fixed COUNT is O(1). Note that when the BLOCK option is used, "
                        + "XADD will pay O(M) time in order to serve the M clients blocked on the stream getting new "
                        + "data.")
                .handler(StreamReadCommands::xread));
        t.add(command("xreadgroup", -7).flags(WRITE, BLOCKING).keys(0, 0, 0, StreamReadCommands::keys)
                .keywordSearch("STREAMS", 4)
                .keyFlags("RO", "access").group(StreamCommands.GROUP).since("5.0.0")
                .summary("Return new entries from a stream using a consumer group, or access the history of the "
                        + "pending entries for a given consumer. Can block.")
                .complexity("For each stream mentioned: O(M) with M being the number of elements returned. If M is "
                        + "constant (e.g. always asking for the first 10 elements with COUNT), you can consider it "
                        + "O(1). On the other side when XREADGROUP blocks, XADD will pay the O(N) time in order to "
                        + "serve the N clients blocked on the stream getting new data.")
                .handler(StreamReadCommands::xreadgroup));
    }

    /** The keys of XREAD / XREADGROUP: the first half of the arguments after STREAMS; null when malformed. */
    static int[] keys(byte[][] argv) {
        for (int i = 1; i < argv.length; i++) {
            if (Bytes.equalsIgnoreCase(argv[i], "streams")) {
                int rest = argv.length - i - 1;
                if (rest == 0 || rest % 2 != 0) {
                    return null;
                }
                int[] pos = new int[rest / 2];
                for (int k = 0; k < pos.length; k++) {
                    pos[k] = i + 1 + k;
                }
                return pos;
            }
            if (Bytes.equalsIgnoreCase(argv[i], "group")) {
                i += 2;
            } else if (Bytes.equalsIgnoreCase(argv[i], "block") || Bytes.equalsIgnoreCase(argv[i], "count")) {
                i++;
            }
        }
        return null;
    }

    /** The parsed options of XREAD and XREADGROUP (Redis's {@code xreadCommand} parsing). */
    static final class ReadArgs {
        long timeoutMs = -1;
        long count;
        int streamsAt;
        int streams;
        byte[] group;
        byte[] consumer;
        boolean noack;

        static ReadArgs parse(Call c, boolean xreadgroup) {
            ReadArgs a = new ReadArgs();
            for (int i = 1; i < c.argc(); i++) {
                int more = c.argc() - i - 1;
                if (c.argIs(i, "block") && more > 0) {
                    i++;
                    long t = c.longArg(i, TIMEOUT_NOT_INTEGER);
                    if (t < 0) {
                        throw Call.fail(Errors.TIMEOUT_NEGATIVE);
                    }
                    if (t > 0 && t > Long.MAX_VALUE - c.now()) {
                        throw Call.fail(TIMEOUT_OUT_OF_RANGE);
                    }
                    a.timeoutMs = t;
                } else if (c.argIs(i, "count") && more > 0) {
                    i++;
                    a.count = Math.max(0, c.longArg(i));
                } else if (c.argIs(i, "streams") && more > 0) {
                    a.streamsAt = i + 1;
                    int n = c.argc() - a.streamsAt;
                    if (n % 2 != 0) {
                        throw Call.fail(UNBALANCED);
                    }
                    a.streams = n / 2;
                    break;
                } else if (c.argIs(i, "group") && more >= 2) {
                    if (!xreadgroup) {
                        throw Call.fail(ErrorReply.err(
                                "The GROUP option is only supported by XREADGROUP. You called XREAD instead."));
                    }
                    a.group = c.arg(i + 1);
                    a.consumer = c.arg(i + 2);
                    i += 2;
                } else if (c.argIs(i, "noack")) {
                    if (!xreadgroup) {
                        throw Call.fail(ErrorReply.err(
                                "The NOACK option is only supported by XREADGROUP. You called XREAD instead."));
                    }
                    a.noack = true;
                } else {
                    throw Call.fail(Errors.SYNTAX);
                }
            }
            if (a.streamsAt == 0) {
                throw Call.fail(Errors.SYNTAX);
            }
            if (xreadgroup && a.group == null) {
                throw Call.fail(ErrorReply.err("Missing GROUP option for XREADGROUP"));
            }
            return a;
        }

        byte[] key(Call c, int i) {
            return c.arg(streamsAt + i);
        }

        byte[] idArg(Call c, int i) {
            return c.arg(streamsAt + streams + i);
        }
    }

    /** XREAD [COUNT count] [BLOCK ms] STREAMS key [key ...] id [id ...]. */
    private static void xread(Call c) {
        ReadArgs a = ReadArgs.parse(c, false);
        StreamId[] after = new StreamId[a.streams];
        StreamValue[] values = new StreamValue[a.streams];
        for (int i = 0; i < a.streams; i++) {
            StreamValue s = c.read(a.key(c, i), StreamValue.class);
            values[i] = s;
            byte[] id = a.idArg(c, i);
            if (id.length == 1 && id[0] == '$') {
                after[i] = s == null ? StreamId.MIN : s.lastId();
            } else if (id.length == 1 && id[0] == '>') {
                throw Call.fail(ErrorReply.err("The > ID can be specified only when calling XREADGROUP using the "
                        + "GROUP <group> <consumer> option."));
            } else {
                after[i] = StreamIds.strict(id, 0);
            }
        }
        List<Integer> ready = new ArrayList<>();
        for (int i = 0; i < a.streams; i++) {
            if (values[i] != null && values[i].length() > 0 && values[i].lastEntryId().compareTo(after[i]) > 0) {
                ready.add(i);
            }
        }
        if (!ready.isEmpty()) {
            ReplySink r = c.reply();
            r.keyedMap(ready.size());
            for (int i : ready) {
                replyStream(r, a.key(c, i), values[i], after[i], a.count);
            }
            return;
        }
        if (a.timeoutMs == -1 || !c.mayBlock()) {
            c.reply().nullArray();
            return;
        }
        Map<Bytes, StreamId> ids = new HashMap<>();
        Map<Bytes, Seen> seen = new HashMap<>();
        List<byte[]> keys = new ArrayList<>(a.streams);
        for (int i = 0; i < a.streams; i++) {
            keys.add(a.key(c, i));
            ids.putIfAbsent(Bytes.wrap(a.key(c, i)), after[i]);
            seen.putIfAbsent(Bytes.wrap(a.key(c, i)), new Seen(values[i]));
        }
        new ReadWait(c, keys, ids, seen, a.count == 0 ? BLOCKED_DEFAULT_COUNT : a.count).park(c, a.timeoutMs);
    }

    /** XREADGROUP GROUP group consumer [COUNT count] [BLOCK ms] [NOACK] STREAMS key [key ...] id [id ...]. */
    private static void xreadgroup(Call c) {
        ReadArgs a = ReadArgs.parse(c, true);
        StreamId[] after = new StreamId[a.streams];
        StreamValue[] values = new StreamValue[a.streams];
        StreamGroup[] groups = new StreamGroup[a.streams];
        for (int i = 0; i < a.streams; i++) {
            byte[] key = a.key(c, i);
            StreamValue s = StreamCommands.forWrite(c, key);
            StreamGroup g = s == null ? null : s.group(a.group);
            if (g == null) {
                throw Call.fail(noGroupInRead(key, a.group));
            }
            values[i] = s;
            groups[i] = g;
            byte[] id = a.idArg(c, i);
            if (StreamGroupCommands.isDollar(id)) {
                throw Call.fail(ErrorReply.err("The $ ID is meaningless in the context of XREADGROUP: you want to "
                        + "read the history of this consumer by specifying a proper ID, or use the > ID to get new "
                        + "messages. The $ ID would just return an empty result set."));
            }
            // Redis stores '>' as the largest id, so an explicit 18446744073709551615-18446744073709551615 is read
            // as '>' (new entries), not as the consumer's history after it
            StreamId explicit = id.length == 1 && id[0] == '>' ? null : StreamIds.strict(id, 0);
            after[i] = StreamId.MAX.equals(explicit) ? null : explicit;
        }
        List<Integer> ready = new ArrayList<>();
        for (int i = 0; i < a.streams; i++) {
            if (after[i] != null || (values[i].length() > 0
                    && values[i].lastEntryId().compareTo(groups[i].lastId) > 0)) {
                ready.add(i);
            }
        }
        if (!ready.isEmpty()) {
            ReplySink r = c.reply();
            r.keyedMap(ready.size());
            for (int i : ready) {
                r.keyedEntry();
                r.bulk(a.key(c, i));
                deliver(c, a.key(c, i), values[i], groups[i], a, after[i], a.count);
            }
            return;
        }
        if (a.timeoutMs == -1 || !c.mayBlock()) {
            c.reply().nullArray();
            return;
        }
        List<byte[]> keys = new ArrayList<>(a.streams);
        Map<Bytes, Seen> seen = new HashMap<>();
        for (int i = 0; i < a.streams; i++) {
            keys.add(a.key(c, i));
            seen.putIfAbsent(Bytes.wrap(a.key(c, i)), new Seen(values[i]));
        }
        new GroupReadWait(c, keys, seen, a).park(c, a.timeoutMs);
    }

    static ErrorReply noGroupInRead(byte[] key, byte[] group) {
        return ErrorReply.of("NOGROUP No such key '" + ServerCommands.latin1(key, Integer.MAX_VALUE)
                + "' or consumer group '" + ServerCommands.latin1(group, Integer.MAX_VALUE)
                + "' in XREADGROUP with GROUP option");
    }

    /**
     * Replies the entries XREADGROUP gives {@code a.consumer} from one stream and emits their frames: new entries
     * ({@code after} null: those after the group's last id) or the consumer's pending ones after {@code after}.
     */
    private static void deliver(Call c, byte[] key, StreamValue s, StreamGroup g, ReadArgs a, StreamId after,
                                long count) {
        long now = c.now();
        StreamGroup.Consumer consumer = g.consumer(a.consumer);
        if (consumer == null) {
            consumer = g.createConsumer(a.consumer, now);
            c.emit(StreamGroupCommands.XGROUP, StreamGroupCommands.CREATECONSUMER, key, a.group, a.consumer);
        } else {
            consumer.seenTime = now;
        }
        ReplySink r = c.reply();
        if (after != null) {
            StreamId start = after.next();
            List<StreamId> ids = new ArrayList<>();
            if (start != null) {
                for (StreamId id : consumer.pel.tailMap(start, true).keySet()) {
                    if (count > 0 && ids.size() >= count) {
                        break;
                    }
                    ids.add(id);
                }
            }
            r.array(ids.size());
            for (StreamId id : ids) {
                byte[][] fields = s.get(id);
                if (fields == null) {
                    r.array(2);
                    r.bulk(id.toBytes());
                    r.nullArray();
                    continue;
                }
                StreamGroup.Pending p = consumer.pel.get(id);
                p.deliveryTime = now;
                p.deliveryCount++;
                StreamCommands.replyEntry(r, id, fields);
                c.emit(StreamValue.claimFrame(key, a.group, p, id, null));
            }
            return;
        }
        StreamId start = g.lastId.next();
        List<Map.Entry<StreamId, byte[][]>> entries =
                start == null ? List.of() : s.range(start, StreamId.MAX, count, false);
        boolean moved = false;
        for (Map.Entry<StreamId, byte[][]> e : entries) {
            StreamId id = e.getKey();
            if (id.compareTo(g.lastId) > 0) {
                if (g.entriesRead != -1 && !s.rangeHasTombstones(id, StreamId.MAX)) {
                    g.entriesRead++;
                } else if (s.entriesAdded() != 0) {
                    g.entriesRead = s.estimateEntriesRead(id);
                }
                g.lastId = id;
                moved = true;
            }
            if (!a.noack) {
                StreamGroup.Pending p = g.assign(id, consumer, now, 1);
                c.emit(StreamValue.claimFrame(key, a.group, p, id, null));
            }
        }
        if (moved) {
            StreamGroupCommands.emitPosition(c, key, a.group, g);
        }
        StreamCommands.replyEntries(r, entries);
    }

    private static final ErrorReply UNBLOCKED = ErrorReply.of("UNBLOCKED the stream key no longer exists");

    /**
     * What a blocked reader last saw of one of its streams ({@link StreamValue#signalReaders}): Redis 7.0 looks at
     * a blocked stream reader again only when its key is signalled ready, not after every write. Each entry is
     * used under its key's shard lock only.
     */
    private static final class Seen {
        private Object token;
        private long signals;

        /** {@code s} may be null: the key holds no stream yet (XREAD), so any stream there is news. */
        Seen(StreamValue s) {
            if (s != null) {
                token = s.readyToken();
                signals = s.readySignals();
            }
        }

        /** True when {@code s} was signalled since the last look (or is another stream); remembers it either way. */
        boolean signalled(StreamValue s) {
            boolean news = s.readyToken() != token || s.readySignals() != signals;
            token = s.readyToken();
            signals = s.readySignals();
            return news;
        }
    }

    /**
     * A parked XREADGROUP {@code >}: when one of its streams is signalled (an entry added, a group destroyed, the
     * key replaced), served if the stream's last id is after its group's (Redis's
     * {@code serveClientsBlockedOnStreamKey}: possibly with no entries, when the new ones were deleted in the same
     * MULTI), or answered NOGROUP when the group is gone; ended with UNBLOCKED when a stream is deleted or
     * overwritten by another type (FLUSHALL included). A group set back by XGROUP SETID does not serve it: the
     * next XADD does, from the group's position.
     */
    private static final class GroupReadWait extends BlockingPop {
        private final ReadArgs args;
        private final Map<Bytes, Seen> seen;

        GroupReadWait(Call c, List<byte[]> keys, Map<Bytes, Seen> seen, ReadArgs args) {
            super(c, keys, StreamValue.class);
            this.seen = seen;
            this.args = args;
        }

        @Override
        ErrorReply whenGone() {
            return UNBLOCKED;
        }

        @Override
        boolean hasData(byte[] key, Object value) {
            StreamValue s = (StreamValue) value;
            if (!seen.get(Bytes.wrap(key)).signalled(s)) {
                return false;
            }
            StreamGroup g = s.group(args.group);
            return g == null || s.lastId().compareTo(g.lastId) > 0;
        }

        @Override
        void pop(Call c, byte[] key) {
            StreamValue s = StreamCommands.forWrite(c, key);
            StreamGroup g = s.group(args.group);
            if (g == null) {
                throw Call.fail(ErrorReply.of("NOGROUP the consumer group this client was blocked on no longer "
                        + "exists"));
            }
            c.reply().keyedMap(1);
            c.reply().keyedEntry();
            c.reply().bulk(key);
            deliver(c, key, s, g, args, null, args.count == 0 ? BLOCKED_DEFAULT_COUNT : args.count);
        }
    }

    /** {@code [key, [entries after id]]}: one entry of a {@link ReplySink#keyedMap}. */
    private static void replyStream(ReplySink r, byte[] key, StreamValue s, StreamId after, long count) {
        r.keyedEntry();
        r.bulk(key);
        StreamId start = after.next();
        StreamCommands.replyEntries(r, start == null ? List.of() : s.range(start, StreamId.MAX, count, false));
    }

    /**
     * A parked XREAD: when one of its streams is signalled (an entry added, a group destroyed, the key created or
     * replaced), served if the stream's last id is after its id (Redis's {@code serveClientsBlockedOnStreamKey}:
     * possibly with no entries, when the new ones were deleted in the same MULTI).
     */
    private static final class ReadWait extends BlockingPop {
        private final Map<Bytes, StreamId> after;
        private final Map<Bytes, Seen> seen;
        private final long count;

        ReadWait(Call c, List<byte[]> keys, Map<Bytes, StreamId> after, Map<Bytes, Seen> seen, long count) {
            super(c, keys, StreamValue.class);
            this.after = after;
            this.seen = seen;
            this.count = count;
        }

        @Override
        boolean hasData(byte[] key, Object value) {
            StreamValue s = (StreamValue) value;
            Bytes k = Bytes.wrap(key);
            return seen.get(k).signalled(s) && s.lastId().compareTo(after.get(k)) > 0;
        }

        @Override
        void pop(Call c, byte[] key) {
            StreamValue s = c.read(key, StreamValue.class);
            c.reply().keyedMap(1);
            replyStream(c.reply(), key, s, after.get(Bytes.wrap(key)), count);
        }
    }

}
