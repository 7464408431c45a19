package io.kevy.replication;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A small blocking RESP2 client: the replica's connection to its primary. Sends commands as arrays of bulk
 * strings and reads replies as Java values: a simple string as {@link String}, an error as {@link Error}, an
 * integer as {@link Long}, a bulk string as {@code byte[]}, a null as {@code null}, an array as {@link List}.
 *
 * <p>Limits (a primary is trusted, but a wrong address may answer anything): a bulk string up to
 * {@value #MAX_BULK} bytes, an array up to {@value #MAX_ARRAY} elements, nesting up to {@value #MAX_DEPTH}
 * levels, a line up to {@value #MAX_LINE} bytes; past any of them, or on a byte that starts no RESP2 type,
 * {@link IOException} naming what was wrong. Not thread-safe: one thread per connection.
 */
final class RespClient implements AutoCloseable {
    static final long MAX_BULK = 1L << 30;
    static final int MAX_ARRAY = 1 << 20;
    static final int MAX_DEPTH = 8;
    static final int MAX_LINE = 64 * 1024;

    /** An error reply ({@code -...}): the text after the dash. */
    record Error(String message) {
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private RespClient(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
        this.out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
    }

    /** Connects to {@code host:port} within {@code timeoutMs}; reads time out after {@code readTimeoutMs}. */
    static RespClient connect(String host, int port, int timeoutMs, int readTimeoutMs) throws IOException {
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.connect(new InetSocketAddress(host, port), timeoutMs);
            s.setSoTimeout(readTimeoutMs);
            return new RespClient(s);
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    /** The primary's end of the connection as {@code ip:port} (CLIENT LIST's {@code addr}), or "" without one. */
    String remoteAddress() {
        return socket == null ? "" : address((InetSocketAddress) socket.getRemoteSocketAddress());
    }

    /** This server's end of the connection as {@code ip:port} (CLIENT LIST's {@code laddr}), or "". */
    String localAddress() {
        return socket == null ? "" : address((InetSocketAddress) socket.getLocalSocketAddress());
    }

    private static String address(InetSocketAddress a) {
        return a == null || a.getAddress() == null ? "" : a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    /** Changes how long a read waits, ms (0: for ever); a no-op over plain streams. */
    void readTimeout(int ms) throws IOException {
        if (socket != null) {
            socket.setSoTimeout(ms);
        }
    }

    /** For tests of the parser: a client over given streams. */
    static RespClient over(InputStream in, OutputStream out) {
        return new RespClient(in, out);
    }

    private RespClient(InputStream in, OutputStream out) {
        this.socket = null;
        this.in = in;
        this.out = out;
    }

    /** Writes one command (not flushed: {@link #flush} or {@link #call}). */
    void send(Object... args) throws IOException {
        out.write(('*' + Integer.toString(args.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (Object a : args) {
            byte[] b = a instanceof byte[] bytes ? bytes : String.valueOf(a).getBytes(StandardCharsets.UTF_8);
            out.write(('$' + Integer.toString(b.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(b);
            out.write('\r');
            out.write('\n');
        }
    }

    void flush() throws IOException {
        out.flush();
    }

    /** Sends one command and reads its reply. */
    Object call(Object... args) throws IOException {
        send(args);
        flush();
        return read();
    }

    /** Reads one reply. */
    Object read() throws IOException {
        return read(0);
    }

    private Object read(int depth) throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new EOFException("connection closed by the primary");
        }
        switch (type) {
            case '+':
                return line();
            case '-':
                return new Error(line());
            case ':':
                return number(line());
            case '$': {
                long n = number(line());
                if (n == -1) {
                    return null;
                }
                if (n < 0 || n > MAX_BULK) {
                    throw new IOException("bulk length " + n + " is outside 0.." + MAX_BULK);
                }
                byte[] b = in.readNBytes((int) n);
                if (b.length != n || in.read() != '\r' || in.read() != '\n') {
                    throw new EOFException("bulk string cut short");
                }
                return b;
            }
            case '*': {
                long n = number(line());
                if (n == -1) {
                    return null;
                }
                if (n < 0 || n > MAX_ARRAY) {
                    throw new IOException("array length " + n + " is outside 0.." + MAX_ARRAY);
                }
                if (depth >= MAX_DEPTH) {
                    throw new IOException("reply nested deeper than " + MAX_DEPTH + " arrays");
                }
                List<Object> items = new ArrayList<>((int) Math.min(n, 1024));
                for (long i = 0; i < n; i++) {
                    items.add(read(depth + 1));
                }
                return items;
            }
            default:
                throw new IOException("reply starts with byte " + type + ", not a RESP2 type (+ - : $ *)");
        }
    }

    private String line() throws IOException {
        StringBuilder sb = new StringBuilder();
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("connection closed inside a reply line");
            }
            if (b == '\r') {
                if (in.read() != '\n') {
                    throw new IOException("reply line not ended by CRLF");
                }
                return sb.toString();
            }
            if (sb.length() >= MAX_LINE) {
                throw new IOException("reply line longer than " + MAX_LINE + " bytes");
            }
            sb.append((char) b);
        }
    }

    private static long number(String s) throws IOException {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new IOException("not an integer in a reply: '" + s + "'");
        }
    }

    @Override
    public void close() {
        try {
            if (socket != null) {
                socket.close();
            } else {
                in.close();
            }
        } catch (IOException ignored) {
            // closing: nothing to do
        }
    }
}
