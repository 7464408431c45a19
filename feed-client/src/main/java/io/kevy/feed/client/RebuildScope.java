package io.kevy.feed.client;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What one rebuild covers: the shards it rebuilds with the cursors they resume at afterwards (the carried
 * {@code (generation, tail)}, taken before any key is read, so every write during the rebuild is read again:
 * feed contract §11), the consumer's prefixes and the server's shard count. Immutable.
 *
 * @param sequence   numbers the consumer's rebuilds from 1
 * @param reason     why it runs
 * @param carried    shard → the cursor reading resumes at
 * @param shardCount the server's shard count (keys map to shards by feed contract §2)
 * @param prefixes   the consumer's prefixes (empty = every key); do not modify the arrays
 */
public record RebuildScope(long sequence, RebuildReason reason, Map<Integer, Cursor> carried, int shardCount,
        List<byte[]> prefixes) {
    public RebuildScope {
        carried = java.util.Collections.unmodifiableMap(new TreeMap<>(carried));
        prefixes = List.copyOf(prefixes);
        if (carried.isEmpty()) {
            throw new IllegalArgumentException("a rebuild covers at least one shard");
        }
    }

    /** The shards rebuilt. */
    public Set<Integer> shards() {
        return carried.keySet();
    }

    /** True when every shard is rebuilt. */
    public boolean allShards() {
        return carried.size() == shardCount;
    }
}
