package io.kevy.engine;

/**
 * The server-wide Pub/Sub counts INFO prints ({@code pubsub_channels}, {@code pubsub_patterns},
 * {@code pubsubshard_channels}): channels, patterns and shard channels with at least one subscriber. Set on the
 * engine by whoever assembles Pub/Sub ({@code io.kevy.boot.KevyInstance}); {@link #NONE} until then.
 * Implementations must be safe to call from any thread.
 */
public interface ChannelCounts {

    /** No Pub/Sub: every count is zero. */
    ChannelCounts NONE = new ChannelCounts() {
        @Override
        public int channelCount() {
            return 0;
        }

        @Override
        public int patternCount() {
            return 0;
        }

        @Override
        public int shardChannelCount() {
            return 0;
        }
    };

    int channelCount();

    int patternCount();

    int shardChannelCount();
}
