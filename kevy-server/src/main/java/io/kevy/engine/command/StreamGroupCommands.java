package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.DENYOOM;
import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.LOADING;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.STALE;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.engine.type.StreamGroup;
import io.kevy.engine.type.StreamId;
import io.kevy.engine.type.StreamValue;
import io.kevy.resp.ReplySink;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Consumer-group management and acknowledgement: XGROUP CREATE | SETID | DESTROY | CREATECONSUMER | DELCONSUMER |
 * HELP, XACK, XPENDING (Redis 7.0 semantics, replies and error texts). Reading through a group is XREADGROUP
 * ({@link StreamReadCommands}), claiming XCLAIM / XAUTOCLAIM ({@link StreamClaimCommands}).
 *
 * <p>Frames (feed contract §7, effects with every id resolved): XGROUP CREATE → {@code XGROUP CREATE k g <id>
 * [MKSTREAM] ENTRIESREAD <n>} ({@code $} replaced by the id it meant; MKSTREAM only when it created the stream);
 * SETID → {@code XGROUP SETID k g <id> ENTRIESREAD <n>}; DESTROY, CREATECONSUMER, DELCONSUMER → verbatim when they
 * changed something; XACK → {@code XACK k g <the ids acknowledged>}.
 */
final class StreamGroupCommands {
    private static final ErrorReply KEY_REQUIRED = ErrorReply.err("The XGROUP subcommand requires the key to exist. "
            + "Note that for CREATE you may want to use the MKSTREAM option to create an empty stream automatically.");
    private static final ErrorReply BUSYGROUP = ErrorReply.of("BUSYGROUP Consumer Group name already exists");
    private static final ErrorReply ENTRIESREAD_INVALID =
            ErrorReply.err("value for ENTRIESREAD must be positive or -1");
    static final byte[] XGROUP = StreamCommands.ascii("XGROUP");
    static final byte[] SETID = StreamCommands.ascii("SETID");
    static final byte[] ENTRIESREAD = StreamCommands.ascii("ENTRIESREAD");
    static final byte[] CREATECONSUMER = StreamCommands.ascii("CREATECONSUMER");
    private static final byte[] XACK = StreamCommands.ascii("XACK");
    private static final List<String> HELP = List.of(
            "CREATE <key> <groupname> <id|$> [option]",
            "    Create a new consumer group. Options are:",
            "    * MKSTREAM",
            "      Create the empty stream if it does not exist.",
            "    * ENTRIESREAD entries_read",
            "      Set the group's entries_read counter (internal use).",
            "CREATECONSUMER <key> <groupname> <consumer>",
            "    Create a new consumer in the specified group.",
            "DELCONSUMER <key> <groupname> <consumer>",
            "    Remove the specified consumer.",
            "DESTROY <key> <groupname>",
            "    Remove the specified group.",
            "SETID <key> <groupname> <id|$> [ENTRIESREAD entries_read]",
            "    Set the current group ID and entries_read counter.");

    private StreamGroupCommands() {
    }

    static void register(CommandTable t) {
        String g = StreamCommands.GROUP;
        t.add(command("xgroup", -2).group(g).since("5.0.0").summary("A container for consumer groups commands")
                .complexity("Depends on subcommand.")
                .subcommand(command("create", -5).flags(WRITE, DENYOOM).keys(2, 2, 1).keyFlags("RW", "insert")
                        .since("5.0.0").summary("Create a consumer group.").complexity("O(1)")
                        .handler(c -> xgroup(c, Sub.CREATE)))
                .subcommand(command("setid", -5).flags(WRITE).keys(2, 2, 1).keyFlags("RW", "update").since("5.0.0")
                        .summary("Set a consumer group to an arbitrary last delivered ID value.").complexity("O(1)")
                        .handler(c -> xgroup(c, Sub.SETID)))
                .subcommand(command("destroy", 4).flags(WRITE).keys(2, 2, 1).keyFlags("RW", "delete")
                        .since("5.0.0").summary("Destroy a consumer group.")
                        .complexity("O(N) where N is the number of entries in the group's pending entries list "
                                + "(PEL).")
                        .handler(c -> xgroup(c, Sub.DESTROY)))
                .subcommand(command("createconsumer", 5).flags(WRITE, DENYOOM).keys(2, 2, 1)
                        .keyFlags("RW", "insert").since("6.2.0")
                        .summary("Create a consumer in a consumer group.").complexity("O(1)")
                        .handler(c -> xgroup(c, Sub.CREATECONSUMER)))
                .subcommand(command("delconsumer", 5).flags(WRITE).keys(2, 2, 1).keyFlags("RW", "delete")
                        .since("5.0.0").summary("Delete a consumer from a consumer group.").complexity("O(1)")
                        .handler(c -> xgroup(c, Sub.DELCONSUMER)))
                .subcommand(command("help", 2).flags(LOADING, STALE).since("5.0.0")
                        .summary("Show helpful text about the different subcommands").complexity("O(1)")
                        .handler(c -> HelpReply.write(c.reply(), "XGROUP", HELP.toArray(new String[0])))));
        t.add(command("xack", -4).flags(WRITE, FAST).keys(1, 1, 1).keyFlags("RW", "update").group(g)
                .since("5.0.0")
                .summary("Marks a pending message as correctly processed, effectively removing it from the pending "
                        + "entries list of the consumer group. Return value of the command is the number of messages "
                        + "successfully acknowledged, that is, the IDs we were actually able to resolve in the PEL.")
                .complexity("O(1) for each message ID processed.").handler(StreamGroupCommands::xack));
        t.add(command("xpending", -3).flags(READONLY).keys(1, 1, 1).tips("nondeterministic_output").group(g)
                .since("5.0.0")
                .summary("Return information and entries from a stream consumer group pending entries list, that "
                        + "are messages fetched but never acknowledged.")
                .complexity("O(N) with N being the number of elements returned, so asking for a small fixed number "
                        + "of entries per call is O(1). O(M), where M is the total number of entries scanned when "
                        + "used with the IDLE filter. When the command returns just the summary and the list of "
                        + "consumers is small, it runs in O(1) time; otherwise, an additional O(N) time for "
                        + "iterating every consumer.")
                .handler(StreamGroupCommands::xpending));
    }

    private enum Sub { CREATE, SETID, DESTROY, CREATECONSUMER, DELCONSUMER }

    /** NOGROUP for a missing key or group, as XCLAIM, XPENDING and XAUTOCLAIM word it. */
    static ErrorReply noGroup(byte[] key, byte[] group) {
        return ErrorReply.of("NOGROUP No such key '" + ServerCommands.latin1(key, Integer.MAX_VALUE)
                + "' or consumer group '" + ServerCommands.latin1(group, Integer.MAX_VALUE) + "'");
    }

    /** NOGROUP for a missing group of an existing key (XGROUP, XINFO CONSUMERS). */
    static ErrorReply noSuchGroupForKey(byte[] group, byte[] key) {
        return ErrorReply.of("NOGROUP No such consumer group '" + ServerCommands.latin1(group, Integer.MAX_VALUE)
                + "' for key name '" + ServerCommands.latin1(key, Integer.MAX_VALUE) + "'");
    }

    /** Redis's {@code xgroupCommand}: options, then the key and group checks, then the subcommand. */
    private static void xgroup(Call c, Sub sub) {
        boolean mkstream = false;
        long entriesRead = -1;
        for (int i = 5; i < c.argc(); ) {
            if (sub == Sub.CREATE && c.argIs(i, "mkstream")) {
                mkstream = true;
                i++;
            } else if ((sub == Sub.CREATE || sub == Sub.SETID) && c.argIs(i, "entriesread") && i + 1 < c.argc()) {
                entriesRead = c.longArg(i + 1);
                if (entriesRead < 0 && entriesRead != -1) {
                    throw Call.fail(ENTRIESREAD_INVALID);
                }
                i += 2;
            } else {
                throw Call.fail(ServerCommands.subcommandSyntaxError(c));
            }
        }
        byte[] key = c.arg(2);
        byte[] name = c.arg(3);
        StreamValue s = StreamCommands.forWrite(c, key);
        StreamGroup group = null;
        if (!mkstream) {
            if (s == null) {
                throw Call.fail(KEY_REQUIRED);
            }
            group = s.group(name);
            if (group == null && (sub == Sub.SETID || sub == Sub.CREATECONSUMER || sub == Sub.DELCONSUMER)) {
                throw Call.fail(noSuchGroupForKey(name, key));
            }
        }
        switch (sub) {
            case CREATE -> create(c, s, key, name, mkstream, entriesRead);
            case SETID -> {
                if (c.argc() != 5 && c.argc() != 7) {
                    throw Call.fail(ServerCommands.subcommandSyntaxError(c));
                }
                StreamId id = isDollar(c.arg(4)) ? s.lastId() : StreamIds.parse(c.arg(4), 0);
                group.lastId = id;
                group.entriesRead = entriesRead;
                emitPosition(c, key, name, group);
                c.reply().ok();
            }
            case DESTROY -> {
                if (group != null) {
                    s.groups().remove(name);
                    s.signalReaders(); // its blocked readers answer NOGROUP (Redis 7.0 signals the key here)
                    c.emit(c.argv().clone());
                }
                c.reply().integer(group != null ? 1 : 0);
            }
            case CREATECONSUMER -> {
                boolean created = group.consumer(c.arg(4)) == null;
                if (created) {
                    group.createConsumer(c.arg(4), c.now());
                    c.emit(c.argv().clone());
                }
                c.reply().integer(created ? 1 : 0);
            }
            case DELCONSUMER -> {
                StreamGroup.Consumer consumer = group.consumer(c.arg(4));
                long pending = 0;
                if (consumer != null) {
                    pending = group.deleteConsumer(consumer);
                    c.emit(c.argv().clone());
                }
                c.reply().integer(pending);
            }
            default -> throw new IllegalStateException(sub.name());
        }
    }

    private static void create(Call c, StreamValue s, byte[] key, byte[] name, boolean mkstream, long entriesRead) {
        if (c.argc() > 8) {
            throw Call.fail(ServerCommands.subcommandSyntaxError(c));
        }
        StreamId id;
        if (isDollar(c.arg(4))) {
            id = s == null ? StreamId.MIN : s.lastId();
        } else {
            id = StreamIds.strict(c.arg(4), 0);
        }
        if (s != null && s.group(name) != null) {
            throw Call.fail(BUSYGROUP);
        }
        boolean created = s == null;
        if (created) {
            s = new StreamValue();
            c.db(key).add(key, s);
        }
        s.groups().put(name, new StreamGroup(id, entriesRead));
        List<byte[]> frame = new ArrayList<>(List.of(XGROUP, StreamCommands.ascii("CREATE"), key, name,
                id.toBytes()));
        if (created) {
            frame.add(StreamCommands.ascii("MKSTREAM"));
        }
        frame.add(ENTRIESREAD);
        frame.add(RedisNumbers.toBytes(entriesRead));
        c.emit(frame.toArray(new byte[0][]));
        c.reply().ok();
    }

    /** Emits {@code XGROUP SETID k g <last id> ENTRIESREAD <n>}: the group's position, exactly. */
    static void emitPosition(Call c, byte[] key, byte[] name, StreamGroup g) {
        c.emit(XGROUP, SETID, key, name, g.lastId.toBytes(), ENTRIESREAD, RedisNumbers.toBytes(g.entriesRead));
    }

    /** Emits {@code XACK k g id}: a pending entry dropped (its stream entry is gone). */
    static void emitDropped(Call c, byte[] key, byte[] name, StreamId id) {
        c.emit(XACK, key, name, id.toBytes());
    }

    static boolean isDollar(byte[] b) {
        return b.length == 1 && b[0] == '$';
    }

    /** XACK key group id [id ...]: 0 for a missing key or group; ids parsed before any is acknowledged. */
    private static void xack(Call c) {
        byte[] key = c.arg(1);
        StreamValue s = StreamCommands.forWrite(c, key);
        StreamGroup g = s == null ? null : s.group(c.arg(2));
        if (g == null) {
            c.reply().integer(0);
            return;
        }
        StreamId[] ids = new StreamId[c.argc() - 3];
        for (int j = 3; j < c.argc(); j++) {
            ids[j - 3] = StreamIds.strict(c.arg(j), 0);
        }
        List<byte[]> frame = new ArrayList<>(List.of(XACK, key, c.arg(2)));
        for (StreamId id : ids) {
            if (g.ack(id)) {
                frame.add(id.toBytes());
            }
        }
        int acked = frame.size() - 3;
        if (acked > 0) {
            c.emit(frame.toArray(new byte[0][]));
        }
        c.reply().integer(acked);
    }

    /** XPENDING key group [[IDLE min-idle-time] start end count [consumer]]. */
    private static void xpending(Call c) {
        int argc = c.argc();
        if (argc != 3 && (argc < 6 || argc > 9)) {
            throw Call.fail(Errors.SYNTAX);
        }
        StreamId start = null;
        StreamId end = null;
        long count = 0;
        long minIdle = 0;
        byte[] consumerName = null;
        if (argc >= 6) {
            int at = 3;
            if (c.argIs(3, "idle")) {
                minIdle = c.longArg(4);
                if (argc < 8) {
                    throw Call.fail(Errors.SYNTAX);
                }
                at += 2;
            }
            count = Math.max(0, c.longArg(at + 2));
            start = StreamIds.bound(c.arg(at), 0, true);
            end = StreamIds.bound(c.arg(at + 1), -1L, false);
            if (at + 3 < argc) {
                consumerName = c.arg(at + 3);
            }
        }
        StreamValue s = c.read(c.arg(1), StreamValue.class);
        StreamGroup g = s == null ? null : s.group(c.arg(2));
        if (g == null) {
            throw Call.fail(noGroup(c.arg(1), c.arg(2)));
        }
        ReplySink r = c.reply();
        if (argc == 3) {
            r.array(4);
            r.integer(g.pel.size());
            if (g.pel.isEmpty()) {
                r.nullBulk();
                r.nullBulk();
                r.nullArray();
                return;
            }
            r.bulk(g.pel.firstKey().toBytes());
            r.bulk(g.pel.lastKey().toBytes());
            List<StreamGroup.Consumer> with = new ArrayList<>();
            for (StreamGroup.Consumer co : g.consumers.values()) {
                if (!co.pel.isEmpty()) {
                    with.add(co);
                }
            }
            r.array(with.size());
            for (StreamGroup.Consumer co : with) {
                r.array(2);
                r.bulk(co.name);
                r.bulkLong(co.pel.size());
            }
            return;
        }
        Map<StreamId, StreamGroup.Pending> pel = g.pel;
        if (consumerName != null) {
            StreamGroup.Consumer co = g.consumer(consumerName);
            if (co == null) {
                r.array(0);
                return;
            }
            pel = co.pel;
        }
        long now = c.now();
        List<Map.Entry<StreamId, StreamGroup.Pending>> out = new ArrayList<>();
        if (start.compareTo(end) <= 0) {
            for (Map.Entry<StreamId, StreamGroup.Pending> e
                    : ((java.util.NavigableMap<StreamId, StreamGroup.Pending>) pel).subMap(start, true, end, true)
                    .entrySet()) {
                if (out.size() >= count) {
                    break;
                }
                if (minIdle != 0 && now - e.getValue().deliveryTime < minIdle) {
                    continue;
                }
                out.add(e);
            }
        }
        r.array(out.size());
        for (Map.Entry<StreamId, StreamGroup.Pending> e : out) {
            r.array(4);
            r.bulk(e.getKey().toBytes());
            r.bulk(e.getValue().consumer.name);
            r.integer(Math.max(0, now - e.getValue().deliveryTime));
            r.integer(e.getValue().deliveryCount);
        }
    }
}
