package io.kevy.config;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Byte sizes in configuration, with the rules of feed contract §3: a bare non-negative integer (bytes) or a
 * string {@code <digits>[space]<unit>}, units {@code b k kb m mb g gb} case-insensitive and 1024-based
 * ({@code "64mb"} = 64 MiB). Fractions, negatives, empty strings and unknown units are errors.
 *
 * <p>Thread-safe; static methods only.
 */
public final class Sizes {
    private static final Pattern SIZE = Pattern.compile("(\\d+) ?([a-zA-Z]*)");
    public static final long KB = 1024;
    public static final long MB = 1024 * KB;
    public static final long GB = 1024 * MB;

    private Sizes() {
    }

    /**
     * Parses a size given as a TOML integer ({@link Long}) or string.
     *
     * @return the size in bytes
     * @throws IllegalArgumentException with the reason when the value is not a size
     */
    public static long parse(Object value) {
        if (value instanceof Long l) {
            if (l < 0) {
                throw new IllegalArgumentException("must not be negative, got " + l);
            }
            return l;
        }
        if (value instanceof Double) {
            throw new IllegalArgumentException("must be a whole number of bytes or a string like \"64mb\", got " + value);
        }
        if (!(value instanceof String s)) {
            throw new IllegalArgumentException("must be an integer or a string like \"64mb\", got " + value);
        }
        if (s.isEmpty()) {
            throw new IllegalArgumentException("must not be empty");
        }
        Matcher m = SIZE.matcher(s);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + s + "' is not a size (digits, then an optional unit b, k, kb, m, mb, g, gb)");
        }
        long base;
        try {
            base = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + s + "' is too large");
        }
        long unit = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "", "b" -> 1;
            case "k", "kb" -> KB;
            case "m", "mb" -> MB;
            case "g", "gb" -> GB;
            default -> throw new IllegalArgumentException("unknown unit '" + m.group(2) + "' in '" + s
                    + "' (use b, k, kb, m, mb, g or gb)");
        };
        if (base > Long.MAX_VALUE / unit) {
            throw new IllegalArgumentException("'" + s + "' is too large");
        }
        return base * unit;
    }

    /** Formats {@code bytes} with the largest exact unit: {@code 64mb}, {@code 1gb}, {@code 1500b}. */
    public static String format(long bytes) {
        if (bytes != 0 && bytes % GB == 0) {
            return bytes / GB + "gb";
        }
        if (bytes != 0 && bytes % MB == 0) {
            return bytes / MB + "mb";
        }
        if (bytes != 0 && bytes % KB == 0) {
            return bytes / KB + "kb";
        }
        return bytes + "b";
    }
}
