package io.kevy.persist;

import static org.assertj.core.api.Assertions.assertThat;
import io.kevy.boot.KevyInstance;
import io.kevy.engine.Engine;
import io.kevy.engine.EngineConfig;
import io.kevy.engine.Shard;
import io.kevy.feed.FeedConfig;
import io.kevy.testing.RawClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The AOF's records are the frames' RESP encodings whether the writer encodes a frame itself (feed off) or
 * copies the bytes the feed backlog published for it ({@link io.kevy.resp.EncodedEffect}, feed on).
 */
class AofWriterTest {
    @TempDir
    Path tmp;

    @Test
    void theAofHoldsEachFrameEncodedOnceWithTheFeedOnOrOff() throws IOException {
        long seed = System.nanoTime();
        System.out.println("AofWriterTest seed " + seed);
        Random rnd = new Random(seed);
        List<byte[][]> frames = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            frames.add(randomFrame(rnd));
        }
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (byte[][] f : frames) {
            expected.writeBytes(RawClient.encode(f)); // the test client's plain encoder is the reference
        }

        // a 16 KiB budget: 4 KiB chunks, so frames roll over chunks, evict, and some are larger than a chunk
        byte[] withFeed = aofRecords(tmp.resolve("on"), FeedConfig.enabled(16 << 10), frames);
        byte[] withoutFeed = aofRecords(tmp.resolve("off"), new FeedConfig(false, 16 << 10), frames);

        assertThat(withFeed).as("seed %d, feed on", seed).isEqualTo(expected.toByteArray());
        assertThat(withoutFeed).as("seed %d, feed off", seed).isEqualTo(expected.toByteArray());
    }

    /** Emits {@code frames} on a one-shard engine with the AOF on; returns its file after the header. */
    private static byte[] aofRecords(Path dir, FeedConfig feed, List<byte[][]> frames) throws IOException {
        Files.createDirectories(dir);
        KevyInstance kevy = KevyInstance.assemble(EngineConfig.defaults().withShards(1), feed);
        Engine engine = kevy.engine();
        try {
            Persistence p = kevy.startPersistence(
                    PersistenceConfig.defaults(dir).withSaveRules(List.of()).withAof(true));
            try {
                Shard s = engine.shard(0);
                for (byte[][] f : frames) {
                    s.lock().lock();
                    try {
                        s.emit(f);
                        assertThat(s.encoded().present()).as("published bytes outlive their emit").isFalse();
                    } finally {
                        s.lock().unlock();
                    }
                }
                p.aof().syncNow();
            } finally {
                p.close();
            }
        } finally {
            engine.close();
        }
        byte[] file = Files.readAllBytes(AofWriter.aofPath(dir, 0));
        return Arrays.copyOfRange(file, AofHeader.SIZE, file.length);
    }

    /** 1-12 binary arguments of 0-40 bytes, sometimes up to 5,000, rarely 20,000 (past a 4 KiB chunk). */
    private static byte[][] randomFrame(Random rnd) {
        byte[][] f = new byte[1 + rnd.nextInt(12)][];
        for (int i = 0; i < f.length; i++) {
            int roll = rnd.nextInt(100);
            int n = roll < 90 ? rnd.nextInt(41) : roll < 99 ? rnd.nextInt(5_001) : 20_000;
            f[i] = new byte[n];
            rnd.nextBytes(f[i]);
        }
        return f;
    }
}
