package io.kevy.bridge.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kevy.feed.client.Cursor;
import io.kevy.feed.client.StoredCursors;
import io.kevy.feed.client.envelope.ChangeEnvelopes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The records of the cursor topic: key {@code <consumer>/<shard>} (UTF-8), value
 * {@code {"version":1,"consumer":"c","shards":4,"shard":2,"generation":7,"offset":12}}; a tombstone (null value)
 * removes a shard's cursor. Stateless.
 */
final class CursorRecords {
    private CursorRecords() {
    }

    static byte[] key(String consumer, int shard) {
        return (consumer + "/" + shard).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] value(String consumer, int shards, Cursor c) {
        ObjectNode o = ChangeEnvelopes.mapper().createObjectNode();
        o.put("version", StoredCursors.VERSION);
        o.put("consumer", consumer);
        o.put("shards", shards);
        o.put("shard", c.shard());
        o.put("generation", c.generation());
        o.put("offset", c.offset());
        return ChangeEnvelopes.toBytes(o);
    }

    /** One decoded record: the cursor and the shard count it was written with. */
    record Entry(int shards, Cursor cursor, long timestamp) {
    }

    /**
     * Folds the records of the cursor topic (in log order per partition) into {@code consumer}'s stored cursors:
     * the last record per shard wins, a tombstone removes it; of the shard counts seen, the most recently written
     * one whose cursors are complete (one per shard) is taken.
     */
    static final class Folder {
        private final String consumer;
        private final String prefix;
        private final Map<Integer, Entry> latest = new HashMap<>();

        Folder(String consumer) {
            this.consumer = consumer;
            this.prefix = consumer + "/";
        }

        void add(byte[] key, byte[] value, long timestamp) {
            if (key == null) {
                return;
            }
            String k = new String(key, StandardCharsets.UTF_8);
            if (!k.startsWith(prefix)) {
                return;
            }
            int shard;
            try {
                shard = Integer.parseInt(k.substring(prefix.length()));
            } catch (NumberFormatException e) {
                return;
            }
            if (value == null) {
                latest.remove(shard);
                return;
            }
            try {
                JsonNode o = ChangeEnvelopes.mapper().readTree(value);
                latest.put(shard, new Entry(o.path("shards").asInt(), new Cursor(shard, o.path("generation").asLong(),
                        o.path("offset").asLong()), timestamp));
            } catch (IOException | IllegalArgumentException e) {
                throw new io.kevy.feed.client.KevyConfigException("unreadable cursor record " + k + ": " + e, e);
            }
        }

        /** Shards with a cursor (tombstoned ones excluded). */
        Map<Integer, Cursor> cursors() {
            Map<Integer, Cursor> out = new TreeMap<>();
            latest.forEach((s, e) -> out.put(s, e.cursor()));
            return out;
        }

        Optional<StoredCursors> stored() {
            Map<Integer, Long> newest = new HashMap<>();
            for (Entry e : latest.values()) {
                newest.merge(e.shards(), e.timestamp(), Math::max);
            }
            List<Map.Entry<Integer, Long>> counts = new ArrayList<>(newest.entrySet());
            counts.sort(Map.Entry.<Integer, Long>comparingByValue().reversed());
            for (Map.Entry<Integer, Long> n : counts) {
                int shards = n.getKey();
                List<Cursor> cs = new ArrayList<>();
                for (int i = 0; i < shards; i++) {
                    Entry e = latest.get(i);
                    if (e == null || e.shards() != shards) {
                        break;
                    }
                    cs.add(e.cursor());
                }
                if (cs.size() == shards && shards > 0) {
                    return Optional.of(new StoredCursors(consumer, shards, cs));
                }
            }
            return Optional.empty();
        }
    }
}
