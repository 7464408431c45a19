package io.kevy.persist;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Encodes effect frames as RESP arrays of bulk strings ({@code *<n>\r\n$<len>\r\n<arg>\r\n...}), the record
 * format of the AOF: the bytes a client would send to apply the frame.
 */
final class RespFrameWriter {
    private RespFrameWriter() {
    }

    /** Number of bytes {@link #write} produces for {@code frame}. */
    static int encodedSize(byte[][] frame) {
        int n = 1 + digits(frame.length) + 2;
        for (byte[] a : frame) {
            n += 1 + digits(a.length) + 2 + a.length + 2;
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

    private static void writeAscii(OutputStream out, int v) throws IOException {
        out.write(Integer.toString(v).getBytes(StandardCharsets.US_ASCII));
    }

    private static int digits(int v) {
        int d = 1;
        while (v >= 10) {
            v /= 10;
            d++;
        }
        return d;
    }
}
