package io.kevy.engine.struct;

import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * The ordered half of a sorted set: Redis's {@code zskiplist}. Elements are {@code (score, member)} pairs
 * ordered by score, then by member bytes compared unsigned (shorter first on a common prefix, as
 * {@code memcmp} plus length); a member appears at most once (the caller's member index guarantees it).
 *
 * <p>Each forward link carries a <i>span</i>, the number of level-0 steps it jumps, so the rank of an element
 * and the element at a rank are found in O(log n), as are the first and last elements of a score or lex range.
 * Ranks in this API are 0-based.
 *
 * <p>Scores are compared with Java's primitive operators, as C compares doubles: {@code -0.0 == 0.0}, so two
 * such scores are equal and the members decide the order. NaN is never stored.
 *
 * <p><b>Not thread-safe.</b> Used under the owning shard's lock. Member arrays are not copied: callers must not
 * mutate them afterwards.
 */
public final class SkipList {
    /*
     * Design note. A direct rendering of Redis 7.0's t_zset.c skip list: P = 1/4, at most 32 levels, a header
     * node without an element, backward links on level 0 only (for reverse walks), and spans on every forward
     * link. Each operation that changes the structure first records, per level, the last node before the
     * position (update[]) and the rank of that node (rank[]). The header's upper levels grow with the list's
     * level instead of being allocated at 32 levels up front, so a small sorted set stays small. Levels 0 and 1
     * live in node fields (see {@link Node}).
     */

    /** The most levels a node can have (Redis's ZSKIPLIST_MAXLEVEL). */
    public static final int MAX_LEVEL = 32;

    /** The value sentinel for a lex bound of {@code -}: smaller than every member. Compared by identity. */
    public static final byte[] LEX_MIN = new byte[0];
    /** The value sentinel for a lex bound of {@code +}: greater than every member. Compared by identity. */
    public static final byte[] LEX_MAX = new byte[0];

    /**
     * One element. Identity is stable until the element is deleted or moved by a score change.
     *
     * <p>The links and spans of levels 0 and 1 are fields of the node, those of higher levels (one node in 16
     * has any) are in two arrays: a search walks mostly through low-level nodes among many, so each hop loads
     * the node it compares and finds the next link in the same object, where separate {@code forward[]} and
     * {@code span[]} arrays per node cost two more cache misses per hop (Redis's node holds its levels inline
     * for the same reason). A level-1 node is 56 bytes instead of 88.
     */
    public static final class Node {
        final byte[] member;
        double score;
        Node backward;
        private Node next0;
        private Node next1;
        private int span0;
        private int span1;
        /** Links of levels 2 and up, or null for a node of at most 2 levels. */
        private Node[] upper;
        /** Spans of levels 2 and up, parallel to {@link #upper}. */
        private int[] upperSpan;

        Node(int level, double score, byte[] member) {
            this.member = member;
            this.score = score;
            if (level > 2) {
                upper = new Node[level - 2];
                upperSpan = new int[level - 2];
            }
        }

        /** The member; callers must not mutate it. */
        public byte[] member() {
            return member;
        }

        public double score() {
            return score;
        }

        /** The next element in ascending order, or null at the end. */
        public Node next() {
            return next0;
        }

        /** The previous element in ascending order, or null at the start. */
        public Node prev() {
            return backward;
        }

        /** The forward link of level {@code i} (below the node's level). */
        Node next(int i) {
            return i == 0 ? next0 : i == 1 ? next1 : upper[i - 2];
        }

        void next(int i, Node n) {
            if (i == 0) {
                next0 = n;
            } else if (i == 1) {
                next1 = n;
            } else {
                upper[i - 2] = n;
            }
        }

        /** The span of the forward link of level {@code i}: the level-0 steps it jumps. */
        int span(int i) {
            return i == 0 ? span0 : i == 1 ? span1 : upperSpan[i - 2];
        }

        void span(int i, int s) {
            if (i == 0) {
                span0 = s;
            } else if (i == 1) {
                span1 = s;
            } else {
                upperSpan[i - 2] = s;
            }
        }

        /** The levels this node has room for (the header's grows with the list). */
        int capacity() {
            return 2 + (upper == null ? 0 : upper.length);
        }

        /** Makes room for {@code levels} levels (the header). */
        void growTo(int levels) {
            if (levels > 2) {
                upper = upper == null ? new Node[levels - 2] : Arrays.copyOf(upper, levels - 2);
                upperSpan = upperSpan == null ? new int[levels - 2] : Arrays.copyOf(upperSpan, levels - 2);
            }
        }
    }

    /**
     * An interval of the list's order, by score ({@link ScoreRange}) or by member ({@link LexRange}): what the range
     * walks ({@link #firstInRange}, {@link #lastInRange}, {@link #deleteRange}) test nodes against.
     */
    public sealed interface Range permits ScoreRange, LexRange {
        /** True when no element can be in the range. */
        boolean isEmpty();

        /** True when {@code n} is at or above the lower bound. */
        boolean gteMin(Node n);

        /** True when {@code n} is at or below the upper bound. */
        boolean lteMax(Node n);
    }

    /**
     * A score interval; {@code minEx}/{@code maxEx} make a bound exclusive. Bounds may be infinite; never NaN.
     */
    public record ScoreRange(double min, boolean minEx, double max, boolean maxEx) implements Range {
        /** True when {@code v} is at or above the lower bound. */
        public boolean gteMin(double v) {
            return minEx ? v > min : v >= min;
        }

        /** True when {@code v} is at or below the upper bound. */
        public boolean lteMax(double v) {
            return maxEx ? v < max : v <= max;
        }

        /** True when no score can be in the range (min above max, or equal with an exclusive bound). */
        @Override
        public boolean isEmpty() {
            return min > max || (min == max && (minEx || maxEx));
        }

        @Override
        public boolean gteMin(Node n) {
            return gteMin(n.score);
        }

        @Override
        public boolean lteMax(Node n) {
            return lteMax(n.score);
        }
    }

    /**
     * A member interval; bounds are member bytes, or {@link #LEX_MIN} / {@link #LEX_MAX} (by identity) for
     * {@code -} and {@code +}. {@code minEx}/{@code maxEx} make a bound exclusive.
     */
    public record LexRange(byte[] min, boolean minEx, byte[] max, boolean maxEx) implements Range {
        /** True when {@code m} is at or above the lower bound. */
        public boolean gteMin(byte[] m) {
            int c = compareLex(m, min);
            return minEx ? c > 0 : c >= 0;
        }

        /** True when {@code m} is at or below the upper bound. */
        public boolean lteMax(byte[] m) {
            int c = compareLex(m, max);
            return maxEx ? c < 0 : c <= 0;
        }

        /** True when no member can be in the range. */
        @Override
        public boolean isEmpty() {
            int c = compareLex(min, max);
            return c > 0 || (c == 0 && (minEx || maxEx));
        }

        @Override
        public boolean gteMin(Node n) {
            return gteMin(n.member);
        }

        @Override
        public boolean lteMax(Node n) {
            return lteMax(n.member);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof LexRange r && minEx == r.minEx && maxEx == r.maxEx && sameBound(min, r.min)
                    && sameBound(max, r.max);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(min) * 31 + Arrays.hashCode(max) + (minEx ? 2 : 0) + (maxEx ? 1 : 0);
        }

        @Override
        public String toString() {
            return "LexRange[" + (minEx ? "(" : "[") + bound(min) + ", " + bound(max) + (maxEx ? ")" : "]") + "]";
        }

        private static boolean sameBound(byte[] a, byte[] b) {
            if (a == LEX_MIN || a == LEX_MAX || b == LEX_MIN || b == LEX_MAX) {
                return a == b;
            }
            return Arrays.equals(a, b);
        }

        private static String bound(byte[] b) {
            return b == LEX_MIN ? "-" : b == LEX_MAX ? "+" : new String(b, java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private final Node header = new Node(1, 0, null);
    private final RandomGenerator random;
    private Node tail;
    private int length;
    private int level = 1;

    /** An empty list whose node levels come from {@link ThreadLocalRandom}. */
    public SkipList() {
        this(null);
    }

    /** An empty list whose node levels come from {@code random} (tests); null for {@link ThreadLocalRandom}. */
    public SkipList(RandomGenerator random) {
        this.random = random;
    }

    /** Number of elements. */
    public int length() {
        return length;
    }

    /** The smallest element, or null when empty. */
    public Node first() {
        return header.next(0);
    }

    /** The largest element, or null when empty. */
    public Node last() {
        return tail;
    }

    /** Compares members as Redis's {@code sdscmp}, with the lex sentinels at either end. */
    static int compareLex(byte[] a, byte[] b) {
        if (a == b) {
            return 0;
        }
        if (a == LEX_MIN || b == LEX_MAX) {
            return -1;
        }
        if (a == LEX_MAX || b == LEX_MIN) {
            return 1;
        }
        return Arrays.compareUnsigned(a, b);
    }

    /** True when {@code n} sorts before {@code (score, member)}. */
    private static boolean before(Node n, double score, byte[] member) {
        return n.score < score || (n.score == score && Arrays.compareUnsigned(n.member, member) < 0);
    }

    private int randomLevel() {
        int bits = random == null ? ThreadLocalRandom.current().nextInt() : random.nextInt();
        // each pair of low bits is zero with probability 1/4 (Redis's ZSKIPLIST_P)
        int lvl = 1 + Integer.numberOfTrailingZeros(bits | 0x8000_0000) / 2;
        return Math.min(lvl, MAX_LEVEL);
    }

    private void growHeader(int newLevel) {
        if (header.capacity() < newLevel) {
            header.growTo(Math.min(MAX_LEVEL, Math.max(newLevel, header.capacity() * 2)));
        }
    }

    /**
     * Inserts {@code (score, member)}; the member must not be present and the score must not be NaN.
     *
     * @return the new node
     */
    public Node insert(double score, byte[] member) {
        assert !Double.isNaN(score);
        int newLevel = randomLevel();
        int top = Math.max(level, newLevel);
        Node[] update = new Node[top];
        int[] rank = new int[top];
        Node x = header;
        for (int i = level - 1; i >= 0; i--) {
            rank[i] = i == level - 1 ? 0 : rank[i + 1];
            for (Node f = x.next(i); f != null && before(f, score, member); f = x.next(i)) {
                rank[i] += x.span(i);
                x = f;
            }
            update[i] = x;
        }
        if (newLevel > level) {
            growHeader(newLevel);
            for (int i = level; i < newLevel; i++) {
                rank[i] = 0;
                update[i] = header;
                header.span(i, length);
            }
            level = newLevel;
        }
        Node n = new Node(newLevel, score, member);
        for (int i = 0; i < newLevel; i++) {
            n.next(i, update[i].next(i));
            update[i].next(i, n);
            n.span(i, update[i].span(i) - (rank[0] - rank[i]));
            update[i].span(i, rank[0] - rank[i] + 1);
        }
        for (int i = newLevel; i < level; i++) {
            update[i].span(i, update[i].span(i) + 1);
        }
        n.backward = update[0] == header ? null : update[0];
        if (n.next(0) != null) {
            n.next(0).backward = n;
        } else {
            tail = n;
        }
        length++;
        return n;
    }

    /** Fills {@code update} with the last node before {@code (score, member)} on every level. */
    private void seek(double score, byte[] member, Node[] update) {
        Node x = header;
        for (int i = level - 1; i >= 0; i--) {
            for (Node f = x.next(i); f != null && before(f, score, member); f = x.next(i)) {
                x = f;
            }
            update[i] = x;
        }
    }

    private void unlink(Node x, Node[] update) {
        for (int i = 0; i < level; i++) {
            if (update[i].next(i) == x) {
                update[i].span(i, update[i].span(i) + x.span(i) - 1);
                update[i].next(i, x.next(i));
            } else {
                update[i].span(i, update[i].span(i) - 1);
            }
        }
        if (x.next(0) != null) {
            x.next(0).backward = x.backward;
        } else {
            tail = x.backward;
        }
        while (level > 1 && header.next(level - 1) == null) {
            level--;
        }
        length--;
    }

    /** Deletes the element {@code (score, member)}; returns false when it is not in the list. */
    public boolean delete(double score, byte[] member) {
        Node[] update = new Node[level];
        seek(score, member, update);
        Node x = update[0].next(0);
        if (x != null && x.score == score && Arrays.equals(x.member, member)) {
            unlink(x, update);
            return true;
        }
        return false;
    }

    /**
     * Changes the score of the element {@code (curScore, member)}, which must be present, to {@code newScore}.
     * The node is updated in place when it keeps its position (as Redis's {@code zslUpdateScore}), otherwise it
     * is unlinked and a new node is inserted.
     *
     * @return the node now holding the element
     */
    public Node updateScore(double curScore, byte[] member, double newScore) {
        Node[] update = new Node[level];
        seek(curScore, member, update);
        Node x = update[0].next(0);
        if (x == null || x.score != curScore || !Arrays.equals(x.member, member)) {
            throw new IllegalStateException("element not in the skip list");
        }
        if ((x.backward == null || x.backward.score < newScore)
                && (x.next(0) == null || x.next(0).score > newScore)) {
            x.score = newScore;
            return x;
        }
        unlink(x, update);
        return insert(newScore, x.member);
    }

    /** The 0-based rank of {@code (score, member)}, or -1 when it is not in the list. */
    public long rank(double score, byte[] member) {
        Node x = header;
        long rank = 0;
        for (int i = level - 1; i >= 0; i--) {
            for (Node f = x.next(i); f != null && (f.score < score || (f.score == score
                    && Arrays.compareUnsigned(f.member, member) <= 0)); f = x.next(i)) {
                rank += x.span(i);
                x = f;
            }
            if (x != header && x.score == score && Arrays.equals(x.member, member)) {
                return rank - 1;
            }
        }
        return -1;
    }

    /** The 0-based rank of a node of this list. */
    public long rank(Node n) {
        return rank(n.score, n.member);
    }

    /** The element at 0-based {@code rank}, or null when out of range. */
    public Node byRank(long rank) {
        if (rank < 0 || rank >= length) {
            return null;
        }
        long target = rank + 1;
        long traversed = 0;
        Node x = header;
        for (int i = level - 1; i >= 0; i--) {
            for (Node f = x.next(i); f != null && traversed + x.span(i) <= target; f = x.next(i)) {
                traversed += x.span(i);
                x = f;
            }
            if (traversed == target) {
                return x;
            }
        }
        return null;
    }

    private boolean overlaps(Range r) {
        return !r.isEmpty() && tail != null && r.gteMin(tail) && r.lteMax(header.next(0));
    }

    /**
     * Walks down to the last node below {@code r}'s lower bound (the header when there is none), recording the
     * node it leaves each level from in {@code update} when that is non-null.
     */
    private Node lastBelow(Range r, Node[] update) {
        Node x = header;
        for (int i = level - 1; i >= 0; i--) {
            for (Node f = x.next(i); f != null && !r.gteMin(f); f = x.next(i)) {
                x = f;
            }
            if (update != null) {
                update[i] = x;
            }
        }
        return x;
    }

    /**
     * The first (smallest) element in {@code r}, or null. For a {@link LexRange} this is meaningful when all scores
     * are equal (the lex commands' contract); otherwise, as in Redis, some element at a lex boundary of the walk.
     */
    public Node firstInRange(Range r) {
        if (!overlaps(r)) {
            return null;
        }
        Node x = lastBelow(r, null).next(0);
        return x != null && r.lteMax(x) ? x : null;
    }

    /** The last (largest) element in {@code r}, or null (see {@link #firstInRange}). */
    public Node lastInRange(Range r) {
        if (!overlaps(r)) {
            return null;
        }
        Node x = header;
        for (int i = level - 1; i >= 0; i--) {
            for (Node f = x.next(i); f != null && r.lteMax(f); f = x.next(i)) {
                x = f;
            }
        }
        return x != header && r.gteMin(x) ? x : null;
    }

    /**
     * Deletes every element in {@code r}, in ascending order, passing each removed node to {@code removed}.
     *
     * @return the number of elements deleted
     */
    public int deleteRange(Range r, Consumer<Node> removed) {
        Node[] update = new Node[level];
        Node x = lastBelow(r, update).next(0);
        int count = 0;
        while (x != null && r.lteMax(x)) {
            Node next = x.next(0);
            unlink(x, update);
            removed.accept(x);
            count++;
            x = next;
        }
        return count;
    }

    /**
     * Deletes the elements with 0-based ranks {@code start..end} inclusive ({@code 0 <= start <= end}; an end
     * past the last element stops there), in ascending order, passing each to {@code removed}.
     *
     * @return the number of elements deleted
     */
    public int deleteRangeByRank(long start, long end, Consumer<Node> removed) {
        Node[] update = new Node[level];
        long traversed = 0;
        Node x = header;
        for (int i = level - 1; i >= 0; i--) {
            for (Node f = x.next(i); f != null && traversed + x.span(i) <= start; f = x.next(i)) {
                traversed += x.span(i);
                x = f;
            }
            update[i] = x;
        }
        x = x.next(0);
        int count = 0;
        while (x != null && traversed <= end) {
            Node next = x.next(0);
            unlink(x, update);
            removed.accept(x);
            count++;
            traversed++;
            x = next;
        }
        return count;
    }

    /** Checks the structural invariants (order, spans, back links, length); for tests. */
    void verify() {
        int n = 0;
        Node prev = null;
        for (Node x = header.next(0); x != null; x = x.next(0)) {
            if (x.backward != prev) {
                throw new IllegalStateException("bad backward link at " + n);
            }
            if (prev != null && !before(prev, x.score, x.member)) {
                throw new IllegalStateException("out of order at " + n);
            }
            prev = x;
            n++;
        }
        if (n != length || tail != prev) {
            throw new IllegalStateException("length " + length + " but " + n + " nodes, or bad tail");
        }
        for (int i = 0; i < level; i++) {
            long pos = 0;
            Node x = header;
            while (x != null) {
                Node f = x.next(i);
                long steps = 0;
                if (f != null) {
                    for (Node y = x; y != f; y = y.next(0)) {
                        steps++;
                    }
                } else {
                    steps = length - pos;
                }
                if (f != null && x.span(i) != steps) {
                    throw new IllegalStateException("bad span on level " + i + " at rank " + pos);
                }
                pos += steps;
                x = f;
            }
        }
        for (int i = level; i < header.capacity(); i++) {
            if (header.next(i) != null) {
                throw new IllegalStateException("link above the list level " + i);
            }
        }
    }
}
