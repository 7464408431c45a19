package io.kevy.examples.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A view of the kevy keys a Kafka bridge forwards, kept from its records (one change envelope per record,
 * docs/bridges.md "What reaches Kafka"): strings and hashes with their values, other types by name.
 *
 * <p>Per change: {@code set} (also an MSET pair) sets a string; {@code hset}/{@code hdel} change a hash's fields
 * (no field left: the key is gone); {@code del} (also an expiry) removes; {@code rename} moves the value (the
 * source's record carries {@code to}, the destination's {@code from}; whichever is read first moves what the view
 * has); TTL changes keep the value; other writes record the key's type. Rebuilds: the bridge writes
 * {@code resync.begin}, a {@code snapshot} record per live key and {@code resync.end} into <em>every</em>
 * partition, in order with the partition's records, so at a partition's {@code resync.end} of shard S the view
 * drops the keys of that partition and shard that no snapshot record named since its {@code resync.begin}.
 *
 * <p>Keys of one partition arrive in kevy's order; across partitions there is none, so a RENAME between keys of
 * two partitions can move a value older than the source's latest (route both to one partition if that matters).
 * Not thread-safe: one consumer thread.
 */
public final class KeyView {
    /** What the view holds for a key: its type and value, and where its records come from. */
    record Entry(String type, String string, Map<String, String> hash, int partition, int shard) {
    }

    private final Map<String, Entry> keys = new HashMap<>();
    private final Map<String, Set<String>> rebuilding = new HashMap<>();
    private long applied;

    /** Applies one record's envelope read from {@code partition}. */
    public void apply(int partition, JsonNode envelope) {
        applied++;
        JsonNode d = envelope.path("data");
        String op = d.path("op").asText();
        int shard = d.path("shard").asInt();
        String key = d.path("key").isTextual() ? d.path("key").asText() : null;
        switch (op) {
            case "resync.begin":
                rebuilding.put(partition + "/" + shard, new HashSet<>());
                return;
            case "resync.end":
                sweep(partition, shard, rebuilding.remove(partition + "/" + shard));
                return;
            default:
                break;
        }
        if (key == null) {
            return; // a key that is not UTF-8 ({"base64": ...}) or an event without a key
        }
        switch (op) {
            case "snapshot": {
                Set<String> seen = rebuilding.get(partition + "/" + shard);
                if (seen != null) {
                    seen.add(key);
                }
                String type = d.path("valueType").asText();
                put(key, type, d, partition, shard);
                return;
            }
            case "set":
                put(key, "string", d, partition, shard);
                return;
            case "hset": {
                Entry e = keys.get(key);
                Map<String, String> h = new TreeMap<>(e != null && e.hash() != null ? e.hash() : Map.of());
                h.putAll(fields(d));
                keys.put(key, new Entry("hash", null, Collections.unmodifiableMap(h), partition, shard));
                return;
            }
            case "hdel": {
                Entry e = keys.get(key);
                if (e != null && e.hash() != null) {
                    Map<String, String> h = new TreeMap<>(e.hash());
                    d.path("fieldNames").forEach(f -> h.remove(f.asText()));
                    if (h.isEmpty()) {
                        keys.remove(key);
                    } else {
                        keys.put(key, new Entry("hash", null, Collections.unmodifiableMap(h), partition, shard));
                    }
                }
                return;
            }
            case "del":
            case "vanished":
                keys.remove(key);
                return;
            case "rename": {
                String from = d.has("from") ? d.path("from").asText() : key;
                String to = d.has("to") ? d.path("to").asText() : key;
                Entry moved = keys.remove(from);
                if (moved != null) {
                    keys.put(to, new Entry(moved.type(), moved.string(), moved.hash(), partition, shard));
                }
                return;
            }
            case "expire":
            case "persist":
                return;
            default:
                keys.put(key, new Entry(op.startsWith("z") ? "zset" : op.startsWith("s") ? "set" : "list", null,
                        null, partition, shard));
        }
    }

    private void put(String key, String type, JsonNode d, int partition, int shard) {
        if (type.equals("hash")) {
            keys.put(key, new Entry(type, null, Collections.unmodifiableMap(new TreeMap<>(fields(d))), partition,
                    shard));
        } else if (type.equals("string")) {
            keys.put(key, new Entry(type, d.path("value").asText(), null, partition, shard));
        } else {
            keys.put(key, new Entry(type, null, null, partition, shard));
        }
    }

    private static Map<String, String> fields(JsonNode d) {
        Map<String, String> m = new TreeMap<>();
        d.path("fields").forEach(f -> m.put(f.path("name").asText(), f.path("value").asText()));
        return m;
    }

    private void sweep(int partition, int shard, Set<String> seen) {
        if (seen == null) {
            return;
        }
        keys.entrySet().removeIf(e -> e.getValue().partition() == partition && e.getValue().shard() == shard
                && !seen.contains(e.getKey()));
    }

    /** The hashes in the view, key → fields. */
    public Map<String, Map<String, String>> hashes() {
        Map<String, Map<String, String>> out = new TreeMap<>();
        keys.forEach((k, e) -> {
            if (e.hash() != null) {
                out.put(k, e.hash());
            }
        });
        return out;
    }

    /** The string value of {@code key}, or null. */
    public String string(String key) {
        Entry e = keys.get(key);
        return e == null ? null : e.string();
    }

    /** Keys in the view. */
    public int size() {
        return keys.size();
    }

    /** Records applied. */
    public long applied() {
        return applied;
    }

    /** Keys of the view, sorted (for printing). */
    public List<String> keys() {
        return keys.keySet().stream().sorted().toList();
    }
}
