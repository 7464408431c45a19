package io.kevy.feed.client.support;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A RESP2 TCP proxy in front of a real kevy server that answers {@code FEED.READ ... BLOCK ms} and
 * {@code FEED.READ ... DURABLE} with {@code -ERR syntax error}, as upstream kevy does (feed contract §4), answers
 * {@code HELLO} with a version other than 2 with {@code -NOPROTO}, as a RESP2-only server does (so lettuce's
 * fallback to RESP2 is exercised), and relays every other command and its reply byte for byte. It handles one command at a time per connection (replies stay in order under lettuce's
 * pipelining) and counts the FEED.READ commands it saw. For tests only.
 */
public final class NoBlockProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final int target;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    /** FEED.READ commands with BLOCK, answered {@code -ERR syntax error}. */
    public final AtomicInteger blockRejected = new AtomicInteger();
    /** FEED.READ commands with DURABLE, answered {@code -ERR syntax error}. */
    public final AtomicInteger durableRejected = new AtomicInteger();
    /** FEED.READ commands without BLOCK, relayed. */
    public final AtomicInteger reads = new AtomicInteger();

    /** EXEC commands relayed (a rebuild's reads without FEED.VALUE: one per transaction). */
    public final AtomicInteger execs = new AtomicInteger();

    /** FEED.VALUE commands answered {@code -ERR unknown command} ({@link #upstream} only). */
    public final AtomicInteger feedValueRejected = new AtomicInteger();
    /** MULTI commands answered {@code -ERR unknown command} ({@link #withoutMulti} only). */
    public final AtomicInteger multiRejected = new AtomicInteger();
    private final boolean noFeedValue;
    private final boolean noMulti;

    /** Listens on a free loopback port and relays to {@code 127.0.0.1:targetPort}. */
    public NoBlockProxy(int targetPort) throws IOException {
        this(targetPort, false, false);
    }

    /**
     * As {@link #NoBlockProxy(int)}, and FEED.VALUE is answered {@code -ERR unknown command 'FEED.VALUE', with
     * args beginning with: ...} (Redis 7.0's text for an unknown command), as upstream kevy, which has no
     * FEED.VALUE: the whole upstream protocol of a rebuild (FEED.TAIL, then the plain reads).
     */
    public static NoBlockProxy upstream(int targetPort) throws IOException {
        return new NoBlockProxy(targetPort, true, false);
    }

    /**
     * As {@link #upstream}, and MULTI is answered {@code -ERR unknown command} too (the commands after it run one
     * by one, EXEC answers {@code EXEC without MULTI}): a server without transactions, where a rebuild's reads
     * fall back to FEED.TAIL, then the plain reads.
     */
    public static NoBlockProxy withoutMulti(int targetPort) throws IOException {
        return new NoBlockProxy(targetPort, true, true);
    }

    private NoBlockProxy(int targetPort, boolean noFeedValue, boolean noMulti) throws IOException {
        this.noFeedValue = noFeedValue;
        this.noMulti = noMulti;
        this.target = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::accept, "no-block-proxy");
        t.setDaemon(true);
        t.start();
    }

    /** {@code redis://127.0.0.1:<proxy port>}. */
    public String uri() {
        return "redis://127.0.0.1:" + listener.getLocalPort();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                sockets.add(client);
                Thread t = new Thread(() -> relay(client), "no-block-proxy-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void relay(Socket client) {
        try (client; Socket server = new Socket(InetAddress.getLoopbackAddress(), target)) {
            sockets.add(server);
            client.setTcpNoDelay(true);
            server.setTcpNoDelay(true);
            InputStream fromClient = new BufferedInputStream(client.getInputStream());
            InputStream fromServer = new BufferedInputStream(server.getInputStream());
            OutputStream toClient = client.getOutputStream();
            OutputStream toServer = server.getOutputStream();
            while (true) {
                ByteArrayOutputStream raw = new ByteArrayOutputStream();
                List<String> argv = command(fromClient, raw);
                if (argv.size() >= 2 && argv.get(0).equalsIgnoreCase("HELLO") && !argv.get(1).equals("2")) {
                    toClient.write("-NOPROTO unsupported protocol version\r\n".getBytes(StandardCharsets.US_ASCII));
                    toClient.flush();
                    continue;
                }
                boolean durable = isDurableRead(argv);
                if (durable || isBlockRead(argv)) {
                    (durable ? durableRejected : blockRejected).incrementAndGet();
                    toClient.write("-ERR syntax error\r\n".getBytes(StandardCharsets.US_ASCII));
                    toClient.flush();
                    continue;
                }
                boolean multi = noMulti && !argv.isEmpty() && argv.get(0).equalsIgnoreCase("MULTI");
                if (multi || noFeedValue && !argv.isEmpty() && argv.get(0).equalsIgnoreCase("FEED.VALUE")) {
                    (multi ? multiRejected : feedValueRejected).incrementAndGet();
                    StringBuilder err = new StringBuilder("-ERR unknown command '" + argv.get(0).toUpperCase(
                            java.util.Locale.ROOT) + "', with args beginning with: ");
                    for (String a : argv.subList(1, argv.size())) {
                        err.append('\'').append(a).append("' ");
                    }
                    toClient.write(err.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
                    toClient.flush();
                    continue;
                }
                if (!argv.isEmpty() && argv.get(0).equalsIgnoreCase("FEED.READ")) {
                    reads.incrementAndGet();
                }
                if (!argv.isEmpty() && argv.get(0).equalsIgnoreCase("EXEC")) {
                    execs.incrementAndGet();
                }
                raw.writeTo(toServer);
                toServer.flush();
                ByteArrayOutputStream reply = new ByteArrayOutputStream();
                reply(fromServer, reply);
                reply.writeTo(toClient);
                toClient.flush();
            }
        } catch (IOException e) {
            // a side closed the connection: the other side is closed with it
        }
    }

    private static boolean isDurableRead(List<String> argv) {
        return !argv.isEmpty() && argv.get(0).equalsIgnoreCase("FEED.READ")
                && argv.stream().skip(4).anyMatch(a -> a.equalsIgnoreCase("DURABLE"));
    }

    private static boolean isBlockRead(List<String> argv) {
        if (argv.isEmpty() || !argv.get(0).equalsIgnoreCase("FEED.READ")) {
            return false;
        }
        // options start after shard, generation, offset and take one value each
        for (int i = 4; i < argv.size(); i += 2) {
            if (argv.get(i).equalsIgnoreCase("BLOCK")) {
                return true;
            }
        }
        return false;
    }

    /** Reads one command (a RESP array of bulk strings), copying its bytes to {@code raw}. */
    private static List<String> command(InputStream in, ByteArrayOutputStream raw) throws IOException {
        String head = line(in, raw);
        if (head.charAt(0) != '*') {
            throw new IOException("not a RESP array: " + head);
        }
        int n = Integer.parseInt(head.substring(1));
        List<String> argv = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String len = line(in, raw);
            byte[] b = in.readNBytes(Integer.parseInt(len.substring(1)) + 2);
            raw.write(b);
            argv.add(new String(b, 0, b.length - 2, StandardCharsets.ISO_8859_1));
        }
        return argv;
    }

    /** Copies one complete RESP2 reply from {@code in} to {@code out}. */
    private static void reply(InputStream in, ByteArrayOutputStream out) throws IOException {
        String head = line(in, out);
        switch (head.charAt(0)) {
            case '+', '-', ':' -> { }
            case '$' -> {
                int len = Integer.parseInt(head.substring(1));
                if (len >= 0) {
                    out.write(in.readNBytes(len + 2));
                }
            }
            case '*' -> {
                int n = Integer.parseInt(head.substring(1));
                for (int i = 0; i < n; i++) {
                    reply(in, out);
                }
            }
            default -> throw new IOException("unexpected reply: " + head);
        }
    }

    /** Reads a CRLF-terminated line, copying it to {@code raw}; returns it without the CRLF. */
    private static String line(InputStream in, ByteArrayOutputStream raw) throws IOException {
        StringBuilder sb = new StringBuilder();
        int prev = -1;
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException();
            }
            raw.write(b);
            if (prev == '\r' && b == '\n') {
                sb.setLength(sb.length() - 1);
                return sb.toString();
            }
            sb.append((char) b);
            prev = b;
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket s : sockets) {
            s.close();
        }
    }
}
