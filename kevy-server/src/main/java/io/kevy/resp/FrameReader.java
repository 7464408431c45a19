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
    /**
     * Longest accepted argument, bytes: the largest byte array a JVM allocates (a stored value can be no longer;
     * the server's proto-max-bulk-len may be configured up to 4 GiB, but no argument above this was ever held).
     */
    public static final long MAX_ARG = Integer.MAX_VALUE - 8;
    /** Most arguments in one record (as the server's proto-max-multibulk-len cap). */
    public static final long MAX_ARGS = 64L * 1024 * 1024;
    /** Argument slots allocated before the arguments are read: a hostile count cannot allocate more. */
    private static final int INITIAL_SLOTS = 1024;

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
        /** What is wrong, without the position (e.g. {@code "expected '*'"}). */
        public final String what;

        Corrupt(long recordStart, long position, String what) {
            super(what + " at byte " + position + " (record starting at byte " + recordStart + ")");
            this.recordStart = recordStart;
            this.position = position;
            this.what = what;
        }
    }

    private final InputStream in;
    /** The file's length: a bulk claimed to run past it is torn without reading (or allocating) it. */
    private final long end;
    private long position;
    private long recordStart;

    /**
     * @param in            the bytes, positioned at {@code startPosition}
     * @param startPosition the byte offset of {@code in}'s first byte in its file (for error messages)
     * @param end           the file's length, bytes ({@link Long#MAX_VALUE} when unknown)
     */
    public FrameReader(InputStream in, long startPosition, long end) {
        this.in = in;
        this.position = startPosition;
        this.end = end;
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
            throw new Corrupt(recordStart, position - 1, "expected '*' at the start of a record, found "
                    + describe(first));
        }
        long countAt = position;
        long argc = readNumber("argument count");
        if (argc < 1 || argc > MAX_ARGS) {
            throw new Corrupt(recordStart, countAt, "argument count " + argc + " is outside 1.." + MAX_ARGS);
        }
        byte[][] frame = new byte[(int) Math.min(argc, INITIAL_SLOTS)][];
        for (int i = 0; i < argc; i++) {
            int t = read();
            if (t != '$') {
                throw new Corrupt(recordStart, position - 1, "expected '$' before argument " + (i + 1) + " of "
                        + argc + ", found " + describe(t));
            }
            long lengthAt = position;
            long len = readNumber("bulk length");
            if (len > MAX_ARG) {
                throw new Corrupt(recordStart, lengthAt, "bulk length " + len + " is over the longest value kevy "
                        + "holds (" + MAX_ARG + " bytes)");
            }
            if (i == frame.length) {
                frame = java.util.Arrays.copyOf(frame, (int) Math.min(argc, 2L * frame.length));
            }
            if (len + 2 > end - position) {
                throw new Torn(recordStart);
            }
            byte[] arg = in.readNBytes((int) len);
            position += arg.length;
            if (arg.length < len) {
                throw new Torn(recordStart);
            }
            int cr = read();
            if (cr != '\r') {
                throw new Corrupt(recordStart, position - 1, "expected CR after a bulk of " + len + " bytes, found "
                        + describe(cr));
            }
            int lf = read();
            if (lf != '\n') {
                throw new Corrupt(recordStart, position - 1, "expected LF after a bulk of " + len + " bytes, found "
                        + describe(lf));
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

    /** A decimal of at most 18 digits (so it cannot overflow a long) ended by CRLF; never negative. */
    private long readNumber(String what) throws IOException {
        long start = position;
        long v = 0;
        int digits = 0;
        while (true) {
            int b = read();
            if (b == '\r') {
                int lf = read();
                if (lf != '\n') {
                    throw new Corrupt(recordStart, position - 1, "expected LF after the " + what + ", found "
                            + describe(lf));
                }
                if (digits == 0) {
                    throw new Corrupt(recordStart, position - 2, "empty " + what);
                }
                return v;
            }
            if (b < '0' || b > '9') {
                throw new Corrupt(recordStart, position - 1, "expected a digit of the " + what + ", found "
                        + describe(b));
            }
            if (digits == 18) {
                throw new Corrupt(recordStart, start, what + " has more than 18 digits");
            }
            v = v * 10 + (b - '0');
            digits++;
        }
    }

    private static String describe(int b) {
        return b >= 0x21 && b < 0x7f ? "'" + (char) b + "'" : String.format("byte 0x%02x", b);
    }
}
