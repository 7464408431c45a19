package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.type.StreamGroup;
import io.kevy.engine.type.StreamId;
import io.kevy.engine.type.StreamValue;
import io.kevy.resp.ReplySink;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * XCLAIM and XAUTOCLAIM: pending entries change owner (Redis 7.0 semantics, replies and error texts). A pending
 * entry whose stream entry was deleted is dropped from the PEL instead (7.0's behaviour; XAUTOCLAIM lists those
 * ids in its third reply element).
 *
 * <p>Frames (feed contract §7): {@code XGROUP CREATECONSUMER k g c} when the claim created the consumer; per
 * claimed entry {@code XCLAIM k g <consumer> 0 <id> TIME <delivery ms>
 * RETRYCOUNT <count> FORCE JUSTID}, which sets the entry's owner, time and count exactly (Redis's propagation,
 * without LASTID); per dropped entry {@code XACK k g <id>}; when XCLAIM's LASTID raised the group's last id,
 * {@code XGROUP SETID k g <id> ENTRIESREAD <n>}. Nothing when nothing changed.
 */
final class StreamClaimCommands {
    private StreamClaimCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("xclaim", -6).flags(WRITE, FAST).keys(1, 1, 1).keyFlags("RW", "update")
                .tips("nondeterministic_output").group(StreamCommands.GROUP).since("5.0.0")
                .summary("Changes (or acquires) ownership of a message in a consumer group, as if the message was "
                        + "delivered to the specified consumer.")
                .complexity("O(log N) with N being the number of messages in the PEL of the consumer group.")
                .handler(StreamClaimCommands::xclaim));
        t.add(command("xautoclaim", -6).flags(WRITE, FAST).keys(1, 1, 1).keyFlags("RW", "delete")
                .tips("nondeterministic_output").group(StreamCommands.GROUP).since("6.2.0")
                .summary("Changes (or acquires) ownership of messages in a consumer group, as if the messages were "
                        + "delivered to the specified consumer.")
                .complexity("O(1) if COUNT is small.").handler(StreamClaimCommands::xautoclaim));
    }

    private static StreamGroup group(Call c, StreamValue s) {
        StreamGroup g = s == null ? null : s.group(c.arg(2));
        if (g == null) {
            throw Call.fail(StreamGroupCommands.noGroup(c.arg(1), c.arg(2)));
        }
        return g;
    }

    /** The consumer named by argument 3, created (seen now, and emitted) when missing. */
    private static StreamGroup.Consumer consumer(Call c, StreamGroup g) {
        StreamGroup.Consumer co = g.consumer(c.arg(3));
        if (co == null) {
            co = g.createConsumer(c.arg(3), c.now());
            c.emit(StreamGroupCommands.XGROUP, StreamGroupCommands.CREATECONSUMER, c.arg(1), c.arg(2), c.arg(3));
        } else {
            co.seenTime = c.now();
        }
        return co;
    }

    /**
     * XCLAIM key group consumer min-idle-time id [id ...] [IDLE ms] [TIME ms] [RETRYCOUNT count] [FORCE] [JUSTID]
     * [LASTID id]: the ids are the arguments up to the first that is not an id.
     */
    private static void xclaim(Call c) {
        byte[] key = c.arg(1);
        StreamValue s = StreamCommands.forWrite(c, key);
        StreamGroup g = group(c, s);
        long minIdle = Math.max(0, c.longArg(4, ErrorReply.err("Invalid min-idle-time argument for XCLAIM")));
        List<StreamId> ids = new ArrayList<>();
        int j = 5;
        for (; j < c.argc(); j++) {
            StreamId id = tryId(c.arg(j));
            if (id == null) {
                break;
            }
            ids.add(id);
        }
        long now = c.now();
        long retryCount = -1;
        long deliveryTime = -1;
        boolean force = false;
        boolean justId = false;
        StreamId lastId = StreamId.MIN;
        for (; j < c.argc(); j++) {
            boolean more = j + 1 < c.argc();
            if (c.argIs(j, "force")) {
                force = true;
            } else if (c.argIs(j, "justid")) {
                justId = true;
            } else if (c.argIs(j, "idle") && more) {
                deliveryTime = now - c.longArg(++j, ErrorReply.err("Invalid IDLE option argument for XCLAIM"));
            } else if (c.argIs(j, "time") && more) {
                deliveryTime = c.longArg(++j, ErrorReply.err("Invalid TIME option argument for XCLAIM"));
            } else if (c.argIs(j, "retrycount") && more) {
                retryCount = c.longArg(++j, ErrorReply.err("Invalid RETRYCOUNT option argument for XCLAIM"));
            } else if (c.argIs(j, "lastid") && more) {
                lastId = StreamIds.strict(c.arg(++j), 0);
            } else {
                throw Call.fail(ErrorReply.err("Unrecognized XCLAIM option '"
                        + ServerCommands.latin1(c.arg(j), Integer.MAX_VALUE) + "'"));
            }
        }
        boolean raised = lastId.compareTo(g.lastId) > 0;
        if (raised) {
            g.lastId = lastId;
        }
        if (deliveryTime == -1 || deliveryTime < 0 || deliveryTime > now) {
            deliveryTime = now;
        }
        StreamGroup.Consumer owner = null;
        List<StreamId> claimed = new ArrayList<>();
        for (StreamId id : ids) {
            StreamGroup.Pending p = g.pel.get(id);
            if (!s.contains(id)) {
                if (p != null) {
                    g.ack(id);
                    StreamGroupCommands.emitDropped(c, key, c.arg(2), id);
                }
                continue;
            }
            boolean created = false;
            if (p == null) {
                if (!force) {
                    continue;
                }
                created = true;
            } else if (minIdle != 0 && now - p.deliveryTime < minIdle) {
                continue;
            }
            if (owner == null) {
                owner = consumer(c, g);
            }
            long count = retryCount >= 0 ? retryCount
                    : (created ? 1 : p.deliveryCount) + (justId ? 0 : 1); // a FORCE-created entry starts at 1
            p = g.assign(id, owner, deliveryTime, count);
            claimed.add(id);
            c.emit(StreamValue.claimFrame(key, c.arg(2), p, id, null));
        }
        if (raised) {
            StreamGroupCommands.emitPosition(c, key, c.arg(2), g);
        }
        ReplySink r = c.reply();
        r.array(claimed.size());
        for (StreamId id : claimed) {
            if (justId) {
                r.bulk(id.toBytes());
            } else {
                StreamCommands.replyEntry(r, id, s.get(id));
            }
        }
    }

    /** A strict id or null (XCLAIM's ids end at the first argument that is not one). */
    private static StreamId tryId(byte[] b) {
        try {
            return StreamIds.strict(b, 0);
        } catch (io.kevy.engine.error.CommandException e) {
            return null;
        }
    }

    /** XAUTOCLAIM key group consumer min-idle-time start [COUNT count] [JUSTID]. */
    private static void xautoclaim(Call c) {
        long minIdle = Math.max(0, c.longArg(4, ErrorReply.err("Invalid min-idle-time argument for XAUTOCLAIM")));
        StreamId start = StreamIds.bound(c.arg(5), 0, true);
        long count = 100;
        boolean justId = false;
        for (int j = 6; j < c.argc(); j++) {
            if (c.argIs(j, "count") && j + 1 < c.argc()) {
                ErrorReply bad = ErrorReply.err("COUNT must be > 0");
                count = c.longArg(j + 1, bad);
                // Redis's bound: LONG_MAX / max(sizeof(streamID), attempts factor 10)
                if (count < 1 || count > Long.MAX_VALUE / 16) {
                    throw Call.fail(bad);
                }
                j++;
            } else if (c.argIs(j, "justid")) {
                justId = true;
            } else {
                throw Call.fail(Errors.SYNTAX);
            }
        }
        byte[] key = c.arg(1);
        StreamValue s = StreamCommands.forWrite(c, key);
        StreamGroup g = group(c, s);
        long attempts = count * 10;
        long now = c.now();
        StreamGroup.Consumer owner = null;
        List<StreamId> claimed = new ArrayList<>();
        List<StreamId> deleted = new ArrayList<>();
        // walked by lookups, not by a copy of the PEL's tail: each call costs O(COUNT log n), as Redis's rax walk
        Map.Entry<StreamId, StreamGroup.Pending> e = g.pel.ceilingEntry(start);
        StreamId next = StreamId.MIN;
        for (; ; e = g.pel.higherEntry(e.getKey())) {
            if (attempts-- == 0 || count == 0) {
                next = e != null ? e.getKey() : StreamId.MIN;
                break;
            }
            if (e == null) {
                break;
            }
            StreamId id = e.getKey();
            StreamGroup.Pending p = e.getValue();
            if (!s.contains(id)) {
                g.ack(id);
                StreamGroupCommands.emitDropped(c, key, c.arg(2), id);
                deleted.add(id);
                count--;
                continue;
            }
            if (minIdle != 0 && now - p.deliveryTime < minIdle) {
                continue;
            }
            if (owner == null) {
                owner = consumer(c, g);
            }
            p = g.assign(id, owner, now, p.deliveryCount + (justId ? 0 : 1));
            claimed.add(id);
            count--;
            c.emit(StreamValue.claimFrame(key, c.arg(2), p, id, null));
        }
        ReplySink r = c.reply();
        r.array(3);
        r.bulk(next.toBytes());
        r.array(claimed.size());
        for (StreamId id : claimed) {
            if (justId) {
                r.bulk(id.toBytes());
            } else {
                StreamCommands.replyEntry(r, id, s.get(id));
            }
        }
        r.array(deleted.size());
        for (StreamId id : deleted) {
            r.bulk(id.toBytes());
        }
    }
}
