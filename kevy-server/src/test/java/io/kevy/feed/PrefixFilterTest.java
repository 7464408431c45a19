package io.kevy.feed;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
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
}
