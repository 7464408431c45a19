package io.kevy.script;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA1 in lower-case hex, as Redis names scripts ({@code sha1hex}). Thread-safe. */
final class Sha1 {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Sha1() {
    }

    static String hex(byte[] b) {
        byte[] d;
        try {
            d = MessageDigest.getInstance("SHA-1").digest(b);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every JVM", e);
        }
        char[] out = new char[d.length * 2];
        for (int i = 0; i < d.length; i++) {
            out[2 * i] = HEX[(d[i] >> 4) & 0xF];
            out[2 * i + 1] = HEX[d[i] & 0xF];
        }
        return new String(out);
    }
}
