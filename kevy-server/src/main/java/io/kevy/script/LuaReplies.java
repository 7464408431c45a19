package io.kevy.script;

import io.kevy.engine.error.ErrorReply;
import io.kevy.resp.ReplySink;
import java.nio.charset.StandardCharsets;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;

/**
 * A script's return value as a reply, by Redis 7.0's Lua-to-RESP rules ({@code luaReplyToRedisReply}):
 * string → bulk; number → integer, truncated toward zero ({@link #toLong}); {@code true} → {@code :1};
 * {@code false} and {@code nil} → null bulk; a table with a string {@code err} field → error (its text as it
 * is); with a string {@code ok} field → status (CR and LF become spaces); with a number {@code double} field → double;
 * with a string {@code big_number} field → big number (CR and LF become spaces); with a {@code verbatim_string}
 * table of string {@code format} and {@code string} → verbatim string; with a {@code map} table → map of its
 * pairs; with a {@code set} table → set of its keys; any other table → array of its elements {@code 1..n},
 * stopping at the first nil; anything else (functions, ...) → null bulk. A boolean follows the script's protocol
 * ({@code redis.setresp}): on 3 it is a boolean reply. The reply sink writes each type in its connection's
 * protocol (a map is a flat array on RESP2), as Redis's {@code addReply*} do.
 *
 * <p>Stateless; thread-safe.
 */
final class LuaReplies {
    /** kevy's limit on a returned table's nesting, so that converting it cannot overflow the Java stack. */
    static final int MAX_DEPTH = 1000;
    private static final ErrorReply TOO_DEEP = ErrorReply.err("reached lua stack limit");
    /** x86's default NaN (sign bit set): what Lua's arithmetic makes, printed {@code -nan}. */
    private static final double X86_NAN = Double.longBitsToDouble(0xfff8000000000000L);

    private LuaReplies() {
    }

    static void write(LuaValue v, ReplySink out) {
        write(v, out, 2);
    }

    /** Writes {@code v}; {@code resp} is the script's {@code redis.setresp} protocol (booleans follow it). */
    static void write(LuaValue v, ReplySink out, int resp) {
        write(v, out, resp == 3, 0);
    }

    private static void write(LuaValue v, ReplySink out, boolean resp3, int depth) {
        switch (v.type()) {
            case LuaValue.TSTRING -> {
                LuaString s = v.checkstring();
                out.bulk(s.m_bytes, s.m_offset, s.m_length);
            }
            case LuaValue.TNUMBER -> out.integer(toLong(v.todouble()));
            case LuaValue.TBOOLEAN -> {
                if (resp3) {
                    out.bool(v.toboolean());
                } else if (v.toboolean()) {
                    out.integer(1);
                } else {
                    out.nullBulk();
                }
            }
            case LuaValue.TTABLE -> writeTable((LuaTable) v, out, resp3, depth);
            default -> out.nullBulk();
        }
    }

    private static void writeTable(LuaTable t, ReplySink out, boolean resp3, int depth) {
        LuaValue err = t.rawget(LuaReplyBuilder.ERR);
        if (err.type() == LuaValue.TSTRING) {
            out.error(ErrorReply.of(latin1(err.checkstring())));
            return;
        }
        LuaValue ok = t.rawget(LuaReplyBuilder.OK);
        if (ok.type() == LuaValue.TSTRING) {
            out.simple(latin1(ok.checkstring()).replace('\r', ' ').replace('\n', ' '));
            return;
        }
        LuaValue d = t.rawget(LuaReplyBuilder.DOUBLE);
        if (d.type() == LuaValue.TNUMBER) {
            double v = d.todouble();
            // luaj's NaN is Java's; the NaN Lua's arithmetic makes on x86 (0/0, inf-inf) has its sign bit set, and
            // Redis prints it -nan (as LuaSandbox.numberToString)
            out.doubleValue(Double.isNaN(v) ? X86_NAN : v);
            return;
        }
        LuaValue big = t.rawget(LuaReplyBuilder.BIG_NUMBER);
        if (big.type() == LuaValue.TSTRING) {
            LuaString s = big.checkstring();
            byte[] b = java.util.Arrays.copyOfRange(s.m_bytes, s.m_offset, s.m_offset + s.m_length);
            for (int i = 0; i < b.length; i++) {
                if (b[i] == '\r' || b[i] == '\n') {
                    b[i] = ' ';
                }
            }
            out.bigNumber(b);
            return;
        }
        LuaValue verbatim = t.rawget(LuaReplyBuilder.VERBATIM);
        if (verbatim.type() == LuaValue.TTABLE) {
            LuaValue format = verbatim.rawget(LuaReplyBuilder.FORMAT);
            LuaValue text = verbatim.rawget(LuaReplyBuilder.STRING);
            if (format.type() == LuaValue.TSTRING && text.type() == LuaValue.TSTRING) {
                LuaString f = format.checkstring();
                LuaString s = text.checkstring();
                // Redis copies three bytes of the format, whatever its length
                String fmt = (latin1(f) + "\0\0\0").substring(0, 3);
                out.verbatim(java.util.Arrays.copyOfRange(s.m_bytes, s.m_offset, s.m_offset + s.m_length), fmt);
                return;
            }
        }
        if (depth >= MAX_DEPTH) {
            out.error(TOO_DEEP);
            return;
        }
        LuaValue map = t.rawget(LuaReplyBuilder.MAP);
        if (map.type() == LuaValue.TTABLE) {
            java.util.List<LuaValue[]> pairs = entries((LuaTable) map);
            out.map(pairs.size());
            for (LuaValue[] kv : pairs) {
                write(kv[0], out, resp3, depth + 1);
                write(kv[1], out, resp3, depth + 1);
            }
            return;
        }
        LuaValue set = t.rawget(LuaReplyBuilder.SET);
        if (set.type() == LuaValue.TTABLE) {
            java.util.List<LuaValue[]> members = entries((LuaTable) set);
            out.set(members.size());
            for (LuaValue[] kv : members) {
                write(kv[0], out, resp3, depth + 1);
            }
            return;
        }
        int n = 0;
        while (!t.rawget(n + 1).isnil()) {
            n++;
        }
        out.array(n);
        for (int i = 1; i <= n; i++) {
            write(t.rawget(i), out, resp3, depth + 1);
        }
    }

    /** The key-value pairs of {@code t} in {@code next} order (luaj's; Redis's Lua 5.1 may order them otherwise). */
    private static java.util.List<LuaValue[]> entries(LuaTable t) {
        java.util.List<LuaValue[]> out = new java.util.ArrayList<>();
        LuaValue k = LuaValue.NIL;
        while (true) {
            org.luaj.vm2.Varargs e = t.next(k);
            k = e.arg1();
            if (k.isnil()) {
                return out;
            }
            out.add(new LuaValue[] {k, e.arg(2)});
        }
    }

    /**
     * C's {@code (long long)} cast as Redis's x86-64 build does it: truncation toward zero, and the integer
     * indefinite value (the minimum) for NaN and out-of-range numbers.
     */
    static long toLong(double d) {
        if (Double.isNaN(d) || d >= 0x1p63 || d < -0x1p63) {
            return Long.MIN_VALUE;
        }
        return (long) d;
    }

    static String latin1(LuaString s) {
        return new String(s.m_bytes, s.m_offset, s.m_length, StandardCharsets.ISO_8859_1);
    }
}
