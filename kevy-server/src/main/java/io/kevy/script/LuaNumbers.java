package io.kevy.script;

import java.math.BigDecimal;

/**
 * Lua numbers as text. {@link #callArgument}: how Redis 7.0 turns a number passed to {@code redis.call} into an
 * argument ({@code %.17g}). {@link #format}: Redis 7.2's {@code fpconv_dtoa} (kevy's text of a number where a
 * string is expected: library metadata, {@code struct}), the shortest digits that read back as the same double,
 * written plain when short enough and in scientific notation otherwise: {@code 3} → {@code "3"}, {@code 1.5} →
 * {@code "1.5"}, {@code 123456789012345} → {@code "123456789012345"}, {@code 1e20} → {@code "1e+20"},
 * {@code 1e-7} → {@code "1e-7"}. The shortest digits come from {@link Double#toString}. Stateless; thread-safe.
 */
final class LuaNumbers {
    private LuaNumbers() {
    }

    /**
     * {@code d} as Redis 7.0 passes a Lua number to {@code redis.call} ({@code luaRedisGenericCommand}:
     * {@code snprintf("%.17g")}, glibc rounding the exact binary value): {@code 0.1} → {@code "0.10000000000000001"},
     * {@code 2^63} → {@code "9.2233720368547758e+18"}, {@code 3} → {@code "3"}, {@code 1e20} → {@code "1e+20"}, NaN
     * → {@code "-nan"} (x86's default NaN has its sign bit set). ({@link #format}'s shortest digits are Redis 7.2's
     * {@code fpconv_dtoa}; they differ for numbers with more than 15 significant digits.)
     */
    static String callArgument(double d) {
        if (Double.isNaN(d)) {
            return "-nan";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (d == 0) {
            return Double.doubleToRawLongBits(d) < 0 ? "-0" : "0";
        }
        BigDecimal b = new BigDecimal(d).round(new java.math.MathContext(17, java.math.RoundingMode.HALF_EVEN));
        int exp = b.precision() - b.scale() - 1; // the decimal exponent of the first digit
        if (exp >= -4 && exp < 17) {
            return b.stripTrailingZeros().toPlainString();
        }
        String digits = b.unscaledValue().abs().toString().replaceFirst("0+$", "");
        StringBuilder out = new StringBuilder(d < 0 ? "-" : "").append(digits.charAt(0));
        if (digits.length() > 1) {
            out.append('.').append(digits, 1, digits.length());
        }
        out.append('e').append(exp < 0 ? '-' : '+');
        if (Math.abs(exp) < 10) {
            out.append('0');
        }
        return out.append(Math.abs(exp)).toString();
    }

    /** {@code d} as Redis 7.2's {@code fpconv_dtoa}. */
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
