package io.kevy.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.engine.Engine;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A fixed history that leaves -0 scores in skiplist-encoded sorted sets, one key per way such a set can reach
 * another server or a restart, for comparing kevy (primary, replica, restarted) with a real Redis 7.0 that ran
 * the same history. A listpack stores -0 as 0 (Redis's {@code zzlInsert} writes the integer 0) while a skiplist
 * keeps it, so a set rebuilt by ZADDs that start a listpack would lose the sign:
 *
 * <ul>
 *   <li>{@code big}: 200 members, the -0 ones added last; ascending, they come 51st and 52nd, inside a listpack's
 *       128.
 *   <li>{@code long}: a skiplist because of a 100-byte member; the -0 member sorts first.
 *   <li>{@code shrunk}: grown to 201 members, then cut to 3 by rank (Redis never converts back).
 *   <li>{@code sorted}: 2 members converted by SORT (Redis 7.0 converts the sorted set it sorts; no frame says
 *       so), then a member added with -0.
 *   <li>{@code union}: {@code ZUNIONSTORE ... WEIGHTS 0} of {@code big}: -0 for every negative score.
 *   <li>{@code restored}: RESTORE of the server's own DUMP of {@code big}.
 *   <li>COPY of {@code big}, {@code long}, {@code shrunk} and {@code sorted}, and RENAME of {@code union} and
 *       {@code restored}, each to a key on another shard of the kevy server (rebuild frames, feed contract §7).
 * </ul>
 *
 * Not thread-safe; one instance per prefix.
 */
public final class NegativeZeroZSets {
    private final String prefix;
    /** Every key the history leaves, with a member whose score is -0 there. */
    private final Map<String, String> negativeZero = new LinkedHashMap<>();
    /** The keys Redis's RDB loading keeps as skiplists: more than 128 members or one longer than 64 bytes. */
    private final List<String> large = new ArrayList<>();
    private final Map<String, String> copies = new LinkedHashMap<>();
    private final Map<String, String> renames = new LinkedHashMap<>();

    /**
     * A history on keys that start with {@code prefix}; each COPY and RENAME destination is the first key that lies
     * on another shard of {@code engine} than its source (the same shard when it has one).
     */
    public NegativeZeroZSets(String prefix, Engine engine) {
        this.prefix = prefix;
        negativeZero.put(key("big"), "z0");
        negativeZero.put(key("long"), "b");
        negativeZero.put(key("shrunk"), "z");
        negativeZero.put(key("sorted"), "c");
        negativeZero.put(key("union"), "n00");
        negativeZero.put(key("restored"), "z1");
        large.addAll(List.of(key("big"), key("long"), key("union"), key("restored")));
        for (String name : List.of("big", "long", "shrunk", "sorted")) {
            copies.put(key(name), elsewhere(engine, key(name), prefix + ":copy-" + name + "-"));
        }
        for (String name : List.of("union", "restored")) {
            renames.put(key(name), elsewhere(engine, key(name), prefix + ":renamed-" + name + "-"));
        }
        copies.forEach((src, dst) -> add(src, dst));
        renames.forEach((src, dst) -> {
            add(src, dst);
            negativeZero.remove(src);
            large.remove(src);
        });
    }

    private void add(String src, String dst) {
        negativeZero.put(dst, negativeZero.get(src));
        if (large.contains(src)) {
            large.add(dst);
        }
    }

    private static String elsewhere(Engine engine, String src, String prefix) {
        int n = engine.shardCount();
        int shard = (engine.shardIndex(src.getBytes(StandardCharsets.UTF_8)) + 1) % n;
        return StateDump.keyOnShard(engine, prefix, shard);
    }

    private String key(String name) {
        return prefix + ":" + name;
    }

    /** The keys the history leaves, each holding a -0 score. */
    public Set<String> keys() {
        return negativeZero.keySet();
    }

    /** The keys whose set Redis's RDB loading keeps as a skiplist (so with its -0), in the order of {@link #keys}. */
    public List<String> large() {
        List<String> out = new ArrayList<>();
        for (String k : keys()) {
            if (large.contains(k)) {
                out.add(k);
            }
        }
        return out;
    }

    /** Runs the history on {@code c}'s server; every command must succeed. */
    public void run(RawClient c) {
        List<String> big = new ArrayList<>(List.of("ZADD", key("big")));
        for (int i = 0; i < 50; i++) {
            big.addAll(List.of(Integer.toString(-1 - i), String.format("n%02d", i)));
        }
        for (int i = 0; i < 148; i++) {
            big.addAll(List.of(Integer.toString(1 + i), String.format("p%03d", i)));
        }
        big.addAll(List.of("-0", "z0", "-0", "z1")); // added once the set is a skiplist: they stay -0
        ok(c, big.toArray(new String[0]));
        ok(c, "ZADD", key("long"), "1", "a", "2", "l".repeat(100), "-0", "b");
        List<String> shrunk = new ArrayList<>(List.of("ZADD", key("shrunk")));
        for (int i = 0; i < 200; i++) {
            shrunk.addAll(List.of(Integer.toString(1 + i), String.format("s%03d", i)));
        }
        ok(c, shrunk.toArray(new String[0]));
        ok(c, "ZADD", key("shrunk"), "-0", "z");
        ok(c, "ZREMRANGEBYRANK", key("shrunk"), "1", "-3");
        ok(c, "ZADD", key("sorted"), "1", "a", "2", "b");
        ok(c, "SORT", key("sorted"), "ALPHA");
        ok(c, "ZADD", key("sorted"), "-0", "c");
        ok(c, "ZUNIONSTORE", key("union"), "1", key("big"), "WEIGHTS", "0");
        byte[] dump = c.send(RawClient.encode(bytes("DUMP"), bytes(key("big")))).readReplyBytes();
        int header = indexOfCrlf(dump) + 2;
        byte[] payload = Arrays.copyOfRange(dump, header, dump.length - 2);
        assertThat(c.send(RawClient.encode(bytes("RESTORE"), bytes(key("restored")), bytes("0"), payload))
                .readReply()).isEqualTo("+OK\r\n");
        copies.forEach((src, dst) -> assertThat(c.call("COPY", src, dst)).isEqualTo(":1\r\n"));
        renames.forEach((src, dst) -> assertThat(c.call("RENAME", src, dst)).isEqualTo("+OK\r\n"));
    }

    /**
     * What a client reads of each key, as raw RESP: {@code OBJECT ENCODING}, {@code ZSCORE} of its -0 member and
     * {@code ZRANGE 0 -1 WITHSCORES}.
     */
    public Map<String, String> observe(RawClient c) {
        return observe(c, keys());
    }

    /** {@link #observe(RawClient)} of {@code keys} only. */
    public Map<String, String> observe(RawClient c, Iterable<String> keys) {
        Map<String, String> out = new TreeMap<>();
        for (String k : keys) {
            out.put(k, c.call("OBJECT", "ENCODING", k) + " ZSCORE " + negativeZero.get(k) + " "
                    + c.call("ZSCORE", k, negativeZero.get(k)) + " " + c.call("ZRANGE", k, "0", "-1", "WITHSCORES"));
        }
        return out;
    }

    private static void ok(RawClient c, String... argv) {
        String line = String.join(" ", argv);
        assertThat(c.call(argv)).as("%s", line.substring(0, Math.min(60, line.length()))).doesNotStartWith("-");
    }

    private static int indexOfCrlf(byte[] b) {
        for (int i = 0; i + 1 < b.length; i++) {
            if (b[i] == '\r' && b[i + 1] == '\n') {
                return i;
            }
        }
        throw new IllegalArgumentException("no CRLF");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
