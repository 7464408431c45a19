package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.DENYOOM;
import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.MAY_REPLICATE;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.Keyspace;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.struct.Dict;
import io.kevy.engine.type.HyperLogLog;

/**
 * HyperLogLog commands: PFADD, PFCOUNT, PFMERGE (Redis 7.0 semantics, replies and error texts). The value is
 * a plain string in Redis's own representation ({@link HyperLogLog}), so GET, SET, DUMP and a value copied from
 * Redis see the same bytes; PFDEBUG and PFSELFTEST are in {@link HyperLogLogDebugCommands}.
 *
 * <p>Feed (contract §7): a command that changes the value emits it whole as {@code SET k <bytes> KEEPTTL}, as
 * the other in-place string edits do: PFADD that raised a register or created the key, PFMERGE always (Redis
 * always rewrites the destination), and PFCOUNT of one key when it stored a fresh cached cardinality in the
 * header (Redis changes the value then, and propagates it): replaying the frames gives the same bytes. A PFADD
 * that changes no register, and PFCOUNT of several keys, emit nothing.
 *
 * <p>One difference from Redis: a PFADD that meets a corrupted sparse value fails whole (Redis keeps the
 * registers the elements before the failing one raised, unpropagated): a failed command changes nothing here.
 */
final class HyperLogLogCommands {
    static final String GROUP = "hyperloglog";
    /** A string that is not a HyperLogLog (Redis's {@code isHLLObjectOrReply}). */
    static final ErrorReply NOT_HLL = ErrorReply.of("WRONGTYPE Key is not a valid HyperLogLog string value.");
    /** A sparse HyperLogLog whose opcodes do not cover exactly 16384 registers. */
    static final ErrorReply INVALIDOBJ = ErrorReply.of("INVALIDOBJ Corrupted HLL object detected");

    private HyperLogLogCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("pfadd", -2).flags(WRITE, DENYOOM, FAST).keys(1, 1, 1).keyFlags("RW", "insert").group(GROUP)
                .since("2.8.9").summary("Adds the specified elements to the specified HyperLogLog.")
                .complexity("O(1) to add every element.").handler(HyperLogLogCommands::pfadd));
        t.add(command("pfcount", -2).flags(READONLY, MAY_REPLICATE).keys(1, -1, 1).keyFlags("RW", "access")
                .keyNotes("RW because it may change the internal representation of the key, and propagate to "
                        + "replicas")
                .group(GROUP).since("2.8.9")
                .summary("Return the approximated cardinality of the set(s) observed by the HyperLogLog at key(s).")
                .complexity("O(1) with a very small average constant time when called with a single key. O(N) "
                        + "with N being the number of keys, and much bigger constant times, when called with "
                        + "multiple keys.")
                .handler(HyperLogLogCommands::pfcount));
        t.add(command("pfmerge", -2).flags(WRITE, DENYOOM).keys(1, -1, 1).keyFlags("RW", "access", "insert")
                .sourceKeyFlags("RO", "access").group(GROUP).since("2.8.9").summary("Merge N different HyperLogLogs into a single one.")
                .complexity("O(N) to merge N HyperLogLogs, but with high constant times.")
                .handler(HyperLogLogCommands::pfmerge));
    }

    /**
     * The HyperLogLog string of {@code n}: WRONGTYPE (Redis's shared text) for another type,
     * {@link #NOT_HLL} for a string that is not one.
     */
    static byte[] asHll(Dict.Node<Object> n) {
        if (!(n.value() instanceof byte[] v)) {
            throw Call.fail(Errors.WRONGTYPE);
        }
        return checked(v);
    }

    static byte[] checked(byte[] v) {
        if (!HyperLogLog.isValid(v)) {
            throw Call.fail(NOT_HLL);
        }
        return v;
    }

    /** Stores an edited HyperLogLog (TTL kept, {@code raw} as Redis leaves it) and emits it. */
    static void store(Call c, byte[] key, HyperLogLog h) {
        StringEditCommands.store(c, key, h.toBytes(), StringValues.HINT_RAW);
    }

    /** PFADD: 1 when a register changed or the key was created, else 0. */
    private static void pfadd(Call c) {
        byte[] key = c.arg(1);
        Dict.Node<Object> n = c.node(key);
        HyperLogLog h = n == null ? HyperLogLog.empty() : HyperLogLog.of(asHll(n));
        boolean updated = n == null;
        long max = c.engine().encodings().hllSparseMaxBytes();
        for (int j = 2; j < c.argc(); j++) {
            int r = h.add(c.arg(j), max);
            if (r < 0) {
                throw Call.fail(INVALIDOBJ);
            }
            updated |= r > 0;
        }
        if (updated) {
            h.invalidateCache();
            store(c, key, h);
        } else {
            Keyspace.encodingHint(n, StringValues.HINT_RAW); // Redis unshares the value even when unchanged
        }
        c.reply().integer(updated ? 1 : 0);
    }

    /**
     * PFCOUNT: of several keys, the cardinality of their union (missing keys are empty); of one key, the cached
     * cardinality when valid, else a fresh estimate, which is then cached in the header (a change: emitted).
     */
    private static void pfcount(Call c) {
        if (c.argc() > 2) {
            byte[] max = new byte[HyperLogLog.REGISTERS];
            for (int j = 1; j < c.argc(); j++) {
                byte[] v = c.read(c.arg(j), byte[].class);
                if (v != null && !HyperLogLog.of(checked(v)).mergeInto(max)) {
                    throw Call.fail(INVALIDOBJ);
                }
            }
            c.reply().integer(HyperLogLog.countRegisters(max));
            return;
        }
        byte[] key = c.arg(1);
        Dict.Node<Object> n = c.node(key);
        c.shard(key).countLookup(n != null);
        if (n == null) {
            c.reply().integer(0);
            return;
        }
        HyperLogLog h = HyperLogLog.of(asHll(n));
        Keyspace.encodingHint(n, StringValues.HINT_RAW);
        if (h.cacheValid()) {
            c.reply().integer(h.cachedCardinality());
            return;
        }
        long card = h.count();
        if (card < 0) {
            throw Call.fail(INVALIDOBJ);
        }
        h.cacheCardinality(card);
        store(c, key, h);
        c.reply().integer(card);
    }

    /**
     * PFMERGE: the registers' maximum over every key (the destination included) written into the destination,
     * which is created when missing and turned dense when any input is dense; always rewrites it.
     */
    private static void pfmerge(Call c) {
        byte[] max = new byte[HyperLogLog.REGISTERS];
        boolean dense = false;
        for (int j = 1; j < c.argc(); j++) {
            byte[] v = c.read(c.arg(j), byte[].class);
            if (v == null) {
                continue;
            }
            HyperLogLog src = HyperLogLog.of(checked(v));
            dense |= src.isDense();
            if (!src.mergeInto(max)) {
                throw Call.fail(INVALIDOBJ);
            }
        }
        byte[] dst = c.arg(1);
        Dict.Node<Object> n = c.node(dst);
        HyperLogLog h = n == null ? HyperLogLog.empty() : HyperLogLog.of((byte[]) n.value());
        if (dense && !h.toDense()) {
            throw Call.fail(INVALIDOBJ);
        }
        long sparseMax = c.engine().encodings().hllSparseMaxBytes();
        for (int j = 0; j < HyperLogLog.REGISTERS; j++) {
            if (max[j] != 0) {
                h.set(j, max[j], sparseMax); // a corrupted destination failed the merge above
            }
        }
        h.invalidateCache();
        store(c, dst, h);
        c.reply().ok();
    }
}
