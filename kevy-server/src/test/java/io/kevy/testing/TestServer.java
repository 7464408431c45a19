package io.kevy.testing;

import io.kevy.server.KevyServer;
import io.kevy.server.config.ConfigLoader;
import io.kevy.server.config.ServerConfig;
import io.kevy.server.config.ServerOption;
import io.kevy.server.config.ServerOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A kevy-server started in-process on a free loopback port with a temporary data directory, plus lettuce
 * and raw-socket clients to it. Closing it closes the clients, stops the server and deletes the directory.
 *
 * <pre>{@code
 * try (TestServer server = TestServer.start(c -> c.with(ServerOptions.SHARDS, 4))) {
 *     RedisCommands<String, String> redis = server.lettuce();
 *     ...
 * }
 * }</pre>
 */
public final class TestServer implements AutoCloseable {
    private final KevyServer server;
    private final Path dir;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private RedisClient client;

    private TestServer(KevyServer server, Path dir) {
        this.server = server;
        this.dir = dir;
    }

    /** A server with defaults (2 shards, no AOF, no save rules, port 0). */
    public static TestServer start() {
        return start(c -> c);
    }

    /** A server whose config is the defaults (2 shards, no AOF, port 0) adjusted by {@code customizer}. */
    public static TestServer start(java.util.function.UnaryOperator<ServerConfig> customizer) {
        return start(ServerConfig.defaults(), customizer);
    }

    /**
     * A server started from the TOML file {@code toml} (its config file: CONFIG REWRITE writes it), with the test
     * defaults (2 shards, no AOF, port 0, a temporary data directory) over it, then {@code customizer}.
     */
    public static TestServer fromFile(Path toml, java.util.function.UnaryOperator<ServerConfig> customizer) {
        return start(ConfigLoader.load(toml, java.util.Map.of(), java.util.Map.of()), customizer);
    }

    private static TestServer start(ServerConfig base, java.util.function.UnaryOperator<ServerConfig> customizer) {
        try {
            Path dir = Files.createTempDirectory("kevy-test");
            ServerConfig cfg = base
                    .with(ServerOptions.PORT, 0)
                    .with(ServerOptions.SHARDS, 2)
                    .with(ServerOptions.IO_THREADS, 2)
                    .with(ServerOptions.AOF, false)
                    .with(ServerOptions.SAVE, "")
                    .with(ServerOptions.DIR, dir.toString());
            cfg = customizer.apply(cfg);
            return new TestServer(KevyServer.start(cfg), dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Convenience for a single setting. */
    public static <T> TestServer start(ServerOption<T> option, T value) {
        return start(c -> c.with(option, value));
    }

    public KevyServer server() {
        return server;
    }

    public int port() {
        return server.port();
    }

    public Path dir() {
        return dir;
    }

    /** {@code redis://127.0.0.1:<port>}. */
    public String uri() {
        return "redis://127.0.0.1:" + port();
    }

    /** The shared lettuce client for this server. */
    public synchronized RedisClient client() {
        if (client == null) {
            client = RedisClient.create(RedisURI.builder().withHost("127.0.0.1").withPort(port())
                    .withTimeout(Duration.ofSeconds(10)).build());
        }
        return client;
    }

    /** A new string connection's sync API (closed with the server). */
    public RedisCommands<String, String> lettuce() {
        StatefulRedisConnection<String, String> c = client().connect();
        resources.add(c);
        return c.sync();
    }

    /** A new binary connection's sync API (closed with the server). */
    public RedisCommands<byte[], byte[]> lettuceBinary() {
        StatefulRedisConnection<byte[], byte[]> c = client().connect(ByteArrayCodec.INSTANCE);
        resources.add(c);
        return c.sync();
    }

    /** A new raw socket connection (closed with the server). */
    public RawClient raw() {
        RawClient r = RawClient.connect(port());
        resources.add(r);
        return r;
    }

    @Override
    public void close() {
        for (AutoCloseable r : resources) {
            try {
                r.close();
            } catch (Exception ignored) {
                // best effort
            }
        }
        if (client != null) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
        server.close();
        deleteRecursively(dir);
    }

    static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // best effort
                }
            });
        } catch (IOException ignored) {
            // best effort
        }
    }
}
