package io.kevy.script;

import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * The {@code bit} library Redis embeds (LuaBitOp 1.0): {@code tobit, tohex, bnot, band, bor, bxor, lshift,
 * rshift, arshift, rol, ror, bswap}, on 32-bit integers with signed results, arguments normalized as
 * LuaBitOp does (modulo 2^32). Stateless; thread-safe.
 */
final class BitLib {
    private BitLib() {
    }

    private interface Op {
        int apply(Varargs a);
    }

    /** A bad argument; the library function's wrapper names the function in the message, as Lua does. */
    private static final class BadArgument extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int index;
        final String got;

        BadArgument(int index, String got) {
            super(null, null, false, false);
            this.index = index;
            this.got = got;
        }

        LuaError named(String fn) {
            return new LuaError("bad argument #" + index + " to '" + fn + "' (number expected, got " + got + ")");
        }
    }

    static LuaTable create() {
        LuaTable t = new LuaTable();
        fn(t, "tobit", a -> bit(a, 1));
        fn(t, "bnot", a -> ~bit(a, 1));
        fn(t, "band", a -> fold(a, 0xFFFFFFFF, (x, y) -> x & y));
        fn(t, "bor", a -> fold(a, 0, (x, y) -> x | y));
        fn(t, "bxor", a -> fold(a, 0, (x, y) -> x ^ y));
        fn(t, "lshift", a -> bit(a, 1) << (bit(a, 2) & 31));
        fn(t, "rshift", a -> bit(a, 1) >>> (bit(a, 2) & 31));
        fn(t, "arshift", a -> bit(a, 1) >> (bit(a, 2) & 31));
        fn(t, "rol", a -> Integer.rotateLeft(bit(a, 1), bit(a, 2) & 31));
        fn(t, "ror", a -> Integer.rotateRight(bit(a, 1), bit(a, 2) & 31));
        fn(t, "bswap", a -> Integer.reverseBytes(bit(a, 1)));
        t.set("tohex", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs a) {
                try {
                    return tohex(a);
                } catch (BadArgument e) {
                    throw e.named("tohex");
                }
            }
        });
        return t;
    }

    private static LuaValue tohex(Varargs a) {
        {
            {
                int x = bit(a, 1);
                int n = a.isnoneornil(2) ? 8 : bit(a, 2);
                boolean upper = n < 0;
                if (upper) {
                    n = -n;
                }
                if (n > 8) {
                    n = 8;
                }
                String hex = String.format("%08x", x);
                hex = hex.substring(8 - n);
                return LuaValue.valueOf(upper ? hex.toUpperCase(java.util.Locale.ROOT) : hex);
            }
        }
    }

    private static void fn(LuaTable t, String fnName, Op op) {
        t.set(fnName, new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs a) {
                try {
                    return LuaValue.valueOf(op.apply(a));
                } catch (BadArgument e) {
                    throw e.named(fnName);
                }
            }
        });
    }

    private static int fold(Varargs a, int init, java.util.function.IntBinaryOperator f) {
        int acc = bit(a, 1);
        for (int i = 2; i <= a.narg(); i++) {
            acc = f.applyAsInt(acc, bit(a, i));
        }
        return a.narg() == 0 ? init : acc;
    }

    /** Argument {@code i} normalized to 32 bits as LuaBitOp's {@code barg}: the number modulo 2^32. */
    private static int bit(Varargs a, int i) {
        LuaValue v = a.arg(i);
        if (!v.isnumber()) {
            throw new BadArgument(i, i > a.narg() ? "no value" : v.typename());
        }
        double d = v.todouble();
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return 0;
        }
        // LuaBitOp adds 2^52+2^51 and takes the low word: modulo 2^32, rounding to nearest
        return (int) (long) Math.rint(d % 4294967296.0);
    }
}
