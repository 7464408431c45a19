package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.codec.StringCodec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link ReadOverlap}, the per-key skipping of exact rebuilds: a frame is applied to a key only at or above the
 * offset the key was read at; DEL and MSET keep the keys not held; a same-shard RENAME is replaced by fresh reads
 * of the keys not held, whose offsets then count; the overlap ends at its end offset.
 */
class ReadOverlapTest {
    private static final long GEN = 7;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static Change<String, String> frame(long offset, String... argv) {
        byte[][] a = new byte[argv.length][];
        for (int i = 0; i < a.length; i++) {
            a[i] = b(argv[i]);
        }
        return Change.of(StringCodec.UTF8, 0, GEN, new Frame(offset, a), 0);
    }

    private static ReadOverlap overlap() {
        // a read at 10, b read at 20, c not read; the overlap lasts until 30
        return new ReadOverlap(0, GEN, Map.of(ByteBuffer.wrap(b("a")), 10L, ByteBuffer.wrap(b("b")), 20L), 30);
    }

    private static final ReadOverlap.Entries<String, String> ENTRIES = (read, f) -> read.snapshot() == null
            ? Change.vanished(StringCodec.UTF8, new Cursor(0, GEN, f), 0, read.key(), 0)
            : Change.snapshot(StringCodec.UTF8, new Cursor(0, GEN, f), 0, read.snapshot(), 0);

    @Test
    void singleKeyFramesBelowTheKeysReadAreDropped() {
        List<Change<String, String>> in = List.of(frame(9, "SET", "a", "1"), frame(10, "SET", "a", "2"),
                frame(15, "RPUSH", "b", "x"), frame(15, "SET", "c", "3"));
        List<Change<String, String>> out = overlap().apply(in, keys -> {
            throw new AssertionError("no read expected");
        }, ENTRIES);
        assertThat(out).extracting(Change::offset).containsExactly(10L, 15L);
        assertThat(out).extracting(Change::key).containsExactly("a", "c");
    }

    @Test
    void delAndMsetKeepTheKeysNotHeld() {
        List<Change<String, String>> out = overlap().apply(List.of(frame(15, "DEL", "a", "b", "c"),
                frame(16, "MSET", "b", "1", "a", "2")), keys -> List.of(), ENTRIES);
        assertThat(out.get(0).keys()).containsExactly("a", "c");
        assertThat(out.get(1).keys()).containsExactly("a");
        assertThat(out.get(1).fields()).extracting(kv -> kv.getKey() + "=" + kv.getValue()).containsExactly("a=2");
    }

    @Test
    void aRenameIsReplacedByFreshReadsOfTheKeysNotHeldAndTheirOffsetsCount() {
        List<List<String>> asked = new ArrayList<>();
        ReadOverlap o = overlap();
        List<Change<String, String>> out = o.apply(List.of(frame(15, "RENAME", "c", "a"),
                frame(40, "SET", "a", "late")), keys -> {
                    asked.add(keys.stream().map(k -> new String(k, StandardCharsets.UTF_8)).toList());
                    return List.of(new KeyRead(b("c"), new Cursor(0, GEN, 50), null, true),
                            new KeyRead(b("a"), new Cursor(0, GEN, 50), new KeySnapshot(b("a"), ValueType.STRING,
                                    List.of(b("moved")), -1, -1), true));
                }, ENTRIES);
        assertThat(asked).containsExactly(List.of("c", "a"));
        assertThat(out).extracting(Change::op).containsExactly(Op.VANISHED, Op.SNAPSHOT);
        assertThat(out.get(1).value()).isEqualTo("moved");
        assertThat(o.holds(b("a"), 40)).as("the fresh read at 50 holds the SET at 40").isTrue();
        assertThat(o.activeAt(new Cursor(0, GEN, 45))).as("the overlap grew to the fresh read").isTrue();
        assertThat(o.activeAt(new Cursor(0, GEN, 50))).isFalse();
    }

    @Test
    void aRenameOfKeysBothHeldIsDropped() {
        List<Change<String, String>> out = overlap().apply(List.of(frame(5, "RENAME", "a", "b")), keys -> {
            throw new AssertionError("no read expected");
        }, ENTRIES);
        assertThat(out).isEmpty();
    }
}
