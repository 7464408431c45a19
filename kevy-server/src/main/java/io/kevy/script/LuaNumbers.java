package io.kevy.script;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Lua 5.1's number-to-string conversion ({@code LUA_NUMBER_FMT "%.14g"}), which Redis applies to a number passed
 * to {@code redis.call}: {@code 1.5} → {@code "1.5"}, {@code 1e20} → {@code "1e+20"}, {@code 3} → {@code "3"}.
 * Stateless; thread-safe.
 */
final class LuaNumbers {
    private LuaNumbers() {
    }

    /** {@code d} as C's {@code printf("%.14g", d)}. */
    static String format(double d) {
        if (Double.isNaN(d)) {
            return d < 0 ? "-nan" : (Double.doubleToRawLongBits(d) < 0 ? "-nan" : "nan");
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (d == 0) {
            return (1 / d < 0) ? "-0" : "0";
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e14) {
            return Long.toString((long) d);
        }
        BigDecimal b = new BigDecimal(d).round(new MathContext(14, RoundingMode.HALF_EVEN));
        int exp = b.precision() - b.scale() - 1; // the decimal exponent of the first digit
        if (exp < -4 || exp >= 14) {
            BigDecimal mant = b.movePointLeft(exp).stripTrailingZeros();
            String m = mant.toPlainString();
            String e = Integer.toString(Math.abs(exp));
            return m + "e" + (exp < 0 ? "-" : "+") + (e.length() < 2 ? "0" + e : e);
        }
        String s = b.stripTrailingZeros().toPlainString();
        return s;
    }
}
