package io.kevy.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A raw RESP client for byte-exact protocol tests: send any bytes, read one reply back as the exact bytes the
 * server wrote ({@link #readReply()} understands RESP2 and RESP3 framing, so it returns exactly one reply; a RESP3
 * attribute {@code |} is returned together with the reply it annotates).
 */
public final class RawClient implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private RawClient(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new java.io.BufferedInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    public static RawClient connect(int port) {
        try {
            Socket s = new Socket();
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(10_000);
            s.setTcpNoDelay(true);
            return new RawClient(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends raw bytes. */
    public RawClient send(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends a string as ISO-8859-1 bytes (so {@code "\r\n"} and binary escapes are literal). */
    public RawClient send(String s) {
        return send(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Sends a command encoded as a RESP multibulk. */
    public RawClient command(String... args) {
        byte[][] b = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            b[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        return send(encode(b));
    }

    /** RESP multibulk encoding of {@code args}. */
    public static byte[] encode(byte[]... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        o.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (byte[] a : args) {
            o.writeBytes(("$" + a.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            o.writeBytes(a);
            o.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        return o.toByteArray();
    }

    /** Sends a command and returns its reply as a string of the raw bytes (ISO-8859-1). */
    public String call(String... args) {
        command(args);
        return readReply();
    }

    /** Reads exactly one reply and returns its raw bytes as an ISO-8859-1 string. */
    public String readReply() {
        return new String(readReplyBytes(), StandardCharsets.ISO_8859_1);
    }

    /** Reads exactly {@code n} bytes (for checking long runs of replies at once). */
    public byte[] readBytes(int n) {
        try {
            byte[] b = in.readNBytes(n);
            if (b.length < n) {
                throw new IOException("connection closed after " + b.length + " of " + n + " bytes");
            }
            return b;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads exactly one reply and returns its raw bytes. */
    public byte[] readReplyBytes() {
        try {
            ByteArrayOutputStream o = new ByteArrayOutputStream();
            readOne(o);
            return o.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void readOne(ByteArrayOutputStream o) throws IOException {
        String line = readLine(o);
        char type = line.charAt(0);
        switch (type) {
            case '+', '-', ':', '_', '#', ',', '(' -> {
            }
            case '$', '=', '!' -> {
                int len = Integer.parseInt(line.substring(1));
                if (len >= 0) {
                    o.writeBytes(in.readNBytes(len + 2));
                }
            }
            case '*', '~', '>' -> {
                int n = Integer.parseInt(line.substring(1));
                for (int i = 0; i < n; i++) {
                    readOne(o);
                }
            }
            case '%', '|' -> {
                int n = Integer.parseInt(line.substring(1));
                for (int i = 0; i < 2 * n; i++) {
                    readOne(o);
                }
                if (type == '|') {
                    readOne(o);
                }
            }
            default -> throw new IOException("not RESP: " + line);
        }
    }

    private String readLine(ByteArrayOutputStream o) throws IOException {
        StringBuilder sb = new StringBuilder();
        int prev = -1;
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed after: " + sb);
            }
            o.write(b);
            if (prev == '\r' && b == '\n') {
                return sb.substring(0, sb.length() - 1);
            }
            sb.append((char) b);
            prev = b;
        }
    }

    /** True when the server closed the connection (reads end-of-stream within the socket timeout). */
    public boolean isClosedByServer() {
        try {
            return in.read() < 0;
        } catch (IOException e) {
            return true;
        }
    }

    /**
     * Waits (up to the socket timeout) for the server to close the connection: true at end-of-stream or a reset
     * with no byte received, false when a byte arrives first.
     *
     * @throws UncheckedIOException when the timeout passes with the connection still open
     */
    public boolean closedWithoutReply() {
        try {
            return in.read() < 0;
        } catch (java.net.SocketTimeoutException e) {
            throw new UncheckedIOException("the server neither replied nor closed the connection", e);
        } catch (IOException e) {
            return true; // reset by the server
        }
    }

    /**
     * True when reply bytes arrive within {@code ms} milliseconds (they stay unread); false when none do. For
     * asserting that a reply is held back.
     */
    public boolean replyWithin(int ms) {
        try {
            int old = socket.getSoTimeout();
            socket.setSoTimeout(ms);
            try {
                in.mark(1);
                int b = in.read();
                in.reset();
                return b >= 0;
            } catch (java.net.SocketTimeoutException e) {
                return false;
            } finally {
                socket.setSoTimeout(old);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Socket socket() {
        return socket;
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // best effort
        }
    }
}
