package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.feed.client.support.Dump;
import io.kevy.feed.client.support.Servers;
import io.kevy.feed.client.support.StoreMirror;
import io.kevy.feed.client.support.Workload;
import io.kevy.testing.TestServer;
import io.lettuce.core.codec.StringCodec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The mirror test of issue 6: 8 writer connections do 100k mixed writes on a 4-shard server while a consumer
 * keeps an embedded store as a mirror. After catch-up the mirror equals the server (SCAN and type reads), and
 * per key the values the changes carried arrive in the writers' acknowledged order.
 */
class FeedConsumerMirrorIT {
    @Test
    void aMirrorFollowingOneHundredThousandMixedWritesEqualsTheServer() throws Exception {
        long seed = Long.getLong("kevy.seed", System.nanoTime());
        int writes = Integer.getInteger("kevy.writes", 100_000);
        System.out.printf("FeedConsumerMirrorIT: seed=%d writes=%d%n", seed, writes);
        try (TestServer server = Servers.start();
             FeedSource source = FeedSource.connect(server.uri());
             StoreMirror mirror = new StoreMirror()) {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            FeedConsumer<String, String> consumer = FeedConsumer.builder(StringCodec.UTF8)
                    .source(source).name("mirror").handler(mirror).meterRegistry(registry).build();
            consumer.start().toCompletableFuture().get();
            Workload load = new Workload(seed, 200, "");
            long t0 = System.nanoTime();
            load.run(8, writes, w -> Servers.conn(server));
            Servers.awaitCaughtUp(consumer, source, Duration.ofSeconds(60));
            System.out.printf("FeedConsumerMirrorIT: %d writes, %d changes mirrored in %d ms%n", load.writes.get(),
                    mirror.changes.get(), (System.nanoTime() - t0) / 1_000_000);
            Servers.assertSameState(Dump.dump(Dump.of(server.lettuce())), mirror.dump());
            assertThat(mirror.tokens()).isEqualTo(load.acknowledged());
            assertThat(consumer.health().caughtUp()).isTrue();
            assertThat(consumer.blockSupported()).hasValue(true);
            assertThat(registry.find("kevy.feed.consumer.frames").counters().stream()
                    .mapToDouble(c -> c.count()).sum()).isEqualTo(mirror.changes.get());
            assertThat(registry.find("kevy.feed.consumer.resyncs").counters()).isEmpty();
            consumer.close();
            assertThat(consumer.state()).isEqualTo(FeedConsumer.State.CLOSED);
        }
    }
}
