package io.kevy.engine.type;

import static org.assertj.core.api.Assertions.assertThat;
import io.kevy.engine.struct.SkipList;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ZSetValueTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static boolean isNegativeZero(double d) {
        return Double.doubleToRawLongBits(d) == Double.doubleToRawLongBits(-0.0);
    }

    @Test
    void encodingFollowsTheListpackLimitsAndNeverGoesBack() {
        ZSetValue z = new ZSetValue();
        for (int i = 0; i < ZSetValue.LISTPACK_MAX_ENTRIES; i++) {
            z.insert(b("m" + i), i);
        }
        assertThat(z.encoding()).isEqualTo("listpack");
        z.insert(b("one-more"), 1);
        assertThat(z.encoding()).isEqualTo("skiplist");
        z.remove(b("one-more"));
        assertThat(z.encoding()).isEqualTo("skiplist");

        ZSetValue small = new ZSetValue();
        small.insert(b("x".repeat(64)), 1);
        assertThat(small.encoding()).isEqualTo("listpack");
        small.insert(b("x".repeat(65)), 1);
        assertThat(small.encoding()).isEqualTo("skiplist");
    }

    @Test
    void listpackStoresNegativeZeroAsZeroSkiplistKeepsIt() {
        ZSetValue z = new ZSetValue();
        assertThat(isNegativeZero(z.insert(b("a"), -0.0))).isFalse();
        assertThat(isNegativeZero(z.score(b("a")))).isFalse();
        ZSetValue big = new ZSetValue(true);
        big.insert(b("a"), -0.0);
        assertThat(isNegativeZero(big.score(b("a")))).isTrue();
        big.convertToListpackIfFits();
        assertThat(big.encoding()).isEqualTo("listpack");
        assertThat(isNegativeZero(big.score(b("a")))).isFalse();
        assertThat(isNegativeZero(big.list().first().score())).isFalse();
    }

    @Test
    void convertToListpackOnlyWhenTheResultFits() {
        ZSetValue z = new ZSetValue(true);
        for (int i = 0; i <= ZSetValue.LISTPACK_MAX_ENTRIES; i++) {
            z.insert(b("m" + i), i);
        }
        z.convertToListpackIfFits();
        assertThat(z.encoding()).isEqualTo("skiplist");
        ZSetValue longMember = new ZSetValue(true);
        longMember.insert(b("x".repeat(65)), 1);
        longMember.convertToListpackIfFits();
        assertThat(longMember.encoding()).isEqualTo("skiplist");
    }

    @Test
    void scoresRanksAndRemoval() {
        ZSetValue z = new ZSetValue();
        z.insert(b("b"), 2);
        z.insert(b("a"), 2);
        z.insert(b("c"), 1);
        assertThat(z.rank(b("a"), false)).isEqualTo(1);
        assertThat(z.rank(b("a"), true)).isEqualTo(1);
        assertThat(z.rank(b("c"), true)).isEqualTo(2);
        assertThat(z.rank(b("nope"), false)).isEqualTo(-1);
        z.update(b("c"), 1, 3);
        assertThat(z.score(b("c"))).isEqualTo(3);
        assertThat(z.list().last().member()).isEqualTo(b("c"));
        assertThat(z.remove(b("a"))).isTrue();
        assertThat(z.remove(b("a"))).isFalse();
        assertThat(z.score(b("a"))).isNaN();
        assertThat(z.size()).isEqualTo(2);
        assertThat(z.list().length()).isEqualTo(2);
    }

    @Test
    void rebuildEmitsOrderedChunksWithShortestScores() {
        ZSetValue z = new ZSetValue();
        for (int i = 0; i < 2100; i++) {
            z.insert(b("m" + i), i + 0.1);
        }
        z.insert(b("inf"), Double.POSITIVE_INFINITY);
        List<byte[][]> frames = new ArrayList<>();
        z.rebuild(b("k"), frames::add);
        assertThat(frames).extracting(f -> (f.length - 2) / 2).containsExactly(1024, 1024, 53);
        assertThat(new String(frames.get(0)[0], StandardCharsets.US_ASCII)).isEqualTo("ZADD");
        assertThat(new String(frames.get(0)[2], StandardCharsets.US_ASCII)).isEqualTo("0.1");
        assertThat(new String(frames.get(0)[3], StandardCharsets.US_ASCII)).isEqualTo("m0");
        byte[][] last = frames.get(2);
        assertThat(new String(last[last.length - 2], StandardCharsets.US_ASCII)).isEqualTo("inf");
    }

    @Test
    void copyIsIndependent() {
        ZSetValue z = new ZSetValue();
        z.insert(b("a"), 1);
        ZSetValue c = z.copy();
        c.insert(b("b"), 2);
        c.update(b("a"), 1, 5);
        assertThat(z.size()).isEqualTo(1);
        assertThat(z.score(b("a"))).isEqualTo(1);
        assertThat(c.type()).isEqualTo(io.kevy.engine.type.ValueType.ZSET);
    }

    @Test
    void lexMethodsScanLikeAListpackWhenScoresDiffer() {
        ZSetValue z = new ZSetValue();
        z.insert(b("c"), 1);
        z.insert(b("a"), 2);
        z.insert(b("b"), 3);
        // the same answers as Redis 7.0 gives for ZADD m 1 c 2 a 3 b (a listpack)
        SkipList.LexRange bToC = new SkipList.LexRange(b("b"), false, b("c"), false);
        assertThat(z.firstInRange(bToC).member()).isEqualTo(b("c"));
        assertThat(z.lastInRange(bToC).member()).isEqualTo(b("b"));
        assertThat(z.lexCount(bToC)).isEqualTo(3);
        assertThat(z.lexCount(new SkipList.LexRange(b("a"), true, b("b"), false))).isZero();
        List<byte[]> removed = new ArrayList<>();
        assertThat(z.removeRange(bToC, n -> removed.add(n.member()))).isEqualTo(3);
        assertThat(removed).containsExactly(b("c"), b("a"), b("b"));
    }
}
