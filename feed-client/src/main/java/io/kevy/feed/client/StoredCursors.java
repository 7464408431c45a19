package io.kevy.feed.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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

    /** The JSON bytes (compact, UTF-8). */
    public byte[] toJson() {
        return CursorJson.write(VERSION, consumer, cursors);
    }

    /**
     * Parses {@link #toJson()}'s format (fields in any order, unknown fields ignored; at most
     * {@value CursorJson#MAX_BYTES} bytes).
     *
     * @throws KevyConfigException when the bytes are not such a document ({@code where} names the source)
     */
    public static StoredCursors fromJson(byte[] json, String where) {
        try {
            Object doc = CursorJson.read(json);
            Map<?, ?> o = doc instanceof Map<?, ?> m ? m : Map.of();
            if (integer(o.get("version"), -1) != VERSION) {
                throw new KevyConfigException(where + ": not a version " + VERSION + " cursor document");
            }
            List<Cursor> cursors = new ArrayList<>();
            if (o.get("cursors") instanceof List<?> l) {
                for (Object e : l) {
                    Map<?, ?> c = e instanceof Map<?, ?> m ? m : Map.of();
                    cursors.add(new Cursor(int32(c.get("shard"), -1), integer(c.get("generation"), -1),
                            integer(c.get("offset"), -1)));
                }
            }
            Object consumer = o.get("consumer");
            return new StoredCursors(consumer instanceof String s ? s : "", int32(o.get("shards"), 0),
                    cursors);
        } catch (IllegalArgumentException e) {
            throw new KevyConfigException(where + ": unreadable cursor document: " + e.getMessage(), e);
        }
    }

    /** A JSON integer, else {@code absent} (missing, or another type: the record's checks then refuse it). */
    private static long integer(Object v, long absent) {
        return v instanceof Long l ? l : absent;
    }

    /** As {@link #integer}, and {@code absent} for a value outside int (no silent wrap to a valid shard). */
    private static int int32(Object v, int absent) {
        long l = integer(v, absent);
        return l < Integer.MIN_VALUE || l > Integer.MAX_VALUE ? absent : (int) l;
    }
}
