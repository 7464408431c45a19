package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.feed.client.support.Servers;
import io.kevy.feed.client.support.Workload;
import io.kevy.testing.TestServer;
import io.lettuce.core.codec.StringCodec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash test of issue 6: a consumer is stopped as a crash would (no drain, no commit) while its handler is
 * in the middle of a batch; a new consumer on the same cursor file loses nothing and delivers again at most
 * one batch per shard.
 */
class FeedConsumerCrashIT {
    private static final int BATCH = 64;

    @TempDir
    Path dir;

    /** Records delivered offsets per shard; blocks forever in the {@code blockAt}-th batch when asked to. */
    static final class Recorder implements Handler<String, String> {
        final Map<Integer, List<Long>> offsets = new ConcurrentHashMap<>();
        final AtomicInteger batches = new AtomicInteger();
        final CountDownLatch blocked = new CountDownLatch(1);
        final int blockAt;

        Recorder(int blockAt) {
            this.blockAt = blockAt;
        }

        @Override
        public void handle(Batch<String, String> batch) throws Exception {
            for (Change<String, String> c : batch) {
                offsets.computeIfAbsent(c.shard(), s -> java.util.Collections.synchronizedList(new ArrayList<>()))
                        .add(c.offset());
            }
            if (batches.incrementAndGet() == blockAt) {
                blocked.countDown();
                new CountDownLatch(1).await();
            }
        }
    }

    @Test
    void aCrashMidBatchLosesNothingAndRepeatsAtMostOneBatchPerShard() throws Exception {
        try (TestServer server = Servers.start(); FeedSource source = FeedSource.connect(server.uri())) {
            CursorStore cursors = CursorStore.file(dir.resolve("crash.json"));
            Recorder a = new Recorder(40);
            FeedConsumer<String, String> first = FeedConsumer.builder(StringCodec.UTF8).source(source).name("crash")
                    .cursorStore(cursors).handler(a).batchSize(BATCH).build();
            first.start().toCompletableFuture().get();
            Map<Integer, Long> start = new ConcurrentHashMap<>();
            for (int i = 0; i < 4; i++) {
                start.put(i, first.health().shards().get(i).cursor().offset());
            }
            new Workload(7, 100, "").run(4, 20_000, w -> Servers.conn(server));
            assertThat(a.blocked.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            first.abort();

            Recorder b = new Recorder(-1);
            FeedConsumer<String, String> second = FeedConsumer.builder(StringCodec.UTF8).source(source).name("crash")
                    .cursorStore(cursors).handler(b).batchSize(BATCH).build();
            second.start().toCompletableFuture().get();
            Servers.awaitCaughtUp(second, source, Duration.ofSeconds(60));
            second.close();
            int repeatedShards = 0;
            for (int shard = 0; shard < 4; shard++) {
                long tail = source.tail(shard).toCompletableFuture().get().offset();
                TreeSet<Long> seenA = new TreeSet<>(a.offsets.getOrDefault(shard, List.of()));
                TreeSet<Long> seenB = new TreeSet<>(b.offsets.getOrDefault(shard, List.of()));
                TreeSet<Long> all = new TreeSet<>(seenA);
                all.addAll(seenB);
                assertThat(all).as("shard %d: nothing lost", shard).hasSize((int) (tail - start.get(shard)));
                assertThat(all.first()).isEqualTo(start.get(shard));
                TreeSet<Long> twice = new TreeSet<>(seenA);
                twice.retainAll(seenB);
                assertThat(twice.size()).as("shard %d: at most one batch again", shard).isLessThanOrEqualTo(BATCH);
                if (!twice.isEmpty()) {
                    repeatedShards++;
                    assertThat(twice.last() - twice.first() + 1).as("contiguous").isEqualTo(twice.size());
                }
            }
            assertThat(repeatedShards).as("the batch in the handler was delivered again").isGreaterThanOrEqualTo(1);
            Awaitility.await().until(() -> first.state() == FeedConsumer.State.CLOSED);
        }
    }
}
