package io.kevy.bench.jmh;

import io.kevy.boot.KevyInstance;
import io.kevy.engine.Engine;
import io.kevy.engine.EngineConfig;
import io.kevy.engine.Shard;
import io.kevy.feed.Feed;
import io.kevy.feed.FeedConfig;
import io.kevy.feed.FeedRead;
import io.kevy.feed.PrefixFilter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The feed ring ({@code FeedBacklog}) of a one-shard engine with the feed on and a 16 MiB budget, full of
 * {@code SET key:<n> value} frames. {@code append} is {@link Shard#emit} under the shard's lock (offset,
 * WATCH signal, the backlog's append and eviction: what every write pays for the feed; {@code emitWithoutFeed} is the same on a shard without the feed);
 * {@code read4096}
 * is one FEED.READ step of COUNT 4096 from the oldest retained frame of the full ring, which no append moves in that benchmark (the copy out under the lock and the
 * frame list). Scores are frames per microsecond.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class FeedBacklogBench extends ShortRun {
    private static final int KEYS = 1 << 16;
    private static final int COUNT = Feed.MAX_COUNT;

    private Engine engine;
    private Shard shard;
    private Feed feed;
    private byte[][][] frames;
    private int i;
    private long generation;
    private long oldest;

    /** The backlog's budget in bytes: 16 MiB by default; 64 KiB keeps the ring inside L2, 64 MiB is the server's default. */
    @Param("16777216")
    public long budgetBytes;

    @Setup(Level.Trial)
    public void setUp() {
        KevyInstance kevy = KevyInstance.assemble(EngineConfig.defaults().withShards(1),
                FeedConfig.enabled(budgetBytes));
        engine = kevy.engine();
        shard = engine.shard(0);
        feed = kevy.feed();
        byte[] set = "SET".getBytes(StandardCharsets.US_ASCII);
        byte[] value = "xyz".getBytes(StandardCharsets.US_ASCII);
        frames = new byte[KEYS][][];
        for (int n = 0; n < KEYS; n++) {
            frames[n] = new byte[][] {set, ("key:" + n).getBytes(StandardCharsets.US_ASCII), value};
        }
        // fill the budget: frames of ~35 counted bytes, so budget / 30 appends evict from the start of the ring
        for (long n = budgetBytes / 30 + KEYS; n > 0; n--) {
            append();
        }
        generation = feed.tail(0).generation();
        oldest = feed.backlog(0).stats().oldestOffset();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        engine.close();
    }

    /** Appends one frame to the full ring (evicting the oldest). */
    @Benchmark
    public void append() {
        shard.lock().lock();
        try {
            shard.emit(frames[i++ & (KEYS - 1)]);
        } finally {
            shard.lock().unlock();
        }
    }

    /**
     * {@link #append}'s work on a shard without the feed (the offset and the WATCH signal only): the
     * difference of the two is what the feed adds to a write.
     */
    @Benchmark
    public void emitWithoutFeed(WithoutFeed state) {
        Shard s = state.shard;
        s.lock().lock();
        try {
            s.emit(frames[i++ & (KEYS - 1)]);
        } finally {
            s.lock().unlock();
        }
    }

    /** A one-shard engine with the feed off, for {@link #emitWithoutFeed}. */
    @State(Scope.Thread)
    public static class WithoutFeed {
        Engine engine;
        Shard shard;

        @Setup(Level.Trial)
        public void setUp() {
            engine = new Engine(EngineConfig.defaults().withShards(1));
            shard = engine.shard(0);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            engine.close();
        }
    }

    /** Reads {@value #COUNT} frames from the oldest retained one. */
    @Benchmark
    @OperationsPerInvocation(COUNT)
    public Object read4096() {
        FeedRead read = feed.open(0, generation, oldest, COUNT, PrefixFilter.ALL);
        return read.step();
    }
}
