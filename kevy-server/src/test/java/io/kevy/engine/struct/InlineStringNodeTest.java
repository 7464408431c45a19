package io.kevy.engine.struct;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.engine.type.HashValue;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The inline small-string storage of keyspace and hash nodes: every length and byte value round-trips unchanged. */
class InlineStringNodeTest {

    private static InlineStringNode<Object> node() {
        return new InlineStringNode<>("k".getBytes(StandardCharsets.US_ASCII), 0);
    }

    @Test
    void everyLengthAroundTheInlineLimitRoundTrips() {
        for (int len = 0; len <= InlineStringNode.MAX_INLINE + 2; len++) {
            byte[] v = new byte[len];
            for (int i = 0; i < len; i++) {
                v[i] = (byte) (i % 2 == 0 ? 0xFF - i : 0x80 + i); // high bits set: no sign extension may leak
            }
            InlineStringNode<Object> n = node();
            n.value(v);
            assertThat((byte[]) n.value()).as("length %d", len).isEqualTo(v);
            assertThat(n.inline()).as("inline at length %d", len).isEqualTo(len <= InlineStringNode.MAX_INLINE);
        }
    }

    @Test
    void anInlineValueIsACopyTheCallerCannotChange() {
        InlineStringNode<Object> n = node();
        byte[] v = "abc".getBytes(StandardCharsets.US_ASCII);
        n.value(v);
        v[0] = 'x';
        byte[] read = (byte[]) n.value();
        assertThat(read).isEqualTo("abc".getBytes(StandardCharsets.US_ASCII));
        read[1] = 'y';
        assertThat((byte[]) n.value()).isEqualTo("abc".getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void switchingBetweenInlineLongAndCollectionValuesKeepsOnlyTheLast() {
        InlineStringNode<Object> n = node();
        assertThat(n.value()).isNull();
        n.value(new byte[0]);
        assertThat((byte[]) n.value()).isEmpty();
        byte[] big = "x".repeat(100).getBytes(StandardCharsets.US_ASCII);
        n.value(big);
        assertThat(n.value()).isSameAs(big);
        assertThat(n.inline()).isFalse();
        n.value("12".getBytes(StandardCharsets.US_ASCII));
        assertThat((byte[]) n.value()).isEqualTo("12".getBytes(StandardCharsets.US_ASCII));
        HashValue hash = new HashValue();
        n.value(hash);
        assertThat(n.value()).isSameAs(hash);
        assertThat(n.inline()).isFalse();
        n.value(null);
        assertThat(n.value()).isNull();
    }

    @Test
    void randomValuesInAKeyspaceTableAgreeWithTheirModel() {
        long seed = System.nanoTime();
        System.out.println("InlineStringNodeTest.randomValuesInAKeyspaceTableAgreeWithTheirModel seed=" + seed);
        Random rnd = new Random(seed);
        Dict<Object> dict = new Dict<>(InlineStringNode::new);
        byte[][] model = new byte[500][];
        for (int op = 0; op < 100_000; op++) {
            int k = rnd.nextInt(model.length);
            byte[] key = ("key:" + k).getBytes(StandardCharsets.US_ASCII);
            if (rnd.nextInt(10) == 0) {
                Dict.Node<Object> removed = dict.remove(key);
                assertThat(removed == null ? null : (byte[]) removed.value()).isEqualTo(model[k]);
                model[k] = null;
                continue;
            }
            byte[] v = new byte[rnd.nextInt(rnd.nextBoolean() ? InlineStringNode.MAX_INLINE + 1 : 64)];
            rnd.nextBytes(v);
            Object prev = dict.put(key, v.clone());
            assertThat((byte[]) prev).as("op %d", op).isEqualTo(model[k]);
            model[k] = v;
        }
        for (int k = 0; k < model.length; k++) {
            Object stored = dict.get(("key:" + k).getBytes(StandardCharsets.US_ASCII));
            assertThat((byte[]) stored)
                    .as("key %d", k).isEqualTo(model[k]);
        }
    }
}
