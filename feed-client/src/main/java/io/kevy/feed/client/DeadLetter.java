package io.kevy.feed.client;

/**
 * Where a batch goes when the handler or sink rejected it after every retry, when the consumer is told to
 * continue ({@link FeedConsumer.Builder#deadLetter}): after {@link #accept} returns, the consumer stores the
 * batch's cursor and goes on. Without a dead letter the consumer stops (the default) and the cursor stays.
 *
 * @param <K> key type
 * @param <V> value type
 */
@FunctionalInterface
public interface DeadLetter<K, V> {
    /**
     * Takes the rejected batch.
     *
     * @throws Exception when the batch cannot be parked either: the consumer then stops
     */
    void accept(Batch<K, V> batch, Throwable error) throws Exception;
}
