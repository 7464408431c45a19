package io.kevy.script;

import java.io.ByteArrayOutputStream;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * The {@code struct} library Redis embeds (Roberto Ierusalimschy's struct 0.2, Redis's {@code lua_struct.c}):
 * {@code struct.pack(fmt, ...)}, {@code struct.unpack(fmt, data [, pos])} (the values, then the position after
 * them) and {@code struct.size(fmt)}, with the sizes of Redis's x86-64 build.
 *
 * <p>Format: {@code >} big endian, {@code <} little endian (the default, native), {@code ![n]} maximum alignment
 * (a power of 2; default 8, the initial one 1), {@code x} a zero byte, {@code b/B} signed/unsigned byte,
 * {@code h/H} 2 bytes, {@code l/L} and {@code T} 8 bytes, {@code i/I[n]} n bytes (default 4, at most 32),
 * {@code f} float, {@code d} double, {@code s} zero-terminated string, {@code c[n]} n chars (pack: {@code c0} the
 * whole string; unpack: {@code c0} the length read just before), space ignored. Integers go through a Lua
 * number (a double) and 64 bits, as in C; bytes above the 8th are zero on pack.
 *
 * <p>Errors, with Lua's wording: {@code bad argument #1 to 'pack' (invalid format option 'z')},
 * {@code integral size 33 is larger than limit of 32}, {@code alignment 3 is not a power of 2},
 * {@code bad argument #2 to 'unpack' (data string too short)}, {@code unfinished string in data},
 * {@code format 'c0' needs a previous size}, {@code integral size overflow}. Alignment 0, which Redis's C code
 * takes for a power of 2 and then pads without end, is refused the same way as 3. Stateless; thread-safe.
 */
final class StructLib {
    private static final int MAXINTSIZE = 32;
    private static final int MAXALIGN = 8;

    private StructLib() {
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
                return unpack(a);
            }
        });
        t.set("size", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs a) {
                return size(a);
            }
        });
        return t;
    }

    /** The header of a format: endianness and maximum alignment ({@code defaultoptions}). */
    private static final class Header {
        boolean little = true;
        int align = 1;
    }

    /** A format being read: its bytes and the position of the next option. */
    private static final class Format {
        final LuaString s;
        int i;

        Format(LuaString s) {
            this.s = s;
        }

        boolean more() {
            return i < s.m_length;
        }

        int next() {
            return s.luaByte(i++);
        }

        /** {@code getnum}: the decimal number at the position, or {@code df} when none. */
        int number(int df) {
            if (!more() || !Character.isDigit(s.luaByte(i))) {
                return df;
            }
            int a = 0;
            do {
                int d = s.luaByte(i) - '0';
                if (a > Integer.MAX_VALUE / 10 || a * 10 > Integer.MAX_VALUE - d) {
                    throw new LuaError("integral size overflow");
                }
                a = a * 10 + d;
                i++;
            } while (more() && Character.isDigit(s.luaByte(i)));
            return a;
        }
    }

    /** {@code optsize}: the size of option {@code opt} (0 for options without one). */
    private static int optsize(int opt, Format f) {
        switch (opt) {
            case 'B', 'b', 'x':
                return 1;
            case 'H', 'h':
                return 2;
            case 'L', 'l', 'T', 'd':
                return 8;
            case 'f':
                return 4;
            case 'c':
                return f.number(1);
            case 'i', 'I': {
                int sz = f.number(4);
                if (sz > MAXINTSIZE) {
                    throw new LuaError("integral size " + sz + " is larger than limit of " + MAXINTSIZE);
                }
                return sz;
            }
            default:
                return 0;
        }
    }

    /** {@code gettoalign}: the padding before an item of {@code size} at {@code len}. */
    private static int toAlign(long len, Header h, int opt, int size) {
        if (size == 0 || opt == 'c') {
            return 0;
        }
        if (size > h.align) {
            size = h.align;
        }
        return (int) ((size - (len & (size - 1))) & (size - 1));
    }

    /** {@code controloptions}: endianness, alignment, space; anything else is an invalid option. */
    private static void control(int opt, Format f, Header h, String fn) {
        switch (opt) {
            case ' ' -> {
            }
            case '>' -> h.little = false;
            case '<' -> h.little = true;
            case '!' -> {
                int a = f.number(MAXALIGN);
                if (a <= 0 || (a & (a - 1)) != 0) {
                    throw new LuaError("alignment " + a + " is not a power of 2");
                }
                h.align = a;
            }
            default -> throw argError(1, fn, "invalid format option '" + (char) opt + "'");
        }
    }

    private static LuaError argError(int arg, String fn, String msg) {
        return new LuaError("bad argument #" + arg + " to '" + fn + "' (" + msg + ")");
    }

    private static String typeName(Varargs a, int i) {
        return i > a.narg() ? "no value" : a.arg(i).typename();
    }

    /** {@code luaL_checknumber}: a number or a string that converts to one. */
    private static double number(Varargs a, int i, String fn) {
        LuaValue v = a.arg(i);
        if (i <= a.narg() && v.isnumber()) {
            return v.todouble();
        }
        // pack pushes a nil after its arguments (lua_struct.c): a missing one is "nil" there
        throw argError(i, fn, "number expected, got " + (fn.equals("pack") ? v.typename() : typeName(a, i)));
    }

    /** {@code luaL_checklstring}: a string, or a number as its string. */
    private static LuaString string(Varargs a, int i, String fn) {
        LuaValue v = a.arg(i);
        if (i <= a.narg() && (v.type() == LuaValue.TSTRING || v.type() == LuaValue.TNUMBER)) {
            return v.type() == LuaValue.TSTRING ? v.checkstring()
                    : LuaValue.valueOf(LuaNumbers.format(v.todouble()));
        }
        throw argError(i, fn, "string expected, got " + (fn.equals("pack") && i > 1 ? v.typename()
                : typeName(a, i)));
    }

    /** C's conversion of a Lua number to the 64-bit unsigned value {@code putinteger} writes. */
    private static long toBits(double n) {
        if (n < 0) {
            return (long) n;
        }
        if (n >= 0x1p63) {
            return (long) (n - 0x1p63) ^ Long.MIN_VALUE;
        }
        return (long) n;
    }

    private static void putBytes(ByteArrayOutputStream out, long value, int size, boolean little) {
        byte[] b = new byte[size];
        for (int k = 0; k < size; k++) {
            b[little ? k : size - 1 - k] = (byte) (k < 8 ? value >>> (8 * k) : 0);
        }
        out.write(b, 0, size);
    }

    private static Varargs pack(Varargs a) {
        Format f = new Format(string(a, 1, "pack"));
        Header h = new Header();
        int arg = 2;
        long total = 0;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (f.more()) {
            int opt = f.next();
            int size = optsize(opt, f);
            int pad = toAlign(total, h, opt, size);
            total += pad;
            for (int k = 0; k < pad; k++) {
                out.write(0);
            }
            switch (opt) {
                case 'b', 'B', 'h', 'H', 'l', 'L', 'T', 'i', 'I' ->
                        putBytes(out, toBits(number(a, arg++, "pack")), size, h.little);
                case 'x' -> out.write(0);
                case 'f' -> putBytes(out, floatBits((float) number(a, arg++, "pack")), 4, h.little);
                case 'd' -> putBytes(out, doubleBits(number(a, arg++, "pack")), 8, h.little);
                case 'c', 's' -> {
                    LuaString s = string(a, arg++, "pack");
                    if (size == 0) {
                        size = s.m_length;
                    }
                    if (s.m_length < size) {
                        throw argError(arg, "pack", "string too short");
                    }
                    out.write(s.m_bytes, s.m_offset, size);
                    if (opt == 's') {
                        out.write(0);
                        size++;
                    }
                }
                default -> control(opt, f, h, "pack");
            }
            total += size;
        }
        return LuaString.valueUsing(out.toByteArray());
    }

    /** The bits of {@code d} as x86 holds them: Java's NaN is written as x86's default NaN (sign bit set). */
    static long doubleBits(double d) {
        return Double.isNaN(d) ? 0xFFF8000000000000L : Double.doubleToRawLongBits(d);
    }

    /** As {@link #doubleBits}, for a float. */
    static long floatBits(float f) {
        return Float.isNaN(f) ? 0xFFC00000L : Float.floatToRawIntBits(f) & 0xFFFFFFFFL;
    }

    /** {@code getinteger}: {@code size} bytes at {@code pos} as a Lua number. */
    private static double getInteger(LuaString d, int pos, boolean little, boolean signed, int size) {
        long l = 0;
        for (int k = 0; k < size; k++) {
            int idx = little ? pos + size - 1 - k : pos + k;
            l = (l << 8) | d.luaByte(idx);
        }
        if (!signed) {
            return l >= 0 ? (double) l : new java.math.BigDecimal(Long.toUnsignedString(l)).doubleValue();
        }
        long mask = -1L << (size * 8 - 1); // Java shifts modulo 64, as x86 does in the C code for large sizes
        if ((l & mask) != 0) {
            l |= mask;
        }
        return (double) l;
    }

    private static Varargs unpack(Varargs a) {
        Format f = new Format(string(a, 1, "unpack"));
        LuaString data = string(a, 2, "unpack");
        int ld = data.m_length;
        long offset = a.narg() >= 3 && !a.arg(3).isnil() ? (long) number(a, 3, "unpack") : 1;
        if (offset == 0) { // Redis checks it as a size_t: a negative offset is "too short" below
            throw argError(3, "unpack", "offset must be 1 or greater");
        }
        long pos = offset < 0 ? Long.MAX_VALUE / 2 : offset - 1;
        Header h = new Header();
        java.util.List<LuaValue> results = new java.util.ArrayList<>();
        while (f.more()) {
            int opt = f.next();
            int size = optsize(opt, f);
            pos += toAlign(pos, h, opt, size);
            if (pos + size > ld) {
                throw argError(2, "unpack", "data string too short");
            }
            LuaString window = data.substring((int) pos, ld);
            switch (opt) {
                case 'b', 'B', 'h', 'H', 'l', 'L', 'T', 'i', 'I' -> results.add(LuaValue.valueOf(
                        getInteger(window, 0, h.little, Character.isLowerCase(opt), size)));
                case 'x' -> {
                }
                case 'f' -> results.add(LuaValue.valueOf(
                        (double) Float.intBitsToFloat((int) (long) getInteger(window, 0, h.little, false, 4))));
                case 'd' -> results.add(LuaValue.valueOf(Double.longBitsToDouble(bits(window, h.little))));
                case 'c' -> {
                    if (size == 0) {
                        if (results.isEmpty() || !results.get(results.size() - 1).isnumber()) {
                            throw new LuaError("format 'c0' needs a previous size");
                        }
                        double n = results.remove(results.size() - 1).todouble();
                        if (n < 0 || n > ld || pos > ld - (long) n) {
                            throw argError(2, "unpack", "data string too short");
                        }
                        size = (int) n;
                    }
                    results.add(data.substring((int) pos, (int) pos + size));
                }
                case 's' -> {
                    int e = -1;
                    for (int k = (int) pos; k < ld; k++) {
                        if (data.luaByte(k) == 0) {
                            e = k;
                            break;
                        }
                    }
                    if (e < 0) {
                        throw new LuaError("unfinished string in data");
                    }
                    size = e - (int) pos + 1;
                    results.add(data.substring((int) pos, e));
                }
                default -> control(opt, f, h, "unpack");
            }
            pos += size;
        }
        results.add(LuaValue.valueOf(pos + 1));
        return LuaValue.varargsOf(results.toArray(new LuaValue[0]));
    }

    private static long bits(LuaString d, boolean little) {
        long l = 0;
        for (int k = 0; k < 8; k++) {
            l = (l << 8) | d.luaByte(little ? 7 - k : k);
        }
        return l;
    }

    private static Varargs size(Varargs a) {
        Format f = new Format(string(a, 1, "size"));
        Header h = new Header();
        long pos = 0;
        while (f.more()) {
            int opt = f.next();
            int size = optsize(opt, f);
            pos += toAlign(pos, h, opt, size);
            if (opt == 's') {
                throw argError(1, "size", "option 's' has no fixed size");
            } else if (opt == 'c' && size == 0) {
                throw argError(1, "size", "option 'c0' has no fixed size");
            }
            if (!Character.isLetterOrDigit(opt)) {
                control(opt, f, h, "size");
            }
            pos += size;
        }
        return LuaValue.valueOf(pos);
    }
}
