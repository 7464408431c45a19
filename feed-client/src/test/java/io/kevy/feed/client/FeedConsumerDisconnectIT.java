package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.feed.client.support.Dump;
import io.kevy.feed.client.support.Servers;
import io.kevy.feed.client.support.StoreMirror;
import io.kevy.feed.client.support.Workload;
import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import io.lettuce.core.codec.StringCodec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The disconnect test of issue 6: while writers run, the consumer's connections are killed again and again
 * ({@code CLIENT KILL ID}); the consumer reconnects and its mirror ends equal, nothing lost, per-key order
 * kept.
 */
class FeedConsumerDisconnectIT {
    @Test
    void repeatedClientKillsLoseNothing() throws Exception {
        try (TestServer server = Servers.start();
             FeedSource source = FeedSource.connect(server.uri() + "?timeout=5s");
             StoreMirror mirror = new StoreMirror();
             RawClient killer = server.raw()) {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            FeedConsumer<String, String> consumer = FeedConsumer.builder(StringCodec.UTF8).source(source)
                    .name("disconnect").handler(mirror).meterRegistry(registry).batchSize(64)
                    .retryBackoff(Duration.ofMillis(10), Duration.ofMillis(200)).build();
            consumer.start().toCompletableFuture().get();
            // every connection open now is the consumer's (and the killer's own)
            String ownId = killer.call("CLIENT", "ID").trim().substring(1);
            java.util.Set<String> consumerIds = new java.util.HashSet<>();
            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicInteger kills = new AtomicInteger();
            Workload load = new Workload(11, 100, "");
            Thread writer = new Thread(() -> {
                try {
                    load.run(4, 20_000, w -> Servers.conn(server));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                } finally {
                    writing.set(false);
                }
            });
            for (String line : clientList(killer)) {
                if (line.contains(" name=kevy-feed ")) {
                    consumerIds.add(line.substring(3, line.indexOf(' ')));
                }
            }
            writer.start();
            while (writing.get()) {
                Thread.sleep(100);
                for (String id : consumerIds) {
                    if (killer.call("CLIENT", "KILL", "ID", id).startsWith(":1")) {
                        kills.incrementAndGet();
                    }
                }
                consumerIds.clear();
                // the consumer's (re)connected connections carry the feed client's name from the handshake on;
                // writers' connections are never killed (a killed write could be retried and counted twice)
                for (String line : clientList(killer)) {
                    if (line.contains(" name=kevy-feed ") && !line.startsWith("id=" + ownId + " ")) {
                        consumerIds.add(line.substring(3, line.indexOf(' ')));
                    }
                }
            }
            writer.join();
            Servers.awaitCaughtUp(consumer, source, Duration.ofSeconds(60));
            Servers.assertSameState(Dump.dump(Dump.of(server.lettuce())), mirror.dump());
            assertThat(mirror.tokens()).isEqualTo(load.acknowledged());
            System.out.printf("FeedConsumerDisconnectIT: %d kills, %.0f retries%n", kills.get(),
                    registry.find("kevy.feed.consumer.retries").counters().stream().mapToDouble(c -> c.count()).sum());
            assertThat(kills.get()).isGreaterThan(5);
            assertThat(consumer.state()).isEqualTo(FeedConsumer.State.RUNNING);
            consumer.close();
        }
    }

    private static java.util.List<String> clientList(RawClient raw) {
        String reply = raw.call("CLIENT", "LIST");
        String body = reply.substring(reply.indexOf("\r\n") + 2);
        java.util.List<String> out = new java.util.ArrayList<>();
        for (String line : body.split("\n")) {
            if (line.startsWith("id=")) {
                out.add(line.trim());
            }
        }
        return out;
    }
}
