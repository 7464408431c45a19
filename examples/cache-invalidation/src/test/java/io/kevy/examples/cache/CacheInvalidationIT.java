package io.kevy.examples.cache;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kevy.feed.client.FeedSource;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.TestServer;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The cache-invalidation service end to end: HTTP reads, feed invalidations, and a rebuild dropping all. */
class CacheInvalidationIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    private TestServer server;
    private FeedSource source;
    private StatefulRedisConnection<String, String> conn;
    private HashCache cache;
    private CacheInvalidator invalidator;
    private HashService service;
    private RedisCommands<String, String> redis;

    @BeforeEach
    void start() throws Exception {
        server = TestServer.start(c -> c.with(ServerOptions.FEED_ENABLED, true));
        source = FeedSource.connect(server.uri());
        conn = server.client().connect();
        cache = new HashCache(conn, "user:", 1000);
        invalidator = new CacheInvalidator(cache, source, "cache-test", b -> b).start();
        service = HashService.start(new InetSocketAddress("127.0.0.1", 0), "/users/", cache,
                () -> HashService.health(invalidator, cache));
        redis = server.lettuce();
    }

    @AfterEach
    void stop() {
        service.close();
        invalidator.close();
        conn.close();
        source.close();
        server.close();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private String name(String id) throws Exception {
        HttpResponse<String> r = get("/users/" + id);
        return r.statusCode() == 404 ? null : JSON.readTree(r.body()).path("fields").path("name").asText();
    }

    private void awaitName(String id, String expected) {
        Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5))
                .until(() -> java.util.Objects.equals(name(id), expected));
    }

    @Test
    void servesHashesAndDropsEntriesTheFeedSaysChanged() throws Exception {
        redis.hset("user:1", Map.of("name", "Ada", "email", "ada@example.com"));
        HttpResponse<String> ok = get("/users/1");
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.headers().firstValue("Content-Type")).contains("application/json");
        assertThat(JSON.readTree(ok.body())).isEqualTo(
                JSON.readTree("{\"id\":\"1\",\"fields\":{\"email\":\"ada@example.com\",\"name\":\"Ada\"}}"));
        assertThat(get("/users/2").statusCode()).as("absent").isEqualTo(404);
        assertThat(cache.peek("2")).as("the absence is cached").isEmpty();

        redis.hset("user:2", "name", "Bob");
        awaitName("2", "Bob");
        redis.hset("user:1", "name", "Ada L.");
        awaitName("1", "Ada L.");
        redis.del("user:1");
        awaitName("1", null);

        long before = cache.invalidations();
        redis.set("order:1", "x");
        redis.hset("user:3", "name", "Cy");
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> cache.invalidations() > before);
        assertThat(cache.invalidations()).as("only user: keys reach the invalidator").isEqualTo(before + 1);

        JsonNode health = JSON.readTree(get("/health").body());
        assertThat(health.path("state").asText()).isEqualTo("RUNNING");
        assertThat(health.path("loads").asLong()).isPositive();
        assertThat(get("/orders/1").statusCode()).isEqualTo(404);
        assertThat(get("/users/").statusCode()).isEqualTo(404);
        HttpResponse<String> post = http.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + service.port() + "/users/2"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(405);
    }

    @Test
    void aRebuildDropsEveryEntry() throws Exception {
        for (int i = 0; i < 5; i++) {
            redis.hset("user:" + i, "name", "u" + i);
        }
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> cache.invalidations() == 5);
        for (int i = 0; i < 5; i++) {
            assertThat(name(String.valueOf(i))).isEqualTo("u" + i);
        }
        assertThat(cache.entries()).hasSize(5);
        redis.flushall();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> invalidator.rebuilds() >= 1);
        assertThat(cache.entries()).as("FLUSHALL gives FEEDRESYNC; the rebuild drops everything").isEmpty();
        assertThat(get("/users/0").statusCode()).isEqualTo(404);
    }
}
