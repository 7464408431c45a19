package io.kevy.examples.demo;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.NestedMultiOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Step 6's check: the server's {@code pkg:*} hashes (SCAN + HGETALL) and their count by {@code PREFIX.STATS}
 * against the search index's documents, the JSON-lines log's replayed state, and the cache's entries (none may
 * serve anything but the server's current value). Immutable once computed.
 *
 * @param statsKeys   {@code PREFIX.STATS pkg:} keys
 * @param serverKeys  pkg:* hashes found by SCAN
 * @param indexDocs   documents in the index
 * @param jsonKeys    pkg:* keys in the JSON-lines final state
 * @param cacheEntries cached entries checked
 * @param problems    what differs (at most a few lines); empty when consistent
 */
record Consistency(long statsKeys, int serverKeys, int indexDocs, long jsonKeys, int cacheEntries,
        List<String> problems) {
    private static final int MAX_PROBLEMS = 8;

    boolean consistent() {
        return problems.isEmpty();
    }

    /** Compares everything; {@code cache} maps ids (names) to what the cache would serve. */
    static Consistency check(RedisCommands<String, String> redis, String prefix,
            Map<String, Map<String, String>> index, Map<String, Map<String, String>> json, long jsonKeys,
            Map<String, Optional<Map<String, String>>> cache) {
        long stats = prefixStats(redis, prefix);
        Map<String, Map<String, String>> server = hashes(redis, prefix);
        List<String> problems = new ArrayList<>();
        if (stats != server.size()) {
            problems.add("PREFIX.STATS " + prefix + " counts " + stats + " keys, SCAN found " + server.size()
                    + " hashes");
        }
        if (index.size() != stats) {
            problems.add("the index holds " + index.size() + " documents, the server " + stats + " keys");
        }
        if (jsonKeys != stats) {
            problems.add("the JSON-lines final state holds " + jsonKeys + " keys, the server " + stats);
        }
        diff("index", server, index, problems);
        diff("JSON lines", server, json, problems);
        for (Map.Entry<String, Optional<Map<String, String>>> e : cache.entrySet()) {
            Map<String, String> now = server.get(prefix + e.getKey());
            if (!Objects.equals(now, e.getValue().orElse(null)) && problems.size() < MAX_PROBLEMS) {
                problems.add("cache: " + prefix + e.getKey() + " serves " + e.getValue().orElse(null)
                        + ", the server has " + now);
            }
        }
        return new Consistency(stats, server.size(), index.size(), jsonKeys, cache.size(),
                List.copyOf(problems.subList(0, Math.min(problems.size(), MAX_PROBLEMS))));
    }

    private static void diff(String what, Map<String, Map<String, String>> server,
            Map<String, Map<String, String>> other, List<String> problems) {
        TreeSet<String> keys = new TreeSet<>(server.keySet());
        keys.addAll(other.keySet());
        for (String k : keys) {
            if (problems.size() >= MAX_PROBLEMS) {
                return;
            }
            if (!Objects.equals(server.get(k), other.get(k))) {
                problems.add(what + ": " + k + " is " + other.get(k) + ", the server has " + server.get(k));
            }
        }
    }

    private enum Command implements ProtocolKeyword {
        PREFIX_STATS("PREFIX.STATS");

        private final byte[] bytes;

        Command(String name) {
            this.bytes = name.getBytes(StandardCharsets.US_ASCII);
        }

        @Override
        public byte[] getBytes() {
            return bytes;
        }

        @Override
        public String toString() {
            return new String(bytes, StandardCharsets.US_ASCII);
        }
    }

    /** {@code PREFIX.STATS prefix}: live keys under the prefix (feed contract §4). */
    static long prefixStats(RedisCommands<String, String> redis, String prefix) {
        List<Object> reply = redis.dispatch(Command.PREFIX_STATS, new NestedMultiOutput<>(StringCodec.UTF8),
                new CommandArgs<>(StringCodec.UTF8).add(prefix));
        for (int i = 0; i + 1 < reply.size(); i += 2) {
            if ("keys".equals(reply.get(i))) {
                return (Long) reply.get(i + 1);
            }
        }
        throw new IllegalStateException("PREFIX.STATS answered " + reply);
    }

    /** Every hash under {@code prefix} on the server, key → fields. */
    static Map<String, Map<String, String>> hashes(RedisCommands<String, String> redis, String prefix) {
        Map<String, Map<String, String>> out = new HashMap<>();
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<String> page = redis.scan(cursor,
                    ScanArgs.Builder.matches(JsonLinesReplay.escapeGlob(prefix) + "*").limit(1000));
            for (String k : page.getKeys()) {
                Map<String, String> fields = redis.hgetall(k);
                if (!fields.isEmpty()) {
                    out.put(k, new TreeMap<>(fields));
                }
            }
            cursor = page;
        } while (!cursor.isFinished());
        return out;
    }
}
