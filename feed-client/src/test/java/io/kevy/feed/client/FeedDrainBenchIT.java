package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.feed.client.support.Servers;
import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import io.lettuce.core.codec.ByteArrayCodec;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Evidence for issue 6: how many frames per second one consumer drains from a full 4-shard backlog (the
 * server's backlog filled first, then a consumer starts at offset 0 with a handler that only counts). Prints
 * the figure; asserts only that everything was drained. {@code -Dkevy.drain.frames=N} changes the size.
 */
class FeedDrainBenchIT {
    @Test
    void oneConsumerDrainsAFullFourShardBacklog() throws Exception {
        int frames = Integer.getInteger("kevy.drain.frames", 400_000);
        // the build runs tests with paranoid Netty leak detection, which records a stack trace per buffer and
        // slows every RESP reply tenfold: measure without it, as production runs
        io.netty.util.ResourceLeakDetector.Level level = io.netty.util.ResourceLeakDetector.getLevel();
        io.netty.util.ResourceLeakDetector.setLevel(io.netty.util.ResourceLeakDetector.Level.DISABLED);
        try {
            drain(frames);
        } finally {
            io.netty.util.ResourceLeakDetector.setLevel(level);
        }
    }

    private void drain(int frames) throws Exception {
        try (TestServer server = Servers.start(); FeedSource source = FeedSource.connect(server.uri())) {
            RawClient raw = server.raw();
            int chunk = 2000;
            for (int done = 0; done < frames; done += chunk) {
                StringBuilder sb = new StringBuilder();
                for (int i = done; i < done + chunk; i++) {
                    String k = "bench:" + (i % 50_000);
                    sb.append("*3\r\n$3\r\nSET\r\n$").append(k.length()).append("\r\n").append(k)
                            .append("\r\n$8\r\nvalue-12\r\n");
                }
                raw.send(sb.toString());
                for (int i = 0; i < chunk; i++) {
                    raw.readReplyBytes();
                }
            }
            AtomicLong seen = new AtomicLong();
            FeedConsumer<byte[], byte[]> consumer = FeedConsumer.builder(ByteArrayCodec.INSTANCE).source(source)
                    .name("drain").batchSize(FeedSource.MAX_COUNT).startFrom(StartFrom.EARLIEST)
                    .handler(batch -> seen.addAndGet(batch.size())).build();
            long t0 = System.nanoTime();
            consumer.start().toCompletableFuture().get();
            Servers.awaitCaughtUp(consumer, source, Duration.ofSeconds(120));
            double seconds = (System.nanoTime() - t0) / 1e9;
            System.out.printf("FeedDrainBenchIT: one consumer drained %d frames from a full 4-shard backlog in "
                    + "%.2f s: %.0f frames/s (batch %d, typed decoding, remote source over loopback)%n", seen.get(),
                    seconds, seen.get() / seconds, FeedSource.MAX_COUNT);
            assertThat(seen.get()).isEqualTo(frames);
            consumer.close();
        }
    }
}
