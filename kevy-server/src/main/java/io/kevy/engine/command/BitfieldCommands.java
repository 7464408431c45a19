package io.kevy.engine.command;

import static io.kevy.engine.command.BitmapCommands.GROUP;
import static io.kevy.engine.command.CommandFlag.DENYOOM;
import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.text.Bytes;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.resp.ReplySink;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * BITFIELD and BITFIELD_RO, a port of Redis 7.0's {@code bitfieldGeneric}: every operation is parsed (and every
 * error found) before the key is touched; then the operations run in order on one copy of the string.
 *
 * <ul>
 *   <li>Types {@code i1..i64} and {@code u1..u63} (lower-case {@code i}/{@code u}); offsets are bit positions or
 *       {@code #n} for {@code n * width}.</li>
 *   <li>OVERFLOW WRAP (default), SAT or FAIL applies to the SET and INCRBY operations after it; a FAIL overflow
 *       answers nil and writes nothing for that operation.</li>
 *   <li>Only GETs: a read (a missing key reads as zeros and is not created). Any SET/INCRBY: the string is
 *       created or zero-extended to the furthest bit written before the operations run, even if all of them
 *       then fail (as Redis). BITFIELD_RO rejects SET/INCRBY after parsing.</li>
 * </ul>
 *
 * <p>Flags follow Redis 7.0's command table: BITFIELD is {@code write denyoom} (a read-only replica still serves
 * it when it has only GETs, as Redis does: it never writes then), BITFIELD_RO is {@code readonly fast}.
 *
 * <p>Frames (feed contract §7): {@code SET k <new> KEEPTTL} when the stored bytes changed (created, extended or
 * edited); nothing when the writes left every byte as it was. WATCH follows Redis 7.0, which signals the key when
 * some operation changed its field: edits that cancel out (INCRBY 1 then INCRBY -1) invalidate watchers without
 * a frame; writes of the same value and FAIL overflows do not.
 */
final class BitfieldCommands {
    private static final ErrorReply BAD_TYPE = ErrorReply.err(
            "Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is.");
    private static final ErrorReply BAD_OVERFLOW = ErrorReply.err("Invalid OVERFLOW type specified");
    private static final ErrorReply RO_ONLY_GET = ErrorReply.err("BITFIELD_RO only supports the GET subcommand");

    private static final int GET = 0;
    private static final int SET = 1;
    private static final int INCRBY = 2;

    private static final int WRAP = 0;
    private static final int SAT = 1;
    private static final int FAIL = 2;

    /** One parsed operation. */
    private record Op(int opcode, long offset, long value, int overflow, int bits, boolean signed) {
    }

    private BitfieldCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("bitfield", -2).flags(WRITE, DENYOOM).keys(1, 1, 1).group(GROUP).since("3.2.0")
                .summary("Perform arbitrary bitfield integer operations on strings")
                .handler(c -> bitfield(c, false)));
        t.add(command("bitfield_ro", -2).flags(READONLY, FAST).keys(1, 1, 1).group(GROUP).since("6.0.0")
                .summary("Perform arbitrary bitfield integer operations on strings. Read-only variant of BITFIELD")
                .handler(c -> bitfield(c, true)));
    }

    private static void bitfield(Call c, boolean readonlyCommand) {
        List<Op> ops = new ArrayList<>();
        boolean readonly = true;
        long highestWrite = 0;
        int overflow = WRAP;
        for (int j = 2; j < c.argc(); j++) {
            int remaining = c.argc() - j - 1;
            int opcode;
            if (c.argIs(j, "get") && remaining >= 2) {
                opcode = GET;
            } else if (c.argIs(j, "set") && remaining >= 3) {
                opcode = SET;
            } else if (c.argIs(j, "incrby") && remaining >= 3) {
                opcode = INCRBY;
            } else if (c.argIs(j, "overflow") && remaining >= 1) {
                j++;
                overflow = overflowType(c, j);
                continue;
            } else {
                throw Call.fail(Errors.SYNTAX);
            }
            byte[] type = c.arg(j + 1);
            int bits = bitsOf(type);
            boolean signed = type[0] == 'i';
            long offset = BitmapCommands.bitOffset(c, j + 2, true, bits);
            long value = 0;
            if (opcode != GET) {
                readonly = false;
                highestWrite = Math.max(highestWrite, offset + bits - 1);
                value = c.longArg(j + 3);
            }
            ops.add(new Op(opcode, offset, value, overflow, bits, signed));
            j += opcode == GET ? 2 : 3;
        }
        byte[] key = c.arg(1);
        if (readonly) {
            readAll(c, c.read(key, byte[].class), ops);
            return;
        }
        if (readonlyCommand) {
            throw Call.fail(RO_ONLY_GET);
        }
        byte[] old = c.value(key, byte[].class);
        byte[] nv = BitmapCommands.grownCopy(old, (highestWrite >> 3) + 1);
        ReplySink r = c.reply();
        r.array(ops.size());
        boolean fieldChanged = false;
        for (Op op : ops) {
            if (op.opcode() == GET) {
                r.integer(op.signed() ? BitOps.getSigned(nv, op.offset(), op.bits())
                        : BitOps.getUnsigned(nv, op.offset(), op.bits()));
            } else {
                fieldChanged |= write(r, nv, op);
            }
        }
        if (fieldChanged && old != null && Arrays.equals(old, nv)) {
            c.shard(key).signals().touch(key); // no frame, but Redis signals the key as modified
        }
        BitmapCommands.finishWrite(c, key, old, nv);
    }

    private static void readAll(Call c, byte[] v, List<Op> ops) {
        byte[] p = v == null ? Bytes.EMPTY : v;
        ReplySink r = c.reply();
        r.array(ops.size());
        for (Op op : ops) {
            r.integer(op.signed() ? BitOps.getSigned(p, op.offset(), op.bits())
                    : BitOps.getUnsigned(p, op.offset(), op.bits()));
        }
    }

    /**
     * Runs one SET or INCRBY on {@code p} and writes its reply: the old value (SET), the new one, or nil (a FAIL
     * overflow, which writes nothing). Returns true when the field's value changed.
     */
    private static boolean write(ReplySink r, byte[] p, Op op) {
        int bits = op.bits();
        long old = op.signed() ? BitOps.getSigned(p, op.offset(), bits) : BitOps.getUnsigned(p, op.offset(), bits);
        long value;
        long incr;
        if (op.opcode() == INCRBY) {
            value = old;
            incr = op.value();
        } else {
            value = op.value();
            incr = 0;
        }
        int dir = op.signed() ? BitOps.signedOverflow(value, incr, bits) : BitOps.unsignedOverflow(value, incr, bits);
        long result = value + incr;
        if (dir != 0) {
            if (op.overflow() == FAIL) {
                r.nullBulk();
                return false;
            }
            if (op.overflow() == WRAP) {
                result = op.signed() ? BitOps.signedWrap(value, incr, bits) : BitOps.unsignedWrap(value, incr, bits);
            } else {
                result = op.signed() ? BitOps.signedSaturate(dir, bits) : BitOps.unsignedSaturate(dir, bits);
            }
        }
        r.integer(op.opcode() == INCRBY ? result : old);
        BitOps.setUnsigned(p, op.offset(), bits, result);
        return result != old;
    }

    private static int overflowType(Call c, int i) {
        if (c.argIs(i, "wrap")) {
            return WRAP;
        }
        if (c.argIs(i, "sat")) {
            return SAT;
        }
        if (c.argIs(i, "fail")) {
            return FAIL;
        }
        throw Call.fail(BAD_OVERFLOW);
    }

    /**
     * The width of a type argument (Redis's {@code getBitfieldTypeFromArgument}): {@code i} or {@code u}, then an
     * integer up to 64 (signed) or 63 (unsigned); read as a C string, so it ends at a NUL byte.
     */
    private static int bitsOf(byte[] type) {
        if (type.length == 0 || (type[0] != 'i' && type[0] != 'u')) {
            throw Call.fail(BAD_TYPE);
        }
        int end = 1;
        while (end < type.length && type[end] != 0) {
            end++;
        }
        long bits = RedisNumbers.parseLongOr(Arrays.copyOfRange(type, 1, end), 0);
        if (bits < 1 || (type[0] == 'i' && bits > 64) || (type[0] == 'u' && bits > 63)) {
            throw Call.fail(BAD_TYPE);
        }
        return (int) bits;
    }
}
