package io.kevy.pubsub;

import io.kevy.engine.Shard;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * Names the keyspace events of one effect frame as Redis 7.0 names those of the command behind it: from the
 * frame's verb (feed contract §7) and, where the frame alone does not say, the command that emitted it
 * ({@link Shard#originCommand()}): {@code SET k <new> KEEPTTL} is {@code incrby} after INCR, {@code append}
 * after APPEND; {@code DEL k} is {@code expired} after an expiry; the {@code DEL dst} that opens a
 * {@code *STORE}'s result is no event, its first element frame is {@code sinterstore}. A command that empties
 * a key also fires {@code del}, as in Redis.
 *
 * <p>Stateless apart from the per-shard memo of once-per-command events; called under the shard's lock.
 */
final class EventNames {
    /** Receives one event: its class ({@link KeyspaceEvents}), name and key. */
    @FunctionalInterface
    interface Sink {
        void event(int type, String event, byte[] key);
    }

    /** Commands whose destination gets one event however many frames rebuild it, with that event's class. */
    private static final Map<String, Integer> STORES = Map.ofEntries(
            Map.entry("sinterstore", KeyspaceEvents.SET), Map.entry("sunionstore", KeyspaceEvents.SET),
            Map.entry("sdiffstore", KeyspaceEvents.SET), Map.entry("zunionstore", KeyspaceEvents.ZSET),
            Map.entry("zinterstore", KeyspaceEvents.ZSET), Map.entry("zdiffstore", KeyspaceEvents.ZSET),
            Map.entry("zrangestore", KeyspaceEvents.ZSET), Map.entry("geosearchstore", KeyspaceEvents.ZSET),
            Map.entry("georadius", KeyspaceEvents.ZSET), Map.entry("georadiusbymember", KeyspaceEvents.ZSET),
            Map.entry("sort", KeyspaceEvents.LIST),
            Map.entry("copy", KeyspaceEvents.GENERIC), Map.entry("rename", KeyspaceEvents.GENERIC),
            Map.entry("renamenx", KeyspaceEvents.GENERIC), Map.entry("restore", KeyspaceEvents.GENERIC));

    /**
     * The last (arguments, key) a once-per-command event was fired for, per thread: one command's frames are
     * emitted by one thread, back to back per destination.
     */
    private static final ThreadLocal<Object[]> LAST_ONCE = ThreadLocal.withInitial(() -> new Object[2]);

    private EventNames() {
    }

    static void derive(Shard shard, byte[][] frame, Sink out) {
        String origin = shard.originCommand();
        byte[][] argv = shard.originArgv();
        String verb = new String(frame[0], StandardCharsets.US_ASCII);
        if (origin == Shard.EXPIRED) {
            out.event(KeyspaceEvents.EXPIRED, "expired", frame[1]);
            return;
        }
        if (origin != null && argv != null && STORES.containsKey(origin) && !verb.equals("RENAME")) {
            destination(shard, origin, argv, verb, frame, out);
            return;
        }
        if (verb.startsWith("X")) {
            streamEvents(origin, verb, frame, out);
            return;
        }
        switch (verb) {
            case "SET" -> {
                if ("pfcount".equals(origin) || "pfdebug".equals(origin)) {
                    return; // a cached cardinality or a dense conversion: Redis notifies nothing
                }
                out.event(KeyspaceEvents.STRING, stringEvent(origin), frame[1]);
                if (frame.length >= 5 && Arrays.equals(frame[3], io.kevy.resp.Verbs.PXAT)) {
                    out.event(KeyspaceEvents.GENERIC, "expire", frame[1]);
                }
            }
            case "MSET" -> {
                for (int i = 1; i + 1 < frame.length; i += 2) {
                    out.event(KeyspaceEvents.STRING, "set", frame[i]);
                }
            }
            case "DEL" -> {
                for (int i = 1; i < frame.length; i++) {
                    out.event(KeyspaceEvents.GENERIC, "del", frame[i]);
                }
            }
            case "PEXPIREAT" -> out.event(KeyspaceEvents.GENERIC, "expire", frame[1]);
            case "PERSIST" -> out.event(KeyspaceEvents.GENERIC, "persist", frame[1]);
            case "RENAME" -> {
                out.event(KeyspaceEvents.GENERIC, "rename_from", frame[1]);
                out.event(KeyspaceEvents.GENERIC, "rename_to", frame[2]);
            }
            case "HSET" -> out.event(KeyspaceEvents.HASH, hashEvent(origin), frame[1]);
            case "HDEL" -> removal(shard, KeyspaceEvents.HASH, "hdel", frame[1], out);
            case "LPUSH" -> out.event(KeyspaceEvents.LIST, "lpush", frame[1]);
            case "RPUSH" -> out.event(KeyspaceEvents.LIST, "rpush", frame[1]);
            case "LPOP" -> removal(shard, KeyspaceEvents.LIST, "lpop", frame[1], out);
            case "RPOP" -> removal(shard, KeyspaceEvents.LIST, "rpop", frame[1], out);
            case "LSET" -> out.event(KeyspaceEvents.LIST, "lset", frame[1]);
            case "LINSERT" -> out.event(KeyspaceEvents.LIST, "linsert", frame[1]);
            case "LREM" -> removal(shard, KeyspaceEvents.LIST, "lrem", frame[1], out);
            case "LTRIM" -> removal(shard, KeyspaceEvents.LIST, "ltrim", frame[1], out);
            case "SADD" -> out.event(KeyspaceEvents.SET, "sadd", frame[1]);
            case "SREM" -> removal(shard, KeyspaceEvents.SET, "spop".equals(origin) ? "spop" : "srem", frame[1], out);
            case "ZADD" -> out.event(KeyspaceEvents.ZSET, zaddEvent(origin, argv), frame[1]);
            case "ZREM" -> removal(shard, KeyspaceEvents.ZSET, zremEvent(origin, argv), frame[1], out);
            default -> out.event(KeyspaceEvents.GENERIC, verb.toLowerCase(java.util.Locale.ROOT), frame[1]);
        }
    }

    /**
     * Redis 7.0's stream events ({@code t} class): {@code xadd} (and {@code xtrim} when it trimmed), {@code xtrim},
     * {@code xdel}, {@code xsetid}, {@code xgroup-<subcommand>} for XGROUP, and {@code xgroup-createconsumer} when
     * XREADGROUP, XCLAIM or XAUTOCLAIM create a consumer. The XCLAIM, XACK and XGROUP SETID frames of reads and
     * claims fire nothing, as those commands notify nothing in Redis.
     */
    private static void streamEvents(String origin, String verb, byte[][] frame, Sink out) {
        switch (verb) {
            case "XADD" -> {
                out.event(KeyspaceEvents.STREAM, "xadd", frame[1]);
                if (frame.length > 2 && "MAXLEN".equals(new String(frame[2], StandardCharsets.US_ASCII))) {
                    out.event(KeyspaceEvents.STREAM, "xtrim", frame[1]);
                }
            }
            case "XTRIM", "XDEL", "XSETID" -> out.event(KeyspaceEvents.STREAM,
                    verb.toLowerCase(java.util.Locale.ROOT), frame[1]);
            case "XGROUP" -> {
                String sub = new String(frame[1], StandardCharsets.US_ASCII).toLowerCase(java.util.Locale.ROOT);
                if ((origin != null && origin.startsWith("xgroup")) || sub.equals("createconsumer")) {
                    out.event(KeyspaceEvents.STREAM, "xgroup-" + sub, frame[2]);
                }
            }
            default -> {
            }
        }
    }

    /**
     * A frame on the destination of a command that rebuilds it (a {@code *STORE}, COPY, a RENAME across shards):
     * RENAME's source fires {@code rename_from}; the destination fires the command's event once, or {@code del}
     * when the command deleted it (an empty result).
     */
    private static void destination(Shard shard, String origin, byte[][] argv, String verb, byte[][] frame,
            Sink out) {
        byte[] key = io.kevy.resp.FrameKeys.key(frame);
        boolean rename = origin.startsWith("rename");
        if (rename && verb.equals("DEL") && Arrays.equals(key, argv[1])) {
            out.event(KeyspaceEvents.GENERIC, "rename_from", key);
            return;
        }
        if (verb.equals("DEL") && !shard.keyspace().stored(key)) {
            if (!rename && !origin.equals("copy")) {
                out.event(KeyspaceEvents.GENERIC, "del", key); // an empty result deleted the destination
            }
            return;
        }
        Object[] last = LAST_ONCE.get();
        if (last[0] == argv && Arrays.equals((byte[]) last[1], key)) {
            return; // the command's event for this destination has fired
        }
        last[0] = argv;
        last[1] = key;
        String event = switch (origin) {
            case "copy" -> "copy_to";
            case "rename", "renamenx" -> "rename_to";
            case "sort" -> "sortstore";
            case "georadius", "georadiusbymember" -> "georadiusstore";
            default -> origin;
        };
        out.event(STORES.get(origin), event, key);
    }

    /** A frame that removed elements: its event, then {@code del} when the key is gone (Redis's order). */
    private static void removal(Shard shard, int type, String event, byte[] key, Sink out) {
        out.event(type, event, key);
        if (!shard.keyspace().stored(key)) {
            out.event(KeyspaceEvents.GENERIC, "del", key);
        }
    }

    private static String stringEvent(String origin) {
        if (origin == null) {
            return "set";
        }
        return switch (origin) {
            case "incr", "decr", "incrby", "decrby" -> "incrby";
            case "incrbyfloat" -> "incrbyfloat";
            case "append" -> "append";
            case "setrange" -> "setrange";
            case "setbit", "bitfield" -> "setbit";
            case "pfadd", "pfmerge" -> "pfadd"; // Redis names PFMERGE's event pfadd too
            default -> "set";
        };
    }

    private static String hashEvent(String origin) {
        if ("hincrby".equals(origin)) {
            return "hincrby";
        }
        return "hincrbyfloat".equals(origin) ? "hincrbyfloat" : "hset";
    }

    private static String zaddEvent(String origin, byte[][] argv) {
        if ("zincrby".equals(origin)) {
            return "zincr";
        }
        if ("zadd".equals(origin) && argv != null) {
            for (int i = 2; i < argv.length; i++) { // the options, before the first score
                String a = new String(argv[i], StandardCharsets.US_ASCII).toLowerCase(java.util.Locale.ROOT);
                if (a.equals("incr")) {
                    return "zincr";
                }
                if (!java.util.Set.of("nx", "xx", "gt", "lt", "ch").contains(a)) {
                    break;
                }
            }
        }
        return "zadd";
    }

    private static String zremEvent(String origin, byte[][] argv) {
        if (origin == null) {
            return "zrem";
        }
        return switch (origin) {
            case "zremrangebyscore", "zremrangebyrank", "zremrangebylex", "zpopmin", "zpopmax" -> origin;
            case "bzpopmin" -> "zpopmin";
            case "bzpopmax" -> "zpopmax";
            case "zmpop", "bzmpop" -> argv == null ? "zrem" : mpopEvent(origin, argv);
            default -> "zrem";
        };
    }

    /** ZMPOP/BZMPOP: {@code zpopmin} or {@code zpopmax} by the MIN|MAX after their keys. */
    private static String mpopEvent(String origin, byte[][] argv) {
        int numkeysAt = origin.equals("bzmpop") ? 2 : 1;
        try {
            int where = numkeysAt + 1 + Integer.parseInt(new String(argv[numkeysAt], StandardCharsets.US_ASCII));
            return new String(argv[where], StandardCharsets.US_ASCII).equalsIgnoreCase("max") ? "zpopmax" : "zpopmin";
        } catch (RuntimeException e) {
            return "zpopmin"; // not reached: the command validated its arguments before it emitted
        }
    }
}
