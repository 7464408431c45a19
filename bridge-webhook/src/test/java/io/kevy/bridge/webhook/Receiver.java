package io.kevy.bridge.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real webhook receiver for the tests: the JDK's HTTP server on a loopback port, answering each POST as its
 * {@link Responder} says (status, headers, body, a delay before answering) and recording every request with
 * its arrival time. It can be stopped and started again on the same port (an outage).
 */
final class Receiver implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One request as received. */
    record Received(int n, String id, String timestamp, String signature, Map<String, List<String>> headers,
            byte[] body, long atNanos, int answered) {
        String header(String name) {
            for (Map.Entry<String, List<String>> e : headers.entrySet()) {
                if (e.getKey().equalsIgnoreCase(name)) {
                    return e.getValue().get(0);
                }
            }
            return null;
        }

        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        boolean accepted() {
            return answered >= 200 && answered < 300;
        }
    }

    /** An answer. */
    record Reply(int status, Map<String, String> headers, String body, long delayMillis) {
        static Reply ok() {
            return new Reply(204, Map.of(), "", 0);
        }

        static Reply status(int status) {
            return new Reply(status, Map.of(), "", 0);
        }
    }

    /** Decides the answer to request number {@code n} (from 0). */
    interface Responder {
        Reply reply(int n, Received request);
    }

    final List<Received> requests = new CopyOnWriteArrayList<>();
    /** False: do not record requests, only count them and their events (throughput runs). */
    volatile boolean record = true;
    final java.util.concurrent.atomic.AtomicLong events = new java.util.concurrent.atomic.AtomicLong();
    final java.util.concurrent.atomic.AtomicLong bytes = new java.util.concurrent.atomic.AtomicLong();
    volatile Responder responder = (n, r) -> Reply.ok();
    private final AtomicInteger count = new AtomicInteger();
    private final java.util.concurrent.ConcurrentHashMap<Integer, AtomicInteger> inFlight =
            new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.ConcurrentHashMap<Integer, Integer> maxInFlight =
            new java.util.concurrent.ConcurrentHashMap<>();
    private static final java.util.regex.Pattern COUNT = java.util.regex.Pattern.compile("\"count\":(\\d+)");
    private static final java.util.regex.Pattern SHARD =
            java.util.regex.Pattern.compile("\"data\":\\{\"shard\":(\\d+)");
    private final ExecutorService pool = Executors.newFixedThreadPool(8, r -> {
        Thread t = new Thread(r, "receiver");
        t.setDaemon(true);
        return t;
    });
    private volatile HttpServer server;
    private int port;

    Receiver() {
        start(0);
    }

    private synchronized void start(int p) {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), p), 64);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/hook", this::handle);
        server.setExecutor(pool);
        server.start();
        port = server.getAddress().getPort();
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + port + "/hook");
    }

    /** Stops listening (connections are refused) until {@link #restart()}. */
    synchronized void stop() {
        server.stop(0);
    }

    /** Listens again on the same port. */
    synchronized void restart() {
        start(port);
    }

    private void handle(HttpExchange ex) throws IOException {
        long at = System.nanoTime();
        byte[] body = ex.getRequestBody().readAllBytes();
        int lane = lane(body);
        int now = inFlight.computeIfAbsent(lane, l -> new AtomicInteger()).incrementAndGet();
        maxInFlight.merge(lane, now, Math::max);
        var h = ex.getRequestHeaders();
        int n = count.getAndIncrement();
        Received provisional = new Received(n, h.getFirst("webhook-id"), h.getFirst("webhook-timestamp"),
                h.getFirst("webhook-signature"), Map.copyOf(h), body, at, 0);
        Reply reply;
        boolean counted = true;
        try {
            reply = responder.reply(n, provisional);
        } catch (RuntimeException e) {
            reply = new Reply(500, Map.of(), e.toString(), 0);
        }
        if (record) {
            requests.add(new Received(n, provisional.id(), provisional.timestamp(), provisional.signature(),
                    provisional.headers(), body, at, reply.status()));
        }
        if (reply.status() >= 200 && reply.status() < 300) {
            bytes.addAndGet(body.length);
            java.util.regex.Matcher m = COUNT.matcher(new String(body, 0, Math.min(body.length, 400),
                    StandardCharsets.UTF_8));
            if (m.find()) {
                events.addAndGet(Long.parseLong(m.group(1)));
            }
        }
        try {
            if (reply.delayMillis() > 0) {
                Thread.sleep(reply.delayMillis());
            }
            reply.headers().forEach((k, v) -> ex.getResponseHeaders().add(k, v));
            // the request ends for the sender when the answer leaves: count it out before sending
            inFlight.get(lane).decrementAndGet();
            counted = false;
            byte[] out = reply.body().getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(reply.status(), out.length == 0 ? -1 : out.length);
            if (out.length > 0) {
                try (OutputStream os = ex.getResponseBody()) {
                    os.write(out);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // the client gave up (a timeout test)
        } finally {
            if (counted) {
                inFlight.get(lane).decrementAndGet();
            }
            ex.close();
        }
    }

    /** The shard of a changes request (from the start of its body), -1 for other requests. */
    private static int lane(byte[] body) {
        String head = new String(body, 0, Math.min(body.length, 160), StandardCharsets.UTF_8);
        java.util.regex.Matcher m = SHARD.matcher(head);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    /** The most requests of one shard (or of the rebuild lane, -1) that were being handled at once. */
    Map<Integer, Integer> maxInFlight() {
        return Map.copyOf(maxInFlight);
    }

    /** The accepted requests (2xx). */
    List<Received> accepted() {
        return requests.stream().filter(Received::accepted).toList();
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
        try {
            pool.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
