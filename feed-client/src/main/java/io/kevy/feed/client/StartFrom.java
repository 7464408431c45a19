package io.kevy.feed.client;

/**
 * Where a consumer without a stored cursor starts (feed contract §11.1). A stored cursor wins, except for a
 * consumer whose state is volatile ({@link FeedConsumer.Builder#volatileState}): it ignores stored cursors and
 * always starts here ({@link #REBUILD} by default for it).
 */
public enum StartFrom {
    /** Only changes from now on: each shard's {@code FEED.TAIL}. */
    TAIL,
    /**
     * The oldest changes of the current generations: offset 0. When the backlog no longer holds offset 0 the
     * server answers FEEDRESYNC and the consumer rebuilds.
     */
    EARLIEST,
    /** A rebuild of every shard (the derived state is complete), then the changes from the carried tails. */
    REBUILD
}
