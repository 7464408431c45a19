package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.feed.client.support.Dump;
import io.kevy.feed.client.support.NoBlockProxy;
import io.kevy.feed.client.support.ForwardingFeedSource;
import io.kevy.feed.client.support.Servers;
import io.kevy.feed.client.support.StoreMirror;
import io.kevy.feed.client.support.Workload;
import io.kevy.testing.TestServer;
import io.lettuce.core.codec.StringCodec;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Against a server without BLOCK (upstream kevy answers {@code -ERR syntax error}, feed contract §4): the
 * consumer detects it once, falls back to polling with backoff, and still mirrors everything. The server here
 * is ours behind a source that answers BLOCK reads as upstream would, and, for the whole path through lettuce
 * and the error mapping, behind a TCP proxy that answers them on the wire ({@link NoBlockProxy}).
 */
class UpstreamCompatibilityIT {
    /** A source that rejects BLOCK like upstream and counts reads. */
    static final class NoBlockSource extends ForwardingFeedSource {
        final AtomicInteger blockReads = new AtomicInteger();
        final AtomicInteger reads = new AtomicInteger();

        NoBlockSource(FeedSource inner) {
            super(inner);
        }

        @Override
        public CompletionStage<FrameBatch> read(Cursor from, int count, List<byte[]> prefixes, Duration block) {
            reads.incrementAndGet();
            if (block != null) {
                blockReads.incrementAndGet();
                return CompletableFuture.failedFuture(ServerErrors.fromReply("-ERR syntax error"));
            }
            return inner.read(from, count, prefixes, null);
        }
    }

    @Test
    void withoutBlockTheConsumerPollsWithBackoffAndMissesNothing() throws Exception {
        try (TestServer server = Servers.start(); StoreMirror mirror = new StoreMirror();
             NoBlockSource source = new NoBlockSource(FeedSource.connect(server.uri()))) {
            FeedConsumer<String, String> consumer = FeedConsumer.builder(StringCodec.UTF8).source(source)
                    .name("upstream").handler(mirror).build();
            consumer.start().toCompletableFuture().get();
            Workload load = new Workload(3, 100, "");
            load.run(4, 10_000, w -> Servers.conn(server));
            Servers.awaitCaughtUp(consumer, source, Duration.ofSeconds(60));
            Servers.assertSameState(Dump.dump(Dump.of(server.lettuce())), mirror.dump());
            assertThat(mirror.tokens()).isEqualTo(load.acknowledged());
            assertThat(consumer.blockSupported()).hasValue(false);
            assertThat(source.blockReads.get()).as("BLOCK is tried once per shard at most").isLessThanOrEqualTo(4);
            Thread.sleep(300);
            int before = source.reads.get();
            Thread.sleep(1000);
            int idleReads = source.reads.get() - before;
            System.out.println("UpstreamCompatibilityIT: idle reads in 1 s over 4 shards: " + idleReads);
            assertThat(idleReads).as("idle polling backs off to 100 ms").isBetween(4, 80);
            consumer.close();
        }
    }

    @Test
    void overTheWireAnErrSyntaxErrorToBlockSwitchesToPollingAndMissesNothing() throws Exception {
        try (TestServer server = Servers.start(); StoreMirror mirror = new StoreMirror();
             NoBlockProxy proxy = new NoBlockProxy(server.port());
             FeedSource source = FeedSource.connect(proxy.uri() + "?timeout=5s")) {
            FeedConsumer<String, String> consumer = FeedConsumer.builder(StringCodec.UTF8).source(source)
                    .name("upstream-wire").handler(mirror).build();
            consumer.start().toCompletableFuture().get();
            Workload load = new Workload(4, 100, "");
            load.run(4, 10_000, w -> Servers.conn(server));
            Servers.awaitCaughtUp(consumer, source, Duration.ofSeconds(60));
            Servers.assertSameState(Dump.dump(Dump.of(server.lettuce())), mirror.dump());
            assertThat(mirror.tokens()).isEqualTo(load.acknowledged());
            assertThat(consumer.blockSupported()).hasValue(false);
            assertThat(consumer.state()).isEqualTo(FeedConsumer.State.RUNNING);
            assertThat(proxy.blockRejected.get()).as("BLOCK is tried once per shard at most").isBetween(1, 4);
            Thread.sleep(300);
            int before = proxy.reads.get();
            Thread.sleep(1000);
            int idleReads = proxy.reads.get() - before;
            System.out.println("UpstreamCompatibilityIT (wire): idle FEED.READs in 1 s over 4 shards: " + idleReads);
            assertThat(idleReads).as("idle polling backs off to 100 ms").isBetween(4, 80);
            assertThat(proxy.blockRejected.get()).as("never asked again").isLessThanOrEqualTo(4);
            consumer.close();
        }
    }
}
