package io.kevy.engine.text;

import java.util.Locale;

/**
 * Memory values as Redis's CONFIG SET reads them ({@code memtoull}): digits with an optional unit, where
 * {@code k m g} are powers of 1000 and {@code kb mb gb} powers of 1024, case-insensitive. (Config files use
 * the feed contract's 1024-based rules instead; see {@code io.kevy.config.Sizes}.)
 */
public final class RedisMemory {
    private RedisMemory() {
    }

    /**
     * @return the value in bytes
     * @throws IllegalArgumentException when {@code s} is not a memory value
     */
    public static long parse(String s) {
        String l = s.trim().toLowerCase(Locale.ROOT);
        long mul = 1;
        String digits = l;
        String[][] units = {{"gb", "1073741824"}, {"mb", "1048576"}, {"kb", "1024"}, {"g", "1000000000"},
            {"m", "1000000"}, {"k", "1000"}, {"b", "1"}};
        for (String[] u : units) {
            if (l.endsWith(u[0])) {
                mul = Long.parseLong(u[1]);
                digits = l.substring(0, l.length() - u[0].length());
                break;
            }
        }
        if (digits.isEmpty() || !digits.chars().allMatch(Character::isDigit)) {
            throw new IllegalArgumentException("not a memory value: " + s);
        }
        long v = Long.parseLong(digits);
        if (v > Long.MAX_VALUE / mul) {
            throw new IllegalArgumentException("memory value too large: " + s);
        }
        return v * mul;
    }
}
