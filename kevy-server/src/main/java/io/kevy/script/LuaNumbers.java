package io.kevy.script;

import java.math.BigDecimal;

/**
 * How Redis 7.0 turns a Lua number passed to {@code redis.call} into an argument: {@code fpconv_dtoa}, the
 * shortest digits that read back as the same double, written plain when short enough and in scientific
 * notation otherwise: {@code 3} → {@code "3"}, {@code 1.5} → {@code "1.5"}, {@code 123456789012345} →
 * {@code "123456789012345"}, {@code 1e20} → {@code "1e+20"}, {@code 1e-7} → {@code "1e-7"}. The shortest digits
 * come from {@link Double#toString}. Stateless; thread-safe.
 */
final class LuaNumbers {
    private LuaNumbers() {
    }

    /** {@code d} as Redis's {@code fpconv_dtoa}. */
    static String format(double d) {
        if (Double.isNaN(d)) {
            return "nan";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (d == 0) {
            return Double.doubleToRawLongBits(d) < 0 ? "-0" : "0";
        }
        boolean neg = d < 0;
        BigDecimal b = new BigDecimal(Double.toString(Math.abs(d))).stripTrailingZeros();
        String digits = b.unscaledValue().toString();
        int nd = digits.length();
        int k = -b.scale(); // value = digits * 10^k
        int exp = Math.abs(k + nd - 1);
        StringBuilder out = new StringBuilder(neg ? "-" : "");
        if (k >= 0 && exp < nd + 7) {
            out.append(digits).append("0".repeat(k));
        } else if (k < 0 && (k > -7 || exp < 4)) {
            int offset = nd + k;
            if (offset <= 0) {
                out.append("0.").append("0".repeat(-offset)).append(digits);
            } else {
                out.append(digits, 0, offset).append('.').append(digits, offset, nd);
            }
        } else {
            nd = Math.min(nd, 18 - (neg ? 1 : 0));
            out.append(digits.charAt(0));
            if (nd > 1) {
                out.append('.').append(digits, 1, nd);
            }
            int e = k + digits.length() - 1;
            out.append('e').append(e < 0 ? '-' : '+').append(Math.abs(e));
        }
        return out.toString();
    }
}
