package io.kevy.feed.client;

import static io.kevy.feed.client.TestChanges.frame;
import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.feed.client.support.Servers;
import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import io.lettuce.core.codec.StringCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link FeedMirror} on upstream kevy's frames (feed contract §7: the commands as sent, no expiry frames): each
 * command runs on a server and its verbatim frame is applied to a mirror, which must then hold what the server
 * holds. Frames whose result they do not tell (INCR*, HINCRBY, ZINCRBY, list and set moves, SPOP, ZPOPMIN, *STORE,
 * COPY, EVAL, a RENAME of a key the mirror lacks) make the mirror read the keys again; relative TTLs (SETEX,
 * EXPIRE) become absolute from the time applied. Our server's own frames are effects and never take these paths,
 * so {@code FeedMirrorRebuildIT} does not reach them.
 */
class FeedMirrorUpstreamFramesIT {
    private long offset;

    private static String key(String k) {
        return "up:{t}" + k;
    }

    /** Runs {@code argv} (keys already qualified) on the server, then applies it to the mirror as upstream's frame. */
    private void step(RawClient raw, FeedMirror<String, String> mirror, String... argv) {
        raw.call(argv);
        mirror.apply(Change.of(StringCodec.UTF8, 0, 1, frame(offset++, argv), System.currentTimeMillis()));
    }

    /** key -> "type content" and key -> absolute expiry (-1 none) of the server's {@code up:*} keys. */
    private static Map<String, String> server(FeedSource source, Map<String, Long> expiries) throws Exception {
        List<String> keys = new ArrayList<>();
        String cursor = "0";
        do {
            ScanPage p = source.scan(cursor, "up:*".getBytes(StandardCharsets.UTF_8), 100).toCompletableFuture().get();
            for (byte[] k : p.keys()) {
                keys.add(new String(k, StandardCharsets.UTF_8));
            }
            cursor = p.cursor();
        } while (!cursor.equals("0"));
        List<byte[]> raw = new ArrayList<>();
        keys.forEach(k -> raw.add(k.getBytes(StandardCharsets.UTF_8)));
        Map<String, String> out = new TreeMap<>();
        List<Optional<KeySnapshot>> snaps = source.snapshots(raw).toCompletableFuture().get();
        for (int i = 0; i < keys.size(); i++) {
            if (snaps.get(i).isEmpty()) {
                continue;
            }
            KeySnapshot s = snaps.get(i).get();
            out.put(keys.get(i), describe(s));
            expiries.put(keys.get(i), s.expireAtMillis());
        }
        return out;
    }

    /** As {@link FeedMirrorIT#describe(MirroredValue)} says a value, from the server's plain reads. */
    private static String describe(KeySnapshot s) {
        List<String> v = new ArrayList<>();
        s.value().forEach(b -> v.add(new String(b, StandardCharsets.UTF_8)));
        switch (s.type()) {
            case STRING:
                return "string " + v.get(0);
            case LIST:
                return "list " + v;
            case SET:
                return "set " + new TreeSet<>(v);
            case HASH: {
                Map<String, String> m = new TreeMap<>();
                for (int i = 0; i + 1 < v.size(); i += 2) {
                    m.put(v.get(i), v.get(i + 1));
                }
                return "hash " + m;
            }
            case ZSET: {
                Map<String, Double> m = new TreeMap<>();
                for (int i = 0; i + 1 < v.size(); i += 2) {
                    m.put(v.get(i), Double.parseDouble(v.get(i + 1)));
                }
                return "zset " + m;
            }
            default:
                return s.type().word();
        }
    }

    private static void assertSame(FeedSource source, FeedMirror<String, String> mirror, String after)
            throws Exception {
        Map<String, Long> expiries = new TreeMap<>();
        Map<String, String> server = server(source, expiries);
        Map<String, String> local = new TreeMap<>();
        mirror.snapshot().forEach((k, v) -> local.put(k, FeedMirrorIT.describe(v)));
        assertThat(local).as("after %s: mirror == server", after).isEqualTo(server);
        for (Map.Entry<String, Long> e : expiries.entrySet()) {
            Optional<MirroredValue<String>> m = mirror.get(e.getKey());
            long at = m.get().expireAtMillis().orElse(-1);
            if (e.getValue() < 0) {
                assertThat(at).as("after %s: %s has no TTL", after, e.getKey()).isEqualTo(-1);
            } else {
                // a relative TTL is made absolute when the frame is applied, a few ms after the server did
                assertThat(at).as("after %s: %s's expiry", after, e.getKey()).isBetween(e.getValue() - 2000,
                        e.getValue() + 2000);
            }
        }
    }

    @Test
    void aMirrorOfUpstreamsVerbatimFramesEqualsTheServer() throws Exception {
        try (TestServer server = Servers.start(); FeedSource source = FeedSource.connect(server.uri());
             RawClient raw = server.raw();
             FeedMirror<String, String> m = FeedMirror.builder(StringCodec.UTF8).source(source).name("upstream-frames")
                     .prefixes("up:").build()) {
            List<String[]> steps = List.of(
                    new String[] {"SET", key("n"), "5"}, new String[] {"INCR", key("n")},
                    new String[] {"INCRBY", key("n"), "10"}, new String[] {"INCRBYFLOAT", key("f"), "1.5"},
                    new String[] {"SETEX", key("e"), "100", "v"}, new String[] {"EXPIRE", key("n"), "200"},
                    new String[] {"PERSIST", key("n")}, new String[] {"PSETEX", key("e2"), "100000", "w"},
                    new String[] {"RPUSH", key("a"), "x", "y", "z"},
                    new String[] {"LMOVE", key("a"), key("b"), "LEFT", "RIGHT"},
                    new String[] {"RPOPLPUSH", key("a"), key("b")}, new String[] {"LPOP", key("a")},
                    new String[] {"SADD", key("s"), "m1", "m2", "m3"},
                    new String[] {"SMOVE", key("s"), key("s2"), "m1"}, new String[] {"SPOP", key("s")},
                    new String[] {"SUNIONSTORE", key("d"), key("s"), key("s2")},
                    new String[] {"HSET", key("h"), "f", "1"}, new String[] {"HINCRBY", key("h"), "f", "2"},
                    new String[] {"ZADD", key("z"), "1", "a", "3", "b"}, new String[] {"ZINCRBY", key("z"), "2", "a"},
                    new String[] {"ZPOPMIN", key("z")}, new String[] {"RENAME", key("b"), key("b2")},
                    new String[] {"COPY", key("b2"), key("c")},
                    new String[] {"EVAL", "redis.call('set', KEYS[1], 'x') return 1", "1", key("ev")},
                    new String[] {"DEL", key("c"), key("d")});
            for (String[] argv : steps) {
                step(raw, m, argv);
                assertSame(source, m, String.join(" ", argv));
            }
            assertThat(m.size()).as("keys held before FLUSHALL").isGreaterThan(5);
            // a RENAME of a key the mirror lacks (its SET frame was never applied): read again
            raw.call("SET", key("missed"), "v");
            step(raw, m, "RENAME", key("missed"), key("found"));
            assertSame(source, m, "RENAME of a key the mirror lacks");
            assertThat(FeedMirrorIT.describe(m.get(key("found")))).isEqualTo("string v");
            step(raw, m, "FLUSHALL");
            assertThat(m.size()).as("upstream's FLUSHALL frame empties the mirror").isZero();
            assertThat(new TreeSet<>(m.snapshot().keySet())).isEmpty();
        }
    }
}
