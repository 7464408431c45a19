package io.kevy.resp;

import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.text.RedisNumbers;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;

/**
 * Encodes replies as RESP2, or as RESP3 once the connection chose protocol 3 ({@link #protocol(int)}), straight
 * into one output buffer, which the connection hands to Netty after each read batch ({@link #take()}): pipelined
 * replies leave in one write. Frequent replies and small headers are
 * pre-encoded; integers are written digit by digit without allocating. The protocol is one field read per RESP3
 * type: RESP2 output is byte for byte what it was before RESP3 existed.
 *
 * <p>Not thread-safe: one writer per connection, used on its event loop.
 */
public final class RespWriter implements ReplySink {
    private static final byte[] OK = ascii("+OK\r\n");
    private static final byte[] NULL_BULK = ascii("$-1\r\n");
    private static final byte[] NULL_ARRAY = ascii("*-1\r\n");
    private static final byte[] NULL = ascii("_\r\n");
    private static final byte[] TRUE = ascii("#t\r\n");
    private static final byte[] FALSE = ascii("#f\r\n");
    private static final byte[] PAIR = ascii("*2\r\n");
    private static final int CACHED = 512;
    private static final byte[][] BULK_HEADERS = headers('$');
    private static final byte[][] ARRAY_HEADERS = headers('*');
    private static final byte[][] INTEGERS = headers(':');
    private static final short CRLF = ('\r' << 8) | '\n';

    private final ByteBufAllocator alloc;
    private final byte[] digits = new byte[20];
    private ByteBuf buf;
    private boolean resp3;

    public RespWriter(ByteBufAllocator alloc) {
        this.alloc = alloc;
    }

    /** A writer of {@code protocol} (2 or 3), e.g. for a blocked command's reply on a RESP3 connection. */
    public RespWriter(ByteBufAllocator alloc, int protocol) {
        this.alloc = alloc;
        protocol(protocol);
    }

    @Override
    public void protocol(int version) {
        resp3 = version == 3;
    }

    @Override
    public int protocol() {
        return resp3 ? 3 : 2;
    }

    /** Bytes written and not yet taken. */
    public int pending() {
        return buf == null ? 0 : buf.readableBytes();
    }

    @Override
    public long bufferedBytes() {
        return pending();
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
        out().writeBytes(resp3 ? NULL : NULL_BULK);
    }

    @Override
    public void nullArray() {
        out().writeBytes(resp3 ? NULL : NULL_ARRAY);
    }

    @Override
    public void array(int n) {
        header(out(), ARRAY_HEADERS, '*', n);
    }

    @Override
    public void map(int n) {
        if (resp3) {
            header(out(), null, '%', n);
        } else {
            array(2 * n);
        }
    }

    @Override
    public void set(int n) {
        if (resp3) {
            header(out(), null, '~', n);
        } else {
            array(n);
        }
    }

    @Override
    public void push(int n) {
        if (resp3) {
            header(out(), null, '>', n);
        } else {
            array(n);
        }
    }

    @Override
    public void attribute(int n) {
        if (!resp3) {
            throw new UnsupportedOperationException("attributes are RESP3 only");
        }
        header(out(), null, '|', n);
    }

    @Override
    public void pairs(int n) {
        array(resp3 ? n : 2 * n);
    }

    @Override
    public void pair() {
        if (resp3) {
            out().writeBytes(PAIR);
        }
    }

    @Override
    public void keyedMap(int n) {
        if (resp3) {
            header(out(), null, '%', n);
        } else {
            array(n);
        }
    }

    @Override
    public void keyedEntry() {
        if (!resp3) {
            out().writeBytes(PAIR);
        }
    }

    @Override
    public void doubleValue(double d) {
        if (resp3) {
            ByteBuf b = out();
            b.writeByte(',');
            b.writeCharSequence(RedisNumbers.formatDouble(d), StandardCharsets.US_ASCII);
            b.writeShort(CRLF);
        } else {
            bulkDouble(d);
        }
    }

    @Override
    public void doubleText(byte[] text) {
        if (resp3) {
            ByteBuf b = out();
            b.writeByte(',');
            b.writeBytes(text);
            b.writeShort(CRLF);
        } else {
            bulk(text);
        }
    }

    @Override
    public void bool(boolean v) {
        if (resp3) {
            out().writeBytes(v ? TRUE : FALSE);
        } else {
            integer(v ? 1 : 0);
        }
    }

    @Override
    public void bigNumber(byte[] digits) {
        if (resp3) {
            ByteBuf b = out();
            b.writeByte('(');
            b.writeBytes(digits);
            b.writeShort(CRLF);
        } else {
            bulk(digits);
        }
    }

    @Override
    public void verbatim(byte[] text, String format) {
        if (resp3) {
            ByteBuf b = out();
            b.writeByte('=');
            writeLong(b, text.length + 4L);
            b.writeShort(CRLF);
            b.writeCharSequence(format, StandardCharsets.US_ASCII);
            b.writeByte(':');
            b.writeBytes(text);
            b.writeShort(CRLF);
        } else {
            bulk(text);
        }
    }

    /**
     * Copies the reply as it is: it is made of arrays, integers and bulk strings, which RESP3 writes as RESP2
     * does.
     */
    @Override
    public void encoded(byte[] bytes, int off, int len) {
        out().writeBytes(bytes, off, len);
    }

    /**
     * Appends a Pub/Sub message encoded once as a RESP2 array ({@code *<n>...}): as it is on RESP2, as a push
     * frame ({@code ><n>...}, the same bytes after the type byte) on RESP3.
     */
    public void pushEncoded(byte[] array) {
        if (resp3) {
            ByteBuf b = out();
            b.writeByte('>');
            b.writeBytes(array, 1, array.length - 1);
        } else {
            out().writeBytes(array);
        }
    }

    @Override
    public void pushFrame(byte[] frame) {
        out().writeBytes(frame);
    }

    /** Appends already-encoded RESP bytes (a reply produced elsewhere). */
    public void raw(ByteBuf encoded) {
        out().writeBytes(encoded);
    }

    private void header(ByteBuf b, byte[][] cache, char type, long n) {
        if (cache != null && n >= 0 && n < CACHED) {
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
