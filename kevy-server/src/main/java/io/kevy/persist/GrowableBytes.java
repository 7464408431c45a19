package io.kevy.persist;

import io.kevy.resp.EncodedEffect;
import io.kevy.resp.RespFrames;
import java.io.OutputStream;
import java.util.Arrays;

/** An unsynchronised byte accumulator whose array can be handed over without a copy. */
final class GrowableBytes extends OutputStream {
    private byte[] buf;
    private int size;

    GrowableBytes(int initial) {
        buf = new byte[initial];
    }

    @Override
    public void write(int b) {
        ensure(1);
        buf[size++] = (byte) b;
    }

    /**
     * Appends {@code b[off, off + len)}.
     *
     * @throws IllegalArgumentException when the buffer would pass the largest Java array
     */
    @Override
    public void write(byte[] b, int off, int len) {
        reserve(len);
        System.arraycopy(b, off, buf, size, len);
        size += len;
    }

    /**
     * Appends a frame's encoding that the shard has already ({@link EncodedEffect}: the request's bytes or the
     * feed backlog's copy).
     *
     * @throws IllegalArgumentException when the buffer would pass the largest Java array
     */
    void write(EncodedEffect encoded) {
        int len = encoded.length();
        reserve(len);
        size = encoded.copyTo(buf, size);
    }

    /** Appends the RESP encoding of {@code frame} ({@link RespFrames#encode}) in place. */
    void writeFrame(byte[][] frame) {
        reserve(RespFrames.encodedSize(frame));
        size = RespFrames.encode(buf, size, frame);
    }

    /**
     * Makes room for a frame of {@code len} bytes.
     *
     * @throws IllegalArgumentException when the buffer would pass the largest Java array
     */
    private void reserve(long len) {
        if (len > Integer.MAX_VALUE - 8 - size) {
            throw new IllegalArgumentException("frame of " + len + " bytes");
        }
        ensure((int) len);
    }

    private void ensure(int more) {
        if (size + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
        }
    }

    void reset() {
        size = 0;
    }

    int size() {
        return size;
    }

    byte[] array() {
        return buf;
    }
}
