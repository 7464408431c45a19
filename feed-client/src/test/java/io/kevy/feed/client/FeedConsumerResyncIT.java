package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.feed.client.support.Dump;
import io.kevy.feed.client.support.Servers;
import io.kevy.feed.client.support.StoreMirror;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import io.lettuce.core.codec.StringCodec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The resync tests of issue 6, with a small backlog (feed_buffer_size 16 KiB per shard): a paused consumer
 * falls out of the backlog during a write burst, gets FEEDRESYNC, rebuilds with a sweeping ScanRebuild and
 * its mirror equals the server again, deleted keys removed; and a handler slower than the backlog ends in
 * FAILED with a message that says what to change, instead of rebuilding forever.
 */
class FeedConsumerResyncIT {
    private static TestServer smallBacklog() {
        return Servers.start(c -> c.with(ServerOptions.FEED_BUFFER_SIZE, 16L * 1024));
    }

    private static void pipelineSets(RawClient raw, String prefix, int from, int to, String value) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < to; i++) {
            String k = prefix + i;
            sb.append("*3\r\n$3\r\nSET\r\n$").append(k.length()).append("\r\n").append(k).append("\r\n$")
                    .append(value.length()).append("\r\n").append(value).append("\r\n");
        }
        raw.send(sb.toString());
        for (int i = from; i < to; i++) {
            raw.readReplyBytes();
        }
    }

    @Test
    void aPausedConsumerPastTheBacklogRebuildsAndItsMirrorConverges() throws Exception {
        try (TestServer server = smallBacklog(); FeedSource source = FeedSource.connect(server.uri());
             StoreMirror mirror = new StoreMirror(); RawClient raw = server.raw()) {
            AtomicBoolean paused = new AtomicBoolean();
            Semaphore gate = new Semaphore(0);
            Semaphore inHandler = new Semaphore(0);
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            FeedConsumer<String, String> consumer = FeedConsumer.builder(StringCodec.UTF8).source(source)
                    .name("resync").meterRegistry(registry)
                    .onRebuild(ScanRebuild.<String, String>sweeping(mirror::keys))
                    .handler(batch -> {
                        if (paused.get() && batch.kind() == Batch.Kind.CHANGES) {
                            inHandler.release();
                            gate.acquire();
                        }
                        mirror.handle(batch);
                    }).build();
            consumer.start().toCompletableFuture().get();
            pipelineSets(raw, "r:", 0, 500, "before");
            Servers.awaitCaughtUp(consumer, source, Duration.ofSeconds(30));
            Servers.assertSameState(Dump.dump(Dump.of(server.lettuce())), mirror.dump());

            paused.set(true);
            raw.call("SET", "r:0", "trigger");
            assertThat(inHandler.tryAcquire(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            for (int i = 400; i < 500; i++) {
                raw.call("DEL", "r:" + i);
            }
            for (int round = 0; round < 20; round++) {
                pipelineSets(raw, "r:", 0, 400, "after" + round);
            }
            paused.set(false);
            gate.release(1000);

            Servers.awaitCaughtUp(consumer, source, Duration.ofSeconds(30));
            Servers.assertSameState(Dump.dump(Dump.of(server.lettuce())), mirror.dump());
            assertThat(registry.find("kevy.feed.consumer.resyncs").counters()).isNotEmpty();
            assertThat(mirror.snapshots.get()).isGreaterThan(0);
            assertThat(mirror.vanished.get()).as("deleted keys whose DEL frames were evicted were swept")
                    .isPositive();
            for (int i = 400; i < 500; i++) {
                assertThat(mirror.store().exists("r:" + i)).isZero();
            }
            assertThat(consumer.state()).isEqualTo(FeedConsumer.State.RUNNING);
            consumer.close();
        }
    }

    @Test
    void aHandlerSlowerThanTheBacklogEndsInFailedWithTheFix() throws Exception {
        try (TestServer server = smallBacklog(); FeedSource source = FeedSource.connect(server.uri());
             RawClient raw = server.raw()) {
            FeedConsumer<String, String> consumer = FeedConsumer.builder(StringCodec.UTF8).source(source)
                    .name("slow").batchSize(16).maxFutileRebuilds(2)
                    .handler(batch -> Thread.sleep(20)).build();
            consumer.start().toCompletableFuture().get();
            long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            int round = 0;
            while (consumer.state() != FeedConsumer.State.FAILED && System.nanoTime() < end) {
                pipelineSets(raw, "s:", 0, 200, "v" + round++);
            }
            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> consumer.state() == FeedConsumer.State.FAILED);
            String message = consumer.failure().orElseThrow().getMessage();
            System.out.println("FeedConsumerResyncIT: " + message);
            assertThat(message).contains("2 consecutive rebuild(s) made no progress")
                    .contains("feed_buffer_size").contains("narrow the prefixes");
            assertThat(consumer.health().failure()).isEqualTo(message);
            assertThat(consumer.health().shards()).anyMatch(s -> s.state() == ShardState.FAILED);
            consumer.close();
        }
    }
}
