package io.kevy.persist;

import io.kevy.engine.RespFrames;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Encodes effect frames as RESP arrays of bulk strings ({@code *<n>\r\n$<len>\r\n<arg>\r\n...}), the record
 * format of the AOF: the bytes a client would send to apply the frame.
 */
final class RespFrameWriter {
    private RespFrameWriter() {
    }

    /**
     * Writes {@code frame} to {@code out}: in place into a {@link GrowableBytes} (the AOF's pending buffer),
     * else through one array of the encoded size (snapshot files, written off the command threads).
     */
    static void write(byte[][] frame, OutputStream out) throws IOException {
        if (out instanceof GrowableBytes g) {
            g.writeFrame(frame);
            return;
        }
        long n = RespFrames.encodedSize(frame);
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("frame of " + n + " bytes");
        }
        byte[] b = new byte[(int) n];
        RespFrames.encode(b, 0, frame);
        out.write(b);
    }
}
