package io.kevy.feed.client;

import io.lettuce.core.codec.RedisCodec;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything a {@link FeedConsumer} was built with ({@link FeedConsumer.Builder} documents each setting and its
 * default). Immutable: a record whose equality compares every setting (prefixes by content, the objects by
 * identity), so {@code consumer.toBuilder().build().settings()} equals {@code consumer.settings()}.
 */
public record ConsumerSettings<K, V>(
        RedisCodec<K, V> codec,
        FeedSource source,
        String name,
        List<ByteBuffer> prefixes,
        CursorStore cursorStore,
        Sink<K, V> sink,
        Handler<K, V> handler,
        Rebuild<K, V> rebuild,
        StartFrom startFrom,
        int batchSize,
        Duration block,
        Duration pollMin,
        Duration pollMax,
        boolean exactPrefixFilter,
        boolean durableOnly,
        int handlerRetries,
        Duration retryInitial,
        Duration retryMax,
        int maxConnectionAttempts,
        DeadLetter<K, V> deadLetter,
        int maxFutileRebuilds,
        Duration rebuildGather,
        Duration deliveryTimeout,
        Clock clock,
        MeterRegistry meterRegistry,
        ConsumerListener listener,
        java.util.Set<Integer> assignment,
        boolean volatileState) {

    public ConsumerSettings {
        prefixes = List.copyOf(prefixes);
        assignment = java.util.Set.copyOf(assignment);
    }

    /** Whether the consumer reads {@code shard}: every shard without an assignment, else the assigned ones. */
    public boolean assigned(int shard) {
        return assignment.isEmpty() || assignment.contains(shard);
    }

    /** The prefixes as byte arrays (copies). */
    public List<byte[]> prefixBytes() {
        List<byte[]> out = new ArrayList<>(prefixes.size());
        for (ByteBuffer b : prefixes) {
            byte[] a = new byte[b.remaining()];
            b.duplicate().get(a);
            out.add(a);
        }
        return out;
    }

    /** The sink deliveries go to: the sink, or the handler as a synchronous sink. */
    Sink<K, V> effectiveSink() {
        return sink != null ? sink : Sink.of(handler);
    }
}
