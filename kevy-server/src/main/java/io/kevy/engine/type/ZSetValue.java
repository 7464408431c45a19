package io.kevy.engine.type;

import io.kevy.engine.config.EncodingLimits;
import io.kevy.engine.struct.Dict;
import io.kevy.engine.struct.SkipList;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.resp.Verbs;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A sorted set: a {@link Dict} from member to score (the score's raw bits live in the node's aux word) for O(1)
 * lookups, plus a {@link SkipList} ordered by (score, member) for ranks and ranges. Both hold the same members.
 *
 * <p>OBJECT ENCODING reports {@code listpack} while the set is within Redis 7.0's
 * {@code zset-max-listpack-entries} (default 128) and {@code zset-max-listpack-value} (default 64 bytes per member;
 * the live limits of the {@link EncodingLimits} it was created with), and
 * {@code skiplist} once it has outgrown them (and from then on, as Redis never converts back on deletes).
 * Redis stores listpack scores as text, which turns {@code -0} into {@code 0}; this class does the same while the
 * encoding is listpack, so ZSCORE answers as Redis does in both encodings. Hence a stored {@code -0}, and so a
 * {@code -0} in any frame or rebuild of the set, only ever comes from a skiplist; whoever applies such frames
 * (a replica, snapshot and AOF loading) calls {@link #keepNegativeZero} to end with the same scores and encoding.
 *
 * <p>Not thread-safe: used under the owning shard's lock. Member arrays are shared, never copied or mutated.
 */
public final class ZSetValue implements RedisValue {
    public static final int LISTPACK_MAX_ENTRIES = 128;
    public static final int LISTPACK_MAX_VALUE = 64;

    private final Dict<Object> dict = new Dict<>();
    private final SkipList list = new SkipList();
    private final EncodingLimits limits;
    private boolean skiplist;

    /** An empty sorted set in the listpack encoding, under Redis's default limits. */
    public ZSetValue() {
        this(false, EncodingLimits.DEFAULTS);
    }

    /** An empty sorted set in the listpack encoding whose encoding follows {@code limits} (live CONFIG). */
    public ZSetValue(EncodingLimits limits) {
        this(false, limits);
    }

    /**
     * An empty sorted set that starts in the skiplist encoding when {@code skiplist} (as Redis creates one for a
     * result known to be large), under Redis's default limits.
     */
    public ZSetValue(boolean skiplist) {
        this(skiplist, EncodingLimits.DEFAULTS);
    }

    /** As {@link #ZSetValue(boolean)}, the encoding following {@code limits} afterwards. */
    public ZSetValue(boolean skiplist, EncodingLimits limits) {
        this.skiplist = skiplist;
        this.limits = limits;
    }

    /** Whether {@code size} members, the longest {@code longest} bytes, exceed the listpack limits. */
    public static boolean exceedsListpack(long size, long longest, EncodingLimits limits) {
        return size > limits.zsetMaxListpackEntries() || longest > limits.zsetMaxListpackValue();
    }

    /**
     * Switches to the skiplist encoding for good, as Redis 7.0's SORT does to the sorted set it reads
     * ({@code zsetConvert(sortval, OBJ_ENCODING_SKIPLIST)}). Scores stay as stored.
     */
    public void convertToSkiplist() {
        skiplist = true;
    }

    /**
     * Before an effect frame's {@code score} is inserted or set: when it is -0 and this set is listpack-encoded,
     * switches to the skiplist encoding for good, so that the -0 is stored rather than turned into 0.
     *
     * <p>Frames carry the scores their source stored, and only a skiplist stores -0 (see the class note), so a -0
     * in a frame means its source set was a skiplist from then on. Converting here reaches that encoding when the
     * applying side's set could not have: a set rebuilt by chunked {@code ZADD}s (snapshots, a full sync,
     * cross-shard COPY/RENAME, *STORE and RESTORE frames) fills a listpack first, and SORT converts its source set
     * without any frame. Existing scores stay as stored. A client's {@code ZADD} never calls this: Redis stores its
     * -0 in a listpack as 0.
     */
    public void keepNegativeZero(double score) {
        if (isNegativeZero(score)) {
            skiplist = true;
        }
    }

    /** Whether {@code score} is -0 (which compares equal to 0). */
    public static boolean isNegativeZero(double score) {
        return Double.doubleToRawLongBits(score) == Long.MIN_VALUE;
    }

    /** The score of {@code member}, or NaN when it is absent (NaN is never a stored score). */
    public double score(byte[] member) {
        Dict.Node<Object> n = dict.find(member);
        return n == null ? Double.NaN : Double.longBitsToDouble(n.aux());
    }

    public boolean contains(byte[] member) {
        return dict.find(member) != null;
    }

    /**
     * Adds {@code member}, which must be absent, with {@code score} (not NaN). Switches to the skiplist encoding
     * when the set outgrows the listpack limits.
     *
     * @return the score stored (differs from {@code score} only for {@code -0} in the listpack encoding)
     */
    public double insert(byte[] member, double score) {
        if (!skiplist && exceedsListpack(dict.size() + 1L, member.length, limits)) {
            skiplist = true;
        }
        double s = stored(score);
        Dict.Node<Object> n = dict.addAbsent(member);
        n.aux(Double.doubleToRawLongBits(s));
        list.insert(s, member);
        return s;
    }

    /**
     * Changes the score of {@code member}, which must be present with score {@code current}.
     *
     * @return the score stored (see {@link #insert})
     */
    public double update(byte[] member, double current, double score) {
        double s = stored(score);
        Dict.Node<Object> n = dict.find(member);
        n.aux(Double.doubleToRawLongBits(s));
        list.updateScore(current, member, s);
        return s;
    }

    private double stored(double score) {
        return !skiplist && score == 0 ? 0.0 : score;
    }

    /** Removes {@code member}; returns false when it was absent. */
    public boolean remove(byte[] member) {
        Dict.Node<Object> n = dict.remove(member);
        if (n == null) {
            return false;
        }
        list.delete(Double.longBitsToDouble(n.aux()), member);
        return true;
    }

    /** The 0-based rank of {@code member} in ascending order (descending when {@code reverse}), or -1. */
    public long rank(byte[] member, boolean reverse) {
        Dict.Node<Object> n = dict.find(member);
        if (n == null) {
            return -1;
        }
        long r = list.rank(Double.longBitsToDouble(n.aux()), member);
        return reverse ? list.length() - 1 - r : r;
    }

    /** The ordered view; callers change the set only through this class. */
    public SkipList list() {
        return list;
    }

    /** The member table (SCAN, random members); the aux word of a node holds the score's raw bits. */
    public Dict<Object> dict() {
        return dict;
    }

    /** The score held by a node of {@link #dict()}. */
    public static double scoreOf(Dict.Node<Object> n) {
        return Double.longBitsToDouble(n.aux());
    }

    /** Deletes the members with a score in {@code r}, passing each removed node to {@code removed}. */
    public int removeRange(SkipList.ScoreRange r, Consumer<SkipList.Node> removed) {
        return list.deleteRange(r, n -> {
            dict.remove(n.member());
            removed.accept(n);
        });
    }

    /*
     * Lex ranges assume equal scores. When scores differ, members are not sorted along the list and Redis's answer
     * depends on the encoding: a listpack is scanned linearly from either end, a skiplist is walked through its
     * levels. The lex methods below follow the listpack rules while this set is listpack-encoded (at most 128
     * members, so a scan is cheap), which makes replies to mixed-score sets the same as Redis's; for skiplist sets
     * Redis's answer depends on its random levels, and the SkipList walk is used.
     */

    private boolean overlapsLinear(SkipList.LexRange r) {
        return !r.isEmpty() && list.length() > 0 && r.gteMin(list.last().member()) && r.lteMax(list.first().member());
    }

    /** The first member in the lex range {@code r}, or null (see the note on lex ranges above). */
    public SkipList.Node firstInRange(SkipList.LexRange r) {
        if (skiplist) {
            return list.firstInRange(r);
        }
        if (!overlapsLinear(r)) {
            return null;
        }
        for (SkipList.Node n = list.first(); n != null; n = n.next()) {
            if (r.gteMin(n.member())) {
                return r.lteMax(n.member()) ? n : null;
            }
        }
        return null;
    }

    /** The last member in the lex range {@code r}, or null (see the note on lex ranges above). */
    public SkipList.Node lastInRange(SkipList.LexRange r) {
        if (skiplist) {
            return list.lastInRange(r);
        }
        if (!overlapsLinear(r)) {
            return null;
        }
        for (SkipList.Node n = list.last(); n != null; n = n.prev()) {
            if (r.lteMax(n.member())) {
                return r.gteMin(n.member()) ? n : null;
            }
        }
        return null;
    }

    /** How many members ZLEXCOUNT counts in {@code r} (see the note on lex ranges above). */
    public long lexCount(SkipList.LexRange r) {
        SkipList.Node first = firstInRange(r);
        if (first == null) {
            return 0;
        }
        if (skiplist) {
            SkipList.Node last = list.lastInRange(r);
            return last == null ? 0 : Math.max(0, list.rank(last) - list.rank(first) + 1);
        }
        long count = 0;
        for (SkipList.Node n = first; n != null && r.lteMax(n.member()); n = n.next()) {
            count++;
        }
        return count;
    }

    /** Deletes the members in the lex range {@code r}, passing each removed node to {@code removed}. */
    public int removeRange(SkipList.LexRange r, Consumer<SkipList.Node> removed) {
        if (skiplist) {
            return list.deleteRange(r, n -> {
                dict.remove(n.member());
                removed.accept(n);
            });
        }
        int count = 0;
        SkipList.Node n = firstInRange(r);
        while (n != null && r.lteMax(n.member())) {
            SkipList.Node next = n.next();
            remove(n.member());
            removed.accept(n);
            count++;
            n = next;
        }
        return count;
    }

    /** Deletes the members at 0-based ranks {@code start..end}, passing each removed node to {@code removed}. */
    public int removeRangeByRank(long start, long end, Consumer<SkipList.Node> removed) {
        return list.deleteRangeByRank(start, end, n -> {
            dict.remove(n.member());
            removed.accept(n);
        });
    }

    /**
     * Switches a freshly built result to the listpack encoding when it fits the listpack limits, as Redis's
     * {@code zsetConvertToListpackIfNeeded} does for ZUNIONSTORE, ZINTERSTORE and ZDIFFSTORE results.
     */
    public void convertToListpackIfFits() {
        if (!skiplist || dict.size() > limits.zsetMaxListpackEntries()) {
            return;
        }
        for (SkipList.Node n = list.first(); n != null; n = n.next()) {
            if (n.member().length > limits.zsetMaxListpackValue()) {
                return;
            }
        }
        skiplist = false;
        List<byte[]> negativeZeros = new ArrayList<>();
        for (SkipList.Node n = list.first(); n != null; n = n.next()) {
            if (isNegativeZero(n.score())) {
                negativeZeros.add(n.member());
            }
        }
        for (byte[] m : negativeZeros) {
            update(m, -0.0, 0.0);
        }
    }

    @Override
    public ValueType type() {
        return ValueType.ZSET;
    }

    @Override
    public String encoding() {
        return skiplist ? "skiplist" : "listpack";
    }

    @Override
    public ZSetValue copy() {
        ZSetValue z = new ZSetValue(skiplist, limits);
        for (SkipList.Node n = list.first(); n != null; n = n.next()) {
            z.insert(n.member(), n.score());
        }
        return z;
    }

    @Override
    public int size() {
        return dict.size();
    }

    /** Emits {@code ZADD key score member ...} in ascending order, scores in the shortest round-trip form. */
    @Override
    public void rebuild(byte[] key, Consumer<byte[][]> frames) {
        List<byte[]> chunk = new ArrayList<>();
        for (SkipList.Node n = list.first(); n != null; n = n.next()) {
            if (chunk.isEmpty()) {
                chunk.add(Verbs.ZADD);
                chunk.add(key);
            }
            chunk.add(frameScore(n.score()));
            chunk.add(n.member());
            if ((chunk.size() - 2) / 2 == REBUILD_CHUNK) {
                frames.accept(chunk.toArray(new byte[0][]));
                chunk.clear();
            }
        }
        if (!chunk.isEmpty()) {
            frames.accept(chunk.toArray(new byte[0][]));
        }
    }

    /** A score as effect frames print it (feed contract §7: shortest round-trip decimal, {@code inf}/{@code -inf}). */
    public static byte[] frameScore(double score) {
        return RedisNumbers.formatShortest(score).getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public long memoryUsage() {
        long bytes = 96;
        for (SkipList.Node n = list.first(); n != null; n = n.next()) {
            bytes += 48 + n.member().length + 96;
        }
        return bytes;
    }
}
