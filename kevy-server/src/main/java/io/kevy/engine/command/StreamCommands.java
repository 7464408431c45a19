package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.DENYOOM;
import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.engine.type.StreamId;
import io.kevy.engine.type.StreamValue;
import io.kevy.resp.ReplySink;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The stream commands that add, read by range, delete and trim entries: XADD, XRANGE, XREVRANGE, XLEN, XDEL,
 * XTRIM, XSETID (Redis 7.0 semantics, replies and error texts, from {@code t_stream.c}). XREAD is in
 * {@link StreamReadCommands}, consumer groups in {@link StreamGroupCommands}, XINFO in {@link StreamInfoCommands}.
 *
 * <p>Frames (feed contract §7, effects):
 * <ul>
 *   <li>XADD → {@code XADD k <the assigned id> f v ...}; when it also trimmed, {@code XADD k MAXLEN = <length
 *       after> <id> f v ...} (Redis rewrites {@code ~} trims the same way; here exact trims too, one rule);
 *       NOMKSTREAM and LIMIT are dropped (the frame never needs them).</li>
 *   <li>XTRIM that removed entries → {@code XTRIM k MAXLEN = <length after>}.</li>
 *   <li>XDEL that deleted → {@code XDEL k <the ids deleted>}.</li>
 *   <li>XSETID → verbatim (its arguments are absolute).</li>
 * </ul>
 * Replaying any of them onto the state before gives the state after, entry for entry and counter for counter.
 */
final class StreamCommands {
    static final String GROUP = "stream";
    static final ErrorReply EQUAL_OR_SMALLER =
            ErrorReply.err("The ID specified in XADD is equal or smaller than the target stream top item");
    private static final ErrorReply ZERO_ID = ErrorReply.err("The ID specified in XADD must be greater than 0-0");
    private static final ErrorReply EXHAUSTED =
            ErrorReply.err("The stream has exhausted the last possible ID, unable to add more items");
    private static final ErrorReply TOO_LARGE = ErrorReply.err("Elements are too large to be stored");
    private static final ErrorReply BOTH_STRATEGIES =
            ErrorReply.err("syntax error, MAXLEN and MINID options at the same time are not compatible");
    private static final ErrorReply MAXLEN_NEGATIVE = ErrorReply.err("The MAXLEN argument must be >= 0.");
    private static final ErrorReply LIMIT_NEGATIVE = ErrorReply.err("The LIMIT argument must be >= 0.");
    private static final ErrorReply LIMIT_WITHOUT_STRATEGY =
            ErrorReply.err("syntax error, LIMIT cannot be used without specifying a trimming strategy");
    private static final ErrorReply XTRIM_NO_STRATEGY =
            ErrorReply.err("syntax error, XTRIM must be called with a trimming strategy");
    private static final ErrorReply LIMIT_WITHOUT_APPROX =
            ErrorReply.err("syntax error, LIMIT cannot be used without the special ~ option");
    private static final ErrorReply ARITY_XADD = ErrorReply.err("wrong number of arguments for 'xadd' command");
    static final byte[] XADD = ascii("XADD");
    private static final byte[] XTRIM = ascii("XTRIM");
    private static final byte[] XDEL = ascii("XDEL");
    private static final byte[] MAXLEN = ascii("MAXLEN");
    private static final byte[] EQUALS = ascii("=");

    private StreamCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("xadd", -5).flags(WRITE, DENYOOM, FAST).keys(1, 1, 1).keyFlags("RW", "update")
                .keyNotes("UPDATE instead of INSERT because of the optional trimming feature")
                .tips("nondeterministic_output").group(GROUP).since("5.0.0")
                .summary("Appends a new entry to a stream")
                .complexity("O(1) when adding a new entry, O(N) when trimming where N being the number of entries "
                        + "evicted.")
                .handler(StreamCommands::xadd));
        t.add(command("xrange", -4).flags(READONLY).keys(1, 1, 1).group(GROUP).since("5.0.0")
                .summary("Return a range of elements in a stream, with IDs matching the specified IDs interval")
                .complexity("O(N) with N being the number of elements being returned. If N is constant (e.g. always "
                        + "asking for the first 10 elements with COUNT), you can consider it O(1).")
                .handler(c -> xrange(c, false)));
        t.add(command("xrevrange", -4).flags(READONLY).keys(1, 1, 1).group(GROUP).since("5.0.0")
                .summary("Return a range of elements in a stream, with IDs matching the specified IDs interval, in "
                        + "reverse order (from greater to smaller IDs) compared to XRANGE")
                .complexity("O(N) with N being the number of elements returned. If N is constant (e.g. always "
                        + "asking for the first 10 elements with COUNT), you can consider it O(1).")
                .handler(c -> xrange(c, true)));
        t.add(command("xlen", 2).flags(READONLY, FAST).keys(1, 1, 1).keyFlags("RO").group(GROUP).since("5.0.0")
                .summary("Return the number of entries in a stream").complexity("O(1)")
                .handler(StreamCommands::xlen));
        t.add(command("xdel", -3).flags(WRITE, FAST).keys(1, 1, 1).keyFlags("RW", "delete").group(GROUP)
                .since("5.0.0")
                .summary("Removes the specified entries from the stream. Returns the number of items actually "
                        + "deleted, that may be different from the number of IDs passed in case certain IDs do not "
                        + "exist.")
                .complexity("O(1) for each single item to delete in the stream, regardless of the stream size.")
                .handler(StreamCommands::xdel));
        t.add(command("xtrim", -4).flags(WRITE).keys(1, 1, 1).keyFlags("RW", "delete")
                .tips("nondeterministic_output").group(GROUP).since("5.0.0")
                .summary("Trims the stream to (approximately if '~' is passed) a certain size")
                .complexity("O(N), with N being the number of evicted entries. Constant times are very small "
                        + "however, since entries are organized in macro nodes containing multiple entries that can "
                        + "be released with a single deallocation.")
                .handler(StreamCommands::xtrim));
        t.add(command("xsetid", -3).flags(WRITE, DENYOOM, FAST).keys(1, 1, 1).keyFlags("RW", "update")
                .group(GROUP).since("5.0.0").summary("An internal command for replicating stream values")
                .complexity("O(1)").handler(StreamCommands::xsetid));
    }

    /** The stream at {@code key} for a write, or null; WRONGTYPE for another type. */
    static StreamValue forWrite(Call c, byte[] key) {
        return c.value(key, StreamValue.class);
    }

    /** XADD/XTRIM's trimming options (Redis's {@code streamAddTrimArgs}); {@code idAt} is XADD's id position. */
    private static final class TrimArgs {
        boolean strategy;
        long maxlen;
        StreamId minid;
        boolean approx;
        long limit;
        boolean noMkStream;
        int idAt = -1;

        /** Parses from argument 2 (Redis's {@code streamParseAddOrTrimArgsOrReply}). */
        static TrimArgs parse(Call c, boolean xadd) {
            TrimArgs a = new TrimArgs();
            boolean limitGiven = false;
            int i = 2;
            for (; i < c.argc(); i++) {
                int more = c.argc() - 1 - i;
                byte[] opt = c.arg(i);
                if (xadd && opt.length == 1 && opt[0] == '*') {
                    break;
                } else if ((c.argIs(i, "maxlen") || c.argIs(i, "minid")) && more > 0) {
                    boolean max = c.argIs(i, "maxlen");
                    if (a.strategy) {
                        throw Call.fail(BOTH_STRATEGIES);
                    }
                    a.approx = false;
                    byte[] next = c.arg(i + 1);
                    if (more >= 2 && next.length == 1 && next[0] == '~') {
                        a.approx = true;
                        i++;
                    } else if (more >= 2 && next.length == 1 && next[0] == '=') {
                        i++;
                    }
                    if (max) {
                        a.maxlen = c.longArg(i + 1);
                        if (a.maxlen < 0) {
                            throw Call.fail(MAXLEN_NEGATIVE);
                        }
                    } else {
                        a.minid = StreamIds.strict(c.arg(i + 1), 0);
                    }
                    i++;
                    a.strategy = true;
                } else if (c.argIs(i, "limit") && more > 0) {
                    a.limit = c.longArg(i + 1);
                    if (a.limit < 0) {
                        throw Call.fail(LIMIT_NEGATIVE);
                    }
                    limitGiven = true;
                    i++;
                } else if (xadd && c.argIs(i, "nomkstream")) {
                    a.noMkStream = true;
                } else if (xadd) {
                    break; // the id, parsed by the caller
                } else {
                    throw Call.fail(Errors.SYNTAX);
                }
            }
            a.idAt = i;
            if (a.limit != 0 && !a.strategy) {
                throw Call.fail(LIMIT_WITHOUT_STRATEGY);
            }
            if (!xadd && !a.strategy) {
                throw Call.fail(XTRIM_NO_STRATEGY);
            }
            if (limitGiven) {
                if (!a.approx) {
                    throw Call.fail(LIMIT_WITHOUT_APPROX);
                }
            } else if (a.approx) {
                // Redis: at most 100 nodes' worth of work, capped on both sides
                long entries = c.engine().encodings().streamNodeMaxEntries();
                a.limit = entries <= 0 ? 10_000 : entries > 10_000 ? 1_000_000 : Math.min(100 * entries, 1_000_000);
            } else {
                a.limit = 0;
            }
            return a;
        }

        long apply(StreamValue s) {
            return strategy ? s.trim(minid == null ? maxlen : 0, minid, approx, limit) : 0;
        }
    }

    /** XADD key [NOMKSTREAM] [MAXLEN|MINID [=|~] threshold [LIMIT count]] *|id field value [field value ...]. */
    private static void xadd(Call c) {
        TrimArgs a = TrimArgs.parse(c, true);
        int idAt = a.idAt;
        if (idAt >= c.argc()) {
            throw Call.fail(ARITY_XADD);
        }
        StreamIds.AddId given = null;
        if (!(c.arg(idAt).length == 1 && c.arg(idAt)[0] == '*')) {
            given = StreamIds.forAdd(c.arg(idAt));
        }
        int fields = c.argc() - idAt - 1;
        if (fields < 2 || fields % 2 == 1) {
            throw Call.fail(ARITY_XADD);
        }
        if (given != null && given.seqGiven() && given.id().isZero()) {
            throw Call.fail(ZERO_ID);
        }
        byte[] key = c.arg(1);
        StreamValue s = forWrite(c, key);
        if (s == null && a.noMkStream) {
            c.reply().nullBulk();
            return;
        }
        StreamValue target = s == null ? new StreamValue() : s;
        if (target.lastId().equals(StreamId.MAX)) {
            throw Call.fail(EXHAUSTED);
        }
        StreamId id = assign(target, given, c.now());
        byte[][] values = Arrays.copyOfRange(c.argv(), idAt + 1, c.argc());
        if (s == null) {
            c.db(key).add(key, target);
        }
        target.append(id, values, c.engine().encodings().streamNodeMaxBytes(),
                c.engine().encodings().streamNodeMaxEntries());
        long trimmed = a.apply(target);
        byte[] idBytes = id.toBytes();
        c.reply().bulk(idBytes);
        List<byte[]> frame = new ArrayList<>(c.argc() + 2);
        frame.add(XADD);
        frame.add(key);
        if (trimmed > 0) {
            frame.add(MAXLEN);
            frame.add(EQUALS);
            frame.add(RedisNumbers.toBytes(target.length()));
        }
        frame.add(idBytes);
        frame.addAll(Arrays.asList(values));
        c.emit(frame.toArray(new byte[0][]));
    }

    /** The id XADD gives the new entry (Redis's {@code streamAppendItem}); fails when not above the last id. */
    private static StreamId assign(StreamValue s, StreamIds.AddId given, long now) {
        StreamId id;
        if (given == null) {
            id = s.nextId(now);
        } else if (given.seqGiven()) {
            id = given.id();
        } else if (s.lastId().ms() == given.id().ms()) {
            if (s.lastId().seq() == -1L) {
                throw Call.fail(TOO_LARGE); // Redis's text here (a stale errno): kept byte-exact
            }
            id = s.lastId().next();
        } else {
            id = given.id();
        }
        if (id == null || id.compareTo(s.lastId()) <= 0) {
            throw Call.fail(EQUAL_OR_SMALLER);
        }
        return id;
    }

    /** XRANGE key start end [COUNT n] / XREVRANGE key end start [COUNT n]. */
    private static void xrange(Call c, boolean rev) {
        StreamId start = StreamIds.bound(c.arg(rev ? 3 : 2), 0, true);
        StreamId end = StreamIds.bound(c.arg(rev ? 2 : 3), -1L, false);
        long count = -1;
        for (int j = 4; j < c.argc(); j++) {
            if (c.argIs(j, "count") && j + 1 < c.argc()) {
                count = Math.max(0, c.longArg(j + 1));
                j++;
            } else {
                throw Call.fail(Errors.SYNTAX);
            }
        }
        StreamValue s = c.read(c.arg(1), StreamValue.class);
        if (s == null) {
            c.reply().array(0);
            return;
        }
        if (count == 0) {
            c.reply().nullArray();
            return;
        }
        replyEntries(c.reply(), s.range(start, end, Math.max(count, 0), rev));
    }

    /** {@code [[id, [f, v, ...]], ...]}: entries as XRANGE replies them. */
    static void replyEntries(ReplySink r, List<Map.Entry<StreamId, byte[][]>> entries) {
        r.array(entries.size());
        for (Map.Entry<StreamId, byte[][]> e : entries) {
            replyEntry(r, e.getKey(), e.getValue());
        }
    }

    /** One entry {@code [id, [f, v, ...]]}. */
    static void replyEntry(ReplySink r, StreamId id, byte[][] fields) {
        r.array(2);
        r.bulk(id.toBytes());
        r.array(fields.length);
        for (byte[] f : fields) {
            r.bulk(f);
        }
    }

    private static void xlen(Call c) {
        StreamValue s = c.read(c.arg(1), StreamValue.class);
        c.reply().integer(s == null ? 0 : s.length());
    }

    /** XDEL key id [id ...]: every id is parsed before anything is deleted. */
    private static void xdel(Call c) {
        byte[] key = c.arg(1);
        StreamValue s = forWrite(c, key);
        if (s == null) {
            c.reply().integer(0);
            return;
        }
        StreamId[] ids = new StreamId[c.argc() - 2];
        for (int j = 2; j < c.argc(); j++) {
            ids[j - 2] = StreamIds.strict(c.arg(j), 0);
        }
        List<byte[]> frame = new ArrayList<>(c.argc());
        frame.add(XDEL);
        frame.add(key);
        for (StreamId id : ids) {
            if (s.delete(id)) {
                frame.add(id.toBytes());
            }
        }
        int deleted = frame.size() - 2;
        if (deleted > 0) {
            c.emit(frame.toArray(new byte[0][]));
        }
        c.reply().integer(deleted);
    }

    /** XTRIM key MAXLEN|MINID [=|~] threshold [LIMIT count]. */
    private static void xtrim(Call c) {
        TrimArgs a = TrimArgs.parse(c, false);
        byte[] key = c.arg(1);
        StreamValue s = forWrite(c, key);
        if (s == null) {
            c.reply().integer(0);
            return;
        }
        long deleted = a.apply(s);
        if (deleted > 0) {
            c.emit(XTRIM, key, MAXLEN, EQUALS, RedisNumbers.toBytes(s.length()));
        }
        c.reply().integer(deleted);
    }

    /** XSETID key last-id [ENTRIESADDED entries-added] [MAXDELETEDID max-deleted-id]. */
    private static void xsetid(Call c) {
        StreamId id = StreamIds.strict(c.arg(2), 0);
        long added = -1;
        StreamId maxDeleted = StreamId.MIN;
        for (int i = 3; i < c.argc(); i += 2) {
            boolean more = i + 1 < c.argc();
            if (c.argIs(i, "entriesadded") && more) {
                added = c.longArg(i + 1);
                if (added < 0) {
                    throw Call.fail(ErrorReply.err("entries_added must be positive"));
                }
            } else if (c.argIs(i, "maxdeletedid") && more) {
                maxDeleted = StreamIds.strict(c.arg(i + 1), 0);
                if (id.compareTo(maxDeleted) < 0) {
                    throw Call.fail(ErrorReply.err(
                            "The ID specified in XSETID is smaller than the provided max_deleted_entry_id"));
                }
            } else {
                throw Call.fail(Errors.SYNTAX);
            }
        }
        byte[] key = c.arg(1);
        StreamValue s = forWrite(c, key);
        if (s == null) {
            throw Call.fail(Errors.NO_SUCH_KEY);
        }
        if (s.length() > 0) {
            if (id.compareTo(s.lastEntryId()) < 0) {
                throw Call.fail(ErrorReply.err(
                        "The ID specified in XSETID is smaller than the target stream top item"));
            }
            if (added != -1 && s.length() > added) {
                throw Call.fail(ErrorReply.err(
                        "The entries_added specified in XSETID is smaller than the target stream length"));
            }
        }
        s.setId(id, added, maxDeleted);
        c.emit(c.argv().clone());
        c.reply().ok();
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
