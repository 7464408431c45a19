package io.kevy.script;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * The {@code cmsgpack} library Redis embeds (lua-cmsgpack 0.4.0, Redis's {@code lua_cmsgpack.c}):
 * {@code pack(v, ...)} (the encodings of every argument, concatenated), {@code unpack(s)} (every value),
 * {@code unpack_one(s [, offset])} and {@code unpack_limit(s, limit [, offset])} (the next offset, -1 at the end,
 * then the values).
 *
 * <p>Encoding as lua-cmsgpack: a number that is a 64-bit integer takes the smallest integer format, any other
 * one a float 32 when exact, else a float 64; strings str8/16/32 (fixstr under 32 bytes); a table whose keys
 * are exactly 1..n an array, any other a map (keys in the table's iteration order, which is luaj's and can
 * differ from Lua 5.1's for maps of several keys); nil, functions and tables nested 16 deep {@code nil}.
 * Decoding takes every format lua-cmsgpack takes (integers, floats, nil, booleans, str, arrays, maps) and fails
 * with {@code Missing bytes in input.} or {@code Bad data format in input.}; arrays and maps nested deeper than
 * {@link #MAX_DECODE_DEPTH} are refused as a bad format (the C code recurses without a bound). Stateless;
 * thread-safe.
 */
final class CmsgpackLib {
    /** lua-cmsgpack's {@code LUACMSGPACK_MAX_NESTING}: deeper tables are packed as nil. */
    private static final int MAX_NESTING = 16;
    /** How deep a packed input may nest when unpacked (kevy's bound; each level is a Java call). */
    static final int MAX_DECODE_DEPTH = 1000;

    private CmsgpackLib() {
    }

    static LuaTable create() {
        LuaTable t = new LuaTable();
        t.set("pack", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs a) {
                return pack(a);
            }
        });
        t.set("unpack", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs a) {
                return unpack(a, 0, 0);
            }
        });
        t.set("unpack_one", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs a) {
                return unpack(a, 1, optInt(a, 2, "unpack_one"));
            }
        });
        t.set("unpack_limit", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs a) {
                int limit = checkInt(a, 2, "unpack_limit");
                return unpack(a, limit, optInt(a, 3, "unpack_limit"));
            }
        });
        t.set("_NAME", "cmsgpack");
        t.set("_VERSION", "lua-cmsgpack 0.4.0");
        t.set("_COPYRIGHT", "Copyright (C) 2012, Salvatore Sanfilippo");
        t.set("_DESCRIPTION", "MessagePack C implementation for Lua");
        return t;
    }

    private static LuaError argError(int arg, String fn, String msg) {
        return new LuaError("bad argument #" + arg + " to '" + fn + "' (" + msg + ")");
    }

    private static int checkInt(Varargs a, int i, String fn) {
        if (i <= a.narg() && a.arg(i).isnumber()) {
            return (int) (long) a.arg(i).todouble();
        }
        throw argError(i, fn, "number expected, got " + (i > a.narg() ? "no value" : a.arg(i).typename()));
    }

    private static int optInt(Varargs a, int i, String fn) {
        return a.arg(i).isnil() ? 0 : checkInt(a, i, fn);
    }

    /* ---- pack ---- */

    private static Varargs pack(Varargs a) {
        if (a.narg() == 0) {
            throw argError(0, "pack", "MessagePack pack needs input.");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 1; i <= a.narg(); i++) {
            encode(out, a.arg(i), 0);
        }
        return LuaString.valueUsing(out.toByteArray());
    }

    private static void encode(ByteArrayOutputStream out, LuaValue v, int level) {
        switch (v.type()) {
            case LuaValue.TSTRING -> {
                LuaString s = v.checkstring();
                int len = s.m_length;
                if (len < 32) {
                    out.write(0xa0 | len);
                } else if (len <= 0xff) {
                    out.write(0xd9);
                    out.write(len);
                } else if (len <= 0xffff) {
                    out.write(0xda);
                    be(out, len, 2);
                } else {
                    out.write(0xdb);
                    be(out, len, 4);
                }
                out.write(s.m_bytes, s.m_offset, len);
            }
            case LuaValue.TBOOLEAN -> out.write(v.toboolean() ? 0xc3 : 0xc2);
            case LuaValue.TNUMBER -> number(out, v.todouble());
            case LuaValue.TTABLE -> {
                if (level == MAX_NESTING) {
                    out.write(0xc0);
                } else {
                    table(out, (LuaTable) v, level);
                }
            }
            default -> out.write(0xc0);
        }
    }

    private static void number(ByteArrayOutputStream out, double n) {
        if (!Double.isInfinite(n) && n >= -0x1p63 && n < 0x1p63 && (double) (long) n == n) {
            integer(out, (long) n);
            return;
        }
        float f = (float) n;
        if (n == (double) f) {
            out.write(0xca);
            be(out, StructLib.floatBits(f), 4);
        } else {
            out.write(0xcb);
            be(out, StructLib.doubleBits(n), 8);
        }
    }

    private static void integer(ByteArrayOutputStream out, long n) {
        if (n >= 0) {
            if (n <= 127) {
                out.write((int) n);
            } else if (n <= 0xff) {
                out.write(0xcc);
                be(out, n, 1);
            } else if (n <= 0xffff) {
                out.write(0xcd);
                be(out, n, 2);
            } else if (n <= 0xffffffffL) {
                out.write(0xce);
                be(out, n, 4);
            } else {
                out.write(0xcf);
                be(out, n, 8);
            }
        } else if (n >= -32) {
            out.write((int) n & 0xff);
        } else if (n >= -128) {
            out.write(0xd0);
            be(out, n, 1);
        } else if (n >= -32768) {
            out.write(0xd1);
            be(out, n, 2);
        } else if (n >= -2147483648L) {
            out.write(0xd2);
            be(out, n, 4);
        } else {
            out.write(0xd3);
            be(out, n, 8);
        }
    }

    private static void be(ByteArrayOutputStream out, long v, int n) {
        for (int k = n - 1; k >= 0; k--) {
            out.write((int) (v >>> (8 * k)) & 0xff);
        }
    }

    /** lua-cmsgpack's {@code table_is_an_array}: every key a positive int-valued number, as many as the largest. */
    private static boolean isArray(LuaTable t) {
        long count = 0;
        double max = 0;
        LuaValue k = LuaValue.NIL;
        while (true) {
            Varargs n = t.next(k);
            k = n.arg1();
            if (k.isnil()) {
                break;
            }
            if (k.type() != LuaValue.TNUMBER) {
                return false;
            }
            double d = k.todouble();
            if (d <= 0 || d != (double) (int) d) {
                return false;
            }
            max = Math.max(max, d);
            count++;
        }
        return max == count;
    }

    private static void table(ByteArrayOutputStream out, LuaTable t, int level) {
        if (isArray(t)) {
            int len = t.length();
            header(out, len, 0x90, 0xdc, 0xdd);
            for (int j = 1; j <= len; j++) {
                encode(out, t.get(j), level + 1);
            }
            return;
        }
        int len = 0;
        LuaValue k = LuaValue.NIL;
        while (!(k = t.next(k).arg1()).isnil()) {
            len++;
        }
        header(out, len, 0x80, 0xde, 0xdf);
        k = LuaValue.NIL;
        while (true) {
            Varargs n = t.next(k);
            k = n.arg1();
            if (k.isnil()) {
                break;
            }
            encode(out, k, level + 1);
            encode(out, n.arg(2), level + 1);
        }
    }

    private static void header(ByteArrayOutputStream out, int len, int fix, int b16, int b32) {
        if (len < 16) {
            out.write(fix | len);
        } else if (len <= 0xffff) {
            out.write(b16);
            be(out, len, 2);
        } else {
            out.write(b32);
            be(out, len, 4);
        }
    }

    /* ---- unpack ---- */

    /** The input being decoded: an error ends it ({@code mp_cur}). */
    private static final class Cursor {
        final LuaString s;
        int p;
        final int end;

        Cursor(LuaString s, int p) {
            this.s = s;
            this.p = p;
            this.end = s.m_length;
        }

        int left() {
            return end - p;
        }

        void need(long n) {
            if (left() < n) {
                throw new Eof();
            }
        }

        int u8(int at) {
            return s.luaByte(p + at);
        }

        long be(int at, int n) {
            long v = 0;
            for (int k = 0; k < n; k++) {
                v = (v << 8) | u8(at + k);
            }
            return v;
        }
    }

    private static final class Eof extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Eof() {
            super(null, null, false, false);
        }
    }

    private static final class BadFormat extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BadFormat() {
            super(null, null, false, false);
        }
    }

    private static Varargs unpack(Varargs a, int limit, int offset) {
        String fn = limit == 0 && offset == 0 ? "unpack" : limit == 1 ? "unpack_one" : "unpack_limit";
        LuaValue v = a.arg(1);
        if (a.narg() < 1 || (v.type() != LuaValue.TSTRING && v.type() != LuaValue.TNUMBER)) {
            throw argError(1, fn, "string expected, got " + (a.narg() < 1 ? "no value" : v.typename()));
        }
        LuaString s = v.checkstring();
        boolean all = limit == 0 && offset == 0;
        if (offset < 0 || limit < 0) {
            throw new LuaError("Invalid request to unpack with offset of " + offset + " and limit of "
                    + s.m_length + ".");
        }
        if (offset > s.m_length) {
            throw new LuaError("Start offset " + offset + " greater than input length " + s.m_length + ".");
        }
        if (all) {
            limit = Integer.MAX_VALUE;
        }
        Cursor c = new Cursor(s, offset);
        List<LuaValue> values = new ArrayList<>();
        try {
            for (int cnt = 0; c.left() > 0 && cnt < limit; cnt++) {
                values.add(decode(c, 0));
            }
        } catch (Eof e) {
            throw new LuaError("Missing bytes in input.");
        } catch (BadFormat e) {
            throw new LuaError("Bad data format in input.");
        }
        if (!all) {
            values.add(0, LuaValue.valueOf(c.left() == 0 ? -1 : c.p));
        }
        return LuaValue.varargsOf(values.toArray(new LuaValue[0]));
    }

    private static LuaValue decode(Cursor c, int depth) {
        c.need(1);
        int b = c.u8(0);
        switch (b) {
            case 0xcc -> {
                return fixed(c, 1, false);
            }
            case 0xd0 -> {
                return fixed(c, 1, true);
            }
            case 0xcd -> {
                return fixed(c, 2, false);
            }
            case 0xd1 -> {
                return fixed(c, 2, true);
            }
            case 0xce -> {
                return fixed(c, 4, false);
            }
            case 0xd2 -> {
                return fixed(c, 4, true);
            }
            case 0xcf -> {
                c.need(9);
                long l = c.be(1, 8);
                c.p += 9;
                return LuaValue.valueOf((double) l); // Lua 5.1's lua_pushunsigned is lua_pushinteger: signed
            }
            case 0xd3 -> {
                c.need(9);
                long l = c.be(1, 8);
                c.p += 9;
                return LuaValue.valueOf((double) l);
            }
            case 0xc0 -> {
                c.p++;
                return LuaValue.NIL;
            }
            case 0xc3 -> {
                c.p++;
                return LuaValue.TRUE;
            }
            case 0xc2 -> {
                c.p++;
                return LuaValue.FALSE;
            }
            case 0xca -> {
                c.need(5);
                float f = Float.intBitsToFloat((int) c.be(1, 4));
                c.p += 5;
                return LuaValue.valueOf((double) f);
            }
            case 0xcb -> {
                c.need(9);
                double d = Double.longBitsToDouble(c.be(1, 8));
                c.p += 9;
                return LuaValue.valueOf(d);
            }
            case 0xd9 -> {
                c.need(2);
                return str(c, 2, c.u8(1));
            }
            case 0xda -> {
                c.need(3);
                return str(c, 3, c.be(1, 2));
            }
            case 0xdb -> {
                c.need(5);
                return str(c, 5, c.be(1, 4));
            }
            case 0xdc -> {
                c.need(3);
                long l = c.be(1, 2);
                c.p += 3;
                return array(c, l, depth);
            }
            case 0xdd -> {
                c.need(5);
                long l = c.be(1, 4);
                c.p += 5;
                return array(c, l, depth);
            }
            case 0xde -> {
                c.need(3);
                long l = c.be(1, 2);
                c.p += 3;
                return map(c, l, depth);
            }
            case 0xdf -> {
                c.need(5);
                long l = c.be(1, 4);
                c.p += 5;
                return map(c, l, depth);
            }
            default -> {
                if ((b & 0x80) == 0) {
                    c.p++;
                    return LuaValue.valueOf(b);
                } else if ((b & 0xe0) == 0xe0) {
                    c.p++;
                    return LuaValue.valueOf((byte) b);
                } else if ((b & 0xe0) == 0xa0) {
                    return str(c, 1, b & 0x1f);
                } else if ((b & 0xf0) == 0x90) {
                    c.p++;
                    return array(c, b & 0xf, depth);
                } else if ((b & 0xf0) == 0x80) {
                    c.p++;
                    return map(c, b & 0xf, depth);
                }
                throw new BadFormat();
            }
        }
    }

    private static LuaValue fixed(Cursor c, int n, boolean signed) {
        c.need(1 + n);
        long v = c.be(1, n);
        if (signed) {
            v = (v << (64 - 8 * n)) >> (64 - 8 * n);
        }
        c.p += 1 + n;
        return LuaValue.valueOf((double) v);
    }

    private static LuaValue str(Cursor c, int header, long len) {
        c.need(header + len);
        int from = c.p + header;
        c.p = from + (int) len;
        return c.s.substring(from, c.p);
    }

    private static LuaTable array(Cursor c, long len, int depth) {
        if (depth >= MAX_DECODE_DEPTH) {
            throw new BadFormat();
        }
        LuaTable t = new LuaTable();
        for (long i = 1; i <= len; i++) {
            t.set((int) i, decode(c, depth + 1));
        }
        return t;
    }

    private static LuaTable map(Cursor c, long len, int depth) {
        if (depth >= MAX_DECODE_DEPTH) {
            throw new BadFormat();
        }
        LuaTable t = new LuaTable();
        for (long i = 0; i < len; i++) {
            LuaValue k = decode(c, depth + 1);
            LuaValue v = decode(c, depth + 1);
            if (k.isnil() || (k.type() == LuaValue.TNUMBER && Double.isNaN(k.todouble()))) {
                // Lua's lua_settable raises it from the C function: no position
                throw new LuaError(LuaReplyBuilder.errorTable("ERR table index is " + (k.isnil() ? "nil" : "NaN")));
            }
            t.set(k, v);
        }
        return t;
    }
}
