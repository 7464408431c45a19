package io.kevy.bridge.kafka.support;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kevy.feed.client.Change;
import io.kevy.feed.client.FeedConsumer;
import io.kevy.feed.client.FeedSource;
import io.kevy.feed.client.StartFrom;
import io.kevy.feed.client.envelope.ChangeEnvelopes;
import io.lettuce.core.codec.ByteArrayCodec;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.awaitility.Awaitility;

/**
 * What a bridge should have forwarded: a reference consumer reads every shard of the server from offset 0 with the
 * bridge's prefixes and splits each change per key, as the envelope does; the result maps each envelope id to
 * its key and op.
 */
public final class Expected {
    /** One expected record. */
    public record Item(String id, String key, String op) {
    }

    private Expected() {
    }

    /** Every per-key envelope id of the server's feed under {@code prefixes}, up to the current tails. */
    public static Map<String, Item> of(String uri, String... prefixes) throws Exception {
        Map<String, Item> out = new ConcurrentHashMap<>();
        ChangeEnvelopes env = ChangeEnvelopes.forSource("x");
        try (FeedSource source = FeedSource.connect(uri)) {
            FeedConsumer<byte[], byte[]> c = FeedConsumer.builder(ByteArrayCodec.INSTANCE).source(source)
                    .name("expected").prefixes(prefixes).startFrom(StartFrom.EARLIEST).handler(b -> {
                        for (Change<byte[], byte[]> ch : b) {
                            for (ObjectNode e : env.perKey(ch)) {
                                String key = ChangeEnvelopes.decodeBytes(e.path("data").path("key")).length == 0 ? ""
                                        : new String(ChangeEnvelopes.decodeBytes(e.path("data").path("key")),
                                                java.nio.charset.StandardCharsets.UTF_8);
                                out.put(e.path("id").asText(), new Item(e.path("id").asText(), key,
                                        e.path("data").path("op").asText()));
                            }
                        }
                    }).build();
            c.start().toCompletableFuture().get();
            awaitCaughtUp(c, source, Duration.ofSeconds(120));
            c.close();
        }
        return new LinkedHashMap<>(out);
    }

    /** Waits until every shard's committed cursor of {@code consumer} reached the server's tail. */
    public static void awaitCaughtUp(FeedConsumer<?, ?> consumer, FeedSource source, Duration timeout) {
        Awaitility.await().atMost(timeout).ignoreExceptions().pollInterval(Duration.ofMillis(100)).until(() -> {
            int shards = source.shards().toCompletableFuture().get();
            var health = consumer.health();
            if (health.shards().size() != shards) {
                return false;
            }
            for (int i = 0; i < shards; i++) {
                var c = health.shards().get(i).cursor();
                if (c == null || !c.equals(source.tail(i).toCompletableFuture().get())) {
                    return false;
                }
            }
            return true;
        });
    }

    /** Waits until the stored cursors of a bridge reach the tails (read with {@code cursors}). */
    public static void awaitCursorsAtTail(FeedSource source, java.util.function.Supplier<List<io.kevy.feed.client.Cursor>>
            cursors, Duration timeout) {
        Awaitility.await().atMost(timeout).ignoreExceptions().pollInterval(Duration.ofMillis(200)).until(() -> {
            List<io.kevy.feed.client.Cursor> cs = cursors.get();
            for (io.kevy.feed.client.Cursor c : cs) {
                if (!c.equals(source.tail(c.shard()).toCompletableFuture().get())) {
                    return false;
                }
            }
            return !cs.isEmpty();
        });
    }
}
