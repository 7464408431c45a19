package io.kevy.feed.client;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Where a {@link FeedConsumer} delivers changes (the SPI of the Kafka and webhook bridges; a {@link Handler} is
 * a synchronous sink, see {@link #of(Handler)}).
 *
 * <p>Contract:
 * <ul>
 *   <li>{@link #deliver} completes its stage when the batch is <em>durably accepted</em> (a broker acknowledged
 *       every record, a webhook answered 2xx ...). Only then does the consumer store the batch's cursor
 *       ({@link Batch#next()}); a stage that completes exceptionally leaves the cursor where it was and the
 *       consumer delivers the same batch again (at-least-once; feed contract §1, §11). Completing with a
 *       {@link SinkException} whose {@code retryable()} is false skips the retries.</li>
 *   <li>Batches of one shard are delivered one at a time, in offset order: the next is delivered only after
 *       the previous stage completed. Batches of different shards may be delivered concurrently, from
 *       different threads.</li>
 *   <li>A rebuild calls {@link #beginRebuild}, then {@link #deliver} with {@link Batch.Kind#SNAPSHOT} batches
 *       (the keys' values, then the vanished keys), then {@link #endRebuild}, each after the previous stage
 *       completed. The rebuilt shards deliver no CHANGES batch in between; other shards may. Right after a
 *       {@link ScanRebuild} (exact rebuilds), a CHANGES batch may hold {@link Op#SNAPSHOT} / {@link Op#VANISHED}
 *       entries too: the fresh read of a key that a frame of several keys (a same-shard RENAME) changed while the
 *       rebuild read it, delivered in the frame's place; and a DEL or MSET change may name fewer keys than its
 *       {@link Change#argv()} (the keys whose rebuild read already holds it are left out).</li>
 *   <li>{@link #close} is called once, after the last delivery completed or was abandoned.</li>
 * </ul>
 * Implementations must be thread-safe in the sense above.
 *
 * @param <K> key type
 * @param <V> value type
 */
public interface Sink<K, V> extends AutoCloseable {
    /** Delivers {@code batch}; the stage completes when it is durably accepted, exceptionally when not. */
    CompletionStage<Void> deliver(Batch<K, V> batch);

    /** A rebuild of {@code scope} starts. The default does nothing. */
    default CompletionStage<Void> beginRebuild(RebuildScope scope) {
        return CompletableFuture.completedFuture(null);
    }

    /** The rebuild of {@code scope} ended: every entry was delivered. The default does nothing. */
    default CompletionStage<Void> endRebuild(RebuildScope scope, RebuildResult result) {
        return CompletableFuture.completedFuture(null);
    }

    /** Releases the sink's resources. The default does nothing. */
    @Override
    default void close() throws Exception {
    }

    /** {@code handler} as a sink: {@link #deliver} runs it on the calling thread. */
    static <K, V> Sink<K, V> of(Handler<K, V> handler) {
        java.util.Objects.requireNonNull(handler, "handler");
        return new Sink<>() {
            @Override
            public CompletionStage<Void> deliver(Batch<K, V> batch) {
                try {
                    handler.handle(batch);
                    return CompletableFuture.completedFuture(null);
                } catch (Exception | AssertionError e) {
                    return CompletableFuture.failedFuture(e);
                }
            }

            @Override
            public String toString() {
                return "Sink.of(" + handler + ")";
            }
        };
    }
}
