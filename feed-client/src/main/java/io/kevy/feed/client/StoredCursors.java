package io.kevy.feed.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kevy.feed.client.envelope.ChangeEnvelopes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a {@link CursorStore} keeps for one consumer: its name, the shard count the cursors were taken with,
 * and one cursor per shard (feed contract §11). Stored as JSON:
 * {@code {"version":1,"consumer":"c","shards":2,"cursors":[{"shard":0,"generation":7,"offset":12},...]}}.
 * Immutable.
 *
 * @param consumer the consumer's name
 * @param shards   the server's shard count when stored
 * @param cursors  one cursor per shard, ordered by shard
 */
public record StoredCursors(String consumer, int shards, List<Cursor> cursors) {
    /** The JSON format's version. */
    public static final int VERSION = 1;

    public StoredCursors {
        cursors = List.copyOf(cursors);
        if (consumer == null || consumer.isEmpty()) {
            throw new IllegalArgumentException("consumer name must not be empty");
        }
        if (shards < 1 || cursors.size() != shards) {
            throw new IllegalArgumentException("need one cursor per shard: " + shards + " shard(s), "
                    + cursors.size() + " cursor(s)");
        }
        for (int i = 0; i < shards; i++) {
            if (cursors.get(i).shard() != i) {
                throw new IllegalArgumentException("cursor " + i + " names shard " + cursors.get(i).shard());
            }
        }
    }

    /** The cursor of {@code shard}. */
    public Cursor cursor(int shard) {
        return cursors.get(shard);
    }

    /** The JSON bytes. */
    public byte[] toJson() {
        ObjectNode o = ChangeEnvelopes.mapper().createObjectNode();
        o.put("version", VERSION);
        o.put("consumer", consumer);
        o.put("shards", shards);
        ArrayNode a = o.putArray("cursors");
        for (Cursor c : cursors) {
            a.addObject().put("shard", c.shard()).put("generation", c.generation()).put("offset", c.offset());
        }
        return ChangeEnvelopes.toBytes(o);
    }

    /**
     * Parses {@link #toJson()}'s format.
     *
     * @throws KevyConfigException when the bytes are not such a document ({@code where} names the source)
     */
    public static StoredCursors fromJson(byte[] json, String where) {
        try {
            JsonNode o = ChangeEnvelopes.mapper().readTree(json);
            if (o == null || o.path("version").asInt() != VERSION) {
                throw new KevyConfigException(where + ": not a version " + VERSION + " cursor document");
            }
            List<Cursor> cursors = new ArrayList<>();
            for (JsonNode c : o.path("cursors")) {
                cursors.add(new Cursor(c.path("shard").asInt(-1), c.path("generation").asLong(-1),
                        c.path("offset").asLong(-1)));
            }
            return new StoredCursors(o.path("consumer").asText(""), o.path("shards").asInt(), cursors);
        } catch (IOException | IllegalArgumentException e) {
            throw new KevyConfigException(where + ": unreadable cursor document: " + e.getMessage(), e);
        }
    }
}
