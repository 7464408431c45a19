package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kevy.feed.client.support.Servers;
import io.kevy.testing.TestServer;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.Test;

/**
 * {@link FeedConsumer#awaitCaughtUp}: true once every write acknowledged before the call reached the handler
 * (a slow handler, 4 shards), false while the handler is held back, and an error when the consumer is closed.
 */
class FeedConsumerAwaitCaughtUpIT {
    @Test
    void returnsOnceEveryEarlierWriteWasHandledAndCommitted() throws Exception {
        try (TestServer server = Servers.start(); FeedSource source = FeedSource.connect(server.uri())) {
            Set<String> seen = ConcurrentHashMap.newKeySet();
            Semaphore gate = new Semaphore(Integer.MAX_VALUE);
            FeedConsumer<String, String> consumer = FeedConsumer.builder(StringCodec.UTF8).source(source)
                    .name("await").batchSize(8)
                    .handler(batch -> {
                        gate.acquire();
                        gate.release();
                        Thread.sleep(2);
                        batch.forEach(c -> seen.add(c.key()));
                    }).build();
            consumer.start().toCompletableFuture().get();
            assertThat(consumer.awaitCaughtUp(Duration.ofSeconds(5))).as("nothing written yet").isTrue();

            RedisCommands<String, String> redis = server.lettuce();
            for (int i = 0; i < 200; i++) {
                redis.set("k" + i, "v");
            }
            assertThat(consumer.awaitCaughtUp(Duration.ofSeconds(30))).isTrue();
            assertThat(seen).as("every write acknowledged before the call was handled").hasSize(200);

            gate.acquire(Integer.MAX_VALUE);
            redis.set("held", "v");
            assertThat(consumer.awaitCaughtUp(Duration.ofMillis(300))).as("the handler is held back").isFalse();
            gate.release(Integer.MAX_VALUE);
            assertThat(consumer.awaitCaughtUp(Duration.ofSeconds(10))).isTrue();
            assertThat(seen).contains("held");

            consumer.close();
            assertThatThrownBy(() -> consumer.awaitCaughtUp(Duration.ofSeconds(1)))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("not running");
        }
    }

    /**
     * An interrupted wait throws the unchecked {@link KevyInterruptedException} (consumer.md: "all exceptions are
     * unchecked") with the thread's interrupt flag set again. The waiting lambda is a {@link Runnable} that catches
     * only that exception: were a checked exception declared, this would not compile.
     */
    @Test
    void anInterruptedWaitThrowsKevyInterruptedExceptionWithTheFlagRestored() throws Exception {
        try (TestServer server = Servers.start(); FeedSource source = FeedSource.connect(server.uri())) {
            Semaphore gate = new Semaphore(0);
            FeedConsumer<String, String> consumer = FeedConsumer.builder(StringCodec.UTF8).source(source)
                    .name("interrupted").handler(batch -> {
                        gate.acquire();
                        gate.release();
                    }).build();
            consumer.start().toCompletableFuture().get();
            server.lettuce().set("k", "v"); // the handler holds it: never caught up while the gate is shut
            java.util.concurrent.atomic.AtomicReference<KevyInterruptedException> thrown =
                    new java.util.concurrent.atomic.AtomicReference<>();
            java.util.concurrent.atomic.AtomicBoolean flagSet = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.CountDownLatch waiting = new java.util.concurrent.CountDownLatch(1);
            Runnable await = () -> {
                waiting.countDown();
                try {
                    consumer.awaitCaughtUp(Duration.ofSeconds(30));
                } catch (KevyInterruptedException e) {
                    thrown.set(e);
                    flagSet.set(Thread.currentThread().isInterrupted());
                }
            };
            Thread t = new Thread(await, "awaiting");
            t.start();
            assertThat(waiting.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            Thread.sleep(100);
            t.interrupt();
            t.join(10_000);
            assertThat(t.isAlive()).as("the wait ended").isFalse();
            assertThat(thrown.get()).as("KevyInterruptedException thrown").isNotNull()
                    .isInstanceOf(KevyException.class).isInstanceOf(RuntimeException.class)
                    .hasMessageContaining("interrupted");
            assertThat(flagSet).as("the interrupt flag is set again").isTrue();
            gate.release();
            assertThat(consumer.awaitCaughtUp(Duration.ofSeconds(10))).isTrue();
            consumer.close();
        }
    }

    @Test
    void framesOutsideThePrefixesNeedNoDelivery() throws Exception {
        try (TestServer server = Servers.start(); FeedSource source = FeedSource.connect(server.uri())) {
            Set<String> seen = ConcurrentHashMap.newKeySet();
            FeedConsumer<String, String> consumer = FeedConsumer.builder(StringCodec.UTF8).source(source)
                    .name("prefixed").prefixes("p:").block(Duration.ofSeconds(20))
                    .handler(batch -> batch.forEach(c -> seen.add(c.key()))).build();
            consumer.start().toCompletableFuture().get();
            RedisCommands<String, String> redis = server.lettuce();
            redis.set("p:1", "v");
            assertThat(consumer.awaitCaughtUp(Duration.ofSeconds(10))).isTrue();
            assertThat(seen).containsExactly("p:1");
            for (int i = 0; i < 50; i++) {
                redis.set("other:" + i, "v");
            }
            long t0 = System.nanoTime();
            assertThat(consumer.awaitCaughtUp(Duration.ofSeconds(10))).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - t0))
                    .as("no wait for the 20 s long-poll to move the cursor over filtered frames")
                    .isLessThan(Duration.ofSeconds(5));
            redis.set("p:2", "v");
            assertThat(consumer.awaitCaughtUp(Duration.ofSeconds(10))).isTrue();
            assertThat(seen).containsExactlyInAnyOrder("p:1", "p:2");
            consumer.close();
        }
    }
}
