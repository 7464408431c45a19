package io.kevy.engine;

/**
 * The RESP encoding of an effect frame as a client would send it: an array of bulk strings
 * ({@code *<argc>\r\n} then {@code $<len>\r\n<arg>\r\n} per argument). One encoder for the AOF records and the
 * feed backlog's entries, written straight into a byte array without intermediate objects. Static methods
 * only; thread-safe.
 */
public final class RespFrames {
    private RespFrames() {
    }

    /** The number of bytes {@link #encode} writes for {@code argv}. */
    public static long encodedSize(byte[][] argv) {
        long n = 1 + RedisNumbers.digits(argv.length) + 2;
        for (byte[] a : argv) {
            n += 1 + RedisNumbers.digits(a.length) + 2 + a.length + 2;
        }
        return n;
    }

    /**
     * Writes {@code argv} into {@code b} at {@code p}; the caller has made room for {@link #encodedSize} bytes.
     *
     * @return the position after the last byte written
     */
    public static int encode(byte[] b, int p, byte[][] argv) {
        b[p++] = '*';
        p = crlf(b, putLong(b, p, argv.length));
        for (byte[] a : argv) {
            b[p++] = '$';
            p = crlf(b, putLong(b, p, a.length));
            System.arraycopy(a, 0, b, p, a.length);
            p = crlf(b, p + a.length);
        }
        return p;
    }

    /** Writes {@code \r\n} at {@code p}; returns the position after it. */
    public static int crlf(byte[] b, int p) {
        b[p] = '\r';
        b[p + 1] = '\n';
        return p + 2;
    }

    /** Writes non-negative {@code v} in decimal at {@code p}; returns the end position. */
    public static int putLong(byte[] b, int p, long v) {
        int end = p + RedisNumbers.digits(v);
        for (int i = end - 1; i >= p; i--) {
            b[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        return end;
    }
}
