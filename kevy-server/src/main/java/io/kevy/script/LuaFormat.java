package io.kevy.script;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * Lua 5.1's {@code string.format} (C {@code printf} conversions {@code d i u c x X o e E f g G q s %} with flags
 * {@code -+ #0}, width and precision), replacing luaj's, which ignores precision and width for floats. Numbers
 * for integer conversions are truncated to a 64-bit integer as Lua 5.1 does. Stateless; thread-safe.
 */
final class LuaFormat extends VarArgFunction {
    /** Lua 5.1's limit on a format item ({@code MAX_FORMAT}): flags, width and precision of at most 2 digits. */
    private static final int MAX_DIGITS = 2;

    @Override
    public Varargs invoke(Varargs args) {
        LuaString fmt = args.checkstring(1);
        byte[] f = new byte[fmt.m_length];
        System.arraycopy(fmt.m_bytes, fmt.m_offset, f, 0, f.length);
        ByteArrayOutputStream out = new ByteArrayOutputStream(f.length + 16);
        int arg = 1;
        for (int i = 0; i < f.length; i++) {
            byte b = f[i];
            if (b != '%') {
                out.write(b);
                continue;
            }
            if (++i >= f.length) {
                throw new LuaError("invalid option '%' to 'format'");
            }
            if (f[i] == '%') {
                out.write('%');
                continue;
            }
            int start = i;
            while (i < f.length && "-+ #0".indexOf(f[i]) >= 0) {
                i++;
            }
            if (i - start > 5) {
                throw new LuaError("invalid format (repeated flags)");
            }
            int digits = 0;
            while (i < f.length && Character.isDigit(f[i])) {
                i++;
                if (++digits > MAX_DIGITS) {
                    throw new LuaError("invalid format (width or precision too long)");
                }
            }
            if (i < f.length && f[i] == '.') {
                i++;
                digits = 0;
                while (i < f.length && Character.isDigit(f[i])) {
                    i++;
                    if (++digits > MAX_DIGITS) {
                        throw new LuaError("invalid format (width or precision too long)");
                    }
                }
            }
            if (i >= f.length) {
                throw new LuaError("invalid option '%' to 'format'");
            }
            String spec = new String(f, start, i - start, StandardCharsets.ISO_8859_1);
            char conv = (char) f[i];
            arg++;
            String s = switch (conv) {
                case 'd', 'i' -> String.format("%" + spec + "d", (long) args.checkdouble(arg));
                case 'u' -> String.format("%" + spec + "d", (long) args.checkdouble(arg));
                case 'x', 'X', 'o' -> String.format("%" + spec + conv, (long) args.checkdouble(arg));
                case 'c' -> String.valueOf((char) (args.checkint(arg) & 0xFF));
                case 'e', 'E', 'f' -> String.format("%" + spec + conv, args.checkdouble(arg));
                case 'g', 'G' -> general(spec, conv, args.checkdouble(arg));
                case 's' -> {
                    LuaValue v = args.arg(arg);
                    LuaString str = v.isstring() ? v.checkstring() : v.tostring().checkstring();
                    if (spec.isEmpty()) {
                        out.write(str.m_bytes, str.m_offset, str.m_length);
                        yield null;
                    }
                    yield String.format("%" + spec + "s", LuaReplies.latin1(str));
                }
                case 'q' -> {
                    quote(args.checkstring(arg), out);
                    yield null;
                }
                default -> throw new LuaError("invalid option '%" + conv + "' to 'format'");
            };
            if (s != null) {
                byte[] bytes = s.getBytes(StandardCharsets.ISO_8859_1);
                out.write(bytes, 0, bytes.length);
            }
        }
        return LuaString.valueUsing(out.toByteArray());
    }

    /** C's {@code %g}: {@code %e} or {@code %f} by the exponent, trailing zeros removed unless {@code #}. */
    static String general(String spec, char conv, double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return String.format("%" + spec.replace("#", "") + (conv == 'g' ? "e" : "E"), d);
        }
        int dot = spec.indexOf('.');
        int precision = dot < 0 ? 6 : (dot + 1 == spec.length() ? 0 : Integer.parseInt(spec.substring(dot + 1)));
        if (precision == 0) {
            precision = 1;
        }
        String flags = dot < 0 ? spec : spec.substring(0, dot);
        boolean alt = flags.contains("#");
        String flagsNoAlt = flags.replace("#", "");
        String widthFree = flagsNoAlt.replaceAll("[0-9]", "");
        int exp;
        if (d == 0) {
            exp = 0;
        } else {
            String e = String.format("%." + (precision - 1) + "e", d);
            exp = Integer.parseInt(e.substring(e.indexOf('e') + 1));
        }
        String body;
        if (exp < -4 || exp >= precision) {
            body = String.format("%" + widthFree.replace("0", "") + "." + (precision - 1) + (conv == 'g' ? "e" : "E"),
                    d);
            if (!alt) {
                int e = body.indexOf(conv == 'g' ? 'e' : 'E');
                body = stripZeros(body.substring(0, e)) + body.substring(e);
            }
        } else {
            body = String.format("%" + widthFree.replace("0", "") + "." + (precision - 1 - exp) + "f", d);
            if (!alt) {
                body = stripZeros(body);
            }
        }
        String width = flagsNoAlt.replaceAll("^[-+ 0]*", "");
        if (width.isEmpty()) {
            return body;
        }
        int w = Integer.parseInt(width);
        if (body.length() >= w) {
            return body;
        }
        String pad;
        if (flags.contains("-")) {
            return body + " ".repeat(w - body.length());
        } else if (flags.replaceAll("[1-9][0-9]*$", "").contains("0")) {
            int sign = body.startsWith("-") || body.startsWith("+") || body.startsWith(" ") ? 1 : 0;
            pad = "0".repeat(w - body.length());
            return body.substring(0, sign) + pad + body.substring(sign);
        }
        return " ".repeat(w - body.length()) + body;
    }

    private static String stripZeros(String s) {
        if (s.indexOf('.') < 0) {
            return s;
        }
        int end = s.length();
        while (s.charAt(end - 1) == '0') {
            end--;
        }
        if (s.charAt(end - 1) == '.') {
            end--;
        }
        return s.substring(0, end);
    }

    /** Lua 5.1's {@code %q}: a double-quoted string with {@code " \ newline \r \0} escaped. */
    private static void quote(LuaString s, ByteArrayOutputStream out) {
        out.write('"');
        for (int i = 0; i < s.m_length; i++) {
            int c = s.m_bytes[s.m_offset + i] & 0xFF;
            switch (c) {
                case '"', '\\', '\n' -> {
                    out.write('\\');
                    out.write(c);
                }
                case '\r' -> out.write("\\r".getBytes(StandardCharsets.US_ASCII), 0, 2);
                case 0 -> out.write("\\000".getBytes(StandardCharsets.US_ASCII), 0, 4);
                default -> out.write(c);
            }
        }
        out.write('"');
    }
}
