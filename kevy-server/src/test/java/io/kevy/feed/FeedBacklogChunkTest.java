package io.kevy.feed;

import static org.assertj.core.api.Assertions.assertThat;
import io.kevy.engine.Engine;
import io.kevy.engine.EngineConfig;
import io.kevy.engine.Shard;
import io.kevy.resp.Verbs;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The backlog's storage in chunks (feed contract §6): frames wrapping over small chunks, frames larger than a
 * chunk, and the eviction accounting, against a model list of the frames that must be retained.
 */
class FeedBacklogChunkTest {
    private Engine engine;

    @AfterEach
    void close() {
        if (engine != null) {
            engine.close();
        }
    }

    private FeedBacklog backlog(long budget, int chunkSize) {
        engine = new Engine(EngineConfig.defaults().withShards(1));
        FeedBacklog b = new FeedBacklog(engine.shard(0), budget, chunkSize);
        engine.shard(0).addListener(b);
        return b;
    }

    private static void emit(Shard s, byte[][] frame) {
        s.lock().lock();
        try {
            s.emit(frame);
        } finally {
            s.lock().unlock();
        }
    }

    private record Model(long offset, byte[][] argv, long size) {
    }

    @Test
    void randomFramesOverSmallChunksMatchTheModel() {
        runAgainstModel(256, 2000, 1);
    }

    /**
     * Chunks of 4 KiB let appends run 4 KiB (the slack) past a 2,000-byte budget before they evict, and the ring
     * is read only every 1-60 appends: each read must still see exactly the frames §6's order keeps.
     */
    @Test
    void evictionInRunsIsInvisibleToReaders() {
        runAgainstModel(4096, 2000, 60);
    }

    /**
     * Emits 3,000 random frames; after every append the model applies contract §6 (evict while used + new >
     * budget, then append); every 1 to {@code maxGap} appends, stats and reads must match the model.
     */
    private void runAgainstModel(int chunk, long budget, int maxGap) {
        long seed = System.nanoTime();
        System.out.println("FeedBacklogChunkTest seed " + seed + " chunk " + chunk + " budget " + budget);
        Random rnd = new Random(seed);
        FeedBacklog b = backlog(budget, chunk);
        Shard s = engine.shard(0);
        Deque<Model> model = new ArrayDeque<>();
        long bytes = 0;
        long evicted = 0;
        long gen = b.stats().generation();
        int nextCheck = 0;
        for (int i = 0; i < 3000; i++) {
            byte[][] argv = randomFrame(rnd, i);
            long offset = s.nextOffset();
            long size = FeedBacklog.frameSize(offset, argv);
            while (!model.isEmpty() && bytes + size > budget) {
                bytes -= model.removeFirst().size();
                evicted++;
            }
            model.addLast(new Model(offset, argv, size));
            bytes += size;
            emit(s, argv);
            if (i < nextCheck) {
                continue;
            }
            nextCheck = i + 1 + rnd.nextInt(maxGap);

            if (rnd.nextBoolean()) {
                assertStaleCursorResyncs(b, gen, model, seed);   // a read before any stats()
            }
            FeedBacklog.Stats st = b.stats();
            assertThat(st.frames()).as("seed %d, frame %d", seed, i).isEqualTo(model.size());
            assertThat(st.bytes()).as("seed %d, frame %d", seed, i).isEqualTo(bytes);
            assertThat(st.framesEvicted()).isEqualTo(evicted);
            assertThat(st.oldestOffset()).isEqualTo(model.getFirst().offset());
            if (rnd.nextInt(3) == 0 || size > chunk) {
                assertReadsBack(b, gen, model, seed, rnd);
            }
            assertStaleCursorResyncs(b, gen, model, seed);
        }
    }

    /** A cursor at the newest offset the model has evicted must get FEEDRESYNC (contract §4). */
    private static void assertStaleCursorResyncs(FeedBacklog b, long gen, Deque<Model> model, long seed) {
        if (model.getFirst().offset() > 0) {
            long gone = model.getFirst().offset() - 1;
            FeedRead stale = new FeedRead(b, gen, gone, 16, PrefixFilter.ALL);
            assertThat(stale.step()).as("seed %d: a cursor at the last evicted offset %d", seed, gone)
                    .isInstanceOf(FeedRead.Resync.class);
        }
    }

    private static byte[][] randomFrame(Random rnd, int i) {
        int shape = rnd.nextInt(10);
        byte[] key = ("k" + rnd.nextInt(50)).getBytes(StandardCharsets.UTF_8);
        if (shape == 0) {
            byte[] big = new byte[300 + rnd.nextInt(1500)];   // larger than a chunk, sometimes than the budget
            rnd.nextBytes(big);
            return new byte[][] {Verbs.SET, key, big};
        }
        if (shape == 1) {
            return new byte[][] {Verbs.DEL, key, "other".getBytes(StandardCharsets.UTF_8)};
        }
        byte[] v = new byte[rnd.nextInt(120)];
        rnd.nextBytes(v);
        return new byte[][] {Verbs.SET, key, v, Integer.toString(i).getBytes(StandardCharsets.UTF_8)};
    }

    private static void assertReadsBack(FeedBacklog b, long gen, Deque<Model> model, long seed, Random rnd) {
        List<Model> all = new ArrayList<>(model);
        int from = rnd.nextInt(all.size());
        FeedRead read = new FeedRead(b, gen, all.get(from).offset(), 4096, PrefixFilter.ALL);
        FeedRead.Batch batch = (FeedRead.Batch) read.step();
        assertThat(batch.frames()).as("seed %d", seed).hasSize(all.size() - from);
        for (int i = 0; i < batch.frames().size(); i++) {
            FeedFrame f = batch.frames().get(i);
            Model m = all.get(from + i);
            assertThat(f.offset()).isEqualTo(m.offset());
            assertThat(f.end() - f.start()).as("held without the *2 :offset header")
                    .isEqualTo(m.size() - FeedBacklog.headerSize(m.offset()));
            assertThat(Arrays.deepEquals(f.argv(), m.argv())).as("seed %d, offset %d", seed, m.offset()).isTrue();
        }
        FeedRead filtered = new FeedRead(b, gen, all.get(from).offset(), 4096,
                PrefixFilter.of(List.of("k1".getBytes(StandardCharsets.UTF_8))));
        FeedRead.Result r = filtered.step();
        List<Long> expected = new ArrayList<>();
        for (Model m : all.subList(from, all.size())) {
            if (PrefixFilter.of(List.of("k1".getBytes(StandardCharsets.UTF_8))).accepts(m.argv())) {
                expected.add(m.offset());
            }
        }
        List<Long> got = r == null ? List.of()
                : ((FeedRead.Batch) r).frames().stream().map(FeedFrame::offset).toList();
        assertThat(got).as("seed %d: the PREFIX filter on encoded frames", seed).isEqualTo(expected);
    }

    @Test
    void aFrameLargerThanAChunkAndTheBudgetIsKeptAlone() {
        FeedBacklog b = backlog(500, 128);
        Shard s = engine.shard(0);
        emit(s, new byte[][] {Verbs.SET, "a".getBytes(StandardCharsets.UTF_8), "1".getBytes(StandardCharsets.UTF_8)});
        byte[] big = new byte[1000];
        Arrays.fill(big, (byte) 'x');
        emit(s, new byte[][] {Verbs.SET, "big".getBytes(StandardCharsets.UTF_8), big});
        FeedBacklog.Stats st = b.stats();
        assertThat(st.frames()).isEqualTo(1);
        assertThat(st.oldestOffset()).isEqualTo(1);
        assertThat(st.bytes()).isEqualTo(FeedBacklog.frameSize(1, new byte[][] {Verbs.SET, "big".getBytes(), big}));
        FeedRead.Batch batch = (FeedRead.Batch) new FeedRead(b, st.generation(), 1, 10, PrefixFilter.ALL).step();
        assertThat(batch.frames().get(0).argv()[2]).isEqualTo(big);
        emit(s, new byte[][] {Verbs.SET, "a".getBytes(StandardCharsets.UTF_8), "2".getBytes(StandardCharsets.UTF_8)});
        st = b.stats();
        assertThat(st.frames()).as("the big frame evicted for the next one").isEqualTo(1);
        assertThat(st.oldestOffset()).isEqualTo(2);
        assertThat(st.framesEvicted()).isEqualTo(2);
    }

    @Test
    void aReadStopsCopyingPastMaxCopyAndTheNextStepGoesOn() {
        FeedBacklog b = backlog(64L << 20, 2 << 20);
        Shard s = engine.shard(0);
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 40; i++) {     // 40 frames of ~700 KB, two per 2 MB chunk: ~28 MB, past MAX_COPY
            byte[] v = new byte[700_000 + i];
            Arrays.fill(v, (byte) ('a' + i % 26));
            values.add(v);
            emit(s, new byte[][] {Verbs.SET, ("k" + i).getBytes(StandardCharsets.UTF_8), v});
        }
        FeedBacklog.Stats st = b.stats();
        assertThat(st.frames()).isEqualTo(40);
        FeedRead read = new FeedRead(b, st.generation(), 0, 4096, PrefixFilter.ALL);
        FeedRead.Batch first = (FeedRead.Batch) read.step();
        long copied = first.frames().stream().mapToLong(f -> f.end() - f.start()).sum();
        assertThat(first.frames().size()).as("one step copies at most MAX_COPY bytes").isBetween(2, 39);
        assertThat(copied).isLessThanOrEqualTo(FeedBacklog.MAX_COPY);
        FeedRead.Batch rest = (FeedRead.Batch) read.step();
        assertThat(first.frames().size() + rest.frames().size()).isEqualTo(40);
        assertThat(rest.next()).isEqualTo(40);
        List<FeedFrame> all = new ArrayList<>(first.frames());
        all.addAll(rest.frames());
        for (int i = 0; i < 40; i++) {
            assertThat(all.get(i).offset()).isEqualTo(i);
            assertThat(all.get(i).argv()[2]).as("frame %d", i).isEqualTo(values.get(i));
        }
    }

    @Test
    void chunkSizeFollowsTheBudget() {
        assertThat(FeedBacklog.chunkSizeFor(FeedConfig.DEFAULT_BUFFER)).isEqualTo(4 << 20);
        assertThat(FeedBacklog.chunkSizeFor(FeedConfig.MAX_BUFFER)).isEqualTo(4 << 20);
        assertThat(FeedBacklog.chunkSizeFor(105)).isEqualTo(4 << 10);
        assertThat(FeedBacklog.chunkSizeFor(1 << 20)).isEqualTo(64 << 10);
    }
}
