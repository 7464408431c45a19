package io.kevy.script;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
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
                case 'e', 'E', 'f', 'g', 'G' -> floating(spec, conv, args.checkdouble(arg));
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

    /**
     * C's {@code %e}, {@code %E}, {@code %f}, {@code %g} or {@code %G} of {@code d} with {@code spec}'s flags, width
     * and precision, as glibc prints it: the exact binary value rounded half to even (Java's Formatter rounds the
     * shortest decimal half up, so {@code %.0f} of 2.5 gave 3 and {@code %.14g} of 123456789012345 ended in 5 where
     * C prints 2 and ...234), {@code inf}, {@code -inf} and {@code -nan} (x86's NaN, as {@link
     * LuaSandbox#numberToString}), a negative zero's sign kept.
     */
    static String floating(String spec, char conv, double d) {
        int dot = spec.indexOf('.');
        String flags = dot < 0 ? spec : spec.substring(0, dot);
        int precision = dot < 0 ? 6 : (dot + 1 == spec.length() ? 0 : Integer.parseInt(spec.substring(dot + 1)));
        boolean alt = flags.contains("#");
        String widthText = flags.replaceAll("^[-+ #0]*", "");
        String flagChars = flags.substring(0, flags.length() - widthText.length());
        boolean negative = Double.isNaN(d) || d < 0 || (d == 0 && 1 / d < 0);
        char lower = Character.toLowerCase(conv);
        String body;
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            body = Double.isNaN(d) ? "nan" : "inf";
        } else {
            BigDecimal a = new BigDecimal(Math.abs(d));
            body = switch (lower) {
                case 'e' -> scientific(a, precision, alt);
                case 'f' -> plain(a, precision, alt);
                default -> general(a, precision == 0 ? 1 : precision, alt);
            };
        }
        if (Character.isUpperCase(conv)) {
            body = body.toUpperCase(java.util.Locale.ROOT);
        }
        String sign = negative ? "-" : flagChars.contains("+") ? "+" : flagChars.contains(" ") ? " " : "";
        int width = widthText.isEmpty() ? 0 : Integer.parseInt(widthText);
        int pad = width - sign.length() - body.length();
        if (pad <= 0) {
            return sign + body;
        }
        if (flagChars.contains("-")) {
            return sign + body + " ".repeat(pad);
        }
        if (flagChars.contains("0") && Double.isFinite(d)) {
            return sign + "0".repeat(pad) + body;
        }
        return " ".repeat(pad) + sign + body;
    }

    /**
     * C's {@code %g} of {@code a} (not negative) with precision {@code p} (at least 1): {@code %e} or {@code %f} by
     * the exponent, trailing zeros removed unless {@code #}.
     */
    private static String general(BigDecimal a, int p, boolean alt) {
        int exp = a.signum() == 0 ? 0 : exponent(a.round(new MathContext(p, RoundingMode.HALF_EVEN)));
        String body;
        if (exp < -4 || exp >= p) {
            body = scientific(a, p - 1, alt);
            if (!alt) {
                int e = body.indexOf('e');
                body = stripZeros(body.substring(0, e)) + body.substring(e);
            }
        } else {
            body = plain(a, p - 1 - exp, alt);
            if (!alt) {
                body = stripZeros(body);
            }
        }
        return body;
    }

    /** {@code %.<p>e} of {@code a} (not negative): one digit, the point (none for p 0 unless #), p digits. */
    private static String scientific(BigDecimal a, int p, boolean alt) {
        String digits;
        int exp;
        if (a.signum() == 0) {
            digits = "0".repeat(p + 1);
            exp = 0;
        } else {
            BigDecimal r = a.round(new MathContext(p + 1, RoundingMode.HALF_EVEN));
            exp = exponent(r);
            digits = r.unscaledValue().toString();
            digits = digits.length() > p + 1 ? digits.substring(0, p + 1) : digits + "0".repeat(p + 1 - digits.length());
        }
        StringBuilder out = new StringBuilder().append(digits.charAt(0));
        if (p > 0 || alt) {
            out.append('.').append(digits, 1, digits.length());
        }
        out.append('e').append(exp < 0 ? '-' : '+');
        if (Math.abs(exp) < 10) {
            out.append('0');
        }
        return out.append(Math.abs(exp)).toString();
    }

    /** {@code %.<p>f} of {@code a} (not negative). */
    private static String plain(BigDecimal a, int p, boolean alt) {
        String s = a.setScale(p, RoundingMode.HALF_EVEN).toPlainString();
        return p == 0 && alt ? s + "." : s;
    }

    /** The decimal exponent of {@code r}'s first digit ({@code r} not zero). */
    private static int exponent(BigDecimal r) {
        return r.precision() - r.scale() - 1;
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
