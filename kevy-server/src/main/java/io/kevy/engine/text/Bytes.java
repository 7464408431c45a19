package io.kevy.engine.text;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An immutable byte string with content equality, for use as a map key or a record component (a
 * {@code byte[]} compares by identity). Also hosts the small {@code byte[]} helpers the engine needs.
 *
 * <p>Thread-safe. The wrapped array is not copied: callers must not mutate it afterwards.
 */
public final class Bytes implements Comparable<Bytes> {
    public static final byte[] EMPTY = new byte[0];

    private final byte[] value;
    private int hash;

    private Bytes(byte[] value) {
        this.value = value;
    }

    /** Wraps {@code value} without copying. */
    public static Bytes wrap(byte[] value) {
        return new Bytes(value);
    }

    /** The UTF-8 encoding of {@code s}, wrapped. */
    public static Bytes of(String s) {
        return new Bytes(s.getBytes(StandardCharsets.UTF_8));
    }

    /** The wrapped array; callers must not mutate it. */
    public byte[] array() {
        return value;
    }

    public int length() {
        return value.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Bytes b && Arrays.equals(value, b.value);
    }

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = Arrays.hashCode(value);
            hash = h;
        }
        return h;
    }

    @Override
    public int compareTo(Bytes o) {
        return Arrays.compareUnsigned(value, o.value);
    }

    /** Decodes as UTF-8 (invalid sequences replaced); for logs and messages. */
    @Override
    public String toString() {
        return new String(value, StandardCharsets.UTF_8);
    }

    /** Encodes {@code s} as UTF-8. */
    public static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Decodes {@code b} as UTF-8 (invalid sequences replaced). */
    public static String str(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    /** True when {@code b} starts with {@code prefix} (byte comparison; the empty prefix matches all). */
    public static boolean startsWith(byte[] b, byte[] prefix) {
        return b.length >= prefix.length && Arrays.equals(b, 0, prefix.length, prefix, 0, prefix.length);
    }

    /** ASCII case-insensitive comparison of {@code b} with the lower-case ASCII {@code lower}. */
    public static boolean equalsIgnoreCase(byte[] b, String lower) {
        int n = lower.length();
        if (b.length != n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            int c = b[i];
            if (c >= 'A' && c <= 'Z') {
                c += 'a' - 'A';
            }
            if (c != lower.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Lower-cases ASCII letters of {@code b} into a String; other bytes are kept as Latin-1 characters. */
    public static String lowerAscii(byte[] b) {
        char[] out = new char[b.length];
        for (int i = 0; i < b.length; i++) {
            int c = b[i] & 0xff;
            if (c >= 'A' && c <= 'Z') {
                c += 'a' - 'A';
            }
            out[i] = (char) c;
        }
        return new String(out);
    }
}
