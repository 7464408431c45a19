package io.kevy.bridge.kafka.connect;

import io.kevy.feed.client.Cursor;
import java.util.Map;

/**
 * The connector's source partitions and offsets, as Connect stores them (JSON in the offsets topic):
 * partition {@code {"shard": i}}, offset {@code {"generation": g, "offset": o, "shards": n}}, the cursor
 * (feed contract §5) plus the server's shard count it was taken with (keys map to shards by that count, so a
 * cursor of another count is not resumed: the task rebuilds). A rebuild's records add {@code "snapshot": true}
 * until its last record, as Debezium marks an unfinished snapshot; resuming from such an offset rebuilds again.
 */
final class SourceOffsets {
    static final String SHARD = "shard";
    static final String GENERATION = "generation";
    static final String OFFSET = "offset";
    static final String SHARDS = "shards";
    static final String SNAPSHOT = "snapshot";

    private SourceOffsets() {
    }

    static Map<String, Object> partition(int shard) {
        return Map.of(SHARD, shard);
    }

    static Map<String, Object> offset(long generation, long offset, int shards) {
        return Map.of(GENERATION, generation, OFFSET, offset, SHARDS, shards);
    }

    static Map<String, Object> offset(Cursor c, int shards) {
        return offset(c.generation(), c.offset(), shards);
    }

    static Map<String, Object> snapshot(long generation, long offset, int shards) {
        return Map.of(GENERATION, generation, OFFSET, offset, SHARDS, shards, SNAPSHOT, true);
    }

    /** A stored offset read back: null fields when absent or of the wrong type. */
    record Stored(Long generation, Long offset, Integer shards, boolean snapshot) {
        static Stored of(Map<String, Object> m) {
            return new Stored(asLong(m.get(GENERATION)), asLong(m.get(OFFSET)),
                    m.get(SHARDS) instanceof Number n ? n.intValue() : null, Boolean.TRUE.equals(m.get(SNAPSHOT)));
        }

        private static Long asLong(Object o) {
            return o instanceof Number n ? n.longValue() : null;
        }

        /** Whether reading can resume here: a whole cursor of a finished rebuild, taken with {@code shards}. */
        boolean resumable(int shardCount) {
            return generation != null && offset != null && generation >= 1 && offset >= 0 && !snapshot
                    && shards != null && shards == shardCount;
        }
    }
}
