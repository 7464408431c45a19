package io.kevy.examples.demo;

import com.fasterxml.jackson.databind.JsonNode;
import io.kevy.embedded.Config;
import io.kevy.embedded.Reply;
import io.kevy.embedded.Store;
import io.kevy.common.Slots;
import io.kevy.feed.client.envelope.ChangeEnvelopes;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Rebuilds the final state that a JSON-lines change log (the bridge's file sink) describes, by replaying it into
 * an embedded kevy {@link Store}: each feed envelope's {@code data.argv} (the frame: an effect, feed contract §7)
 * once per frame (per-key envelopes of one frame share it), a rebuild's snapshot entry as {@code DEL} + the
 * value's writes + {@code PEXPIREAT}, a vanished entry as {@code DEL}; and between a shard's
 * {@code io.kevy.resync.begin} and {@code io.kevy.resync.end}, keys of that shard (under the rebuild's prefixes)
 * that no snapshot entry named are deleted at the end (the sink's rebuild did not sweep them). Not thread-safe.
 */
final class JsonLinesReplay implements AutoCloseable {
    private final Store store = Store.open(Config.defaults().withoutFeed());
    private final int shards;
    private final Map<Integer, Set<String>> rebuilding = new HashMap<>();
    private final Map<Integer, List<String>> rebuildPrefixes = new HashMap<>();
    private String lastFrame = "";
    /** Non-empty lines read. */
    long lines;
    /** Distinct feed changes (frames) the lines carry: a multi-key change's per-key lines count once. */
    long frames;
    /** The further lines of a multi-key change (one per key after its first: MSET, DEL, RENAME). */
    long perKey;
    /** Change lines that are neither a frame's first line nor a further per-key line of it (none expected). */
    long other;
    long snapshots;
    long vanished;
    /** io.kevy.resync.begin lines; {@link #markers} counts begin and end lines. */
    long resyncs;
    long markers;
    long errors;

    /** A replay for a server with {@code shards} shards (to know which keys a shard's rebuild covers). */
    JsonLinesReplay(int shards) {
        this.shards = shards;
    }

    /**
     * Replays {@code file}; {@code onLine} sees each envelope first (latency measurement).
     *
     * @throws IOException when the file cannot be read or a line is not JSON
     */
    JsonLinesReplay replay(Path file, java.util.function.Consumer<JsonNode> onLine) throws IOException {
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                if (!line.isEmpty()) {
                    JsonNode e = ChangeEnvelopes.mapper().readTree(line);
                    lines++;
                    onLine.accept(e);
                    apply(e);
                }
            }
        }
        return this;
    }

    private void apply(JsonNode e) {
        String type = e.path("type").asText();
        JsonNode data = e.path("data");
        switch (type) {
            case ChangeEnvelopes.RESYNC_BEGIN: {
                int shard = data.path("shard").asInt();
                resyncs++;
                markers++;
                rebuilding.put(shard, new HashSet<>());
                List<String> prefixes = new ArrayList<>();
                data.path("prefixes").forEach(p -> prefixes.add(p.asText()));
                rebuildPrefixes.put(shard, prefixes);
                return;
            }
            case ChangeEnvelopes.RESYNC_END:
                markers++;
                sweep(data.path("shard").asInt());
                return;
            case ChangeEnvelopes.TYPE_PREFIX + "snapshot":
                snapshots++;
                snapshot(data);
                return;
            case ChangeEnvelopes.TYPE_PREFIX + "vanished":
                vanished++;
                run(List.of("DEL".getBytes(StandardCharsets.UTF_8), key(data)));
                return;
            default:
                String id = e.path("id").asText();
                String[] parts = id.split(":");
                String frame = parts.length >= 3 ? parts[0] + ":" + parts[1] + ":" + parts[2] : id;
                if (!frame.equals(lastFrame) && data.has("argv")) {
                    lastFrame = frame;
                    frames++;
                    List<byte[]> argv = new ArrayList<>();
                    data.path("argv").forEach(a -> argv.add(ChangeEnvelopes.decodeBytes(a)));
                    run(argv);
                } else if (frame.equals(lastFrame)) {
                    perKey++;
                } else {
                    other++;
                }
        }
    }

    /**
     * What the lines are, so that they add up to the bridge's counts: {@code L JSON lines = C changes + X more
     * lines of multi-key changes (one per key: MSET, DEL, RENAME) + M resync markers + S snapshot lines + V vanished
     * lines}, each part counted line by line (a line of none of these kinds adds {@code + N other lines}).
     */
    String breakdown() {
        // each part is counted on its own line by line, so the sum is a check, not a remainder
        return String.format(java.util.Locale.ROOT, "%,d JSON lines = %,d changes + %,d more lines of multi-key "
                + "changes (one per key) + %,d resync markers + %,d snapshot lines + %,d vanished lines%s", lines,
                frames, perKey, markers, snapshots, vanished,
                other == 0 ? "" : String.format(java.util.Locale.ROOT, " + %,d other lines", other));
    }

    private static byte[] key(JsonNode data) {
        return ChangeEnvelopes.decodeBytes(data.path("key"));
    }

    private void snapshot(JsonNode data) {
        byte[] key = key(data);
        Set<String> seen = rebuilding.get(data.path("shard").asInt());
        if (seen != null) {
            seen.add(new String(key, StandardCharsets.UTF_8));
        }
        run(cmd("DEL", key));
        switch (data.path("valueType").asText()) {
            case "string":
                run(cmd("SET", key, ChangeEnvelopes.decodeBytes(data.path("value"))));
                break;
            case "hash": {
                List<byte[]> c = cmd("HSET", key);
                data.path("fields").forEach(f -> {
                    c.add(ChangeEnvelopes.decodeBytes(f.path("name")));
                    c.add(ChangeEnvelopes.decodeBytes(f.path("value")));
                });
                if (c.size() > 2) {
                    run(c);
                }
                break;
            }
            case "list":
            case "set": {
                List<byte[]> c = cmd(data.path("valueType").asText().equals("list") ? "RPUSH" : "SADD", key);
                data.path("elements").forEach(v -> c.add(ChangeEnvelopes.decodeBytes(v)));
                run(c);
                break;
            }
            case "zset": {
                List<byte[]> c = cmd("ZADD", key);
                data.path("scored").forEach(m -> {
                    c.add(m.path("score").asText().getBytes(StandardCharsets.UTF_8));
                    c.add(ChangeEnvelopes.decodeBytes(m.path("member")));
                });
                run(c);
                break;
            }
            default:
                return;
        }
        if (data.has("expireAtMs")) {
            run(cmd("PEXPIREAT", key, data.path("expireAtMs").asText().getBytes(StandardCharsets.UTF_8)));
        }
    }

    private void sweep(int shard) {
        Set<String> seen = rebuilding.remove(shard);
        List<String> prefixes = rebuildPrefixes.remove(shard);
        if (seen == null) {
            return;
        }
        for (String k : store.scan("*")) {
            byte[] b = k.getBytes(StandardCharsets.UTF_8);
            boolean covered = prefixes.isEmpty() || prefixes.stream().anyMatch(k::startsWith);
            if (covered && Slots.shard(b, shards) == shard && !seen.contains(k)) {
                run(cmd("DEL", b));
            }
        }
    }

    private static List<byte[]> cmd(String verb, byte[]... args) {
        List<byte[]> c = new ArrayList<>();
        c.add(verb.getBytes(StandardCharsets.UTF_8));
        c.addAll(List.of(args));
        return c;
    }

    private void run(List<byte[]> argv) {
        if (store.execute(argv.toArray(new byte[0][])) instanceof Reply.Error) {
            errors++;
        }
    }

    /** Every hash under {@code prefix} in the replayed state, key → fields. */
    Map<String, Map<String, String>> hashes(String prefix) {
        Map<String, Map<String, String>> out = new HashMap<>();
        for (String k : store.scan(escapeGlob(prefix) + "*")) {
            if (store.execute("TYPE", k).toString().equals("hash")) {
                out.put(k, new java.util.TreeMap<>(store.hgetall(k)));
            }
        }
        return out;
    }

    /** Live keys under {@code prefix} in the replayed state (as PREFIX.STATS counts them). */
    long keys(String prefix) {
        return store.infoPrefix(prefix).keys();
    }

    static String escapeGlob(String s) {
        return s.replaceAll("([*?\\[\\]\\\\])", "\\\\$1");
    }

    /** When the envelope was read by the bridge, ms since the epoch. */
    static long time(JsonNode envelope) {
        return Instant.parse(envelope.path("time").asText()).toEpochMilli();
    }

    @Override
    public void close() {
        store.close();
    }
}
