package io.kevy.feed.client;

/** What one shard's worker is doing ({@link FeedConsumer#health()}). */
public enum ShardState {
    /** Finding its start cursor. */
    STARTING,
    /** Reading and delivering, behind the tail. */
    RUNNING,
    /** At the tail: the last read reached the end of the stream. */
    CAUGHT_UP,
    /** Waiting for a rebuild of its shard. */
    REBUILDING,
    /** Waiting to retry after a connection failure or a rejected batch. */
    RETRYING,
    /** Stopped with an error ({@link FeedConsumer#failure()}). */
    FAILED,
    /** Stopped by {@link FeedConsumer#close()}. */
    STOPPED
}
