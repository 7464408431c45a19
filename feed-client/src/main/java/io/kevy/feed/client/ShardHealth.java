package io.kevy.feed.client;

import java.time.Instant;

/**
 * One shard's health. Immutable.
 *
 * @param shard        the shard
 * @param state        what its worker does
 * @param cursor       the last committed cursor (null before the first)
 * @param lag          frames between the committed cursor and the last known tail (0 when caught up; -1 unknown)
 * @param lastProgress when the cursor last moved or the worker last caught up (null before that)
 * @param lastError    the last error's message, or null
 */
public record ShardHealth(int shard, ShardState state, Cursor cursor, long lag, Instant lastProgress,
        String lastError) {
}
