package io.kevy.engine.text;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * C's {@code strtod} in the "C" locale, as glibc implements it, for the places where Redis 7.0 calls it directly:
 * leading white space, an optional sign, decimal and hexadecimal ({@code 0x1.8p3}) numbers, {@code inf},
 * {@code infinity} and {@code nan[(...)]} in any case; the longest valid prefix is parsed.
 *
 * <ul>
 *   <li>{@link #parseRangeBound} is the rule of score ranges ({@code zslParseRange}: anything strtod reads to the
 *       end and that is not NaN, so {@code ""} is 0 and {@code 1e400} is infinity).</li>
 *   <li>{@link #parseStrict} is Redis's {@code string2d} (ZADD scores, weights): also no leading space, not empty,
 *       no overflow to infinity and no underflow to zero.</li>
 *   <li>{@link #parseSortWeight} is SORT's weight rule: the whole C string read, no ERANGE of any kind (an
 *       inexact subnormal included), not NaN; {@code ""} is 0.</li>
 * </ul>
 *
 * <p>Thread-safe; static methods only.
 */
public final class Strtod {
    private Strtod() {
    }

    /** The outcome of one strtod call: the value, where parsing stopped, and errno's ERANGE cases. */
    record Result(double value, int end, boolean overflow, boolean underflow) {
    }

    /**
     * Parses {@code b} as a score range bound after its optional {@code (} (at {@code from}): the value, or NaN
     * when strtod does not consume every byte or reads NaN.
     */
    public static double parseRangeBound(byte[] b, int from) {
        Result r = strtod(b, from);
        return r.end() == b.length ? r.value() : Double.NaN;
    }

    /** Parses {@code b} with Redis's {@code string2d} rules; NaN when it is not a valid float. */
    public static double parseStrict(byte[] b) {
        if (b.length == 0 || isSpace(b[0])) {
            return Double.NaN;
        }
        Result r = strtod(b, 0);
        if (r.end() != b.length || r.overflow() || r.underflow()) {
            return Double.NaN;
        }
        return r.value();
    }

    /**
     * Parses {@code b} as SORT reads a weight ({@code strtod} then {@code eptr[0] != '\0' || errno == ERANGE ||
     * isnan}): the bytes up to the first NUL (a C string) must be read entirely, so {@code ""} is 0 and leading
     * space is allowed; NaN, overflow, underflow to zero and an inexact subnormal result (glibc's ERANGE cases)
     * are errors.
     *
     * @return the value, or NaN when SORT would report "One or more scores can't be converted into double"
     */
    public static double parseSortWeight(byte[] b) {
        int len = 0;
        while (len < b.length && b[len] != 0) {
            len++;
        }
        byte[] s = len == b.length ? b : Arrays.copyOf(b, len);
        Result r = strtod(s, 0);
        double v = r.value();
        if (r.end() != len || r.overflow() || r.underflow() || Double.isNaN(v)) {
            return Double.NaN;
        }
        if (v != 0 && Math.abs(v) < Double.MIN_NORMAL && !exact(s, r.end(), Math.abs(v))) {
            return Double.NaN;
        }
        return v;
    }

    /** True when the number spelled by {@code s[..end)} (space, sign, decimal or hex) is exactly {@code abs}. */
    private static boolean exact(byte[] s, int end, double abs) {
        int i = 0;
        while (i < end && isSpace(s[i])) {
            i++;
        }
        if (i < end && (s[i] == '+' || s[i] == '-')) {
            i++;
        }
        BigDecimal want = new BigDecimal(abs);
        String text = new String(s, i, end - i, StandardCharsets.US_ASCII);
        if (!(text.startsWith("0x") || text.startsWith("0X"))) {
            return new BigDecimal(text).compareTo(want) == 0;
        }
        String body = text.substring(2);
        int p = Math.max(body.indexOf('p'), body.indexOf('P'));
        BigInteger e = p < 0 ? BigInteger.ZERO
                : new BigInteger(body.substring(p + 1).replace("+", ""));
        if (e.abs().bitLength() > 24) {
            return false; // |exponent| >= 2^24: only an absurdly long mantissa could bring it back to a subnormal
        }
        long exp = e.longValue();
        String mant = p < 0 ? body : body.substring(0, p);
        int dot = mant.indexOf('.');
        if (dot >= 0) {
            exp -= 4L * (mant.length() - dot - 1);
            mant = mant.substring(0, dot) + mant.substring(dot + 1);
        }
        BigDecimal value = new BigDecimal(new BigInteger(mant, 16));
        BigDecimal two = BigDecimal.valueOf(2);
        value = exp >= 0 ? value.multiply(two.pow((int) exp))
                : value.divide(two.pow((int) -exp));
        return value.compareTo(want) == 0;
    }

    /** strtod on {@code b[from..]}; nothing parsed gives 0 with {@code end == from}. */
    static Result strtod(byte[] b, int from) {
        int n = b.length;
        int i = from;
        while (i < n && isSpace(b[i])) {
            i++;
        }
        boolean negative = false;
        if (i < n && (b[i] == '+' || b[i] == '-')) {
            negative = b[i] == '-';
            i++;
        }
        int special = word(b, i, "infinity");
        if (special < 0) {
            special = word(b, i, "inf");
        }
        if (special >= 0) {
            return new Result(negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY, special, false, false);
        }
        int nan = word(b, i, "nan");
        if (nan >= 0) {
            return new Result(Double.NaN, nanTail(b, nan), false, false);
        }
        if (i + 1 < n && b[i] == '0' && (b[i + 1] == 'x' || b[i + 1] == 'X')) {
            Result hex = hex(b, i + 2, negative);
            if (hex != null) {
                return hex;
            }
        }
        return decimal(b, i, negative, from);
    }

    private static Result decimal(byte[] b, int start, boolean negative, int from) {
        int n = b.length;
        int i = start;
        boolean nonZero = false;
        int digits = 0;
        while (i < n && isDigit(b[i])) {
            nonZero |= b[i] != '0';
            i++;
            digits++;
        }
        if (i < n && b[i] == '.') {
            i++;
            while (i < n && isDigit(b[i])) {
                nonZero |= b[i] != '0';
                i++;
                digits++;
            }
        }
        if (digits == 0) {
            return new Result(0, from, false, false);
        }
        if (i < n && (b[i] == 'e' || b[i] == 'E')) {
            int j = i + 1;
            if (j < n && (b[j] == '+' || b[j] == '-')) {
                j++;
            }
            if (j < n && isDigit(b[j])) {
                while (j < n && isDigit(b[j])) {
                    j++;
                }
                i = j;
            }
        }
        String text = new String(b, start, i - start, StandardCharsets.US_ASCII);
        double v = toDouble(text, nonZero);
        return finish(v, negative, i, nonZero);
    }

    private static Result hex(byte[] b, int start, boolean negative) {
        int n = b.length;
        int i = start;
        StringBuilder mant = new StringBuilder();
        boolean nonZero = false;
        int digits = 0;
        while (i < n && Character.digit(b[i], 16) >= 0) {
            nonZero |= b[i] != '0';
            mant.append((char) b[i++]);
            digits++;
        }
        if (i < n && b[i] == '.') {
            int dot = i++;
            StringBuilder frac = new StringBuilder();
            while (i < n && Character.digit(b[i], 16) >= 0) {
                nonZero |= b[i] != '0';
                frac.append((char) b[i++]);
                digits++;
            }
            if (frac.length() > 0) {
                mant.append('.').append(frac);
            } else if (digits > 0) {
                mant.append(".0");
            } else {
                i = dot;
            }
        }
        if (digits == 0) {
            return null; // "0x" without digits: strtod reads the "0" only
        }
        String exp = "0";
        if (i < n && (b[i] == 'p' || b[i] == 'P')) {
            int j = i + 1;
            int signAt = j;
            if (j < n && (b[j] == '+' || b[j] == '-')) {
                j++;
            }
            if (j < n && isDigit(b[j])) {
                while (j < n && isDigit(b[j])) {
                    j++;
                }
                exp = clampExponent(new String(b, signAt, j - signAt, StandardCharsets.US_ASCII));
                i = j;
            }
        }
        if (mant.charAt(0) == '.') {
            mant.insert(0, '0');
        }
        double v;
        try {
            v = Double.parseDouble("0x" + mant + "p" + exp);
        } catch (NumberFormatException e) {
            v = exp.startsWith("-") ? 0.0 : Double.POSITIVE_INFINITY;
        }
        return finish(v, negative, i, nonZero);
    }

    private static Result finish(double v, boolean negative, int end, boolean nonZero) {
        boolean overflow = Double.isInfinite(v);
        boolean underflow = v == 0 && nonZero;
        return new Result(negative ? -v : v, end, overflow, underflow);
    }

    private static double toDouble(String text, boolean nonZero) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            int e1 = Math.max(text.indexOf('e'), text.indexOf('E'));
            return !nonZero ? 0.0 : (e1 >= 0 && text.charAt(e1 + 1) == '-') ? 0.0 : Double.POSITIVE_INFINITY;
        }
    }

    /** Keeps a binary exponent within int range (the value is 0 or infinite long before that). */
    private static String clampExponent(String e) {
        String digits = e.startsWith("+") || e.startsWith("-") ? e.substring(1) : e;
        if (digits.length() > 7) {
            return (e.startsWith("-") ? "-" : "") + "9999999";
        }
        return e.startsWith("+") ? digits : e;
    }

    /** The index after {@code word} when {@code b[at..]} starts with it (ASCII case-insensitive), else -1. */
    private static int word(byte[] b, int at, String word) {
        if (b.length - at < word.length()) {
            return -1;
        }
        for (int k = 0; k < word.length(); k++) {
            int c = b[at + k];
            if (c >= 'A' && c <= 'Z') {
                c += 'a' - 'A';
            }
            if (c != word.charAt(k)) {
                return -1;
            }
        }
        return at + word.length();
    }

    /** After {@code nan}: an optional {@code (alnum_*)} is part of the number. */
    private static int nanTail(byte[] b, int at) {
        if (at < b.length && b[at] == '(') {
            int j = at + 1;
            while (j < b.length && (Character.isLetterOrDigit(b[j]) && b[j] >= 0 || b[j] == '_')) {
                j++;
            }
            if (j < b.length && b[j] == ')') {
                return j + 1;
            }
        }
        return at;
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    /** C's {@code isspace} in the "C" locale. */
    public static boolean isSpace(byte c) {
        return c == ' ' || (c >= '\t' && c <= '\r');
    }
}
