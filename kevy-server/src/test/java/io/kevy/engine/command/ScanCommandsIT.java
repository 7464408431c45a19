package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import io.lettuce.core.KeyScanArgs;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * SCAN over a 4-shard keyspace: the Redis guarantee (every key present for the whole scan is returned at least
 * once) while keys are added and removed between calls so the shards' tables grow and shrink, with MATCH and
 * TYPE filters; and KEYS/RANDOMKEY over shards.
 */
class ScanCommandsIT {
    private static final Pattern BULK = Pattern.compile("\\$\\d+\r\n([^\r]*)\r\n");

    /** One SCAN reply: the next cursor and the keys. */
    private record Page(String cursor, List<String> keys) {
    }

    private static Page scan(RawClient raw, String cursor, String... options) {
        String[] cmd = new String[2 + options.length];
        cmd[0] = "SCAN";
        cmd[1] = cursor;
        System.arraycopy(options, 0, cmd, 2, options.length);
        String reply = raw.call(cmd);
        assertThat(reply).startsWith("*2\r\n");
        Matcher m = BULK.matcher(reply);
        assertThat(m.find()).isTrue();
        String next = m.group(1);
        List<String> keys = new ArrayList<>();
        while (m.find()) {
            keys.add(m.group(1));
        }
        return new Page(next, keys);
    }

    @Test
    void everyKeyPresentForTheWholeScanIsReturnedAcrossResizes() {
        long seed = System.nanoTime();
        System.out.println("ScanCommandsIT seed=" + seed);
        Random rnd = new Random(seed);
        try (TestServer server = TestServer.start(ServerOptions.SHARDS, 4)) {
            RawClient raw = server.raw();
            RawClient writer = server.raw();
            Set<String> strings = new HashSet<>();
            Set<String> hashes = new HashSet<>();
            for (int i = 0; i < 1500; i++) {
                String k = "p:" + i;
                if (rnd.nextBoolean()) {
                    writer.call("SET", k, "v");
                    strings.add(k);
                } else {
                    writer.call("HSET", k, "f", "v");
                    hashes.add(k);
                }
            }
            String[][] filters = {{}, {"MATCH", "p:1*"}, {"TYPE", "hash"}, {"TYPE", "STRING", "MATCH", "p:*5"}};
            for (String[] filter : filters) {
                Set<String> seen = new HashSet<>();
                List<String> churn = new ArrayList<>();
                String cursor = "0";
                int calls = 0;
                do {
                    String[] opts = new String[filter.length + 2];
                    System.arraycopy(filter, 0, opts, 0, filter.length);
                    opts[filter.length] = "COUNT";
                    opts[filter.length + 1] = Integer.toString(1 + rnd.nextInt(20));
                    Page page = scan(raw, cursor, opts);
                    seen.addAll(page.keys());
                    cursor = page.cursor();
                    // grow for a while, then shrink: both resize every shard's table during the scan
                    if (calls < 150) {
                        String[] mset = new String[121];
                        mset[0] = "MSET";
                        for (int j = 0; j < 60; j++) {
                            String k = "c:" + calls + ":" + j;
                            mset[2 * j + 1] = k;
                            mset[2 * j + 2] = "x";
                            churn.add(k);
                        }
                        writer.call(mset);
                    } else if (!churn.isEmpty()) {
                        int n = Math.min(churn.size(), 200);
                        List<String> batch = churn.subList(churn.size() - n, churn.size());
                        String[] del = new String[n + 1];
                        del[0] = "DEL";
                        for (int j = 0; j < n; j++) {
                            del[j + 1] = batch.get(j);
                        }
                        writer.call(del);
                        batch.clear();
                    }
                    assertThat(++calls).isLessThan(100_000);
                } while (!cursor.equals("0"));
                Set<String> expected = new HashSet<>();
                for (String k : strings) {
                    if (accepts(filter, k, "string")) {
                        expected.add(k);
                    }
                }
                for (String k : hashes) {
                    if (accepts(filter, k, "hash")) {
                        expected.add(k);
                    }
                }
                assertThat(seen).as("filter %s", String.join(" ", filter)).containsAll(expected);
                for (String k : seen) {
                    String type = k.startsWith("c:") ? "string" : strings.contains(k) ? "string" : "hash";
                    assertThat(accepts(filter, k, type)).as("%s returned for %s", k, String.join(" ", filter))
                            .isTrue();
                }
                for (int from = 0; from < churn.size(); from += 500) {
                    List<String> batch = churn.subList(from, Math.min(churn.size(), from + 500));
                    List<String> del = new ArrayList<>(batch);
                    del.add(0, "DEL");
                    writer.call(del.toArray(new String[0]));
                }
            }
        }
    }

    private static boolean accepts(String[] filter, String key, String type) {
        for (int i = 0; i < filter.length; i += 2) {
            if (filter[i].equals("MATCH")) {
                String glob = filter[i + 1];
                String regex = glob.replace("*", ".*");
                if (!key.matches(regex)) {
                    return false;
                }
            } else if (filter[i].equals("TYPE") && !filter[i + 1].equalsIgnoreCase(type)) {
                return false;
            }
        }
        return true;
    }

    @Test
    void lettuceScanKeysAndRandomkeyCoverEveryShard() {
        try (TestServer server = TestServer.start(ServerOptions.SHARDS, 4)) {
            RedisCommands<String, String> r = server.lettuce();
            Set<String> all = new HashSet<>();
            for (int i = 0; i < 200; i++) {
                r.set("key:" + i, "v");
                all.add("key:" + i);
            }
            Set<String> seen = new HashSet<>();
            KeyScanCursor<String> c = r.scan(KeyScanArgs.Builder.limit(7));
            seen.addAll(c.getKeys());
            while (!c.isFinished()) {
                c = r.scan(c, KeyScanArgs.Builder.limit(7));
                seen.addAll(c.getKeys());
            }
            assertThat(seen).isEqualTo(all);
            assertThat(new HashSet<>(r.keys("key:1*"))).hasSize(111);
            Set<String> randoms = new HashSet<>();
            for (int i = 0; i < 400; i++) {
                randoms.add(r.randomkey());
            }
            assertThat(all).containsAll(randoms);
            assertThat(randoms).hasSizeGreaterThan(50);
            assertThat(r.scan(ScanCursor.of("0"), KeyScanArgs.Builder.matches("nope*").limit(1000)).getKeys())
                    .isEmpty();
        }
    }
}
