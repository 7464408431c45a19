package io.kevy.feed.client;

/**
 * Callbacks on what a consumer does (the Micrometer binder is one). Every method defaults to nothing. Called
 * from the consumer's threads, possibly concurrently for different shards: implementations must be thread-safe
 * and quick, and must not throw (exceptions are logged and ignored).
 */
public interface ConsumerListener {
    /** Error and retry kinds passed to {@link #onError} and {@link #onRetry}. */
    String CONNECTION = "connection";
    String TIMEOUT = "timeout";
    String SERVER = "server";
    String CURSOR_AHEAD = "cursor_ahead";
    String HANDLER = "handler";
    String REBUILD = "rebuild";
    String PROTOCOL = "protocol";
    String CURSOR_STORE = "cursor_store";

    /** The consumer knows its shard count. */
    default void onStart(String consumer, int shards) {
    }

    /** A CHANGES batch of {@code frames} changes was accepted by the sink after {@code handlerNanos}. */
    default void onBatch(String consumer, int shard, int frames, long handlerNanos) {
    }

    /** The consumer's cursors were stored. */
    default void onCommit(String consumer) {
    }

    /** A shard got FEEDRESYNC. */
    default void onResync(String consumer, int shard) {
    }

    /** A rebuild ended. */
    default void onRebuild(String consumer, RebuildScope scope, RebuildResult result) {
    }

    /** An attempt failed and will be retried ({@code kind}: {@link #CONNECTION}, {@link #HANDLER} ...). */
    default void onRetry(String consumer, int shard, String kind, Throwable error) {
    }

    /** An error of {@code kind} happened (retried or not). {@code shard} is -1 when no shard is concerned. */
    default void onError(String consumer, int shard, String kind, Throwable error) {
    }

    /** A shard's state changed. */
    default void onState(String consumer, int shard, ShardState state) {
    }
}
