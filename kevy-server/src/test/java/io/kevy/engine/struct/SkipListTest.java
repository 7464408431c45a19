package io.kevy.engine.struct;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The skip list against a {@link TreeSet} model: seeded random inserts, deletes, score updates, rank lookups,
 * element-by-rank, score and lex range bounds and range deletes, with the structure (spans, back links, order)
 * verified along the way. Set {@code -Dseed=N} to replay a run; the seed is printed.
 */
class SkipListTest {
    private static final double[] SCORES = {Double.NEGATIVE_INFINITY, -2.5, -1, -0.0, 0.0, 1, 1.5, 2, 3, 1e300,
        Double.POSITIVE_INFINITY};

    /** One element of the model. */
    private record El(double score, byte[] member) {
    }

    /** (score, member unsigned), with -0.0 == 0.0 as C compares doubles. */
    private static final Comparator<El> ORDER = (a, b) -> a.score < b.score ? -1 : a.score > b.score ? 1
            : Arrays.compareUnsigned(a.member, b.member);

    private static long seed() {
        long seed = Long.getLong("seed", System.nanoTime());
        System.out.println("SkipListTest seed=" + seed);
        return seed;
    }

    private static byte[] randomMember(Random r) {
        int len = r.nextInt(4);
        byte[] b = new byte[len];
        byte[] alphabet = {'a', 'b', 'c', 0, (byte) 0x80, (byte) 0xff};
        for (int i = 0; i < len; i++) {
            b[i] = alphabet[r.nextInt(alphabet.length)];
        }
        return b;
    }

    private static SkipList.ScoreRange randomScoreRange(Random r) {
        double a = SCORES[r.nextInt(SCORES.length)];
        double b = SCORES[r.nextInt(SCORES.length)];
        if (r.nextInt(4) > 0 && a > b) {
            double t = a;
            a = b;
            b = t;
        }
        return new SkipList.ScoreRange(a, r.nextBoolean(), b, r.nextBoolean());
    }

    private static List<El> inRange(NavigableSet<El> model, SkipList.ScoreRange r) {
        List<El> out = new ArrayList<>();
        for (El e : model) {
            if (r.gteMin(e.score) && r.lteMax(e.score)) {
                out.add(e);
            }
        }
        return out;
    }

    private static void assertSame(SkipList.Node n, El e) {
        if (e == null) {
            assertThat(n).isNull();
        } else {
            assertThat(n).isNotNull();
            assertThat(n.member()).isEqualTo(e.member);
            assertThat(Double.doubleToRawLongBits(n.score())).isEqualTo(Double.doubleToRawLongBits(e.score));
        }
    }

    private static void assertEqualsModel(SkipList list, NavigableSet<El> model) {
        list.verify();
        assertThat(list.length()).isEqualTo(model.size());
        SkipList.Node n = list.first();
        for (El e : model) {
            assertSame(n, e);
            n = n.next();
        }
        assertThat(n).isNull();
        assertSame(list.last(), model.isEmpty() ? null : model.last());
    }

    @Test
    void matchesSortedModelUnderRandomOperations() {
        long seed = seed();
        Random r = new Random(seed);
        SkipList list = new SkipList(new Random(seed ^ 0x5DEECE66DL));
        NavigableSet<El> model = new TreeSet<>(ORDER);
        Map<String, El> byMember = new HashMap<>();
        for (int op = 0; op < 40_000; op++) {
            byte[] m = randomMember(r);
            String k = Arrays.toString(m);
            El cur = byMember.get(k);
            int kind = r.nextInt(100);
            if (kind < 35) {
                double s = SCORES[r.nextInt(SCORES.length)];
                if (cur == null) {
                    list.insert(s, m);
                    El e = new El(s, m);
                    model.add(e);
                    byMember.put(k, e);
                } else {
                    list.updateScore(cur.score, cur.member, s);
                    model.remove(cur);
                    El e = new El(s, cur.member);
                    model.add(e);
                    byMember.put(k, e);
                }
            } else if (kind < 50) {
                double s = cur == null ? 0 : cur.score;
                assertThat(list.delete(s, m)).isEqualTo(cur != null);
                if (cur != null) {
                    model.remove(cur);
                    byMember.remove(k);
                }
            } else if (kind < 65) {
                long rank = cur == null ? -1 : model.headSet(cur, false).size();
                assertThat(list.rank(cur == null ? 0 : cur.score, m)).isEqualTo(rank);
            } else if (kind < 75) {
                int rank = r.nextInt(model.size() + 2) - 1;
                El expected = rank >= 0 && rank < model.size() ? new ArrayList<>(model).get(rank) : null;
                assertSame(list.byRank(rank), expected);
            } else if (kind < 90) {
                SkipList.ScoreRange range = randomScoreRange(r);
                List<El> in = inRange(model, range);
                assertSame(list.firstInRange(range), in.isEmpty() ? null : in.get(0));
                assertSame(list.lastInRange(range), in.isEmpty() ? null : in.get(in.size() - 1));
            } else if (kind < 95) {
                SkipList.ScoreRange range = randomScoreRange(r);
                List<El> in = inRange(model, range);
                List<SkipList.Node> removed = new ArrayList<>();
                assertThat(list.deleteRange(range, removed::add)).isEqualTo(in.size());
                for (int i = 0; i < in.size(); i++) {
                    assertSame(removed.get(i), in.get(i));
                    model.remove(in.get(i));
                    byMember.remove(Arrays.toString(in.get(i).member));
                }
            } else {
                int start = model.isEmpty() ? 0 : r.nextInt(model.size());
                int end = start + r.nextInt(4);
                List<El> all = new ArrayList<>(model);
                List<El> in = all.subList(Math.min(start, all.size()), Math.min(end + 1, all.size()));
                List<SkipList.Node> removed = new ArrayList<>();
                assertThat(list.deleteRangeByRank(start, end, removed::add)).isEqualTo(in.size());
                for (int i = 0; i < in.size(); i++) {
                    assertSame(removed.get(i), in.get(i));
                    model.remove(in.get(i));
                    byMember.remove(Arrays.toString(in.get(i).member));
                }
            }
            if (op % 500 == 0) {
                assertEqualsModel(list, model);
            }
        }
        assertEqualsModel(list, model);
    }

    private static SkipList.LexRange randomLexRange(Random r) {
        return new SkipList.LexRange(lexBound(r), r.nextBoolean(), lexBound(r), r.nextBoolean());
    }

    private static byte[] lexBound(Random r) {
        int k = r.nextInt(10);
        return k == 0 ? SkipList.LEX_MIN : k == 1 ? SkipList.LEX_MAX : randomMember(r);
    }

    @Test
    void lexRangesMatchModelWhenScoresAreEqual() {
        long seed = seed();
        Random r = new Random(seed);
        SkipList list = new SkipList(new Random(seed + 1));
        NavigableSet<El> model = new TreeSet<>(ORDER);
        for (int op = 0; op < 20_000; op++) {
            byte[] m = randomMember(r);
            El e = new El(0, m);
            int kind = r.nextInt(10);
            if (kind < 4) {
                if (model.add(e)) {
                    list.insert(0, m);
                }
            } else if (kind < 5) {
                assertThat(list.delete(0, m)).isEqualTo(model.remove(e));
            } else {
                SkipList.LexRange range = randomLexRange(r);
                List<El> in = new ArrayList<>();
                for (El x : model) {
                    if (range.gteMin(x.member) && range.lteMax(x.member)) {
                        in.add(x);
                    }
                }
                if (kind < 9) {
                    assertSame(list.firstInRange(range), in.isEmpty() ? null : in.get(0));
                    assertSame(list.lastInRange(range), in.isEmpty() ? null : in.get(in.size() - 1));
                } else {
                    List<SkipList.Node> removed = new ArrayList<>();
                    assertThat(list.deleteRange(range, removed::add)).isEqualTo(in.size());
                    for (int i = 0; i < in.size(); i++) {
                        assertSame(removed.get(i), in.get(i));
                        model.remove(in.get(i));
                    }
                }
            }
        }
        assertEqualsModel(list, model);
    }

    @Test
    void scoreUpdateInPlaceKeepsNodeWhenOrderDoesNotChange() {
        SkipList list = new SkipList(new Random(1));
        list.insert(1, "a".getBytes());
        SkipList.Node b = list.insert(2, "b".getBytes());
        list.insert(3, "c".getBytes());
        assertThat(list.updateScore(2, "b".getBytes(), 2.5)).isSameAs(b);
        SkipList.Node moved = list.updateScore(2.5, "b".getBytes(), 10);
        assertThat(moved).isNotSameAs(b);
        assertThat(list.last()).isSameAs(moved);
        assertThat(list.rank(10, "b".getBytes())).isEqualTo(2);
        list.verify();
    }

    @Test
    void emptyRangesAreRecognised() {
        assertThat(new SkipList.ScoreRange(2, false, 1, false).isEmpty()).isTrue();
        assertThat(new SkipList.ScoreRange(1, true, 1, false).isEmpty()).isTrue();
        assertThat(new SkipList.ScoreRange(1, false, 1, false).isEmpty()).isFalse();
        assertThat(new SkipList.LexRange(SkipList.LEX_MIN, true, SkipList.LEX_MIN, true).isEmpty()).isTrue();
        assertThat(new SkipList.LexRange(SkipList.LEX_MAX, true, SkipList.LEX_MIN, true).isEmpty()).isTrue();
        assertThat(new SkipList.LexRange(SkipList.LEX_MIN, true, SkipList.LEX_MAX, true).isEmpty()).isFalse();
        SkipList list = new SkipList();
        list.insert(1, "a".getBytes());
        assertThat(list.firstInRange(new SkipList.ScoreRange(1, true, 1, false))).isNull();
        assertThat(list.firstInRange(new SkipList.ScoreRange(Double.NEGATIVE_INFINITY, false,
                Double.POSITIVE_INFINITY, false))).isSameAs(list.first());
    }
}
