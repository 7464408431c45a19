package io.kevy.feed.client;

import java.util.List;

/**
 * A consumer's health ({@link FeedConsumer#health()}). Immutable.
 *
 * @param consumer the consumer's name
 * @param state    its lifecycle state
 * @param shards   per-shard health, by shard index (empty before the shard count is known)
 * @param failure  why it failed, or null
 */
public record Health(String consumer, FeedConsumer.State state, List<ShardHealth> shards, String failure) {
    public Health {
        shards = List.copyOf(shards);
    }

    /** The largest lag of any shard (-1 when unknown for some shard). */
    public long maxLag() {
        long max = 0;
        for (ShardHealth s : shards) {
            if (s.lag() < 0) {
                return -1;
            }
            max = Math.max(max, s.lag());
        }
        return max;
    }

    /** True when every shard is caught up. */
    public boolean caughtUp() {
        return !shards.isEmpty() && shards.stream().allMatch(s -> s.state() == ShardState.CAUGHT_UP);
    }
}
