package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.embedded.Config;
import io.kevy.embedded.Store;
import io.kevy.feed.client.EmbeddedFeedSource;
import io.kevy.feed.client.FeedConsumer;
import io.kevy.feed.client.FeedSource;
import io.kevy.testing.GeneratedDocs;
import io.lettuce.core.codec.StringCodec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * The "Testing" example of docs/consumer.md runs here, and the docs show exactly this code: the lines between
 * the {@code // docs:testing} markers below are the {@code <!-- example:testing -->} region of docs/consumer.md
 * (regenerate: {@code -Dkevy.docs.write=true}).
 */
class ConsumerGuideExampleTest {
    private static final Path SOURCE =
            Path.of("src/test/java/io/kevy/feed/client/ConsumerGuideExampleTest.java");

    @Test
    void aConsumerOfAnEmbeddedStoreSeesTheTestsWritesAfterAwaitCaughtUp() throws Exception {
        // docs:testing
        try (Store store = Store.open(Config.defaults().withFeed(0));
             FeedSource source = EmbeddedFeedSource.of(store)) {
            Set<String> invalidated = ConcurrentHashMap.newKeySet();
            FeedConsumer<String, String> consumer = FeedConsumer.builder(StringCodec.UTF8)
                    .source(source)
                    .name("test-invalidator")
                    .prefixes("user:")
                    .handler(batch -> batch.forEach(c -> invalidated.add(c.key())))
                    .build();
            consumer.start().toCompletableFuture().get();

            store.set("user:1", "ada");
            store.set("order:7", "paid");
            assertThat(consumer.awaitCaughtUp(Duration.ofSeconds(10))).isTrue();   // read-your-writes
            assertThat(invalidated).containsExactly("user:1");

            store.execute("FLUSHALL");                                             // forces FEEDRESYNC and a rebuild
            store.set("user:2", "grace");
            assertThat(consumer.awaitCaughtUp(Duration.ofSeconds(10))).isTrue();
            assertThat(invalidated).contains("user:2");
            consumer.close();
        }
        // docs:testing
    }

    @Test
    void docsConsumerMdShowsThisTestsCode() {
        GeneratedDocs.region("docs/consumer.md", "example:testing",
                GeneratedDocs.javaBlock(SOURCE, "// docs:testing"));
    }
}
