package io.kevy.feed.client;

/**
 * A synchronous {@link Sink}: the batch is accepted when {@link #handle} returns; an exception rejects it (the
 * consumer retries it, then applies its failure policy). Called from the consumer's worker threads: batches of
 * one shard one at a time in order, batches of different shards possibly at once, so an implementation that
 * shares state across shards must be thread-safe.
 *
 * @param <K> key type
 * @param <V> value type
 */
@FunctionalInterface
public interface Handler<K, V> {
    /**
     * Handles one batch: feed changes, or a rebuild's SNAPSHOT/VANISHED entries ({@link Batch#kind()}).
     *
     * @throws Exception to reject the batch; a {@link SinkException} with {@code retryable() == false} is not
     *         retried
     */
    void handle(Batch<K, V> batch) throws Exception;
}
