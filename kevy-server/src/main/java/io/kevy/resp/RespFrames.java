package io.kevy.resp;

import io.kevy.engine.text.RedisNumbers;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The RESP encoding of an effect frame as a client would send it: an array of bulk strings
 * ({@code *<argc>\r\n} then {@code $<len>\r\n<arg>\r\n} per argument). One encoder for the AOF records and the
 * feed backlog's entries, written straight into a byte array without intermediate objects. Static methods
 * only; thread-safe.
 */
public final class RespFrames {
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle SHORT =
            MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final short CRLF = (short) ('\r' | '\n' << 8);

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
     * An upper bound of {@link #encodedSize} that reads only the arguments' lengths (each counted with the 10
     * digits of the largest int): enough to know that a frame fits without the exact count.
     */
    public static long maxEncodedSize(byte[][] argv) {
        long n = 1 + 10 + 2;
        for (byte[] a : argv) {
            n += a.length + (1 + 10 + 2 + 2);
        }
        return n;
    }

    /**
     * Writes {@code argv} into {@code b} at {@code p}; the caller has made room for {@link #encodedSize} bytes.
     *
     * @return the position after the last byte written
     */
    public static int encode(byte[] b, int p, byte[][] argv) {
        p = header(b, p, '*', argv.length);
        for (byte[] a : argv) {
            int n = a.length;
            p = header(b, p, '$', n);
            System.arraycopy(a, 0, b, p, n);
            p += n;
            SHORT.set(b, p, CRLF);
            p += 2;
        }
        return p;
    }

    /**
     * Writes {@code type}, {@code n} in decimal and {@code \r\n} at {@code p}; returns the position after them.
     * Lengths below 100 (most arguments) take one 4-byte store and at most one more byte.
     */
    private static int header(byte[] b, int p, int type, int n) {
        if (n < 10) {
            INT.set(b, p, type | ('0' + n) << 8 | '\r' << 16 | '\n' << 24);
            return p + 4;
        }
        if (n < 100) {
            INT.set(b, p, type | ('0' + n / 10) << 8 | ('0' + n % 10) << 16 | '\r' << 24);
            b[p + 4] = '\n';
            return p + 5;
        }
        b[p] = (byte) type;
        return crlf(b, putLong(b, p + 1, n));
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
