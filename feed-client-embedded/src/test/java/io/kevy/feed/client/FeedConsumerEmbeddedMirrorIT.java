package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.embedded.Config;
import io.kevy.embedded.Store;
import io.kevy.feed.client.support.Dump;
import io.kevy.feed.client.support.Servers;
import io.kevy.feed.client.support.StoreMirror;
import io.kevy.feed.client.support.Workload;
import io.lettuce.core.codec.StringCodec;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The mirror test over an embedded {@link Store} as the source (one shard, feed contract §9). */
class FeedConsumerEmbeddedMirrorIT {
    @Test
    void aMirrorOfAnEmbeddedStoreEqualsIt() throws Exception {
        long seed = Long.getLong("kevy.seed", System.nanoTime());
        int writes = Integer.getInteger("kevy.writes", 100_000);
        System.out.printf("FeedConsumerEmbeddedMirrorIT: seed=%d writes=%d%n", seed, writes);
        try (Store store = Store.open(Config.defaults().withFeed(0));
             FeedSource source = EmbeddedFeedSource.of(store);
             StoreMirror mirror = new StoreMirror()) {
            FeedConsumer<String, String> consumer = FeedConsumer.builder(StringCodec.UTF8)
                    .source(source).name("embedded-mirror").handler(mirror).batchSize(1024).build();
            consumer.start().toCompletableFuture().get();
            Workload load = new Workload(seed, 200, "");
            load.run(8, writes, w -> Servers.conn(store));
            Servers.awaitCaughtUp(consumer, source, Duration.ofSeconds(60));
            Servers.assertSameState(Dump.dump(Dump.of(store)), mirror.dump());
            assertThat(mirror.tokens()).isEqualTo(load.acknowledged());
            assertThat(consumer.blockSupported()).hasValue(true);
            consumer.close();
        }
    }
}
