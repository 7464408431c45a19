package io.kevy.feed;

/**
 * How an engine keeps its change feed (feed contract §3): on or off, and the backlog budget per shard in
 * bytes of RESP-encoded frames (§6). Immutable.
 *
 * @param enabled      whether frames are retained and FEED.TAIL / FEED.READ answer
 * @param bufferBytes  the backlog budget per shard in bytes, in [1, {@link #MAX_BUFFER}]
 */
public record FeedConfig(boolean enabled, long bufferBytes) {
    /** The default budget per shard: 64 MiB (feed contract §3). */
    public static final long DEFAULT_BUFFER = 64L * 1024 * 1024;
    /** The largest budget per shard: 1 GiB (feed contract §3). */
    public static final long MAX_BUFFER = 1024L * 1024 * 1024;

    public FeedConfig {
        if (bufferBytes < 1 || bufferBytes > MAX_BUFFER) {
            throw new IllegalArgumentException("feed buffer must be in [1, " + MAX_BUFFER + "] bytes, got "
                    + bufferBytes);
        }
    }

    /** The feed off (FEED.SHARDS and PREFIX.STATS still answer), with the default budget. */
    public static FeedConfig disabled() {
        return new FeedConfig(false, DEFAULT_BUFFER);
    }

    /**
     * The feed on with {@code bufferBytes} per shard; 0 means {@link #DEFAULT_BUFFER}.
     *
     * @throws IllegalArgumentException when {@code bufferBytes} is negative or above {@link #MAX_BUFFER}
     */
    public static FeedConfig enabled(long bufferBytes) {
        return new FeedConfig(true, bufferBytes == 0 ? DEFAULT_BUFFER : bufferBytes);
    }
}
