package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.feed.client.support.ForwardingFeedSource;
import io.kevy.feed.client.support.Servers;
import io.kevy.testing.TestServer;
import io.lettuce.core.codec.StringCodec;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The worker model of issue 6 on a real 4-shard server: while the sink still holds one batch of a shard, the
 * next read of that shard (from the held batch's next cursor) is already in flight, and the other shards'
 * batches are delivered meanwhile; the held shard's next batch waits for the held one (offset order).
 */
class FeedConsumerPipelineIT {
    /** Delegates to a real source and records the cursor of every read. */
    static final class ObservedSource extends ForwardingFeedSource {
        final Set<Cursor> readsFrom = ConcurrentHashMap.newKeySet();

        ObservedSource(FeedSource inner) {
            super(inner);
        }

        @Override
        public CompletionStage<FrameBatch> read(Cursor from, int count, List<byte[]> prefixes, Duration block) {
            readsFrom.add(from);
            return inner.read(from, count, prefixes, block);
        }
    }

    /** Holds the first batch of shard 0 until released; accepts everything else at once. */
    static final class HoldingSink implements Sink<String, String> {
        final CompletableFuture<Void> release = new CompletableFuture<>();
        final List<Batch<String, String>> delivered = new CopyOnWriteArrayList<>();
        volatile Batch<String, String> held;

        @Override
        public CompletionStage<Void> deliver(Batch<String, String> batch) {
            delivered.add(batch);
            if (batch.shard() == 0 && held == null) {
                held = batch;
                return release;
            }
            return CompletableFuture.completedFuture(null);
        }
    }

    @Test
    void theNextReadIsInFlightWhileTheSinkHoldsABatchAndOtherShardsGoOn() throws Exception {
        try (TestServer server = Servers.start();
             ObservedSource source = new ObservedSource(FeedSource.connect(server.uri()))) {
            HoldingSink sink = new HoldingSink();
            FeedConsumer<String, String> consumer = FeedConsumer.builder(StringCodec.UTF8).source(source)
                    .name("pipeline").sink(sink).build();
            consumer.start().toCompletableFuture().get();
            var redis = server.lettuce();
            for (int i = 0; i < 200; i++) {
                redis.set("k:" + i, "v" + i);
            }
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> sink.held != null);
            Batch<String, String> held = sink.held;
            Awaitility.await().atMost(Duration.ofSeconds(30)).alias("the read after the held batch is in flight")
                    .until(() -> source.readsFrom.contains(held.next()));
            Awaitility.await().atMost(Duration.ofSeconds(30)).alias("the other shards are delivered meanwhile")
                    .until(() -> sink.delivered.stream().map(Batch::shard).filter(s -> s != 0).distinct().count() == 3);
            // more writes to shard 0 while its batch is held: they wait behind it
            for (int i = 200; i < 400; i++) {
                redis.set("k:" + i, "v" + i);
            }
            Thread.sleep(300);
            assertThat(sink.delivered.stream().filter(b -> b.shard() == 0)).as("one batch of shard 0 at a time")
                    .containsExactly(held);
            assertThat(consumer.health().shards().get(0).cursor()).as("not committed while held")
                    .isEqualTo(held.from());
            sink.release.complete(null);
            Servers.awaitCaughtUp(consumer, source, Duration.ofSeconds(30));
            List<Batch<String, String>> shard0 = sink.delivered.stream().filter(b -> b.shard() == 0).toList();
            assertThat(shard0.size()).isGreaterThan(1);
            for (int i = 1; i < shard0.size(); i++) {
                assertThat(shard0.get(i).from()).as("offset order").isEqualTo(shard0.get(i - 1).next());
            }
            assertThat(consumer.blockSupported()).hasValue(true);
            consumer.close();
        }
    }
}
