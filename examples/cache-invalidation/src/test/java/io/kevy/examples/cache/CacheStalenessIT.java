package io.kevy.examples.cache;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Staleness of the cache: for each of 10,000 updates, the user is first read over HTTP (so the cache holds the
 * old value), then updated; the clock starts when the write is acknowledged and stops when the cache no longer
 * serves the old value (its entry was invalidated). Prints p50/p99/max.
 */
class CacheStalenessIT {
    private static final int UPDATES = 10_000;
    private static final int USERS = 500;

    @Test
    void tenThousandUpdatesLeaveTheCacheStaleForMilliseconds() throws Exception {
        ObjectMapper json = new ObjectMapper();
        HttpClient http = HttpClient.newHttpClient();
        try (TestServer server = TestServer.start(c -> c.with(ServerOptions.FEED_ENABLED, true));
             FeedSource source = FeedSource.connect(server.uri());
             StatefulRedisConnection<String, String> conn = server.client().connect()) {
            HashCache cache = new HashCache(conn, "user:", 10_000);
            RedisCommands<String, String> redis = server.lettuce();
            for (int u = 0; u < USERS; u++) {
                redis.hset("user:" + u, Map.of("name", "user " + u, "version", "-1"));
            }
            try (CacheInvalidator invalidator = new CacheInvalidator(cache, source, "staleness", b -> b).start();
                 HashService service = HashService.start(new InetSocketAddress("127.0.0.1", 0), "/users/", cache,
                         () -> HashService.health(invalidator, cache))) {
                Histogram staleness = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
                String base = "http://127.0.0.1:" + service.port() + "/users/";
                for (int i = 0; i < UPDATES; i++) {
                    String id = String.valueOf(i % USERS);
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + id)).build(),
                            HttpResponse.BodyHandlers.ofString());
                    String old = json.readTree(r.body()).path("fields").path("version").asText();
                    assertThat(cache.peek(id)).as("cached before the write").isNotNull();
                    redis.hset("user:" + id, "version", String.valueOf(i));
                    long acked = System.nanoTime();
                    long deadline = acked + TimeUnit.SECONDS.toNanos(10);
                    while (servesOld(cache.peek(id), old)) {
                        assertThat(System.nanoTime()).as("update %d still stale after 10 s", i).isLessThan(deadline);
                        LockSupport.parkNanos(10_000);
                    }
                    staleness.recordValue(Math.min(System.nanoTime() - acked, staleness.getHighestTrackableValue()));
                }
                System.out.printf("CacheStalenessIT: staleness over %,d updates (write acknowledged -> cache no "
                        + "longer serves the old value): p50 %.3f ms, p99 %.3f ms, max %.3f ms%n", UPDATES,
                        staleness.getValueAtPercentile(50) / 1e6, staleness.getValueAtPercentile(99) / 1e6,
                        staleness.getMaxValue() / 1e6);
                assertThat(staleness.getTotalCount()).isEqualTo(UPDATES);
                assertThat(staleness.getValueAtPercentile(99)).as("p99 staleness under 1 s")
                        .isLessThan(TimeUnit.SECONDS.toNanos(1));
                assertThat(cache.get("7").orElseThrow().get("version"))
                        .isEqualTo(String.valueOf(UPDATES - USERS + 7));
            }
        }
    }

    private static boolean servesOld(Optional<Map<String, String>> cached, String old) {
        return cached != null && cached.isPresent() && old.equals(cached.get().get("version"));
    }
}
