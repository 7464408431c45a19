package io.kevy.persist;

import io.kevy.engine.RedisNumbers;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Encodes effect frames as RESP arrays of bulk strings ({@code *<n>\r\n$<len>\r\n<arg>\r\n...}), the record
 * format of the AOF: the bytes a client would send to apply the frame.
 */
final class RespFrameWriter {
    private RespFrameWriter() {
    }

    /** Number of bytes {@link #write} produces for {@code frame}. */
    static int encodedSize(byte[][] frame) {
        int n = 1 + RedisNumbers.digits(frame.length) + 2;
        for (byte[] a : frame) {
            n += 1 + RedisNumbers.digits(a.length) + 2 + a.length + 2;
        }
        return n;
    }

    /** Writes {@code frame} to {@code out}. */
    static void write(byte[][] frame, OutputStream out) throws IOException {
        out.write('*');
        writeAscii(out, frame.length);
        out.write('\r');
        out.write('\n');
        for (byte[] a : frame) {
            out.write('$');
            writeAscii(out, a.length);
            out.write('\r');
            out.write('\n');
            out.write(a);
            out.write('\r');
            out.write('\n');
        }
    }

    /** Writes the decimal digits of {@code v} (≥ 0) one byte at a time: no String or array per length. */
    private static void writeAscii(OutputStream out, int v) throws IOException {
        int p = 1;
        while (p <= v / 10) {
            p *= 10;
        }
        for (; p > 0; p /= 10) {
            out.write('0' + v / p % 10);
        }
    }
}
