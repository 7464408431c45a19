package io.kevy.script;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import org.luaj.vm2.LuaDouble;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;

/**
 * {@code cjson.decode} of one document: lua-cjson 2.1.0's tokenizer and parser ({@code json_next_token},
 * {@code json_process_value}) with its error texts ({@code Expected value but found T_END at character 1}).
 *
 * <p>The input is read as lua-cjson reads its C string: it ends at the first NUL byte (a NUL inside a string is
 * {@code unexpected end of string}), and input whose first or second byte is NUL is refused as UTF-16 or UTF-32.
 * Numbers are what C's {@code strtod} reads at that point (decimal, and with {@code decode_invalid_numbers} on,
 * the default, also hexadecimal, {@code +} signs, leading zeros, {@code inf}, {@code infinity} and {@code nan}
 * in any case); with it off those are {@code invalid number} (or {@code invalid token} for a letter or
 * {@code +}). {@code -0} decodes to Lua's negative zero. {@code null} is {@code cjson.null}.
 *
 * <p>Not thread-safe: one decode.
 */
final class CjsonDecoder {
    /**
     * Lua's {@code -0}: luaj's {@code LuaDouble.valueOf} turns every whole double into an integer, so -0.0 would
     * be 0 and {@code cjson.encode(cjson.decode('-0'))} would lose the sign Redis keeps; the private constructor
     * keeps it (0 when reflection is refused).
     */
    private static final LuaValue NEGATIVE_ZERO = negativeZero();

    private final byte[] b;
    /** Where the input ends: its length, or its first NUL. */
    private final int end;
    private final int maxDepth;
    private final boolean invalidNumbers;
    private int p;
    private int depth;
    /** The current token: its type name, start, and value. */
    private String type;
    private String error;
    private int index;
    private LuaValue value;

    CjsonDecoder(byte[] b, int maxDepth, boolean invalidNumbers) {
        this.b = b;
        int nul = 0;
        while (nul < b.length && b[nul] != 0) {
            nul++;
        }
        this.end = nul;
        this.maxDepth = maxDepth;
        this.invalidNumbers = invalidNumbers;
    }

    private static LuaValue negativeZero() {
        try {
            Constructor<LuaDouble> c = LuaDouble.class.getDeclaredConstructor(double.class);
            c.setAccessible(true);
            return c.newInstance(-0.0);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return LuaValue.valueOf(0);
        }
    }

    LuaValue document() {
        if (b.length >= 2 && (b[0] == 0 || b[1] == 0)) {
            throw new LuaError("JSON parser does not support UTF-16 or UTF-32");
        }
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
                return CjsonLib.NULL;
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
        if (++depth > maxDepth) {
            throw new LuaError("Found too many nested data structures (" + depth + ") at character " + p);
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

    /** The byte at {@code i}, or 0 at and past the end (C's terminator). */
    private int at(int i) {
        return i < end ? b[i] & 0xFF : 0;
    }

    private void next() {
        while (p < end && (b[p] == ' ' || b[p] == '\t' || b[p] == '\n' || b[p] == '\r')) {
            p++;
        }
        index = p;
        if (p >= end) {
            type = "T_END";
            return;
        }
        int c = at(p);
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
                    if (!invalidNumbers && invalidNumber()) {
                        error("invalid number");
                    } else {
                        number();
                    }
                } else if ("fiInNt+".indexOf(c) < 0) {
                    error("invalid token");
                } else if (word("true")) {
                    type = "T_BOOLEAN";
                    value = LuaValue.TRUE;
                } else if (word("false")) {
                    type = "T_BOOLEAN";
                    value = LuaValue.FALSE;
                } else if (word("null")) {
                    type = "T_NULL";
                } else if (invalidNumbers && invalidNumber()) {
                    number();
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

    /** A token error at {@code p} (lua-cjson's {@code json_set_token_error}). */
    private void error(String message) {
        type = "T_ERROR";
        error = message;
        index = p;
    }

    private boolean word(String w) {
        if (!startsWith(p, w, false)) {
            return false;
        }
        p += w.length();
        return true;
    }

    private boolean startsWith(int from, String w, boolean ignoreCase) {
        for (int i = 0; i < w.length(); i++) {
            int c = at(from + i);
            int e = w.charAt(i);
            if (c != e && !(ignoreCase && (c | 0x20) == e)) {
                return false;
            }
        }
        return true;
    }

    /**
     * lua-cjson's {@code json_is_invalid_number}: what strict JSON refuses but {@code strtod} may read (a leading
     * {@code +}, hexadecimal, leading zeros, infinities, NaN).
     */
    private boolean invalidNumber() {
        int q = p;
        if (at(q) == '+') {
            return true;
        }
        if (at(q) == '-') {
            q++;
        }
        if (at(q) == '0') {
            int c2 = at(q + 1);
            return (c2 | 0x20) == 'x' || (c2 >= '0' && c2 <= '9');
        }
        if (at(q) <= '9') {
            return false;
        }
        return startsWith(q, "inf", true) || startsWith(q, "nan", true);
    }

    /** A number token: what {@code strtod} reads from {@code p}, or {@code invalid number} when it reads nothing. */
    private void number() {
        int q = p;
        boolean negative = false;
        if (at(q) == '+' || at(q) == '-') {
            negative = at(q) == '-';
            q++;
        }
        double d;
        int stop;
        if (startsWith(q, "inf", true)) {
            stop = q + (startsWith(q, "infinity", true) ? 8 : 3);
            d = Double.POSITIVE_INFINITY;
        } else if (startsWith(q, "nan", true)) {
            stop = q + 3;
            if (at(stop) == '(') { // nan(n-char-sequence)
                int r = stop + 1;
                while (Character.isLetterOrDigit(at(r)) || at(r) == '_') {
                    r++;
                }
                if (at(r) == ')') {
                    stop = r + 1;
                }
            }
            d = Double.NaN;
        } else if (at(q) == '0' && (at(q + 1) | 0x20) == 'x' && hexMantissaAt(q + 2)) {
            stop = hexNumber(q + 2);
            d = parseHex(q + 2, stop);
        } else {
            stop = decimal(q);
            if (stop < 0) {
                error("invalid number");
                return;
            }
            d = Double.parseDouble(new String(b, q, stop - q, StandardCharsets.US_ASCII));
        }
        p = stop;
        type = "T_NUMBER";
        if (negative) {
            d = -d;
        }
        value = d == 0 && negative ? NEGATIVE_ZERO : LuaValue.valueOf(d);
    }

    /** The end of a decimal number at {@code q} ({@code digits[.digits][e[+-]digits]}), or -1 without digits. */
    private int decimal(int q) {
        int digits = 0;
        while (isDigit(at(q))) {
            q++;
            digits++;
        }
        if (at(q) == '.') {
            int r = q + 1;
            while (isDigit(at(r))) {
                r++;
                digits++;
            }
            if (digits > 0) {
                q = r;
            }
        }
        if (digits == 0) {
            return -1;
        }
        return exponentEnd(q, 'e');
    }

    private boolean hexMantissaAt(int q) {
        return isHex(at(q)) || (at(q) == '.' && isHex(at(q + 1)));
    }

    /** The end of a hexadecimal number's digits at {@code q} (after {@code 0x}): {@code h[.h][p[+-]digits]}. */
    private int hexNumber(int q) {
        while (isHex(at(q))) {
            q++;
        }
        if (at(q) == '.') {
            q++;
            while (isHex(at(q))) {
                q++;
            }
        }
        return exponentEnd(q, 'p');
    }

    /**
     * The end of an exponent {@code marker[+-]digits} at {@code q} (either case of the marker: e for decimal, p for
     * hexadecimal numbers), or {@code q} when there is none or it has no digits.
     */
    private int exponentEnd(int q, char marker) {
        if ((at(q) | 0x20) != marker) {
            return q;
        }
        int r = q + 1;
        if (at(r) == '+' || at(r) == '-') {
            r++;
        }
        if (!isDigit(at(r))) {
            return q;
        }
        while (isDigit(at(r))) {
            r++;
        }
        return r;
    }

    /** Java reads hexadecimal floats only with a binary exponent: one is added when the text has none. */
    private double parseHex(int from, int to) {
        String s = new String(b, from, to - from, StandardCharsets.US_ASCII);
        if (s.indexOf('p') < 0 && s.indexOf('P') < 0) {
            s += "p0";
        }
        return Double.parseDouble("0x" + s);
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isHex(int c) {
        return isDigit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
    }

    private void string() {
        p++;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (true) {
            int c = at(p);
            if (c == '"') {
                p++;
                break;
            }
            if (c == 0) {
                error("unexpected end of string");
                return;
            }
            if (c != '\\') {
                out.write(c);
                p++;
                continue;
            }
            int e = at(p + 1);
            switch (e) {
                case '"', '\\', '/' -> out.write(e);
                case 'b' -> out.write('\b');
                case 'f' -> out.write('\f');
                case 'n' -> out.write('\n');
                case 'r' -> out.write('\r');
                case 't' -> out.write('\t');
                case 'u' -> {
                    if (!unicodeEscape(out)) {
                        error("invalid unicode escape code");
                        return;
                    }
                    continue; // unicodeEscape moved p past the escape
                }
                default -> {
                    error("invalid escape code");
                    return;
                }
            }
            p += 2;
        }
        type = "T_STRING";
        value = LuaString.valueUsing(out.toByteArray());
    }

    /**
     * lua-cjson's {@code json_append_unicode_escape} at {@code p} (a backslash): a UTF-16 code unit, or a high then
     * a low surrogate, as UTF-8; false, {@code p} unmoved, for anything else (a lone or reversed surrogate too).
     */
    private boolean unicodeEscape(ByteArrayOutputStream out) {
        int cp = hex4(p + 2);
        if (cp < 0) {
            return false;
        }
        int length = 6;
        if ((cp & 0xF800) == 0xD800) {
            if ((cp & 0x400) != 0 || at(p + 6) != '\\' || at(p + 7) != 'u') {
                return false;
            }
            int low = hex4(p + 8);
            if (low < 0 || (low & 0xFC00) != 0xDC00) {
                return false;
            }
            cp = (((cp & 0x3FF) << 10) | (low & 0x3FF)) + 0x10000;
            length = 12;
        }
        if (cp <= 0x7F) {
            out.write(cp);
        } else if (cp <= 0x7FF) {
            out.write((cp >> 6) | 0xC0);
            out.write((cp & 0x3F) | 0x80);
        } else if (cp <= 0xFFFF) {
            out.write((cp >> 12) | 0xE0);
            out.write(((cp >> 6) & 0x3F) | 0x80);
            out.write((cp & 0x3F) | 0x80);
        } else {
            out.write((cp >> 18) | 0xF0);
            out.write(((cp >> 12) & 0x3F) | 0x80);
            out.write(((cp >> 6) & 0x3F) | 0x80);
            out.write((cp & 0x3F) | 0x80);
        }
        p += length;
        return true;
    }

    /** Four hexadecimal digits at {@code q} as a number, or -1. */
    private int hex4(int q) {
        int v = 0;
        for (int i = 0; i < 4; i++) {
            int c = at(q + i);
            int d = isDigit(c) ? c - '0' : isHex(c) ? 10 + (c | 0x20) - 'a' : -1;
            if (d < 0) {
                return -1;
            }
            v = (v << 4) | d;
        }
        return v;
    }
}
