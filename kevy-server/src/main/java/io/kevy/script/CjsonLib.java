package io.kevy.script;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.LongConsumer;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaUserdata;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * The {@code cjson} library Redis 7.0 embeds (lua-cjson 2.1.0, Redis's {@code deps/lua/src/lua_cjson.c}):
 * {@code encode}, {@code decode}, {@code null}, {@code _NAME}, {@code _VERSION}, the settings functions and
 * {@code new}, with its output and error texts.
 *
 * <p><b>Settings</b> live in one {@link Config} per module table, so they last from one script to the next on the
 * same Lua state, as in Redis (SCRIPT FLUSH resets EVAL's: Redis makes a new Lua state); {@code cjson.new()}
 * returns a module table with settings of its own, at the defaults. Each settings function sets what it is given
 * (nil leaves a setting alone) and returns the settings it covers: {@code encode_max_depth} and
 * {@code decode_max_depth} (1 to 2^31-1, default 1000), {@code encode_number_precision} (1 to 14, default 14),
 * {@code encode_sparse_array(convert, ratio, safe)} (default false, 2, 10), {@code encode_keep_buffer} (default
 * on; it changes only memory reuse in C, nothing here), {@code encode_invalid_numbers} (off, on or
 * {@code "null"}; default off) and {@code decode_invalid_numbers} (default on). Their argument errors are
 * lua-cjson's, including its range error always naming argument #1.
 *
 * <p><b>encode</b>: numbers as {@code %.<precision>g} (NaN and infinities refused, or written {@code nan},
 * {@code inf}, {@code -inf}, or {@code null}), strings with {@code " \ /} and control characters escaped
 * ({@code \b \f \n \r \t}, others and DEL as <code>&#92;u00XX</code>; bytes from 0x80 as they are), a table is an
 * array when every key is a positive integer and it is not excessively sparse (by the sparse settings: refused,
 * or written as an object when {@code convert} is on), missing elements {@code null}; an empty table is
 * {@code {}}; objects' keys are strings or numbers (in the table's iteration order, as lua-cjson); nesting deeper
 * than {@code encode_max_depth} is refused. <b>decode</b>: {@link CjsonDecoder}.
 *
 * <p>Not thread-safe: a module table belongs to one Lua state (the runner's lock).
 */
final class CjsonLib {
    static final int DEFAULT_MAX_DEPTH = 1000;
    /** lua-cjson's {@code null}: a light userdata equal only to itself (a reply of it is a null bulk). */
    static final LuaValue NULL = new LuaUserdata(new Object());
    private static final String[] ON_OFF = {"off", "on"};
    private static final String[] INVALID_NUMBERS = {"off", "on", "null"};
    /** How many array elements are written between two memory checks. */
    private static final int CHECK_EVERY = 1 << 16;

    /** One module table's settings ({@code json_config_t}), at lua-cjson's defaults. */
    static final class Config {
        int sparseConvert;
        int sparseRatio = 2;
        int sparseSafe = 10;
        int encodeMaxDepth = DEFAULT_MAX_DEPTH;
        int decodeMaxDepth = DEFAULT_MAX_DEPTH;
        /** 0 refuse, 1 write as {@code %g} ({@code nan}), 2 write {@code null}. */
        int encodeInvalidNumbers;
        int decodeInvalidNumbers = 1;
        int keepBuffer = 1;
        int precision = 14;

        /** Back to the defaults (SCRIPT FLUSH). */
        void reset() {
            Config d = new Config();
            sparseConvert = d.sparseConvert;
            sparseRatio = d.sparseRatio;
            sparseSafe = d.sparseSafe;
            encodeMaxDepth = d.encodeMaxDepth;
            decodeMaxDepth = d.decodeMaxDepth;
            encodeInvalidNumbers = d.encodeInvalidNumbers;
            decodeInvalidNumbers = d.decodeInvalidNumbers;
            keepBuffer = d.keepBuffer;
            precision = d.precision;
        }
    }

    private final Config cfg;
    /** Asked before the output of {@code encode} grows by a large array: {@link ScriptHook#reserve}. */
    private final LongConsumer reserve;

    private CjsonLib(Config cfg, LongConsumer reserve) {
        this.cfg = cfg;
        this.reserve = reserve;
    }

    /**
     * A module table with its own settings, {@code cfg}; {@code reserve} is asked before {@code encode}'s output
     * grows (the memory cap: with sparse arrays allowed, a small table can encode to gigabytes).
     */
    static LuaTable create(Config cfg, LongConsumer reserve) {
        CjsonLib lib = new CjsonLib(cfg, reserve);
        LuaTable t = new LuaTable();
        t.set("encode", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs a) {
                if (a.narg() != 1) {
                    throw badArgument(1, "encode", "expected 1 argument");
                }
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                lib.encode(a.arg1(), out, 0);
                return LuaString.valueUsing(out.toByteArray());
            }
        });
        t.set("decode", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs a) {
                if (a.narg() != 1) {
                    throw badArgument(1, "decode", "expected 1 argument");
                }
                LuaString s = a.arg1().checkstring();
                byte[] b = new byte[s.m_length];
                System.arraycopy(s.m_bytes, s.m_offset, b, 0, b.length);
                return new CjsonDecoder(b, cfg.decodeMaxDepth, cfg.decodeInvalidNumbers != 0).document();
            }
        });
        t.set("encode_sparse_array", setting("encode_sparse_array", 3, a -> LuaValue.varargsOf(new LuaValue[] {
            enumOption(a, 1, "encode_sparse_array", null, v -> cfg.sparseConvert = v, cfg.sparseConvert),
            integerOption(a, 2, "encode_sparse_array", 0, Integer.MAX_VALUE, v -> cfg.sparseRatio = v,
                    () -> cfg.sparseRatio),
            integerOption(a, 3, "encode_sparse_array", 0, Integer.MAX_VALUE, v -> cfg.sparseSafe = v,
                    () -> cfg.sparseSafe)})));
        t.set("encode_max_depth", setting("encode_max_depth", 1, a -> integerOption(a, 1, "encode_max_depth", 1,
                Integer.MAX_VALUE, v -> cfg.encodeMaxDepth = v, () -> cfg.encodeMaxDepth)));
        t.set("decode_max_depth", setting("decode_max_depth", 1, a -> integerOption(a, 1, "decode_max_depth", 1,
                Integer.MAX_VALUE, v -> cfg.decodeMaxDepth = v, () -> cfg.decodeMaxDepth)));
        t.set("encode_number_precision", setting("encode_number_precision", 1, a -> integerOption(a, 1,
                "encode_number_precision", 1, 14, v -> cfg.precision = v, () -> cfg.precision)));
        t.set("encode_keep_buffer", setting("encode_keep_buffer", 1, a -> enumOption(a, 1, "encode_keep_buffer",
                null, v -> cfg.keepBuffer = v, cfg.keepBuffer)));
        t.set("encode_invalid_numbers", setting("encode_invalid_numbers", 1, a -> enumOption(a, 1,
                "encode_invalid_numbers", INVALID_NUMBERS, v -> cfg.encodeInvalidNumbers = v,
                cfg.encodeInvalidNumbers)));
        t.set("decode_invalid_numbers", setting("decode_invalid_numbers", 1, a -> enumOption(a, 1,
                "decode_invalid_numbers", null, v -> cfg.decodeInvalidNumbers = v, cfg.decodeInvalidNumbers)));
        t.set("new", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs a) {
                return create(new Config(), reserve);
            }
        });
        t.set("null", NULL);
        t.set("_NAME", "cjson");
        t.set("_VERSION", "2.1.0");
        return t;
    }

    // ---- settings (json_arg_init, json_integer_option, json_enum_option) ----

    /** A settings function taking at most {@code args} arguments ({@code found too many arguments} past them). */
    private static VarArgFunction setting(String function, int args,
                                          java.util.function.Function<Varargs, Varargs> body) {
        return new VarArgFunction() { // (not "name": LibFunction has a field of that name)
            @Override
            public Varargs invoke(Varargs a) {
                if (a.narg() > args) {
                    throw badArgument(args + 1, function, "found too many arguments");
                }
                return body.apply(a);
            }
        };
    }

    /**
     * An integer setting at argument {@code i}: set when given (Lua's {@code luaL_checkinteger}, then the range,
     * whose error names argument #1 whichever it is, as lua-cjson); returns the setting.
     */
    private static LuaValue integerOption(Varargs a, int i, String name, int min, int max,
                                          java.util.function.IntConsumer set, java.util.function.IntSupplier get) {
        LuaValue v = a.arg(i);
        if (!v.isnil()) {
            LuaValue n = v.type() == LuaValue.TNUMBER ? v : v.type() == LuaValue.TSTRING ? v.tonumber() : LuaValue.NIL;
            if (n.isnil()) {
                throw badArgument(i, name, "number expected, got " + v.typename());
            }
            int value = cInt(n.todouble());
            if (value < min || value > max) {
                throw badArgument(1, name, "expected integer between " + min + " and " + max);
            }
            set.accept(value);
        }
        return LuaValue.valueOf(get.getAsInt());
    }

    /**
     * An option setting at argument {@code i} (lua-cjson's {@code json_enum_option} with {@code bool_true} 1): a
     * boolean or one of {@code options} (off/on when null) by name; returns the setting, as a boolean when it is
     * 0 or 1, else as its name.
     */
    private static LuaValue enumOption(Varargs a, int i, String name, String[] options,
                                       java.util.function.IntConsumer set, int current) {
        String[] names = options == null ? ON_OFF : options;
        int setting = current;
        LuaValue v = a.arg(i);
        if (!v.isnil()) {
            if (v.isboolean()) {
                setting = v.toboolean() ? 1 : 0;
            } else {
                String s = optionName(v, i, name);
                setting = -1;
                for (int k = 0; k < names.length; k++) {
                    if (names[k].equals(s)) {
                        setting = k;
                    }
                }
                if (setting < 0) {
                    throw badArgument(i, name, "invalid option '" + s + "'");
                }
            }
            set.accept(setting);
        }
        return setting <= 1 ? LuaValue.valueOf(setting == 1) : LuaValue.valueOf(names[setting]);
    }

    /** Lua's {@code luaL_checkstring} for an option: a string, or a number as Lua prints it. */
    private static String optionName(LuaValue v, int i, String name) {
        if (v.type() == LuaValue.TNUMBER) {
            return LuaSandbox.numberToString(v.todouble());
        }
        if (v.type() != LuaValue.TSTRING) {
            throw badArgument(i, name, "string expected, got " + v.typename());
        }
        return LuaReplies.latin1(v.checkstring());
    }

    /**
     * A Lua number as lua-cjson's {@code int} setting: truncated to a 64-bit integer as x86 does (NaN and numbers
     * out of range give the minimum), then its low 32 bits.
     */
    private static int cInt(double d) {
        long l = Double.isNaN(d) || d >= 0x1p63 || d < -0x1p63 ? Long.MIN_VALUE : (long) d;
        return (int) l;
    }

    private static LuaError badArgument(int i, String name, String why) {
        return new LuaError("bad argument #" + i + " to '" + name + "' (" + why + ")");
    }

    // ---- encode ----

    private void encode(LuaValue v, ByteArrayOutputStream out, int depth) {
        switch (v.type()) {
            case LuaValue.TNIL -> write(out, "null");
            case LuaValue.TBOOLEAN -> write(out, v.toboolean() ? "true" : "false");
            case LuaValue.TNUMBER -> write(out, number(v.todouble()));
            case LuaValue.TSTRING -> string(v.checkstring(), out);
            case LuaValue.TTABLE -> table((LuaTable) v, out, depth + 1);
            default -> {
                if (v == NULL) {
                    write(out, "null");
                } else {
                    throw new LuaError("Cannot serialise " + v.typename() + ": type not supported");
                }
            }
        }
    }

    private String number(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            switch (cfg.encodeInvalidNumbers) {
                case 0 -> throw new LuaError("Cannot serialise number: must not be NaN or Inf");
                case 1 -> {
                    return Double.isNaN(d) ? "nan" : d > 0 ? "inf" : "-inf";
                }
                default -> {
                    return "null";
                }
            }
        }
        return LuaFormat.floating("." + cfg.precision, 'g', d);
    }

    private void table(LuaTable t, ByteArrayOutputStream out, int depth) {
        if (depth > cfg.encodeMaxDepth) {
            throw new LuaError("Cannot serialise, excessive nesting (" + depth + ")");
        }
        int length = arrayLength(t);
        if (length > 0) {
            out.write('[');
            for (int i = 1; i <= length; i++) {
                if (i > 1) {
                    out.write(',');
                }
                if ((i & (CHECK_EVERY - 1)) == 0) {
                    reserve.accept(out.size()); // the buffer doubles as it grows
                }
                encode(t.rawget(i), out, depth);
            }
            out.write(']');
            return;
        }
        out.write('{');
        boolean first = true;
        LuaValue k = LuaValue.NIL;
        while (true) {
            Varargs n = t.next(k);
            k = n.arg1();
            if (k.isnil()) {
                break;
            }
            if (!first) {
                out.write(',');
            }
            first = false;
            if (k.type() == LuaValue.TSTRING) {
                string(k.checkstring(), out);
            } else if (k.type() == LuaValue.TNUMBER) {
                out.write('"');
                write(out, number(k.todouble()));
                out.write('"');
            } else {
                throw new LuaError("Cannot serialise table: table key must be a number or string");
            }
            out.write(':');
            encode(n.arg(2), out, depth);
        }
        out.write('}');
    }

    /**
     * lua-cjson's {@code lua_array_length}: the array size, or -1 for an object (0 for an empty table, written as
     * an object too); an excessively sparse array is refused or, with {@code convert} on, an object. Its
     * {@code items * ratio} is C's {@code int} product, wrapping as x86 does.
     */
    private int arrayLength(LuaTable t) {
        double max = 0;
        int items = 0;
        LuaValue k = LuaValue.NIL;
        while (true) {
            k = t.next(k).arg1();
            if (k.isnil()) {
                break;
            }
            if (k.type() != LuaValue.TNUMBER) {
                return -1;
            }
            double d = k.todouble();
            if (d != Math.floor(d) || d < 1) {
                return -1;
            }
            max = Math.max(max, d);
            items++;
        }
        if (cfg.sparseRatio > 0 && max > items * cfg.sparseRatio && max > cfg.sparseSafe) {
            if (cfg.sparseConvert == 0) {
                throw new LuaError("Cannot serialise table: excessively sparse array");
            }
            return -1;
        }
        return (int) max;
    }

    private static void string(LuaString s, ByteArrayOutputStream out) {
        out.write('"');
        for (int i = 0; i < s.m_length; i++) {
            int c = s.m_bytes[s.m_offset + i] & 0xFF;
            switch (c) {
                case '"' -> write(out, "\\\"");
                case '\\' -> write(out, "\\\\");
                case '/' -> write(out, "\\/");
                case '\b' -> write(out, "\\b");
                case '\f' -> write(out, "\\f");
                case '\n' -> write(out, "\\n");
                case '\r' -> write(out, "\\r");
                case '\t' -> write(out, "\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        write(out, String.format("\\u%04x", c));
                    } else {
                        out.write(c);
                    }
                }
            }
        }
        out.write('"');
    }

    private static void write(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
        out.write(b, 0, b.length);
    }
}
