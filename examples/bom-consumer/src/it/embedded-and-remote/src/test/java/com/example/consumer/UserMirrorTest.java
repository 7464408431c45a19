package com.example.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kevy.embedded.Config;
import io.kevy.embedded.Store;
import io.kevy.feed.client.EmbeddedFeedSource;
import io.kevy.feed.client.FeedConsumer;
import io.kevy.feed.client.FeedSource;
import io.kevy.server.KevyServer;
import io.kevy.server.config.ServerConfig;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.TestServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.netty.util.Version;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The consumer project's checks, on the class path Maven resolved from kevy-bom alone: every Netty artifact is
 * the version kevy is tested with, and a consumer follows an embedded store and a kevy-server over the network.
 */
class UserMirrorTest {
    @Test
    void everyNettyArtifactIsTheVersionKevyIsTestedWith() {
        Map<String, String> versions = new TreeMap<>();
        Version.identify().forEach((artifact, v) -> versions.put(artifact, v.artifactVersion()));
        System.out.println("UserMirrorTest: netty artifacts " + versions);
        String expected = System.getProperty("kevy.expected.netty");
        assertTrue(versions.containsKey("netty-common") && versions.containsKey("netty-transport"), versions::toString);
        versions.forEach((artifact, v) -> assertEquals(expected, v,
                artifact + " is " + v + ", kevy is tested with Netty " + expected + ": " + versions));
    }

    @Test
    void aConsumerFollowsAnEmbeddedStore() {
        try (Store store = Store.open(Config.defaults().withFeed(0));
             FeedSource source = EmbeddedFeedSource.of(store)) {
            UserMirror mirror = new UserMirror();
            FeedConsumer<String, String> consumer = FeedConsumer.builder(StringCodec.UTF8).source(source)
                    .name("bom-embedded").prefixes("user:").handler(mirror).build();
            consumer.start().toCompletableFuture().join();
            store.set("user:1", "ada");
            store.set("order:7", "paid");
            store.execute("MSET", "user:2", "grace", "user:3", "edsger");
            store.execute("DEL", "user:3");
            assertTrue(consumer.awaitCaughtUp(Duration.ofSeconds(30)));
            assertEquals(Map.of("user:1", "ada", "user:2", "grace"), mirror.users);
            consumer.close();
        }
    }

    @Test
    void aConsumerFollowsAKevyServerOverTheNetwork() throws Exception {
        Path dir = Files.createTempDirectory("kevy-bom-consumer");
        KevyServer server = KevyServer.start(ServerConfig.defaults()
                .with(ServerOptions.PORT, 0)
                .with(ServerOptions.SHARDS, 2)
                .with(ServerOptions.FEED_ENABLED, true)
                .with(ServerOptions.AOF, false)
                .with(ServerOptions.SAVE, "")
                .with(ServerOptions.DIR, dir.toString()));
        String uri = "redis://127.0.0.1:" + server.port();
        RedisClient client = RedisClient.create(uri);
        try (FeedSource source = FeedSource.connect(uri);
             StatefulRedisConnection<String, String> c = client.connect()) {
            UserMirror mirror = new UserMirror();
            FeedConsumer<String, String> consumer = FeedConsumer.builder(StringCodec.UTF8).source(source)
                    .name("bom-remote").prefixes("user:").handler(mirror).build();
            consumer.start().toCompletableFuture().join();
            for (int i = 0; i < 100; i++) {
                c.sync().set("user:" + i, "v" + i);
            }
            c.sync().set("order:1", "paid");
            c.sync().del("user:0");
            assertTrue(consumer.awaitCaughtUp(Duration.ofSeconds(30)));
            assertEquals(99, mirror.users.size(), mirror.users::toString);
            assertEquals("v42", mirror.users.get("user:42"));
            consumer.close();
        } finally {
            client.shutdown();
            server.close();
        }
    }

    /** docs/consumer.md#testing: kevy-server's test-jar (pinned by the BOM) has an in-process server for tests. */
    @Test
    void aConsumerFollowsATestServerFromKevyServersTestJar() {
        try (TestServer server = TestServer.start(c -> c.with(ServerOptions.FEED_ENABLED, true));
             FeedSource source = FeedSource.connect(server.uri())) {
            UserMirror mirror = new UserMirror();
            FeedConsumer<String, String> consumer = FeedConsumer.builder(StringCodec.UTF8).source(source)
                    .name("bom-test-server").prefixes("user:").handler(mirror).build();
            consumer.start().toCompletableFuture().join();
            server.lettuce().set("user:1", "ada");
            assertTrue(consumer.awaitCaughtUp(Duration.ofSeconds(30)));
            assertEquals(Map.of("user:1", "ada"), mirror.users);
            consumer.close();
        }
    }
}
