package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.feed.client.support.NoBlockProxy;
import io.kevy.feed.client.support.Servers;
import io.kevy.feed.client.support.StoreMirror;
import io.kevy.feed.client.support.Workload;
import io.kevy.server.config.ServerOptions;
import io.kevy.feed.client.support.Dump;
import io.kevy.testing.TestServer;
import io.lettuce.core.codec.StringCodec;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code durableOnly(true)} (FEED.READ ... DURABLE, issue 32): against our server with an AOF it misses nothing;
 * against upstream (a proxy answering DURABLE and BLOCK with {@code ERR syntax error}) and against a server
 * without an fsync schedule it falls back to plain reads and still misses nothing.
 */
class DurableOnlyIT {
    private static void consumeAll(TestServer server, FeedSource source, String name) throws Exception {
        try (StoreMirror mirror = new StoreMirror()) {
            FeedConsumer<String, String> consumer = FeedConsumer.builder(StringCodec.UTF8).source(source).name(name)
                    .durableOnly(true).handler(mirror).build();
            assertThat(consumer.settings().durableOnly()).isTrue();
            consumer.start().toCompletableFuture().get();
            Workload load = new Workload(5, 100, "");
            load.run(4, 5_000, w -> Servers.conn(server));
            Servers.awaitCaughtUp(consumer, source, Duration.ofSeconds(60));
            Servers.assertSameState(Dump.dump(Dump.of(server.lettuce())), mirror.dump());
            assertThat(mirror.tokens()).isEqualTo(load.acknowledged());
            assertThat(consumer.state()).isEqualTo(FeedConsumer.State.RUNNING);
            consumer.close();
        }
    }

    @Test
    void withAnAofEveryChangeArrivesOnceFsynced() throws Exception {
        try (TestServer server = Servers.start(c -> c.with(ServerOptions.AOF, true)
                .with(ServerOptions.APPENDFSYNC, "everysec"));
             FeedSource source = FeedSource.connect(server.uri())) {
            consumeAll(server, source, "durable");
        }
    }

    @Test
    void upstreamsSyntaxErrorFallsBackToPlainReads() throws Exception {
        try (TestServer server = Servers.start(); NoBlockProxy proxy = new NoBlockProxy(server.port());
             FeedSource source = FeedSource.connect(proxy.uri() + "?timeout=5s")) {
            consumeAll(server, source, "durable-upstream");
            assertThat(proxy.durableRejected.get()).as("DURABLE is tried once per shard at most").isBetween(1, 4);
        }
    }

    @Test
    void aServerWithoutAnAofFallsBackToPlainReads() throws Exception {
        try (TestServer server = Servers.start(); FeedSource source = FeedSource.connect(server.uri())) {
            consumeAll(server, source, "durable-no-aof");
        }
    }
}
