package io.kevy.feed;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.resp.RespFrames;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** The PREFIX filter of feed contract §8. */
class PrefixFilterTest {
    private static byte[][] f(String... args) {
        byte[][] b = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            b[i] = args[i].getBytes(StandardCharsets.ISO_8859_1);
        }
        return b;
    }

    private static PrefixFilter of(String... prefixes) {
        return PrefixFilter.of(java.util.Arrays.stream(prefixes)
                .map(p -> p.getBytes(StandardCharsets.ISO_8859_1)).toList());
    }

    @Test
    void singleKeyFramesAreFilteredByTheirKey() {
        PrefixFilter p = of("user:", "order:");
        assertThat(p.accepts(f("SET", "user:1", "v"))).isTrue();
        assertThat(p.accepts(f("HSET", "order:9", "f", "v"))).isTrue();
        assertThat(p.accepts(f("SET", "use", "v"))).isFalse();
        assertThat(p.accepts(f("PEXPIREAT", "session:1", "1700000000000"))).isFalse();
        assertThat(p.accepts(f("DEL", "session:1"))).as("DEL of one key is single-key").isFalse();
        assertThat(p.accepts(f("ZADD", "user:top", "1", "m"))).isTrue();
    }

    @Test
    void failOpenShapesAreAlwaysDelivered() {
        PrefixFilter p = of("user:");
        assertThat(p.accepts(f("DEL", "a", "b"))).isTrue();
        assertThat(p.accepts(f("MSET", "a", "1"))).as("MSET even with one pair").isTrue();
        assertThat(p.accepts(f("RENAME", "a", "b"))).isTrue();
    }

    @Test
    void comparisonIsByBytes() {
        PrefixFilter p = PrefixFilter.of(List.of(new byte[] {(byte) 0xff, 0}));
        assertThat(p.accepts(new byte[][] {"SET".getBytes(), {(byte) 0xff, 0, 1}, {}})).isTrue();
        assertThat(p.accepts(new byte[][] {"SET".getBytes(), {(byte) 0xff, 1}, {}})).isFalse();
        assertThat(of("User:").accepts(f("SET", "user:1", "v"))).as("case-sensitive").isFalse();
    }

    @Test
    void noPrefixOrAnEmptyPrefixMatchesEverything() {
        assertThat(PrefixFilter.of(List.of()).isAll()).isTrue();
        assertThat(of("x", "").isAll()).isTrue();
        assertThat(of("").accepts(f("SET", "anything", "v"))).isTrue();
        assertThat(of("x").isAll()).isFalse();
    }

    @Test
    void thePrefixListIsCopied() {
        byte[] p = "a".getBytes();
        PrefixFilter f = PrefixFilter.of(List.of(p));
        p[0] = 'b';
        assertThat(f.accepts(f("SET", "a1", "v"))).isTrue();
    }

    /**
     * The key shapes come from the command table (feed contract §8): every verb of a synthesised frame (§7) is
     * single-key except DEL of 2+ keys, MSET and RENAME, as the list of verbs the filter used to hard-code said;
     * the encoded form (the backlog's) agrees, and a verb the table does not know is fail-open.
     */
    @Test
    void theKeyShapeOfEveryFrameVerbComesFromTheCommandTable() {
        PrefixFilter p = of("user:");
        List<String> singleKey = List.of("SET", "DEL", "PEXPIREAT", "PERSIST", "HSET", "HDEL", "LPUSH", "RPUSH",
                "LPOP", "RPOP", "LSET", "LINSERT", "LREM", "LTRIM", "SADD", "SREM", "ZADD", "ZREM");
        for (String verb : singleKey) {
            byte[][] frame = verb.equals("DEL") ? f(verb, "other:1") : f(verb, "other:1", "x");
            assertThat(p.accepts(frame)).as("%s other:1 is dropped", verb).isFalse();
            assertThat(p.accepts(encoded(frame), 0)).as("%s other:1, encoded", verb).isFalse();
            assertThat(p.accepts(f(verb.toLowerCase(Locale.ROOT), "other:1", "x")))
                    .as("%s in lower case", verb).isEqualTo(verb.equals("DEL"));
        }
        for (byte[][] frame : List.of(f("DEL", "a", "b"), f("MSET", "a", "1"), f("RENAME", "a", "b"),
                f("NOSUCHVERB", "a", "b"))) {
            assertThat(p.accepts(frame)).as("%s is fail-open", new String(frame[0])).isTrue();
            assertThat(p.accepts(encoded(frame), 0)).as("%s is fail-open, encoded", new String(frame[0])).isTrue();
        }
    }

    private static byte[] encoded(byte[][] frame) {
        byte[] b = new byte[(int) RespFrames.encodedSize(frame)];
        RespFrames.encode(b, 0, frame);
        return b;
    }
}
