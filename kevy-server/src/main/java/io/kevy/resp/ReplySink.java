package io.kevy.resp;

import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.text.Bytes;
import io.kevy.engine.text.RedisNumbers;

/**
 * Where a command writes its reply, in RESP2 terms. The server's implementation encodes straight into the
 * connection's output buffer; the embedded store's builds a typed tree. An array header announces exactly
 * {@code n} elements that follow.
 *
 * <p>Not thread-safe: one sink belongs to one connection (or one call) at a time.
 */
public interface ReplySink {
    /** {@code +OK}. */
    void ok();

    /** A simple string {@code +<s>}; {@code s} must not contain CR or LF. */
    void simple(String s);

    /** An error reply {@code -<message>}. */
    void error(ErrorReply error);

    /** An integer {@code :<v>}. */
    void integer(long v);

    /** A bulk string {@code $<len>} with the bytes of {@code b}. */
    void bulk(byte[] b);

    /** A bulk string of {@code b[off..off+len)}. */
    void bulk(byte[] b, int off, int len);

    /** The null bulk string {@code $-1}. */
    void nullBulk();

    /** The null array {@code *-1}. */
    void nullArray();

    /** An array header {@code *<n>}; exactly {@code n} replies must follow. */
    void array(int n);

    /** Drops whatever was written and frees its resources (a reply that will not be sent). */
    default void discard() {
    }

    /** A bulk string holding the UTF-8 bytes of {@code s}. */
    default void bulk(String s) {
        bulk(Bytes.utf8(s));
    }

    /** A bulk string holding the decimal form of {@code v}. */
    default void bulkLong(long v) {
        bulk(RedisNumbers.toBytes(v));
    }

    /** A bulk string holding {@code d} as Redis 7.0 prints doubles ({@link RedisNumbers#formatDouble}). */
    default void bulkDouble(double d) {
        bulk(RedisNumbers.formatDouble(d));
    }

    /** A bulk string, or the null bulk string when {@code b} is null. */
    default void bulkOrNull(byte[] b) {
        if (b == null) {
            nullBulk();
        } else {
            bulk(b);
        }
    }

    /**
     * One complete reply already encoded as RESP2, made only of array headers {@code *<n>}, integers
     * {@code :<v>} and bulk strings {@code $<len>} (the feed backlog's frames): {@code b[off..off+len)}.
     * The default decodes it into {@link #array}, {@link #integer} and {@link #bulk(byte[], int, int)} calls;
     * a sink that writes RESP2 copies the bytes as they are.
     */
    default void encoded(byte[] b, int off, int len) {
        int p = off;
        int end = off + len;
        while (p < end) {
            byte type = b[p++];
            boolean negative = b[p] == '-';
            if (negative) {
                p++;
            }
            long v = 0;
            while (b[p] != '\r') {
                v = v * 10 + (b[p++] - '0');
            }
            p += 2;
            if (negative) {
                v = -v;
            }
            switch (type) {
                case '*' -> array((int) v);
                case ':' -> integer(v);
                case '$' -> {
                    bulk(b, p, (int) v);
                    p += (int) v + 2;
                }
                default -> throw new IllegalArgumentException("not an array, integer or bulk string: " + (char) type);
            }
        }
    }
}
