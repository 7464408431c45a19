package io.kevy.feed.client;

/**
 * How a consumer rebuilds derived state when the feed cannot continue it (feed contract §11.3: FEEDRESYNC, a
 * generation that is gone, a shard-count change, {@link FeedConsumer#rebuild()}, {@link StartFrom#REBUILD}).
 * The built-in {@link ScanRebuild} reloads every key under the prefixes; a cache can simply drop everything:
 * {@code .onRebuild(ctx -> cache.invalidateAll())}.
 *
 * <p>Runs on the consumer's rebuild thread while the rebuilt shards' workers wait; the sink's
 * {@link Sink#beginRebuild} has completed before and {@link Sink#endRebuild} runs after. Reading resumes at
 * the carried cursors ({@link RebuildContext#scope()}), which were taken before the rebuild started, so every
 * write made meanwhile is delivered again afterwards.
 *
 * @param <K> key type
 * @param <V> value type
 */
@FunctionalInterface
public interface Rebuild<K, V> {
    /**
     * Rebuilds the shards of {@code context.scope()}.
     *
     * @throws Exception to fail the rebuild: connection failures ({@link KevyConnectionException},
     *         {@link KevyTimeoutException}) are retried with backoff, anything else stops the consumer
     */
    void rebuild(RebuildContext<K, V> context) throws Exception;
}
