package io.kevy.resp;

import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Incremental parser of client commands: RESP multibulk ({@code *N\r\n$len\r\n...}) and inline commands
 * ({@code PING\r\n}, with Redis's quoting rules). Call {@link #parse} with the connection's cumulated input
 * as bytes arrive; it returns each complete command once, consuming exactly its bytes.
 *
 * <p>Limits (see {@link ProtocolLimits}) are checked on the headers, before anything is allocated. Nothing is
 * pre-sized from a length the client sent beyond a small cap, and a bulk string is copied only once all of it
 * has arrived, so a client that stalls half-way holds no more memory than the bytes it actually sent.
 *
 * <p>Not thread-safe: one parser per connection.
 */
public final class RespParser {
    private static final int PRESIZE_CAP = 1024;
    /** {@code \r\n} as {@link ByteBuf#getShort} reads it (big-endian). */
    private static final short CRLF = ('\r' << 8) | '\n';

    private final ProtocolLimits limits;

    /** Arguments of the multibulk being read, or null between commands. */
    private byte[][] argv;
    private int argc;
    private int expected;
    private long bulkLen = -1;
    /**
     * Where the multibulk being read starts in the input, while its bytes so far are canonical and arrived in
     * this call of {@link #parse}; -1 otherwise (see {@link #request}).
     */
    private int requestStart = -1;
    private final Received received = new Received();

    public RespParser(ProtocolLimits limits) {
        this.limits = limits;
    }

    /**
     * Parses the next complete command from {@code in}.
     *
     * @param authenticated false while a password is required and AUTH has not succeeded (Redis then allows
     *                      at most 10 arguments and 16 KiB bulks)
     * @return the command's arguments, or null when more bytes are needed (everything consumed so far is kept)
     * @throws ProtocolException on a protocol violation; the connection must be closed
     */
    public byte[][] parse(ByteBuf in, boolean authenticated) {
        received.length = -1;
        requestStart = -1; // a multibulk resumed from an earlier call: its first bytes may have been discarded
        while (true) {
            if (argv == null) {
                if (!in.isReadable()) {
                    return null;
                }
                if (in.getByte(in.readerIndex()) != '*') {
                    byte[][] inline = parseInline(in);
                    if (inline == null) {
                        return null;
                    }
                    if (inline.length == 0) {
                        continue; // empty line: ignored, as Redis does
                    }
                    return inline;
                }
                int start = in.readerIndex();
                long n = readHeader(in, "too big mbulk count string");
                if (n == Long.MIN_VALUE) {
                    return null;
                }
                requestStart = crlfBefore(in) ? start : -1;
                if (n > Integer.MAX_VALUE || n > limits.maxMultibulkLen()) {
                    throw new ProtocolException("invalid multibulk length");
                }
                if (!authenticated && n > ProtocolLimits.UNAUTHENTICATED_MULTIBULK_LEN) {
                    throw new ProtocolException("unauthenticated multibulk length");
                }
                if (n <= 0) {
                    continue; // *0 and *-1 are ignored
                }
                expected = (int) n;
                argv = new byte[Math.min(expected, PRESIZE_CAP)][];
                argc = 0;
            }
            while (argc < expected) {
                if (bulkLen < 0) {
                    if (!in.isReadable()) {
                        return null;
                    }
                    byte first = in.getByte(in.readerIndex());
                    if (first != '$') {
                        throw new ProtocolException("expected '$', got '" + (char) (first & 0xff) + "'");
                    }
                    long len = readHeader(in, "too big bulk count string");
                    if (len == Long.MIN_VALUE) {
                        return null;
                    }
                    if (len < 0 || len > limits.maxBulkLen()) {
                        throw new ProtocolException("invalid bulk length");
                    }
                    if (!authenticated && len > ProtocolLimits.UNAUTHENTICATED_BULK_LEN) {
                        throw new ProtocolException("unauthenticated bulk length");
                    }
                    bulkLen = len;
                    if (!crlfBefore(in)) {
                        requestStart = -1;
                    }
                }
                if (in.readableBytes() < bulkLen + 2) {
                    return null;
                }
                byte[] arg = new byte[(int) bulkLen];
                in.readBytes(arg);
                if (in.getShort(in.readerIndex()) != CRLF) {
                    requestStart = -1;
                }
                in.skipBytes(2); // Redis does not check the CRLF after a bulk either
                if (argc == argv.length) {
                    argv = Arrays.copyOf(argv, (int) Math.min(expected, (long) argv.length * 2));
                }
                argv[argc++] = arg;
                bulkLen = -1;
            }
            byte[][] done = argc == argv.length ? argv : Arrays.copyOf(argv, argc);
            argv = null;
            if (requestStart >= 0) {
                assert in.readerIndex() - requestStart == RespFrames.encodedSize(done) : "lengths not canonical";
                received.set(in, requestStart, in.readerIndex() - requestStart);
            }
            return done;
        }
    }

    /**
     * The bytes of the command {@link #parse} returned last, when they are the canonical RESP encoding of its
     * argv: a multibulk read in one call of {@code parse} whose headers end in {@code \r\n} and whose bulks are
     * followed by {@code \r\n} (the parser, as Redis, skips the byte after a header's {@code \r} and the two after
     * a bulk unread; lengths are canonical or refused). Null for inline commands and the others. Valid until the
     * next call of {@code parse}, while {@code in} is not changed. Checking those bytes costs the parse about 7 ns
     * per SET (JMH {@code RespCodecBench}); checking them in the copy instead cost the feed's append as much as
     * the copy saved ({@code EmitBench}).
     */
    public RequestBytes request() {
        return received.length >= 0 ? received : null;
    }

    /** Whether the header line just consumed ended in {@code \r\n} (the parser skips the byte after {@code \r}). */
    private static boolean crlfBefore(ByteBuf in) {
        return in.getByte(in.readerIndex() - 1) == '\n';
    }

    /** {@link #request}'s view of the input buffer: ints, and the buffer only when it is another one. */
    private static final class Received implements RequestBytes {
        private ByteBuf buf;
        private int start;
        private int length = -1;

        void set(ByteBuf in, int start, int length) {
            if (buf != in) {
                buf = in;
            }
            this.start = start;
            this.length = length;
        }

        @Override
        public int length() {
            return length;
        }

        @Override
        public int copyTo(byte[] dst, int pos) {
            buf.getBytes(start, dst, pos, length);
            return pos + length;
        }
    }

    /**
     * Reads a {@code <type><integer>\r\n} header line. Returns the integer, or Long.MIN_VALUE when the line is
     * incomplete (nothing consumed). The integer must be a canonical Redis integer.
     */
    private long readHeader(ByteBuf in, String tooBigMessage) {
        int start = in.readerIndex();
        int readable = in.readableBytes();
        // Fast path for the common header, 1 to 18 digits without sign or leading zero, with its CRLF arrived:
        // one pass. Anything else (and every error) goes through the general path below.
        int end = start + Math.min(readable, 21);
        int i = start + 1;
        if (i < end) {
            int d = in.getByte(i) - '0';
            if (d >= 1 && d <= 9) {
                long v = d;
                for (i++; i < end; i++) {
                    byte c = in.getByte(i);
                    if (c == '\r') {
                        if (i + 1 < start + readable) {
                            in.readerIndex(i + 2);
                            return v;
                        }
                        return Long.MIN_VALUE; // wait for the '\n'
                    }
                    d = c - '0';
                    if (d < 0 || d > 9 || i - start > 18) {
                        break;
                    }
                    v = v * 10 + d;
                }
            }
        }
        int scan = Math.min(readable, ProtocolLimits.MAX_INLINE_LEN + 1);
        int cr = in.indexOf(start, start + scan, (byte) '\r');
        if (cr < 0) {
            if (readable > ProtocolLimits.MAX_INLINE_LEN) {
                throw new ProtocolException(tooBigMessage);
            }
            return Long.MIN_VALUE;
        }
        if (cr + 1 >= start + readable) {
            return Long.MIN_VALUE; // wait for the '\n'
        }
        long v = parseLong(in, start + 1, cr);
        if (v == Long.MIN_VALUE) {
            throw new ProtocolException(tooBigMessage.contains("mbulk") ? "invalid multibulk length"
                    : "invalid bulk length");
        }
        in.readerIndex(cr + 2);
        return v;
    }

    /** Parses a canonical integer in {@code in[from, to)}; Long.MIN_VALUE when it is not one. */
    private static long parseLong(ByteBuf in, int from, int to) {
        int len = to - from;
        if (len <= 0 || len > 20) {
            return Long.MIN_VALUE;
        }
        int i = from;
        boolean negative = in.getByte(i) == '-';
        if (negative) {
            i++;
            if (i == to) {
                return Long.MIN_VALUE;
            }
        }
        byte first = in.getByte(i);
        if (first == '0') {
            return i + 1 == to && !negative ? 0 : Long.MIN_VALUE; // string2ll: no leading zeros, no "-0"
        }
        long v = 0; // accumulated negatively, as Long.parseLong does
        long limit = negative ? Long.MIN_VALUE : -Long.MAX_VALUE;
        long multmin = limit / 10;
        for (; i < to; i++) {
            int d = in.getByte(i) - '0';
            if (d < 0 || d > 9 || v < multmin) {
                return Long.MIN_VALUE;
            }
            v *= 10;
            if (v < limit + d) {
                return Long.MIN_VALUE;
            }
            v -= d;
        }
        return negative ? v : -v;
    }

    /** Parses an inline command line; null when the line is incomplete. */
    private byte[][] parseInline(ByteBuf in) {
        int start = in.readerIndex();
        int readable = in.readableBytes();
        int scan = Math.min(readable, ProtocolLimits.MAX_INLINE_LEN + 1);
        int lf = in.indexOf(start, start + scan, (byte) '\n');
        if (lf < 0) {
            if (readable > ProtocolLimits.MAX_INLINE_LEN) {
                throw new ProtocolException("too big inline request");
            }
            return null;
        }
        int end = lf;
        if (end > start && in.getByte(end - 1) == '\r') {
            end--;
        }
        byte[] line = new byte[end - start];
        in.getBytes(start, line);
        in.readerIndex(lf + 1);
        byte[][] args = splitArgs(line);
        if (args == null) {
            throw new ProtocolException("unbalanced quotes in request");
        }
        return args;
    }

    /**
     * Splits an inline line as Redis's {@code sdssplitargs}: whitespace separates arguments; {@code "..."}
     * supports {@code \n \r \t \b \a \\ \" \xHH}; {@code '...'} supports {@code \'}; a closing quote must be
     * followed by whitespace or the end. Returns null for unbalanced quotes.
     */
    static byte[][] splitArgs(byte[] line) {
        List<byte[]> out = new ArrayList<>();
        int i = 0;
        int n = line.length;
        while (true) {
            while (i < n && isSpace(line[i])) {
                i++;
            }
            if (i >= n) {
                return out.toArray(new byte[0][]);
            }
            ByteArrayOutputStream cur = new ByteArrayOutputStream();
            boolean inDq = false;
            boolean inSq = false;
            boolean done = false;
            while (!done) {
                if (inDq) {
                    if (i >= n) {
                        return null;
                    }
                    byte c = line[i];
                    if (c == '\\' && i + 3 < n && line[i + 1] == 'x' && isHex(line[i + 2]) && isHex(line[i + 3])) {
                        cur.write(Character.digit(line[i + 2], 16) * 16 + Character.digit(line[i + 3], 16));
                        i += 3;
                    } else if (c == '\\' && i + 1 < n) {
                        i++;
                        byte e = line[i];
                        cur.write(switch (e) {
                            case 'n' -> '\n';
                            case 'r' -> '\r';
                            case 't' -> '\t';
                            case 'b' -> '\b';
                            case 'a' -> 7;
                            default -> e;
                        });
                    } else if (c == '"') {
                        if (i + 1 < n && !isSpace(line[i + 1])) {
                            return null;
                        }
                        done = true;
                    } else {
                        cur.write(c);
                    }
                } else if (inSq) {
                    if (i >= n) {
                        return null;
                    }
                    byte c = line[i];
                    if (c == '\\' && i + 1 < n && line[i + 1] == '\'') {
                        i++;
                        cur.write('\'');
                    } else if (c == '\'') {
                        if (i + 1 < n && !isSpace(line[i + 1])) {
                            return null;
                        }
                        done = true;
                    } else {
                        cur.write(c);
                    }
                } else {
                    if (i >= n) {
                        done = true;
                        continue;
                    }
                    byte c = line[i];
                    if (isSpace(c)) {
                        done = true;
                    } else if (c == '"') {
                        inDq = true;
                    } else if (c == '\'') {
                        inSq = true;
                    } else {
                        cur.write(c);
                    }
                }
                if (i < n) {
                    i++;
                }
            }
            out.add(cur.toByteArray());
        }
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == 0 || c == 0x0b || c == 0x0c;
    }

    private static boolean isHex(byte c) {
        return Character.digit(c, 16) >= 0;
    }
}
