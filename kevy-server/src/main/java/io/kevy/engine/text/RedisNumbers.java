package io.kevy.engine.text;

import io.kevy.engine.error.CommandException;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;

/**
 * Number parsing and formatting exactly as Redis 7.0 does it, so replies and stored strings are byte-for-byte
 * the same as a real {@code redis-server}.
 *
 * <ul>
 *   <li>Integers follow {@code string2ll}: optional {@code -}, no {@code +}, no leading zeros, no spaces,
 *       64-bit signed range.</li>
 *   <li>Floats follow {@code strtod} with Redis's checks: no leading space, nothing after the number, not NaN,
 *       no overflow to infinity (unless {@code inf} is spelled), no underflow to zero.</li>
 *   <li>{@link #formatDouble} is {@code %.17g} with {@code inf}/{@code -inf} (replies of ZSCORE and friends).</li>
 *   <li>{@link #formatShortest} is the shortest round-tripping decimal (our effect frames, feed contract §7).</li>
 * </ul>
 *
 * <p>Thread-safe; static methods only. Methods that parse return a flag or throw {@link CommandException}
 * carrying the reply the caller names.
 */
public final class RedisNumbers {
    private static final byte[] MIN_LONG = "-9223372036854775808".getBytes(StandardCharsets.US_ASCII);

    private RedisNumbers() {
    }

    /** True when {@code b} is a canonical Redis integer (see class doc). */
    public static boolean isLong(byte[] b) {
        return parseLongOr(b, Long.MIN_VALUE) != Long.MIN_VALUE || java.util.Arrays.equals(b, MIN_LONG);
    }

    /**
     * Parses {@code b} as a canonical Redis integer.
     *
     * @throws CommandException with {@code error} when {@code b} is not one
     */
    public static long parseLong(byte[] b, ErrorReply error) {
        long v = parseLongOr(b, Long.MIN_VALUE);
        if (v == Long.MIN_VALUE && !java.util.Arrays.equals(b, MIN_LONG)) {
            throw new CommandException(error);
        }
        return v;
    }

    /** Parses {@code b} as an integer, throwing {@link Errors#NOT_INTEGER} when it is not one. */
    public static long parseLong(byte[] b) {
        return parseLong(b, Errors.NOT_INTEGER);
    }

    /**
     * Parses a canonical Redis integer, returning {@code fallback} when {@code b} is not one. (A value equal to
     * {@code fallback} is ambiguous; callers pick a fallback outside their valid range.)
     */
    public static long parseLongOr(byte[] b, long fallback) {
        int len = b.length;
        if (len == 0 || len > 20) {
            return fallback;
        }
        if (len == 1 && b[0] == '0') {
            return 0;
        }
        int i = 0;
        boolean negative = false;
        if (b[0] == '-') {
            negative = true;
            i = 1;
            if (len == 1) {
                return fallback;
            }
        }
        if (b[i] < '1' || b[i] > '9') {
            return fallback;
        }
        long limit = negative ? Long.MIN_VALUE : -Long.MAX_VALUE;
        long multmin = limit / 10;
        long v = 0; // accumulated negatively, as Long.parseLong does, to reach Long.MIN_VALUE
        for (; i < len; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9 || v < multmin) {
                return fallback;
            }
            v *= 10;
            if (v < limit + d) {
                return fallback;
            }
            v -= d;
        }
        return negative ? v : -v;
    }

    /** {@code POWERS_OF_TEN[i] = 10^i}, for {@link #digits}. */
    private static final long[] POWERS_OF_TEN = new long[19];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    /**
     * Number of decimal digits of {@code v} (≥ 0; 1 for anything below 10), without dividing or looping: sizes of
     * RESP lengths and feed offsets. {@code floor(log10)} is estimated from the bit length ({@code 1233 / 4096}
     * is just above {@code log10(2)}) and corrected by one comparison.
     */
    public static int digits(long v) {
        if (v < 10) {
            return 1;
        }
        int t = ((64 - Long.numberOfLeadingZeros(v)) * 1233) >>> 12;
        return v < POWERS_OF_TEN[t] ? t : t + 1;
    }

    /** The decimal ASCII form of {@code v}. */
    public static byte[] toBytes(long v) {
        return Long.toString(v).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Parses {@code b} as a Redis float (strtod rules, see class doc).
     *
     * @throws CommandException with {@code error} when it is not one
     */
    public static double parseDouble(byte[] b, ErrorReply error) {
        double d = parseDoubleOrNaN(b);
        if (Double.isNaN(d)) {
            throw new CommandException(error);
        }
        return d;
    }

    /**
     * Parses a Redis float ({@code string2d}: strtod with no leading space, nothing after the number, no
     * overflow or underflow), or returns NaN when {@code b} is not one (NaN itself is never valid).
     */
    public static double parseDoubleOrNaN(byte[] b) {
        return Strtod.parseStrict(b);
    }

    /**
     * Parses the decimal subset of strtod: {@code [+-]digits[.digits][(e|E)[+-]digits]} with at least one digit
     * in the mantissa. Returns null when {@code b} is not of that form.
     */
    static BigDecimal parseDecimal(byte[] b) {
        int n = b.length;
        int i = 0;
        if (n == 0) {
            return null;
        }
        if (b[i] == '+' || b[i] == '-') {
            i++;
        }
        if (i + 1 < n && b[i] == '0' && (b[i + 1] == 'x' || b[i + 1] == 'X')) {
            BigDecimal hex = parseHex(b, i + 2);
            return hex != null && b[0] == '-' ? hex.negate() : hex;
        }
        int digits = 0;
        while (i < n && b[i] >= '0' && b[i] <= '9') {
            i++;
            digits++;
        }
        if (i < n && b[i] == '.') {
            i++;
            while (i < n && b[i] >= '0' && b[i] <= '9') {
                i++;
                digits++;
            }
        }
        if (digits == 0) {
            return null;
        }
        if (i < n && (b[i] == 'e' || b[i] == 'E')) {
            int j = i + 1;
            if (j < n && (b[j] == '+' || b[j] == '-')) {
                j++;
            }
            int expDigits = 0;
            while (j < n && b[j] >= '0' && b[j] <= '9') {
                j++;
                expDigits++;
            }
            if (expDigits > 0) {
                i = j;
            }
        }
        if (i != n) {
            return null;
        }
        String s = new String(b, StandardCharsets.US_ASCII);
        if (s.endsWith(".")) {
            s = s + "0";
        } else {
            s = s.replace(".e", ".0e").replace(".E", ".0E");
        }
        if (s.startsWith(".") || s.startsWith("-.") || s.startsWith("+.")) {
            s = s.replaceFirst("\\.", "0.");
        }
        try {
            return new BigDecimal(s);
        } catch (NumberFormatException | ArithmeticException e) {
            return null; // exponent out of int range
        }
    }

    /**
     * Parses the hexadecimal form strtod accepts after {@code 0x}: {@code hexdigits[.hexdigits][p[+-]digits]}.
     * Returns the exact value, or null when malformed.
     */
    private static BigDecimal parseHex(byte[] b, int i) {
        int n = b.length;
        java.math.BigInteger mant = java.math.BigInteger.ZERO;
        int digits = 0;
        int fracDigits = 0;
        boolean dot = false;
        for (; i < n; i++) {
            int d = Character.digit(b[i], 16);
            if (d >= 0) {
                mant = mant.shiftLeft(4).add(java.math.BigInteger.valueOf(d));
                digits++;
                if (dot) {
                    fracDigits++;
                }
            } else if (b[i] == '.' && !dot) {
                dot = true;
            } else {
                break;
            }
        }
        if (digits == 0) {
            return null;
        }
        long exp = 0;
        if (i < n && (b[i] == 'p' || b[i] == 'P')) {
            int j = i + 1;
            boolean neg = false;
            if (j < n && (b[j] == '+' || b[j] == '-')) {
                neg = b[j] == '-';
                j++;
            }
            int start = j;
            while (j < n && b[j] >= '0' && b[j] <= '9' && j - start < 6) {
                exp = exp * 10 + (b[j] - '0');
                j++;
            }
            if (j > start) {
                i = j;
                exp = neg ? -exp : exp;
            }
        }
        if (i != n) {
            return null;
        }
        long e2 = exp - 4L * fracDigits;
        BigDecimal m = new BigDecimal(mant);
        if (e2 >= 0) {
            return m.multiply(new BigDecimal(java.math.BigInteger.ONE.shiftLeft((int) e2)));
        }
        return m.multiply(new BigDecimal(java.math.BigInteger.valueOf(5).pow((int) -e2), (int) -e2));
    }

    /**
     * {@code %.17g} as C's printf prints it, with {@code inf}/{@code -inf}: Redis 7.0 double replies
     * ({@link io.kevy.common.RedisDoubles}, shared with the feed client).
     */
    public static String formatDouble(double d) {
        return io.kevy.common.RedisDoubles.format(d);
    }

    /**
     * The shortest decimal that parses back to {@code d}, in plain notation when the decimal exponent is in
     * [-7, 21) and as {@code <m>e<+|-><exp>} otherwise; {@code inf}/{@code -inf} for infinities. Used for
     * scores in effect frames (feed contract §7).
     */
    public static String formatShortest(double d) {
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (d == 0) {
            return (1 / d < 0) ? "-0" : "0";
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        BigDecimal exact = new BigDecimal(d);
        BigDecimal r = exact;
        for (int p = 1; p <= 17; p++) {
            BigDecimal c = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
            if (c.doubleValue() == d) {
                r = c;
                break;
            }
        }
        r = r.stripTrailingZeros();
        int exp = r.precision() - r.scale() - 1;
        if (exp < -7 || exp >= 21) {
            String m = r.movePointLeft(exp).toPlainString();
            return m + (exp < 0 ? "e-" : "e+") + Math.abs(exp);
        }
        return r.toPlainString();
    }

    private static String stripZeros(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == '0') {
            end--;
        }
        if (end > 0 && s.charAt(end - 1) == '.') {
            end--;
        }
        return s.substring(0, end);
    }

    /**
     * A timeout in seconds as Redis 7.0's {@code getTimeoutFromObjectOrReply} reads it: parsed as an x87
     * {@code long double} ({@code string2ld}: strtold, no leading space, nothing after the number, no NaN, no
     * overflow, under 5120 bytes), times 1000, rounded up to whole milliseconds; a product out of the
     * {@code long} range (or infinite) gives {@link Long#MIN_VALUE}, as the C conversion does on x86-64. The
     * caller rejects negative results ("timeout is negative"); 0 means no timeout.
     *
     * @return the timeout in milliseconds
     * @throws CommandException {@code notFloat} when {@code seconds} is not a valid long double
     */
    public static long secondsToMillis(byte[] seconds, ErrorReply notFloat) {
        ExtendedFloat f = ExtendedFloat.parse(seconds);
        if (f == null) {
            throw new CommandException(notFloat);
        }
        return f.ceilTimesThousand();
    }

    /**
     * Adds {@code increment} to the number stored as {@code current} the way INCRBYFLOAT and HINCRBYFLOAT do:
     * both parsed as x87 {@code long double} (64-bit significand), summed and rounded in that precision, then
     * printed with {@code %.17Lf} and trailing zeros removed.
     *
     * @param current the stored value, or null for a missing value (0)
     * @throws CommandException {@code notFloatError} when either operand is not a valid float, or
     *                          {@link Errors#INCR_NAN_OR_INF} when the result is not finite
     */
    public static byte[] addLongDouble(byte[] current, byte[] increment, ErrorReply notFloatError) {
        ExtendedFloat a = current == null ? ExtendedFloat.ZERO : ExtendedFloat.parse(current);
        ExtendedFloat b = ExtendedFloat.parse(increment);
        if (a == null || b == null) {
            throw new CommandException(notFloatError);
        }
        if (a.isInfinite() || b.isInfinite()) {
            throw new CommandException(Errors.INCR_NAN_OR_INF);
        }
        ExtendedFloat sum = a.add(b);
        if (sum.isInfinite()) {
            throw new CommandException(Errors.INCR_NAN_OR_INF);
        }
        return sum.toHumanString().getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * {@code d} with exactly {@code digits} decimals as Redis's {@code fixedpoint_d2string} prints it (geo
     * distances, 4 decimals): {@code d * 10^digits} rounded half-to-even to a long ({@code llrint}), then split;
     * 0 prints {@code 0.0000}. For finite values whose scaled form fits a long.
     */
    public static String formatFixed(double d, int digits) {
        if (d == 0) {
            return "0." + "0".repeat(digits);
        }
        long v = (long) Math.rint(d * Math.pow(10, digits));
        String abs = Long.toString(Math.abs(v));
        if (abs.length() <= digits) {
            abs = "0".repeat(digits - abs.length() + 1) + abs;
        }
        int dot = abs.length() - digits;
        return (v < 0 ? "-" : "") + abs.substring(0, dot) + "." + abs.substring(dot);
    }

    /**
     * C's {@code %.17Lf} of {@code d} with trailing zeros (and a bare dot) removed, {@code -0} printed as
     * {@code 0} and {@code inf}/{@code -inf} for infinities: Redis's {@code addReplyHumanLongDouble} of a double
     * (GEOPOS and WITHCOORD coordinates).
     */
    public static String formatHuman(double d) {
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        String s = printfF(d, 17);
        s = stripZeros(s);
        return s.equals("-0") ? "0" : s;
    }

    /**
     * C's {@code printf("%.<digits>f", d)} in the C locale: the exact binary value rounded half-to-even, a
     * {@code -} for every negative value (also when it rounds to zero, and for {@code -0.0}), {@code inf},
     * {@code -inf}, {@code nan}, {@code -nan}.
     */
    public static String printfF(double d, int digits) {
        if (Double.isNaN(d)) {
            return (Double.doubleToRawLongBits(d) < 0) ? "-nan" : "nan";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        String s = new BigDecimal(d).setScale(digits, RoundingMode.HALF_EVEN).toPlainString();
        boolean negative = d < 0 || (d == 0 && 1 / d < 0);
        return negative && !s.startsWith("-") ? "-" + s : s;
    }
}
