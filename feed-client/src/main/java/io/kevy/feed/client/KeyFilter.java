package io.kevy.feed.client;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The consumer's exact key filter (feed contract §8: the server's PREFIX filter is fail-open, so frames of
 * several keys reach every consumer). A change survives when one of its keys starts with a prefix; an MSET
 * keeps only its matching pairs and a multi-key DEL only its matching keys; a RENAME, a move or a script is
 * kept whole when any key matches. Changes whose keys are unknown (FLUSH, EVAL without keys, unknown verbs)
 * are always kept. Changes of the consumer's own cursor key are always dropped. Immutable, thread-safe.
 */
final class KeyFilter {
    private final byte[][] prefixes;
    private final boolean exact;
    private final byte[] ownKey;

    KeyFilter(List<byte[]> prefixes, boolean exact, byte[] ownKey) {
        byte[][] p = prefixes.toArray(new byte[0][]);
        for (byte[] b : p) {
            if (b.length == 0) {
                p = new byte[0][];
                break;
            }
        }
        this.prefixes = p;
        this.exact = exact;
        this.ownKey = ownKey;
    }

    /** True when {@code key} is under the prefixes (or there are none). */
    boolean matches(byte[] key) {
        if (prefixes.length == 0) {
            return true;
        }
        for (byte[] p : prefixes) {
            if (key.length >= p.length && Arrays.equals(key, 0, p.length, p, 0, p.length)) {
                return true;
            }
        }
        return false;
    }

    boolean isOwnKey(byte[] key) {
        return ownKey != null && Arrays.equals(key, ownKey);
    }

    /** The change as this consumer sees it, or null to drop it. */
    RawChange apply(RawChange c) {
        if (!c.keysKnown) {
            return c;
        }
        if (ownKey != null && c.keys.length == 1 && isOwnKey(c.keys[0])) {
            return null;
        }
        if (!exact || prefixes.length == 0) {
            return c;
        }
        if (c.op == Op.MSET || c.op == Op.DEL) {
            return c.narrowed(this::matches);
        }
        for (byte[] k : c.keys) {
            if (matches(k)) {
                return c;
            }
        }
        return null;
    }

    /** The SCAN MATCH patterns covering the prefixes: each prefix with glob characters escaped, plus '*'. */
    List<byte[]> scanPatterns() {
        List<byte[]> out = new ArrayList<>();
        if (prefixes.length == 0) {
            out.add(null);
            return out;
        }
        for (byte[] p : prefixes) {
            out.add(globPrefix(p));
        }
        return out;
    }

    /** {@code prefix} with {@code * ? [ ] \} escaped by a backslash, then {@code *}. */
    static byte[] globPrefix(byte[] prefix) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(prefix.length + 4);
        for (byte b : prefix) {
            if (b == '*' || b == '?' || b == '[' || b == ']' || b == '\\') {
                out.write('\\');
            }
            out.write(b);
        }
        out.write('*');
        return out.toByteArray();
    }
}
