package io.kevy.resp;

import io.kevy.engine.error.ErrorReply;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;

/**
 * Encodes replies as RESP2 straight into one output buffer, which the connection hands to Netty after each
 * read batch ({@link #take()}): pipelined replies leave in one write. Frequent replies and small headers are
 * pre-encoded; integers are written digit by digit without allocating.
 *
 * <p>Not thread-safe: one writer per connection, used on its event loop.
 */
public final class RespWriter implements ReplySink {
    private static final byte[] OK = ascii("+OK\r\n");
    private static final byte[] NULL_BULK = ascii("$-1\r\n");
    private static final byte[] NULL_ARRAY = ascii("*-1\r\n");
    private static final int CACHED = 512;
    private static final byte[][] BULK_HEADERS = headers('$');
    private static final byte[][] ARRAY_HEADERS = headers('*');
    private static final byte[][] INTEGERS = headers(':');
    private static final short CRLF = ('\r' << 8) | '\n';

    private final ByteBufAllocator alloc;
    private final byte[] digits = new byte[20];
    private ByteBuf buf;

    public RespWriter(ByteBufAllocator alloc) {
        this.alloc = alloc;
    }

    /** Bytes written and not yet taken. */
    public int pending() {
        return buf == null ? 0 : buf.readableBytes();
    }

    /** Hands over the bytes written so far (the caller writes and releases them); null when there are none. */
    public ByteBuf take() {
        ByteBuf b = buf;
        buf = null;
        if (b != null && !b.isReadable()) {
            b.release();
            return null;
        }
        return b;
    }

    /** Releases any bytes not taken (connection closed, or a reply that will not be sent). */
    @Override
    public void discard() {
        if (buf != null) {
            buf.release();
            buf = null;
        }
    }

    private ByteBuf out() {
        ByteBuf b = buf;
        if (b == null) {
            b = alloc.ioBuffer(256);
            buf = b;
        }
        return b;
    }

    @Override
    public void ok() {
        out().writeBytes(OK);
    }

    @Override
    public void simple(String s) {
        ByteBuf b = out();
        b.writeByte('+');
        b.writeCharSequence(s, StandardCharsets.ISO_8859_1);
        b.writeShort(CRLF);
    }

    @Override
    public void error(ErrorReply error) {
        out().writeBytes(error.resp());
    }

    @Override
    public void integer(long v) {
        if (v >= 0 && v < CACHED) {
            out().writeBytes(INTEGERS[(int) v]);
            return;
        }
        ByteBuf b = out();
        b.writeByte(':');
        writeLong(b, v);
        b.writeShort(CRLF);
    }

    @Override
    public void bulk(byte[] bytes) {
        bulk(bytes, 0, bytes.length);
    }

    @Override
    public void bulk(byte[] bytes, int off, int len) {
        ByteBuf b = out();
        header(b, BULK_HEADERS, '$', len);
        b.writeBytes(bytes, off, len);
        b.writeShort(CRLF);
    }

    @Override
    public void nullBulk() {
        out().writeBytes(NULL_BULK);
    }

    @Override
    public void nullArray() {
        out().writeBytes(NULL_ARRAY);
    }

    @Override
    public void array(int n) {
        header(out(), ARRAY_HEADERS, '*', n);
    }

    /** Copies the reply as it is: it is RESP2 already. */
    @Override
    public void encoded(byte[] bytes, int off, int len) {
        out().writeBytes(bytes, off, len);
    }

    /** Appends already-encoded RESP bytes (a reply produced elsewhere). */
    public void raw(ByteBuf encoded) {
        out().writeBytes(encoded);
    }

    private void header(ByteBuf b, byte[][] cache, char type, long n) {
        if (n >= 0 && n < CACHED) {
            b.writeBytes(cache[(int) n]);
        } else {
            b.writeByte(type);
            writeLong(b, n);
            b.writeShort(CRLF);
        }
    }

    private void writeLong(ByteBuf b, long v) {
        if (v == Long.MIN_VALUE) {
            b.writeBytes(ascii("-9223372036854775808"));
            return;
        }
        if (v < 0) {
            b.writeByte('-');
            v = -v;
        }
        int i = digits.length;
        do {
            digits[--i] = (byte) ('0' + (v % 10));
            v /= 10;
        } while (v != 0);
        b.writeBytes(digits, i, digits.length - i);
    }

    private static byte[][] headers(char type) {
        byte[][] h = new byte[CACHED][];
        for (int i = 0; i < CACHED; i++) {
            h[i] = ascii(type + Integer.toString(i) + "\r\n");
        }
        return h;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
