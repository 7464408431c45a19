package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;
import io.kevy.testing.ChiSquare;
import io.kevy.testing.RawClient;
import io.kevy.testing.Replies;
import io.kevy.testing.TestServer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The random picks of HRANDFIELD, ZRANDMEMBER and SRANDMEMBER (negative count, and no count), SPOP and RANDOMKEY
 * are uniform, in the compact encodings (listpack, intset) and in the hashtable ones (hashtable, skiplist): a
 * chi-square test over the members at {@code p = 1e-6} ({@link ChiSquare}). The server draws from
 * ThreadLocalRandom and hashes with a per-process seed, so the samples cannot be seeded; the sample sizes make
 * a false failure a one-in-a-million event and keep a bias such as Redis's (chi-square about 3.5 times the
 * degrees of freedom here) far above the bound. Each case prints its statistic.
 */
class RandomDistributionIT {
    private static final int SMALL = 100;
    private static final int LARGE = 1000;
    /** Picks per member for a negative count (one command) and for single picks (one command each). */
    private static final int PER_MEMBER = 40;
    private static final int PER_MEMBER_SINGLE = 25;

    private static TestServer kevy;
    private static RawClient raw;

    @BeforeAll
    static void start() {
        kevy = TestServer.start();
        raw = kevy.raw();
    }

    @AfterAll
    static void stop() {
        kevy.close();
    }

    @BeforeEach
    void flush() {
        raw.call("FLUSHALL");
    }

    @Test
    void hrandfieldIsUniform() {
        fill("h", SMALL, "listpack", i -> new String[] {"HSET", "h", "f" + i, "v"});
        checkBoth("HRANDFIELD", "h", SMALL, "listpack");
        fill("H", LARGE, "hashtable", i -> new String[] {"HSET", "H", "f" + i, "v"});
        checkBoth("HRANDFIELD", "H", LARGE, "hashtable");
    }

    @Test
    void zrandmemberIsUniform() {
        fill("z", SMALL, "listpack", i -> new String[] {"ZADD", "z", Integer.toString(i), "m" + i});
        checkBoth("ZRANDMEMBER", "z", SMALL, "listpack");
        fill("Z", LARGE, "skiplist", i -> new String[] {"ZADD", "Z", Integer.toString(i), "m" + i});
        checkBoth("ZRANDMEMBER", "Z", LARGE, "skiplist");
    }

    @Test
    void srandmemberIsUniform() {
        fill("s", SMALL, "intset", i -> new String[] {"SADD", "s", Integer.toString(i)});
        checkBoth("SRANDMEMBER", "s", SMALL, "intset");
        fill("S", LARGE, "hashtable", i -> new String[] {"SADD", "S", "m" + i});
        checkBoth("SRANDMEMBER", "S", LARGE, "hashtable");
    }

    /** SPOP without a count, the member put back at once (by a script, so the pops can be pipelined). */
    @Test
    void spopIsUniform() {
        String popAndPutBack = "local m = redis.call('SPOP', KEYS[1]) redis.call('SADD', KEYS[1], m) return m";
        fill("s", SMALL, "intset", i -> new String[] {"SADD", "s", Integer.toString(i)});
        check("SPOP s (intset)", SMALL, single(SMALL * PER_MEMBER_SINGLE, "EVAL", popAndPutBack, "1", "s"));
        fill("S", LARGE, "hashtable", i -> new String[] {"SADD", "S", "m" + i});
        check("SPOP S (hashtable)", LARGE, single(LARGE * PER_MEMBER_SINGLE, "EVAL", popAndPutBack, "1", "S"));
    }

    /** Over both shards of the test server: a shard in proportion to its keys, then a key of it. */
    @Test
    void randomkeyIsUniform() {
        for (int i = 0; i < LARGE; i += 100) {
            List<String> mset = new ArrayList<>(List.of("MSET"));
            for (int j = i; j < i + 100; j++) {
                mset.add("k" + j);
                mset.add("v");
            }
            raw.call(mset.toArray(new String[0]));
        }
        check("RANDOMKEY (" + LARGE + " keys)", LARGE, single(LARGE * PER_MEMBER_SINGLE, "RANDOMKEY"));
    }

    private static void fill(String key, int n, String encoding, IntFunction<String[]> add) {
        for (int i = 0; i < n; i++) {
            raw.command(add.apply(i));
        }
        for (int i = 0; i < n; i++) {
            raw.readReply();
        }
        assertThat(Replies.bulk(raw.call("OBJECT", "ENCODING", key))).isEqualTo(encoding);
    }

    /** A negative count (one command, repetitions allowed) and single picks (no count). */
    private static void checkBoth(String command, String key, int n, String encoding) {
        String what = command + " " + key + " (" + encoding + ", " + n + " members)";
        check(what + " count -" + n * PER_MEMBER, n,
                count(Replies.array(raw.call(command, key, Integer.toString(-n * PER_MEMBER)))));
        check(what + " no count", n, single(n * PER_MEMBER_SINGLE, command, key));
    }

    private static void check(String what, int categories, Map<String, Long> counts) {
        double chi2 = ChiSquare.statistic(counts, categories);
        double bound = ChiSquare.bound(categories - 1);
        long samples = counts.values().stream().mapToLong(Long::longValue).sum();
        System.out.printf("RandomDistributionIT %s: samples=%d chi2=%.1f df=%d bound(p=1e-6)=%.1f%n", what,
                samples, chi2, categories - 1, bound);
        assertThat(counts).as(what).hasSize(categories);
        assertThat(chi2).as("chi-square of %s (%d samples, %d degrees of freedom)", what, samples, categories - 1)
                .isLessThan(bound);
    }

    /** Runs {@code args} {@code times} times (pipelined) and counts the bulk replies. */
    private static Map<String, Long> single(int times, String... args) {
        byte[][] b = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            b[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        byte[] one = RawClient.encode(b);
        int batch = 1000;
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (int i = 0; i < batch; i++) {
            all.writeBytes(one);
        }
        byte[] pipeline = all.toByteArray();
        List<String> picks = new ArrayList<>(times);
        for (int done = 0; done < times; done += batch) {
            raw.send(pipeline);
            for (int i = 0; i < batch; i++) {
                picks.add(Replies.bulk(raw.readReply()));
            }
        }
        return count(picks);
    }

    private static Map<String, Long> count(List<String> picks) {
        Map<String, Long> counts = new HashMap<>();
        for (String p : picks) {
            counts.merge(p, 1L, Long::sum);
        }
        return counts;
    }
}
