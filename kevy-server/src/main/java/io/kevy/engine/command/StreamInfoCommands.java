package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.LOADING;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.STALE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.error.Errors;
import io.kevy.engine.type.StreamGroup;
import io.kevy.engine.type.StreamId;
import io.kevy.engine.type.StreamValue;
import io.kevy.resp.ReplySink;
import java.util.Map;

/**
 * XINFO STREAM [FULL [COUNT n]] | GROUPS | CONSUMERS | HELP (Redis 7.0's replies, RESP2 flat maps).
 * {@code radix-tree-keys} and {@code radix-tree-nodes} describe the modelled listpack nodes
 * ({@link StreamValue#nodeCount}, {@link StreamValue#radixTreeNodes}), which close where Redis's close, so they
 * agree with Redis. A read: no frames.
 */
final class StreamInfoCommands {
    private StreamInfoCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("xinfo", -2).group(StreamCommands.GROUP).since("5.0.0")
                .summary("A container for stream introspection commands").complexity("Depends on subcommand.")
                .subcommand(command("consumers", 4).flags(READONLY).keys(2, 2, 1).tips("nondeterministic_output")
                        .since("5.0.0").summary("List the consumers in a consumer group").complexity("O(1)")
                        .handler(StreamInfoCommands::consumers))
                .subcommand(command("groups", 3).flags(READONLY).keys(2, 2, 1).since("5.0.0")
                        .summary("List the consumer groups of a stream").complexity("O(1)")
                        .handler(StreamInfoCommands::groups))
                .subcommand(command("stream", -3).flags(READONLY).keys(2, 2, 1).since("5.0.0")
                        .summary("Get information about a stream").complexity("O(1)")
                        .handler(StreamInfoCommands::stream))
                .subcommand(command("help", 2).flags(LOADING, STALE).since("5.0.0")
                        .summary("Show helpful text about the different subcommands").complexity("O(1)")
                        .handler(c -> HelpReply.write(c.reply(), "XINFO", "CONSUMERS <key> <groupname>",
                                "    Show consumers of <groupname>.", "GROUPS <key>",
                                "    Show the stream consumer groups.", "STREAM <key> [FULL [COUNT <count>]",
                                "    Show information about the stream."))));
    }

    private static StreamValue stream(Call c, byte[] key) {
        StreamValue s = c.read(key, StreamValue.class);
        if (s == null) {
            throw Call.fail(Errors.NO_SUCH_KEY);
        }
        return s;
    }

    private static void consumers(Call c) {
        StreamValue s = stream(c, c.arg(2));
        StreamGroup g = s.group(c.arg(3));
        if (g == null) {
            throw Call.fail(StreamGroupCommands.noSuchGroupForKey(c.arg(3), c.arg(2)));
        }
        ReplySink r = c.reply();
        r.array(g.consumers.size());
        for (StreamGroup.Consumer co : g.consumers.values()) {
            r.map(3);
            r.bulk("name");
            r.bulk(co.name);
            r.bulk("pending");
            r.integer(co.pel.size());
            r.bulk("idle");
            r.integer(Math.max(0, c.now() - co.seenTime));
        }
    }

    private static void groups(Call c) {
        StreamValue s = stream(c, c.arg(2));
        ReplySink r = c.reply();
        r.array(s.groups().size());
        for (Map.Entry<byte[], StreamGroup> e : s.groups().entrySet()) {
            StreamGroup g = e.getValue();
            r.map(6);
            r.bulk("name");
            r.bulk(e.getKey());
            r.bulk("consumers");
            r.integer(g.consumers.size());
            r.bulk("pending");
            r.integer(g.pel.size());
            r.bulk("last-delivered-id");
            r.bulk(g.lastId.toBytes());
            entriesReadAndLag(r, s, g);
        }
    }

    private static void entriesReadAndLag(ReplySink r, StreamValue s, StreamGroup g) {
        r.bulk("entries-read");
        if (g.entriesRead == -1) {
            r.nullBulk();
        } else {
            r.integer(g.entriesRead);
        }
        r.bulk("lag");
        long lag = s.lag(g);
        if (lag == -1) {
            r.nullBulk();
        } else {
            r.integer(lag);
        }
    }

    /** XINFO STREAM key [FULL [COUNT count]]: COUNT defaults to 10, 0 means all, a negative count is 10. */
    private static void stream(Call c) {
        int optc = c.argc() - 3;
        boolean full = optc > 0;
        long count = 10;
        if (full) {
            if ((optc != 1 && optc != 3) || !c.argIs(3, "full")) {
                throw Call.fail(ServerCommands.subcommandSyntaxError(c));
            }
            if (optc == 3) {
                if (!c.argIs(4, "count")) {
                    throw Call.fail(ServerCommands.subcommandSyntaxError(c));
                }
                count = c.longArg(5);
                if (count < 0) {
                    count = 10;
                }
            }
        }
        StreamValue s = stream(c, c.arg(2));
        ReplySink r = c.reply();
        r.map(full ? 9 : 10);
        r.bulk("length");
        r.integer(s.length());
        r.bulk("radix-tree-keys");
        r.integer(s.nodeCount());
        r.bulk("radix-tree-nodes");
        r.integer(s.radixTreeNodes());
        r.bulk("last-generated-id");
        r.bulk(s.lastId().toBytes());
        r.bulk("max-deleted-entry-id");
        r.bulk(s.maxDeletedId().toBytes());
        r.bulk("entries-added");
        r.integer(s.entriesAdded());
        r.bulk("recorded-first-entry-id");
        r.bulk(s.firstId().toBytes());
        if (!full) {
            r.bulk("groups");
            r.integer(s.groups().size());
            for (boolean first : new boolean[] {true, false}) {
                r.bulk(first ? "first-entry" : "last-entry");
                Map.Entry<StreamId, byte[][]> e = s.edge(first);
                if (e == null) {
                    r.nullBulk();
                } else {
                    StreamCommands.replyEntry(r, e.getKey(), e.getValue());
                }
            }
            return;
        }
        r.bulk("entries");
        StreamCommands.replyEntries(r, s.range(StreamId.MIN, StreamId.MAX, count, false));
        r.bulk("groups");
        r.array(s.groups().size());
        for (Map.Entry<byte[], StreamGroup> e : s.groups().entrySet()) {
            StreamGroup g = e.getValue();
            r.map(7);
            r.bulk("name");
            r.bulk(e.getKey());
            r.bulk("last-delivered-id");
            r.bulk(g.lastId.toBytes());
            entriesReadAndLag(r, s, g);
            r.bulk("pel-count");
            r.integer(g.pel.size());
            r.bulk("pending");
            int n = (int) (count == 0 ? g.pel.size() : Math.min(count, g.pel.size()));
            r.array(n);
            int i = 0;
            for (Map.Entry<StreamId, StreamGroup.Pending> pe : g.pel.entrySet()) {
                if (i++ == n) {
                    break;
                }
                r.array(4);
                r.bulk(pe.getKey().toBytes());
                r.bulk(pe.getValue().consumer.name);
                r.integer(pe.getValue().deliveryTime);
                r.integer(pe.getValue().deliveryCount);
            }
            r.bulk("consumers");
            r.array(g.consumers.size());
            for (StreamGroup.Consumer co : g.consumers.values()) {
                r.map(4);
                r.bulk("name");
                r.bulk(co.name);
                r.bulk("seen-time");
                r.integer(co.seenTime);
                r.bulk("pel-count");
                r.integer(co.pel.size());
                r.bulk("pending");
                int m = (int) (count == 0 ? co.pel.size() : Math.min(count, co.pel.size()));
                r.array(m);
                int k = 0;
                for (Map.Entry<StreamId, StreamGroup.Pending> pe : co.pel.entrySet()) {
                    if (k++ == m) {
                        break;
                    }
                    r.array(3);
                    r.bulk(pe.getKey().toBytes());
                    r.integer(pe.getValue().deliveryTime);
                    r.integer(pe.getValue().deliveryCount);
                }
            }
        }
    }
}
