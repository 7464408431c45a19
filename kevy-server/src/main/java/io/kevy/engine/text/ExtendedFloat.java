package io.kevy.engine.text;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * An emulation of the x87 80-bit {@code long double} that Redis uses for INCRBYFLOAT and HINCRBYFLOAT: a
 * 64-bit significand, round-half-even, exponent range of 15 bits. Exact values are kept as {@link BigDecimal};
 * every parse and every sum is rounded to the nearest representable value, as the FPU does, so printing with
 * {@code %.17Lf} gives Redis's bytes (e.g. {@code 10.5 + 0.1 = "10.6"}, {@code 10.6 + 1e20 =
 * "100000000000000000008"}).
 *
 * <p>Immutable and thread-safe. Slow (BigDecimal arithmetic); used only by the float-increment commands.
 */
final class ExtendedFloat {
    static final ExtendedFloat ZERO = new ExtendedFloat(BigDecimal.ZERO, 0);

    /** Redis's MAX_LONG_DOUBLE_CHARS: string2ld refuses strings of this length or longer. */
    private static final int MAX_CHARS = 5 * 1024;
    private static final int SIGNIFICAND_BITS = 64;
    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);
    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);
    private static final int MAX_EXPONENT = 16383; // largest finite value < 2^16384
    private static final int MIN_EXPONENT = -16445; // smallest subnormal is 2^-16445

    private final BigDecimal value; // exact, finite; null when infinite
    private final int infinity; // 0 finite, +1 / -1 infinite

    private ExtendedFloat(BigDecimal value, int infinity) {
        this.value = value;
        this.infinity = infinity;
    }

    /**
     * Parses like {@code strtold} with Redis's checks; null when not a valid float (NaN, trailing bytes,
     * leading space, overflow to infinity from digits, underflow to zero).
     */
    static ExtendedFloat parse(byte[] b) {
        if (b.length >= MAX_CHARS) {
            return null;
        }
        BigDecimal exact = RedisNumbers.parseDecimal(b);
        if (exact == null) {
            double inf = RedisNumbers.parseDoubleOrNaN(b);
            if (Double.isInfinite(inf)) {
                return new ExtendedFloat(null, inf > 0 ? 1 : -1);
            }
            return null;
        }
        ExtendedFloat r = round(exact);
        if (r.isInfinite() || (r.value.signum() == 0 && exact.signum() != 0)) {
            return null; // ERANGE
        }
        return r;
    }

    boolean isInfinite() {
        return infinity != 0;
    }

    ExtendedFloat add(ExtendedFloat o) {
        if (isInfinite() || o.isInfinite()) {
            int s = infinity + o.infinity;
            return new ExtendedFloat(null, s == 0 ? 1 : Integer.signum(s));
        }
        return round(value.add(o.value));
    }

    /**
     * {@code (long long) ceill(x * 1000.0)} as Redis 7.0 turns a timeout in seconds into milliseconds on x86-64:
     * the product rounded to the 64-bit significand, rounded up to an integer, converted with the FPU's rule
     * that a value out of the {@code long} range (or infinite) becomes {@link Long#MIN_VALUE}.
     */
    long ceilTimesThousand() {
        if (isInfinite()) {
            return Long.MIN_VALUE;
        }
        ExtendedFloat product = round(value.multiply(THOUSAND));
        if (product.isInfinite()) {
            return Long.MIN_VALUE;
        }
        BigInteger ms = product.value.setScale(0, RoundingMode.CEILING).toBigIntegerExact();
        if (ms.compareTo(LONG_MIN) < 0 || ms.compareTo(LONG_MAX) > 0) {
            return Long.MIN_VALUE;
        }
        return ms.longValueExact();
    }

    /** {@code %.17Lf}, trailing zeros after the point removed, {@code -0} printed as {@code 0}. */
    String toHumanString() {
        String s = value.setScale(17, RoundingMode.HALF_EVEN).toPlainString();
        int end = s.length();
        while (s.charAt(end - 1) == '0') {
            end--;
        }
        if (s.charAt(end - 1) == '.') {
            end--;
        }
        s = s.substring(0, end);
        return s.equals("-0") ? "0" : s;
    }

    /** Rounds an exact value to the nearest 64-bit-significand binary value (ties to even). */
    private static ExtendedFloat round(BigDecimal x) {
        if (x.signum() == 0) {
            return ZERO;
        }
        BigDecimal a = x.abs();
        // estimate floor(log2(a)), then correct
        long e = Math.round((a.precision() - a.scale() - 1) * 3.321928094887362);
        while (pow2(e).compareTo(a) > 0) {
            e--;
        }
        while (pow2(e + 1).compareTo(a) <= 0) {
            e++;
        }
        if (e > MAX_EXPONENT) {
            return new ExtendedFloat(null, x.signum());
        }
        long shift = Math.max(e - (SIGNIFICAND_BITS - 1), MIN_EXPONENT); // value of the last significand bit
        BigDecimal scaled = a.multiply(pow2(-shift));
        BigInteger m = scaled.setScale(0, RoundingMode.HALF_EVEN).toBigIntegerExact();
        BigDecimal rounded = new BigDecimal(m).multiply(pow2(shift));
        if (rounded.compareTo(pow2(MAX_EXPONENT + 1)) >= 0) {
            return new ExtendedFloat(null, x.signum());
        }
        return new ExtendedFloat(x.signum() < 0 ? rounded.negate() : rounded, 0);
    }

    private static BigDecimal pow2(long e) {
        if (e >= 0) {
            return new BigDecimal(BigInteger.ONE.shiftLeft((int) e));
        }
        // 2^-k = 5^k / 10^k, exact
        return new BigDecimal(BigInteger.valueOf(5).pow((int) -e), (int) -e);
    }
}
