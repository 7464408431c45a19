package io.kevy.bench.jmh;

import io.kevy.engine.struct.SkipList;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The sorted-set skip list ({@link SkipList}) holding {@code size} members with random scores: insert + delete
 * of a member (ZADD of a new member then ZREM), ZRANK, a score-range seek (ZRANGEBYSCORE's first element) and
 * a rank seek (ZRANGE's first element). Scores are operations per microsecond.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SkipListBench extends ShortRun {
    private static final int ORDER = 1 << 14;

    @Param({"1000", "100000"})
    int size;

    private SkipList list;
    private double[] scores;
    private byte[][] members;
    private double[] newScores;
    private byte[][] newMembers;
    private int i;

    @Setup(Level.Trial)
    public void setUp() {
        java.util.Random rnd = new java.util.Random(10);
        list = new SkipList(new java.util.Random(11));
        scores = new double[size];
        members = new byte[size][];
        for (int n = 0; n < size; n++) {
            scores[n] = rnd.nextDouble() * 1e6;
            members[n] = ("member:" + n).getBytes(StandardCharsets.US_ASCII);
            list.insert(scores[n], members[n]);
        }
        newScores = new double[ORDER];
        newMembers = new byte[ORDER][];
        for (int n = 0; n < ORDER; n++) {
            newScores[n] = rnd.nextDouble() * 1e6;
            newMembers[n] = ("new:" + n).getBytes(StandardCharsets.US_ASCII);
        }
    }

    /** Inserts a new member and deletes it again. */
    @Benchmark
    public boolean insertDelete() {
        int n = i++ & (ORDER - 1);
        list.insert(newScores[n], newMembers[n]);
        return list.delete(newScores[n], newMembers[n]);
    }

    /** The rank of an existing member (ZRANK). */
    @Benchmark
    public long rank() {
        int n = (i++ & (ORDER - 1)) % size;
        return list.rank(scores[n], members[n]);
    }

    /** The first member with a score at or above a random bound. */
    @Benchmark
    public Object firstInScoreRange() {
        double min = newScores[i++ & (ORDER - 1)];
        return list.firstInRange(new SkipList.ScoreRange(min, false, Double.POSITIVE_INFINITY, false));
    }

    /** The member at a random rank. */
    @Benchmark
    public Object byRank() {
        return list.byRank((i++ & (ORDER - 1)) % size);
    }
}
