package io.kevy.script;

import io.kevy.engine.error.ErrorReply;
import io.kevy.resp.ReplySink;
import java.nio.charset.StandardCharsets;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;

/**
 * A script's return value as a RESP2 reply, by Redis 7.0's Lua-to-RESP rules ({@code luaReplyToRedisReply}):
 * string → bulk; number → integer, truncated toward zero ({@link #toLong}); {@code true} → {@code :1}; {@code false} and
 * {@code nil} → null bulk; a table with a string {@code err} field → error (its text as it is); with a
 * string {@code ok} field → status (CR and LF become spaces); any other table → array of its elements
 * {@code 1..n}, stopping at the first nil; anything else (functions, ...) → null bulk.
 *
 * <p>Stateless; thread-safe.
 */
final class LuaReplies {
    /** kevy's limit on a returned table's nesting, so that converting it cannot overflow the Java stack. */
    static final int MAX_DEPTH = 1000;
    private static final ErrorReply TOO_DEEP = ErrorReply.err("reached lua stack limit");

    private LuaReplies() {
    }

    static void write(LuaValue v, ReplySink out) {
        write(v, out, 0);
    }

    private static void write(LuaValue v, ReplySink out, int depth) {
        switch (v.type()) {
            case LuaValue.TSTRING -> {
                LuaString s = v.checkstring();
                out.bulk(s.m_bytes, s.m_offset, s.m_length);
            }
            case LuaValue.TNUMBER -> out.integer(toLong(v.todouble()));
            case LuaValue.TBOOLEAN -> {
                if (v.toboolean()) {
                    out.integer(1);
                } else {
                    out.nullBulk();
                }
            }
            case LuaValue.TTABLE -> writeTable((LuaTable) v, out, depth);
            default -> out.nullBulk();
        }
    }

    private static void writeTable(LuaTable t, ReplySink out, int depth) {
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
        if (depth >= MAX_DEPTH) {
            out.error(TOO_DEEP);
            return;
        }
        int n = 0;
        while (!t.rawget(n + 1).isnil()) {
            n++;
        }
        out.array(n);
        for (int i = 1; i <= n; i++) {
            write(t.rawget(i), out, depth + 1);
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
