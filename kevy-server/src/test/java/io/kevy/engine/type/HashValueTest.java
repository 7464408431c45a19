package io.kevy.engine.type;

import static org.assertj.core.api.Assertions.assertThat;
import io.kevy.engine.Engine;
import io.kevy.engine.EngineConfig;
import io.kevy.engine.config.EncodingLimits;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HashValueTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String s(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private static List<String> flat(HashValue h) {
        List<String> out = new ArrayList<>();
        h.forEach((f, v) -> {
            out.add(s(f));
            out.add(s(v));
        });
        return out;
    }

    /** Limits other than the defaults, set through CONFIG SET on an engine. */
    private static EncodingLimits limits(String entries, String value) {
        try (Engine e = new Engine(EngineConfig.defaults().withShards(1))) {
            assertThat(e.runtimeConfig().setAll(List.of("hash-max-ziplist-entries", entries, "hash-max-listpack-value",
                    value))).isNull();
            return e.encodings();
        }
    }

    @Test
    void listpackKeepsInsertionOrderAndReplacesInPlace() {
        HashValue h = new HashValue();
        assertThat(h.put(b("a"), b("1"))).isNull();
        assertThat(h.put(b("b"), b("2"))).isNull();
        assertThat(h.put(b("c"), b("3"))).isNull();
        assertThat(s(h.put(b("a"), b("10")))).isEqualTo("1");
        assertThat(flat(h)).containsExactly("a", "10", "b", "2", "c", "3");
        assertThat(h.remove(b("b"))).isTrue();
        assertThat(h.remove(b("b"))).isFalse();
        assertThat(flat(h)).containsExactly("a", "10", "c", "3");
        h.put(b("b"), b("4"));
        assertThat(flat(h)).containsExactly("a", "10", "c", "3", "b", "4");
        assertThat(h.size()).isEqualTo(3);
        assertThat(h.encoding()).isEqualTo("listpack");
        assertThat(s(h.get(b("c")))).isEqualTo("3");
        assertThat(h.get(b("zz"))).isNull();
        assertThat(h.contains(b("a"))).isTrue();
    }

    @Test
    void convertsByEntriesAndByLengthAndNeverBack() {
        EncodingLimits l = limits("3", "4");
        HashValue h = new HashValue();
        for (String f : List.of("a", "b", "c")) {
            h.put(b(f), b("v"), l);
        }
        assertThat(h.encoding()).isEqualTo("listpack");
        h.put(b("d"), b("v"), l);
        assertThat(h.encoding()).isEqualTo("hashtable");
        h.remove(b("d"));
        h.remove(b("c"));
        assertThat(h.encoding()).isEqualTo("hashtable");

        HashValue longValue = new HashValue();
        longValue.put(b("f"), b("1234"), l);
        assertThat(longValue.encoding()).isEqualTo("listpack");
        longValue.put(b("f"), b("12345"), l);
        assertThat(longValue.encoding()).isEqualTo("hashtable");
        assertThat(s(longValue.get(b("f")))).isEqualTo("12345");

        HashValue longField = new HashValue();
        longField.put(b("field"), b("v"), l);
        assertThat(longField.encoding()).isEqualTo("hashtable");

        HashValue defaults = new HashValue();
        for (int i = 0; i < 512; i++) {
            defaults.put(b("f" + i), b("x".repeat(64)));
        }
        assertThat(defaults.encoding()).isEqualTo("listpack");
        defaults.put(b("f512"), b("v"));
        assertThat(defaults.encoding()).isEqualTo("hashtable");
        assertThat(defaults.size()).isEqualTo(513);
    }

    @Test
    void bothEncodingsBehaveLikeAMap() {
        long seed = System.nanoTime();
        System.out.println("HashValueTest seed: " + seed);
        Random rnd = new Random(seed);
        for (EncodingLimits l : List.of(EncodingLimits.DEFAULTS, limits("0", "0"), limits("20", "64"))) {
            HashValue h = new HashValue();
            Map<String, String> model = new HashMap<>();
            for (int i = 0; i < 5000; i++) {
                String f = "f" + rnd.nextInt(40);
                if (rnd.nextInt(3) == 0) {
                    assertThat(h.remove(b(f))).isEqualTo(model.remove(f) != null);
                } else {
                    String v = Integer.toString(rnd.nextInt(1000));
                    byte[] prev = h.put(b(f), b(v), l);
                    String expected = model.put(f, v);
                    assertThat(prev == null ? null : s(prev)).isEqualTo(expected);
                }
                assertThat(h.size()).isEqualTo(model.size());
            }
            Map<String, String> actual = new HashMap<>();
            h.forEach((f, v) -> actual.put(s(f), s(v)));
            assertThat(actual).isEqualTo(model);
            HashValue copy = h.copy();
            copy.put(b("only-in-copy"), b("1"), l);
            assertThat(h.contains(b("only-in-copy"))).isFalse();
            assertThat(copy.encoding()).isIn(h.encoding(), "hashtable");
        }
    }

    @Test
    void scanReturnsAListpackAtOnceAndWalksAHashtable() {
        HashValue small = new HashValue();
        small.put(b("a"), b("1"));
        small.put(b("b"), b("2"));
        List<String> seen = new ArrayList<>();
        assertThat(small.scan(0, (f, v) -> seen.add(s(f)))).isZero();
        assertThat(seen).containsExactly("a", "b");
        assertThat(small.isListpack()).isTrue();

        HashValue big = new HashValue();
        EncodingLimits l = limits("4", "64");
        for (int i = 0; i < 1000; i++) {
            big.put(b("f" + i), b("v"), l);
        }
        Set<String> all = new HashSet<>();
        long cursor = 0;
        int calls = 0;
        do {
            cursor = big.scan(cursor, (f, v) -> all.add(s(f)));
            calls++;
        } while (cursor != 0);
        assertThat(all).hasSize(1000);
        assertThat(calls).isGreaterThan(1);
    }

    @Test
    void rebuildEmitsHsetFramesOfAtMost1024Pairs() {
        HashValue h = new HashValue();
        for (int i = 0; i < 2500; i++) {
            h.put(b("f" + i), b("v" + i));
        }
        List<byte[][]> frames = new ArrayList<>();
        h.rebuild(b("k"), frames::add);
        assertThat(frames).hasSize(3);
        assertThat(frames.get(0).length).isEqualTo(2 + 2048);
        assertThat(frames.get(2).length).isEqualTo(2 + 2 * (2500 - 2048));
        Map<String, String> rebuilt = new HashMap<>();
        for (byte[][] f : frames) {
            assertThat(s(f[0])).isEqualTo("HSET");
            assertThat(s(f[1])).isEqualTo("k");
            for (int i = 2; i < f.length; i += 2) {
                rebuilt.put(s(f[i]), s(f[i + 1]));
            }
        }
        assertThat(rebuilt).hasSize(2500).containsEntry("f2499", "v2499");
        HashValue empty = new HashValue();
        List<byte[][]> none = new ArrayList<>();
        empty.rebuild(b("k"), none::add);
        assertThat(none).isEmpty();
    }

    @Test
    void randomPairsAndFlatArrays() {
        HashValue h = new HashValue();
        h.put(b("a"), b("1"));
        h.put(b("b"), b("2"));
        Set<String> picked = new HashSet<>();
        Random rnd = new Random(1);
        for (int i = 0; i < 200; i++) {
            byte[][] p = h.randomPair(rnd);
            picked.add(s(p[0]) + "=" + s(p[1]));
        }
        assertThat(picked).containsExactlyInAnyOrder("a=1", "b=2");
        byte[][] flat = h.toFlatArray();
        assertThat(flat.length).isEqualTo(4);
        assertThat(s(flat[0])).isEqualTo("a");
        assertThat(h.memoryUsage()).isPositive();
        assertThat(h.type()).isEqualTo(io.kevy.engine.type.ValueType.HASH);
    }
}
