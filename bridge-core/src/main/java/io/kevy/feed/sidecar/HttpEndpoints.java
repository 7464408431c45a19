package io.kevy.feed.sidecar;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kevy.feed.client.envelope.ChangeEnvelopes;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The sidecar's HTTP endpoints on the JDK's {@link HttpServer}: {@code GET /healthz} (200 while the process is
 * alive and the consumer not FAILED, else 503), {@code GET /readyz} (200 or 503 with a JSON body naming the
 * reasons and each shard's cursor and tail) and {@code GET /metrics} (the Prometheus text format). One daemon
 * thread serves them. Thread-safe.
 */
final class HttpEndpoints implements AutoCloseable {
    /** The Prometheus text exposition format. */
    static final String PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer server;
    private final ExecutorService executor;

    HttpEndpoints(String bind, int port, BooleanSupplier alive, ReadinessMonitor readiness,
            Supplier<String> metrics) throws IOException {
        server = HttpServer.create(new InetSocketAddress(bind, port), 16);
        executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "kevy-bridge-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/healthz", ex -> {
            boolean ok = alive.getAsBoolean();
            reply(ex, ok ? 200 : 503, "text/plain; charset=utf-8", ok ? "ok\n" : "failed\n");
        });
        server.createContext("/readyz", ex -> {
            var json = readiness.json();
            reply(ex, json.path("ready").asBoolean() ? 200 : 503, "application/json",
                    ChangeEnvelopes.mapper().writeValueAsString(json) + "\n");
        });
        server.createContext("/metrics", ex -> reply(ex, 200, PROMETHEUS_CONTENT_TYPE, metrics.get()));
        server.start();
    }

    /** The port the server listens on (the chosen one when configured as 0). */
    int port() {
        return server.getAddress().getPort();
    }

    private static void reply(HttpExchange ex, int status, String type, String body) throws IOException {
        try (ex) {
            if (!ex.getRequestMethod().equals("GET") && !ex.getRequestMethod().equals("HEAD")) {
                ex.sendResponseHeaders(405, -1);
                return;
            }
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", type);
            boolean head = ex.getRequestMethod().equals("HEAD");
            ex.sendResponseHeaders(status, head ? -1 : b.length);
            if (!head) {
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(b);
                }
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
