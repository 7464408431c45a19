package io.kevy.feed.client;

/** Why a rebuild runs. */
public enum RebuildReason {
    /** {@code -FEEDRESYNC}: the cursor fell out of the backlog, or the generation changed (flush, crash). */
    RESYNC,
    /** The stored cursor names a generation the server no longer has (seen at start). */
    GENERATION_GONE,
    /** The stored cursor was written for another shard count. */
    SHARD_COUNT_CHANGED,
    /** {@link FeedConsumer#rebuild()}. */
    REQUESTED,
    /** No stored cursor and {@link StartFrom#REBUILD}. */
    START
}
