package io.kevy.resp;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Encodes effect frames as RESP arrays of bulk strings ({@code *<n>\r\n$<len>\r\n<arg>\r\n...}), the record
 * format of the AOF: the bytes a client would send to apply the frame.
 */
public final class RespFrameWriter {
    private RespFrameWriter() {
    }

    /**
     * Writes {@code frame} to {@code out} through one array of the encoded size (snapshot files, written off
     * the command threads; the AOF writer encodes in place with {@code GrowableBytes.writeFrame}).
     */
    public static void write(byte[][] frame, OutputStream out) throws IOException {
        long n = RespFrames.encodedSize(frame);
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("frame of " + n + " bytes");
        }
        byte[] b = new byte[(int) n];
        RespFrames.encode(b, 0, frame);
        out.write(b);
    }
}
