package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kevy.feed.client.support.Servers;
import io.kevy.testing.TestServer;
import io.lettuce.core.codec.StringCodec;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * The consumer's meters belong to it (issue 31): {@code close()} removes them from the registry, and a second
 * consumer of the same name in the same registry cannot start while the first holds them (a clear error, not
 * micrometer's "This Gauge has been already registered").
 */
class FeedConsumerMetersIT {
    private static List<Meter> consumerMeters(SimpleMeterRegistry r) {
        return r.getMeters().stream().filter(m -> m.getId().getName().startsWith("kevy.feed.consumer.")).toList();
    }

    private static FeedConsumer<String, String> consumer(FeedSource source, SimpleMeterRegistry registry,
                                                         Set<String> seen) {
        return consumer("twin", source, registry, seen);
    }

    private static FeedConsumer<String, String> consumer(String name, FeedSource source,
                                                         SimpleMeterRegistry registry, Set<String> seen) {
        return FeedConsumer.builder(StringCodec.UTF8).source(source).name(name).meterRegistry(registry)
                .handler(b -> b.forEach(c -> seen.add(c.key()))).build();
    }

    @Test
    void closeRemovesTheMetersAndASecondConsumerOfTheSameNameGetsAClearError() throws Exception {
        try (TestServer server = Servers.start(); FeedSource source = FeedSource.connect(server.uri())) {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            Set<String> seen = ConcurrentHashMap.newKeySet();
            FeedConsumer<String, String> first = consumer(source, registry, seen);
            first.start().toCompletableFuture().get();
            server.lettuce().set("k", "v");
            assertThat(first.awaitCaughtUp(Duration.ofSeconds(30))).isTrue();
            assertThat(consumerMeters(registry)).as("lag gauges, frame and batch counters")
                    .extracting(m -> m.getId().getName())
                    .contains("kevy.feed.consumer.lag", "kevy.feed.consumer.frames", "kevy.feed.consumer.batches");

            FeedConsumer<String, String> second = consumer(source, registry, seen);
            assertThatThrownBy(second::start).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'twin'").hasMessageContaining("already has meters");
            assertThat(second.state()).as("not started").isEqualTo(FeedConsumer.State.NEW);

            first.close();
            assertThat(consumerMeters(registry)).as("close() removed every meter of the first").isEmpty();

            second.start().toCompletableFuture().get();
            server.lettuce().set("k2", "v");
            assertThat(second.awaitCaughtUp(Duration.ofSeconds(30))).isTrue();
            assertThat(consumerMeters(registry)).as("the second has its own meters now").isNotEmpty();
            assertThat(registry.get("kevy.feed.consumer.frames").counters().stream().mapToDouble(c -> c.count())
                    .sum()).as("counted from zero: the first's counts were removed with it").isEqualTo(1);
            second.close();
            assertThat(consumerMeters(registry)).isEmpty();
            assertThat(seen).containsExactlyInAnyOrder("k", "k2");
        }
    }

    @Test
    void consumersOfOtherNamesOrOtherRegistriesDoNotConflict() throws Exception {
        try (TestServer server = Servers.start(); FeedSource source = FeedSource.connect(server.uri())) {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            FeedConsumer<String, String> a = consumer(source, registry, ConcurrentHashMap.newKeySet());
            FeedConsumer<String, String> b = consumer(source, new SimpleMeterRegistry(), ConcurrentHashMap.newKeySet());
            FeedConsumer<String, String> c = consumer("other", source, registry, ConcurrentHashMap.newKeySet());
            a.start().toCompletableFuture().get();
            b.start().toCompletableFuture().get();
            c.start().toCompletableFuture().get();
            assertThat(registry.get("kevy.feed.consumer.lag").gauges()).extracting(g -> g.getId().getTag("consumer"))
                    .containsOnly("twin", "other");
            a.close();
            assertThat(registry.get("kevy.feed.consumer.lag").gauges()).extracting(g -> g.getId().getTag("consumer"))
                    .containsOnly("other");
            b.close();
            c.close();
        }
    }
}
