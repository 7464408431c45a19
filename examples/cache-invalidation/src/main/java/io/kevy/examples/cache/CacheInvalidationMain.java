package io.kevy.examples.cache;

import io.kevy.examples.support.StoppableCommand;
import io.kevy.feed.client.FeedSource;
import io.kevy.feed.sidecar.Secrets;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code java -jar kevy-cache-invalidation.jar}: serves {@code GET /users/{id}} from a Caffeine cache of the
 * hashes {@code user:{id}} in a kevy server, invalidated by its change feed, until Ctrl-C. Exit status: 0 after
 * Ctrl-C, 1 when it cannot start, 2 for bad arguments.
 */
@Command(name = "kevy-cache-invalidation", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Serve kevy hashes over HTTP from a cache that the change feed keeps fresh.")
public final class CacheInvalidationMain extends StoppableCommand {
    @Option(names = "--uri", defaultValue = "redis://127.0.0.1:6004",
            description = "kevy server (started with --feed): redis://host:port (default: ${DEFAULT-VALUE}).")
    String uri;

    @Option(names = "--bind", defaultValue = "127.0.0.1", description = "HTTP address (default: ${DEFAULT-VALUE}).")
    String bind;

    @Option(names = "--port", defaultValue = "8080", description = "HTTP port, 0 = any (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--prefix", defaultValue = "user:", description = "Key prefix (default: ${DEFAULT-VALUE}).")
    String prefix;

    @Option(names = "--route", defaultValue = "/users/",
            description = "URL path before the id (default: ${DEFAULT-VALUE}).")
    String route;

    @Option(names = "--max-size", defaultValue = "100000",
            description = "Most cached entries (default: ${DEFAULT-VALUE}).")
    long maxSize;

    @Override
    protected int run(PrintWriter out) throws Exception {
        RedisClient client = RedisClient.create(uri);
        try (StatefulRedisConnection<String, String> conn = client.connect();
             FeedSource source = FeedSource.connect(uri)) {
            HashCache cache = new HashCache(conn, prefix, maxSize);
            try (CacheInvalidator invalidator = new CacheInvalidator(cache, source, "cache-invalidation",
                    b -> b).start();
                 HashService service = HashService.start(new InetSocketAddress(bind, port), route, cache,
                         () -> HashService.health(invalidator, cache))) {
                out.println("serving http://" + bind + ":" + service.port() + route + "{id} from " + prefix
                        + "{id} in " + Secrets.maskUri(uri) + " (GET /health; Ctrl-C stops)");
                out.flush();
                stop.await();
            }
        } finally {
            client.shutdown();
        }
        return 0;
    }

    public static void main(String[] args) {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.exit(new CommandLine(new CacheInvalidationMain()).execute(args));
    }
}
