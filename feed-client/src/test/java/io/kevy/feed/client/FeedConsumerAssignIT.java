package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kevy.common.Slots;
import io.kevy.feed.client.support.Servers;
import io.kevy.testing.TestServer;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * {@link FeedConsumer.Builder#assign}: two consumers split a 4-shard server's shards (as the Kafka Connect
 * tasks do); each gets exactly the changes of its shards, together every change, and an assigned shard the
 * server does not have fails the start with the reason.
 */
class FeedConsumerAssignIT {
    @Test
    void assignedConsumersSplitTheShards() throws Exception {
        try (TestServer server = Servers.start(); FeedSource source = FeedSource.connect(server.uri())) {
            Set<String> even = ConcurrentHashMap.newKeySet();
            Set<String> odd = ConcurrentHashMap.newKeySet();
            try (FeedConsumer<String, String> a = consumer(source, "assign-a", List.of(0, 2), even);
                    FeedConsumer<String, String> b = consumer(source, "assign-b", List.of(1, 3), odd)) {
                a.start().toCompletableFuture().get(30, TimeUnit.SECONDS);
                b.start().toCompletableFuture().get(30, TimeUnit.SECONDS);
                RedisCommands<String, String> redis = server.lettuce();
                Set<String> all = new HashSet<>();
                for (int i = 0; i < 400; i++) {
                    redis.set("k:" + i, "v");
                    all.add("k:" + i);
                }
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> even.size() + odd.size() == all.size());
                assertThat(a.health().shards()).extracting(ShardHealth::shard).containsExactly(0, 2);
                assertThat(even).allSatisfy(k -> assertThat(Slots.shard(k.getBytes(StandardCharsets.UTF_8), 4))
                        .isIn(0, 2));
                assertThat(odd).allSatisfy(k -> assertThat(Slots.shard(k.getBytes(StandardCharsets.UTF_8), 4))
                        .isIn(1, 3));
                Set<String> union = new HashSet<>(even);
                union.addAll(odd);
                assertThat(union).isEqualTo(all);
                assertThat(a.awaitCaughtUp(Duration.ofSeconds(10))).isTrue();
            }
            try (FeedConsumer<String, String> c = consumer(source, "assign-c", List.of(1, 9), ConcurrentHashMap
                    .newKeySet())) {
                assertThatThrownBy(() -> c.start().toCompletableFuture().get(30, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class).hasMessageContaining("assigned shard 9")
                        .hasMessageContaining("4 shard(s)");
            }
        }
        assertThatThrownBy(() -> FeedConsumer.builder(StringCodec.UTF8).assign(List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FeedConsumer.builder(StringCodec.UTF8).assign(List.of(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static FeedConsumer<String, String> consumer(FeedSource source, String name, List<Integer> shards,
            Set<String> keys) {
        return FeedConsumer.builder(StringCodec.UTF8).source(source).name(name).assign(shards)
                .handler(batch -> batch.forEach(c -> keys.add(c.key()))).build();
    }
}
