package io.kevy.script;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaUserdata;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * The {@code cjson} library Redis embeds (lua-cjson 2.1 with Redis's defaults): {@code cjson.encode},
 * {@code cjson.decode} and {@code cjson.null}, with its output and error texts.
 *
 * <p><b>encode</b>: numbers as {@code %.14g} (NaN and infinities refused), strings with {@code " \ /} and
 * control characters escaped ({@code \b \f \n \r \t}, others and DEL as <code>&#92;u00XX</code>; bytes from 0x80 as
 * they are), a table is an array when every key is a positive integer and it is not excessively sparse (more
 * than 10 and over twice its element count: refused), missing elements {@code null}; an empty table is
 * {@code {}}; objects' keys are strings or numbers (in the table's iteration order, as lua-cjson); nesting
 * deeper than 1000 is refused. <b>decode</b>: a tokenizer and parser with lua-cjson's messages
 * ({@code Expected value but found T_END at character 1}); {@code null} is {@code cjson.null}.
 *
 * <p>Stateless (apart from the {@code null} sentinel); thread-safe.
 */
final class CjsonLib {
    static final int MAX_DEPTH = 1000;
    /** lua-cjson's {@code null}: a light userdata equal only to itself (a reply of it is a null bulk). */
    static final LuaValue NULL = new LuaUserdata(new Object());

    private CjsonLib() {
    }

    static LuaTable create() {
        LuaTable t = new LuaTable();
        t.set("encode", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs a) {
                if (a.narg() != 1) {
                    throw new LuaError("bad argument #1 to 'encode' (expected 1 argument)");
                }
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                encode(a.arg1(), out, 0);
                return LuaString.valueUsing(out.toByteArray());
            }
        });
        t.set("decode", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs a) {
                if (a.narg() != 1) {
                    throw new LuaError("bad argument #1 to 'decode' (expected 1 argument)");
                }
                LuaString s = a.arg1().checkstring();
                byte[] b = new byte[s.m_length];
                System.arraycopy(s.m_bytes, s.m_offset, b, 0, b.length);
                return new Decoder(b).document();
            }
        });
        t.set("null", NULL);
        return t;
    }

    // ---- encode ----

    private static void encode(LuaValue v, ByteArrayOutputStream out, int depth) {
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

    private static String number(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new LuaError("Cannot serialise number: must not be NaN or Inf");
        }
        return LuaFormat.general(".14", 'g', d);
    }

    private static void table(LuaTable t, ByteArrayOutputStream out, int depth) {
        if (depth > MAX_DEPTH) {
            throw new LuaError("Cannot serialise, excessive nesting (" + depth + ")");
        }
        int length = arrayLength(t);
        if (length > 0) {
            out.write('[');
            for (int i = 1; i <= length; i++) {
                if (i > 1) {
                    out.write(',');
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

    /** lua-cjson's {@code lua_array_length}: the array size, or -1 for an object (0 for an empty table). */
    private static int arrayLength(LuaTable t) {
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
        if (max > 10 && max > items * 2.0) {
            throw new LuaError("Cannot serialise table: excessively sparse array");
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

    // ---- decode ----

    /** lua-cjson's tokenizer and parser over one document, with its error texts. */
    private static final class Decoder {
        private final byte[] b;
        private int p;
        private int depth;
        /** The current token: its type name, start, and value. */
        private String type;
        private String error;
        private int index;
        private LuaValue value;

        Decoder(byte[] b) {
            this.b = b;
        }

        LuaValue document() {
            next();
            LuaValue v = value("value");
            next();
            if (!type.equals("T_END")) {
                fail("the end");
            }
            return v;
        }

        private LuaValue value(String expected) {
            switch (type) {
                case "T_STRING", "T_NUMBER", "T_BOOLEAN" -> {
                    return value;
                }
                case "T_NULL" -> {
                    return NULL;
                }
                case "T_OBJ_BEGIN" -> {
                    return object();
                }
                case "T_ARR_BEGIN" -> {
                    return array();
                }
                default -> throw fail(expected);
            }
        }

        private void nest() {
            if (++depth > MAX_DEPTH) {
                throw new LuaError("Found too many nested data structures (" + depth + ") at character "
                        + (index + 1));
            }
        }

        private LuaValue object() {
            nest();
            LuaTable t = new LuaTable();
            next();
            if (type.equals("T_OBJ_END")) {
                depth--;
                return t;
            }
            while (true) {
                if (!type.equals("T_STRING")) {
                    throw fail("object key string");
                }
                LuaValue key = value;
                next();
                if (!type.equals("T_COLON")) {
                    throw fail("colon");
                }
                next();
                t.rawset(key, value("value"));
                next();
                if (type.equals("T_OBJ_END")) {
                    depth--;
                    return t;
                }
                if (!type.equals("T_COMMA")) {
                    throw fail("comma or object end");
                }
                next();
            }
        }

        private LuaValue array() {
            nest();
            LuaTable t = new LuaTable();
            next();
            if (type.equals("T_ARR_END")) {
                depth--;
                return t;
            }
            for (int i = 1; ; i++) {
                t.rawset(i, value("value"));
                next();
                if (type.equals("T_ARR_END")) {
                    depth--;
                    return t;
                }
                if (!type.equals("T_COMMA")) {
                    throw fail("comma or array end");
                }
                next();
            }
        }

        private LuaError fail(String expected) {
            String found = type.equals("T_ERROR") ? error : type;
            throw new LuaError("Expected " + expected + " but found " + found + " at character " + (index + 1));
        }

        private void next() {
            while (p < b.length && (b[p] == ' ' || b[p] == '\t' || b[p] == '\n' || b[p] == '\r')) {
                p++;
            }
            index = p;
            if (p >= b.length) {
                type = "T_END";
                return;
            }
            byte c = b[p];
            switch (c) {
                case '{' -> single("T_OBJ_BEGIN");
                case '}' -> single("T_OBJ_END");
                case '[' -> single("T_ARR_BEGIN");
                case ']' -> single("T_ARR_END");
                case ':' -> single("T_COLON");
                case ',' -> single("T_COMMA");
                case '"' -> string();
                default -> {
                    if (c == '-' || (c >= '0' && c <= '9')) {
                        number();
                    } else if (word("true")) {
                        type = "T_BOOLEAN";
                        value = LuaValue.TRUE;
                    } else if (word("false")) {
                        type = "T_BOOLEAN";
                        value = LuaValue.FALSE;
                    } else if (word("null")) {
                        type = "T_NULL";
                    } else {
                        error("invalid token");
                    }
                }
            }
        }

        private void single(String t) {
            type = t;
            p++;
        }

        private void error(String message) {
            type = "T_ERROR";
            error = message;
        }

        private boolean word(String w) {
            byte[] wb = w.getBytes(StandardCharsets.US_ASCII);
            if (p + wb.length > b.length) {
                return false;
            }
            for (int i = 0; i < wb.length; i++) {
                if (b[p + i] != wb[i]) {
                    return false;
                }
            }
            p += wb.length;
            return true;
        }

        private void number() {
            int start = p;
            while (p < b.length && "+-0123456789.eE".indexOf(b[p]) >= 0) {
                p++;
            }
            String n = new String(b, start, p - start, StandardCharsets.US_ASCII);
            try {
                // strtod, as lua-cjson: leading zeros are accepted
                value = LuaValue.valueOf(Double.parseDouble(n));
                type = "T_NUMBER";
            } catch (NumberFormatException e) {
                error("invalid number");
            }
        }

        private void string() {
            p++;
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            while (true) {
                if (p >= b.length) {
                    index = p; // lua-cjson reports where the string ran out
                    error("unexpected end of string");
                    return;
                }
                int c = b[p] & 0xFF;
                if (c == '"') {
                    p++;
                    break;
                }
                if (c != '\\') {
                    out.write(c);
                    p++;
                    continue;
                }
                if (p + 1 >= b.length) {
                    index = p + 1;
                    error("unexpected end of string");
                    return;
                }
                byte e = b[p + 1];
                p += 2;
                switch (e) {
                    case '"', '\\', '/' -> out.write(e);
                    case 'b' -> out.write('\b');
                    case 'f' -> out.write('\f');
                    case 'n' -> out.write('\n');
                    case 'r' -> out.write('\r');
                    case 't' -> out.write('\t');
                    case 'u' -> {
                        int cp = hex4();
                        if (cp < 0) {
                            error("invalid unicode escape code");
                            return;
                        }
                        if (cp >= 0xD800 && cp <= 0xDBFF && p + 1 < b.length && b[p] == '\\' && b[p + 1] == 'u') {
                            p += 2;
                            int lo = hex4();
                            if (lo < 0xDC00 || lo > 0xDFFF) {
                                error("invalid unicode escape code");
                                return;
                            }
                            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                        }
                        byte[] u = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
                        out.write(u, 0, u.length);
                    }
                    default -> {
                        error("invalid escape code");
                        return;
                    }
                }
            }
            type = "T_STRING";
            value = LuaString.valueUsing(out.toByteArray());
        }

        private int hex4() {
            if (p + 4 > b.length) {
                return -1;
            }
            try {
                int v = Integer.parseInt(new String(b, p, 4, StandardCharsets.US_ASCII), 16);
                p += 4;
                return v;
            } catch (NumberFormatException e) {
                return -1;
            }
        }
    }
}
