package io.kevy.examples.cache;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * A small HTTP service (the JDK's {@link HttpServer}) serving a {@link HashCache}:
 * <ul>
 *   <li>{@code GET <route><id>} (e.g. {@code /users/42}): 200 with the hash as a JSON object
 *       ({@code {"id":"42","fields":{"name":"Ada",...}}}), 404 when the key does not exist;</li>
 *   <li>{@code GET /health}: 200 with the invalidator's health as JSON ({@code state}, {@code caughtUp},
 *       {@code maxLag}, cache {@code entries}, {@code loads}, {@code invalidations}), 503 when its consumer
 *       failed;</li>
 *   <li>anything else: 404; a method other than GET: 405; a failed load from kevy: 503.</li>
 * </ul>
 * Thread-safe; requests run on a small fixed pool. {@link #close()} stops it at once.
 */
public final class HashService implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    static {
        // The JDK server writes headers and body separately; without TCP_NODELAY a keep-alive client waits for
        // the delayed ACK (about 40 ms per request). Read once, when the first HttpServer is created.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
    }

    private final HttpServer server;
    private final ExecutorService pool;

    private HashService(HttpServer server, ExecutorService pool) {
        this.server = server;
        this.pool = pool;
    }

    /**
     * Binds {@code address} (port 0 = any free port) and starts serving.
     *
     * @param route  the path before the id, starting and ending with {@code /} (e.g. {@code /users/})
     * @param health the health document's source (called per request)
     * @throws IOException when the address cannot be bound
     */
    public static HashService start(InetSocketAddress address, String route, HashCache cache,
            Supplier<ObjectNode> health) throws IOException {
        if (!route.startsWith("/") || !route.endsWith("/") || route.length() < 2) {
            throw new IllegalArgumentException("route must look like /users/, got '" + route + "'");
        }
        HttpServer server = HttpServer.create(address, 64);
        ExecutorService pool = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "hash-service");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(pool);
        server.createContext(route, ex -> serve(ex, () -> item(ex, route, cache)));
        server.createContext("/health", ex -> serve(ex, () -> {
            ObjectNode h = health.get();
            boolean failed = "FAILED".equals(h.path("state").asText());
            return new Reply(failed ? 503 : 200, h);
        }));
        server.createContext("/", ex -> serve(ex, () -> notFound("no such path")));
        server.start();
        return new HashService(server, pool);
    }

    /** The health document of an invalidator and its cache. */
    public static ObjectNode health(CacheInvalidator invalidator, HashCache cache) {
        var h = invalidator.consumer().health();
        ObjectNode o = JSON.createObjectNode();
        o.put("state", h.state().name());
        o.put("caughtUp", h.caughtUp());
        o.put("maxLag", h.maxLag());
        o.put("entries", cache.size());
        o.put("loads", cache.loads());
        o.put("invalidations", cache.invalidations());
        o.put("rebuilds", invalidator.rebuilds());
        if (h.failure() != null) {
            o.put("failure", h.failure());
        }
        return o;
    }

    /** The bound port. */
    public int port() {
        return server.getAddress().getPort();
    }

    private record Reply(int status, ObjectNode body) {
    }

    private static Reply item(HttpExchange ex, String route, HashCache cache) {
        String raw = ex.getRequestURI().getRawPath().substring(route.length());
        if (raw.isEmpty() || raw.contains("/")) {
            return notFound("expected " + route + "<id>");
        }
        String id = URLDecoder.decode(raw, StandardCharsets.UTF_8);
        Optional<Map<String, String>> fields = cache.get(id);
        if (fields.isEmpty()) {
            return notFound("no " + cache.prefix() + id);
        }
        ObjectNode o = JSON.createObjectNode();
        o.put("id", id);
        ObjectNode f = o.putObject("fields");
        fields.get().forEach(f::put);
        return new Reply(200, o);
    }

    private static Reply notFound(String why) {
        return new Reply(404, JSON.createObjectNode().put("error", why));
    }

    private static void serve(HttpExchange ex, Supplier<Reply> handler) throws IOException {
        Reply reply;
        try {
            reply = "GET".equals(ex.getRequestMethod()) ? handler.get()
                    : new Reply(405, JSON.createObjectNode().put("error", "only GET"));
        } catch (RuntimeException e) {
            reply = new Reply(503, JSON.createObjectNode().put("error", "kevy read failed: " + e.getMessage()));
        }
        byte[] body = JSON.writeValueAsBytes(reply.body());
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(reply.status(), body.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
    }

    /** Stops serving at once and ends the request threads. */
    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }
}
