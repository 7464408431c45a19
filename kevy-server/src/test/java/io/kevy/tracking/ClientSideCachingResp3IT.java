package io.kevy.tracking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TrackingArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.support.caching.CacheAccessor;
import io.lettuce.core.support.caching.CacheFrontend;
import io.lettuce.core.support.caching.ClientSideCaching;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Server-assisted client-side caching on RESP3, as lettuce's own {@link ClientSideCaching} does it: tracking on
 * the connection itself (no redirect) and invalidations as {@code >2 invalidate} pushes; another connection's
 * write evicts the cached entry. Also the raw pushes: keys, the flush's null, and {@code tracking-redir-broken}.
 */
class ClientSideCachingResp3IT {
    @Test
    void lettucesClientSideCachingIsInvalidatedByAnotherConnectionsWrite() {
        try (TestServer kevy = TestServer.start()) {
            RedisClient client = RedisClient.create(RedisURI.builder().withHost("127.0.0.1").withPort(kevy.port())
                    .withTimeout(Duration.ofSeconds(10)).build());
            client.setOptions(ClientOptions.builder().protocolVersion(ProtocolVersion.RESP3).build());
            try (StatefulRedisConnection<String, String> tracked = client.connect();
                    StatefulRedisConnection<String, String> writer = client.connect()) {
                Map<String, String> cache = new ConcurrentHashMap<>();
                CacheFrontend<String, String> frontend = ClientSideCaching.enable(CacheAccessor.forMap(cache), tracked,
                        TrackingArgs.Builder.enabled());
                RedisCommands<String, String> w = writer.sync();
                w.set("user:1", "alice");
                assertThat(frontend.get("user:1")).isEqualTo("alice");
                assertThat(cache).containsEntry("user:1", "alice");
                w.set("user:1", "bob");
                await().atMost(Duration.ofSeconds(10)).until(() -> !cache.containsKey("user:1"));
                assertThat(frontend.get("user:1")).isEqualTo("bob");
                w.del("user:1");
                await().atMost(Duration.ofSeconds(10)).until(() -> !cache.containsKey("user:1"));
                frontend.close();
            } finally {
                client.shutdown();
            }
        }
    }

    @Test
    void pushesCarryKeysAFlushsNullAndABrokenRedirect() {
        try (TestServer kevy = TestServer.start(); RawClient c = RawClient.connect(kevy.port());
                RawClient other = RawClient.connect(kevy.port())) {
            assertThat(c.call("HELLO", "3")).startsWith("%7");
            assertThat(c.call("CLIENT", "TRACKING", "ON")).isEqualTo("+OK\r\n");
            other.call("SET", "k", "1");
            assertThat(c.call("GET", "k")).isEqualTo("$1\r\n1\r\n");
            other.call("SET", "k", "2");
            assertThat(c.readReply()).isEqualTo(">2\r\n$10\r\ninvalidate\r\n*1\r\n$1\r\nk\r\n");
            assertThat(c.call("GET", "k")).isEqualTo("$1\r\n2\r\n");
            other.call("FLUSHALL");
            assertThat(c.readReply()).isEqualTo(">2\r\n$10\r\ninvalidate\r\n_\r\n");
            // redirected to a client that then goes away
            RawClient gone = RawClient.connect(kevy.port());
            String id = gone.call("CLIENT", "ID").substring(1).trim();
            assertThat(c.call("CLIENT", "TRACKING", "ON", "REDIRECT", id)).isEqualTo("+OK\r\n");
            other.call("SET", "j", "1");
            assertThat(c.call("GET", "j")).isEqualTo("$1\r\n1\r\n");
            gone.close();
            await().atMost(Duration.ofSeconds(10)).until(() -> other.call("CLIENT", "LIST").indexOf("id=" + id + " ") < 0);
            other.call("SET", "j", "2");
            assertThat(c.readReply()).isEqualTo(">2\r\n$21\r\ntracking-redir-broken\r\n:" + id + "\r\n");
            assertThat(c.call("PING")).isEqualTo("+PONG\r\n");
        }
    }
}
