package io.kevy.resp;

import java.io.IOException;
import java.io.InputStream;

/**
 * Reads RESP frames (arrays of bulk strings) back from an AOF, tracking the byte position so errors can name
 * it. Distinguishes a record cut short by the end of the file ({@link Torn}: a crash mid-write) from bytes
 * that are not a frame at all ({@link Corrupt}).
 *
 * <p>Not thread-safe.
 */
public final class FrameReader {
    /** Longest accepted argument, bytes (as the server's proto-max-bulk-len cap). */
    private static final long MAX_ARG = 4L * 1024 * 1024 * 1024;
    private static final int MAX_ARGS = 64 * 1024 * 1024;

    /** The file ended inside a record that started at {@link #recordStart}. */
    public static final class Torn extends IOException {
        private static final long serialVersionUID = 1L;
        public final long recordStart;

        Torn(long recordStart) {
            super("record at byte " + recordStart + " is cut short by the end of the file");
            this.recordStart = recordStart;
        }
    }

    /** The bytes at {@link #position} are not a RESP frame. */
    public static final class Corrupt extends IOException {
        private static final long serialVersionUID = 1L;
        public final long recordStart;
        public final long position;

        Corrupt(long recordStart, long position, String what) {
            super(what + " at byte " + position + " (record starting at byte " + recordStart + ")");
            this.recordStart = recordStart;
            this.position = position;
        }
    }

    private final InputStream in;
    private long position;
    private long recordStart;

    public FrameReader(InputStream in, long startPosition) {
        this.in = in;
        this.position = startPosition;
    }

    /** Byte position of the next record. */
    public long position() {
        return position;
    }

    /**
     * Reads the next frame.
     *
     * @return the frame, or null at a clean end of file (between records)
     * @throws Torn    when the file ends inside a record
     * @throws Corrupt when the bytes are not a frame
     */
    public byte[][] next() throws IOException {
        recordStart = position;
        int first = in.read();
        if (first < 0) {
            return null;
        }
        position++;
        if (first != '*') {
            throw new Corrupt(recordStart, position - 1, "expected '*'");
        }
        long argc = readNumber();
        if (argc < 1 || argc > MAX_ARGS) {
            throw new Corrupt(recordStart, position, "bad argument count " + argc);
        }
        byte[][] frame = new byte[(int) argc][];
        for (int i = 0; i < argc; i++) {
            int t = read();
            if (t != '$') {
                throw new Corrupt(recordStart, position - 1, "expected '$'");
            }
            long len = readNumber();
            if (len < 0 || len > MAX_ARG) {
                throw new Corrupt(recordStart, position, "bad bulk length " + len);
            }
            byte[] arg = in.readNBytes((int) len);
            position += arg.length;
            if (arg.length < len) {
                throw new Torn(recordStart);
            }
            if (read() != '\r' || read() != '\n') {
                throw new Corrupt(recordStart, position - 1, "expected CRLF after bulk");
            }
            frame[i] = arg;
        }
        return frame;
    }

    private int read() throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new Torn(recordStart);
        }
        position++;
        return b;
    }

    private long readNumber() throws IOException {
        long v = 0;
        int digits = 0;
        while (true) {
            int b = read();
            if (b == '\r') {
                if (read() != '\n') {
                    throw new Corrupt(recordStart, position - 1, "expected LF");
                }
                if (digits == 0) {
                    throw new Corrupt(recordStart, position, "empty number");
                }
                return v;
            }
            if (b < '0' || b > '9' || digits > 18) {
                throw new Corrupt(recordStart, position - 1, "bad number");
            }
            v = v * 10 + (b - '0');
            digits++;
        }
    }
}
