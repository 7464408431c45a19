package io.kevy.common;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Doubles as Redis 7.0 prints them in its double replies ({@code addReplyDouble}: C's {@code %.17g}, with
 * {@code inf} and {@code -inf}): the server writes ZSCORE, WITHSCORES and friends with it, and the feed client turns
 * RESP3's double replies back into the RESP2 text the same commands answer on RESP2, so the two protocols give the
 * same values.
 *
 * <p>Stateless; thread-safe.
 */
public final class RedisDoubles {
    private RedisDoubles() {
    }

    /**
     * {@code %.17g} as C's printf prints it, with {@code inf}/{@code -inf}, and glibc's {@code nan}/{@code -nan}
     * by the sign bit (no Redis value is NaN, but a script's {@code {double=0/0}} is).
     */
    public static String format(double d) {
        if (Double.isNaN(d)) {
            return Double.doubleToRawLongBits(d) < 0 ? "-nan" : "nan";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (d == 0) {
            return (1 / d < 0) ? "-0" : "0";
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e17) {
            return Long.toString((long) d);
        }
        BigDecimal r = new BigDecimal(d).round(new MathContext(17, RoundingMode.HALF_EVEN));
        int exp = r.precision() - r.scale() - 1; // decimal exponent of the leading digit
        if (exp < -4 || exp >= 17) {
            BigDecimal mant = r.movePointLeft(exp).stripTrailingZeros();
            String m = mant.toPlainString();
            String e = Integer.toString(Math.abs(exp));
            return m + (exp < 0 ? "e-" : "e+") + (e.length() < 2 ? "0" + e : e);
        }
        String plain = r.toPlainString();
        if (plain.indexOf('.') >= 0) {
            int end = plain.length();
            while (plain.charAt(end - 1) == '0') {
                end--;
            }
            if (plain.charAt(end - 1) == '.') {
                end--;
            }
            plain = plain.substring(0, end);
        }
        return plain;
    }
}
