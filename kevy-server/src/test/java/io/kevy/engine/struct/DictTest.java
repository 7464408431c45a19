package io.kevy.engine.struct;

import static org.assertj.core.api.Assertions.assertThat;
import io.kevy.engine.text.Bytes;
import io.kevy.testing.ChiSquare;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DictTest {

    private static byte[] key(int i) {
        return ("key:" + i).getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void randomOperationsAgreeWithHashMap() {
        long seed = System.nanoTime();
        System.out.println("DictTest.randomOperationsAgreeWithHashMap seed=" + seed);
        Random rnd = new Random(seed);
        Dict<Integer> dict = new Dict<>();
        Map<Bytes, Integer> model = new HashMap<>();
        for (int op = 0; op < 200_000; op++) {
            int k = rnd.nextInt(rnd.nextBoolean() ? 50 : 5000);
            byte[] key = key(k);
            Object actual;
            Object expected;
            switch (rnd.nextInt(4)) {
                case 0, 1 -> {
                    actual = dict.put(key, op);
                    expected = model.put(Bytes.wrap(key), op);
                }
                case 2 -> {
                    Dict.Node<Integer> removed = dict.remove(key);
                    actual = removed == null ? null : removed.value();
                    expected = model.remove(Bytes.wrap(key));
                }
                default -> {
                    actual = dict.get(key);
                    expected = model.get(Bytes.wrap(key));
                }
            }
            if (!java.util.Objects.equals(actual, expected) || dict.size() != model.size()) {
                assertThat(actual).as("op %d on key %d", op, k).isEqualTo(expected);
                assertThat(dict.size()).as("size after op %d", op).isEqualTo(model.size());
            }
        }
        Map<Bytes, Integer> seen = new HashMap<>();
        dict.forEach(n -> seen.put(Bytes.wrap(n.key()), n.value()));
        assertThat(seen).isEqualTo(model);
    }

    /**
     * Redis's SCAN guarantee: every element present for the whole scan is returned at least once, while the
     * table grows and shrinks (and rehashes incrementally) between calls.
     */
    @Test
    void scanReturnsEveryStableKeyAcrossResizes() {
        long seed = System.nanoTime();
        System.out.println("DictTest.scanReturnsEveryStableKeyAcrossResizes seed=" + seed);
        Random rnd = new Random(seed);
        for (int round = 0; round < 20; round++) {
            Dict<Boolean> dict = new Dict<>();
            Set<Bytes> stable = new HashSet<>();
            int stableCount = 50 + rnd.nextInt(2000);
            for (int i = 0; i < stableCount; i++) {
                dict.put(key(i), Boolean.TRUE);
                stable.add(Bytes.wrap(key(i)));
            }
            Set<Bytes> returned = new HashSet<>();
            long cursor = 0;
            int churnBase = 1_000_000;
            int next = churnBase;
            boolean growing = rnd.nextBoolean();
            do {
                cursor = dict.scan(cursor, n -> returned.add(Bytes.wrap(n.key())));
                // churn: grow by many keys, or remove them, forcing resizes mid-scan
                int changes = rnd.nextInt(40);
                for (int i = 0; i < changes; i++) {
                    if (growing) {
                        dict.put(key(next++), Boolean.FALSE);
                    } else if (next > churnBase) {
                        dict.remove(key(--next));
                    }
                }
                if (rnd.nextInt(10) == 0) {
                    growing = !growing;
                }
            } while (cursor != 0);
            assertThat(returned).containsAll(stable);
        }
    }

    @Test
    void scanOfAnEmptyDictEndsAtOnce() {
        assertThat(new Dict<>().scan(0, n -> { })).isZero();
    }

    @Test
    void shrinksWhenMostKeysAreRemoved() {
        Dict<Boolean> dict = new Dict<>();
        for (int i = 0; i < 10_000; i++) {
            dict.put(key(i), true);
        }
        long big = dict.buckets();
        for (int i = 0; i < 9_990; i++) {
            dict.remove(key(i));
        }
        while (dict.rehashSteps(1000)) {
            // finish the shrink
        }
        assertThat(dict.buckets()).isLessThan(big / 100);
        for (int i = 9_990; i < 10_000; i++) {
            assertThat(dict.get(key(i))).isTrue();
        }
    }

    @Test
    void randomNodeReachesEveryKey() {
        Dict<Integer> dict = new Dict<>();
        for (int i = 0; i < 20; i++) {
            dict.put(key(i), i);
        }
        Random rnd = new Random(42);
        Set<Integer> hit = new HashSet<>();
        for (int i = 0; i < 5000; i++) {
            hit.add(dict.randomNode(rnd).value());
        }
        assertThat(hit).hasSize(20);
        assertThat(new Dict<>().randomNode(rnd)).isNull();
    }

    /**
     * randomNode is uniform (chi-square at p = 1e-6, {@link ChiSquare}) in a table at rest, in one halfway
     * through a rehash (nodes in both tables), and in a sparse one that many removals left with long-stale
     * chain bounds. The picks are seeded (printed); the table layout follows the process's hash seed.
     */
    @Test
    void randomNodeIsUniform() {
        long seed = System.nanoTime();
        System.out.println("DictTest.randomNodeIsUniform seed=" + seed);
        Random rnd = new Random(seed);

        Dict<Integer> rest = new Dict<>();
        for (int i = 0; i < 1000; i++) {
            rest.put(key(i), i);
        }
        rest.rehashSteps(Integer.MAX_VALUE);
        assertThat(rest.isRehashing()).isFalse();
        assertUniform("at rest", rest, 1000, rnd);

        Dict<Integer> rehashing = new Dict<>();
        int n = 0;
        while (n < 1000 || !rehashing.isRehashing()) { // until the growth from 1024 buckets starts
            rehashing.put(key(n), n);
            n++;
        }
        for (int i = 0; i < 50; i++) { // each insert moves a bucket or two: nodes now in both tables
            rehashing.put(key(n), n);
            n++;
        }
        assertThat(rehashing.isRehashing()).isTrue();
        assertUniform("rehashing", rehashing, n, rnd);

        Dict<Integer> sparse = new Dict<>();
        for (int i = 0; i < 4000; i++) {
            sparse.put(key(i), i);
        }
        sparse.rehashSteps(Integer.MAX_VALUE);
        for (int i = 1100; i < 4000; i++) { // stays above 1/8 of the buckets: no shrink
            sparse.remove(key(i));
        }
        assertThat(sparse.isRehashing()).isFalse();
        assertUniform("sparse", sparse, 1100, rnd);
    }

    /** {@code dict} maps key(i) to i for i below {@code n}. */
    private static void assertUniform(String what, Dict<Integer> dict, int n, Random rnd) {
        assertThat(dict.size()).isEqualTo(n);
        long[] counts = new long[n];
        int samples = 50 * n;
        for (int i = 0; i < samples; i++) {
            counts[dict.randomNode(rnd).value()]++;
        }
        double chi2 = ChiSquare.statistic(counts);
        double bound = ChiSquare.bound(n - 1);
        System.out.printf("DictTest.randomNodeIsUniform %s: %d keys, %d buckets, %d samples, chi2=%.1f df=%d "
                + "bound(p=1e-6)=%.1f%n", what, n, dict.buckets(), samples, chi2, n - 1, bound);
        assertThat(counts).as(what).doesNotContain(0L);
        assertThat(chi2).as("chi-square of randomNode, %s", what).isLessThan(bound);
    }
}
