package io.kevy.persist;

import io.kevy.resp.FrameReader;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a shard's AOF chain at boot: {@code aof-{i}.aof}, then {@code aof-{i}.aof.next} when a rewrite was
 * cut short. A record cut short by the end of a file (a crash mid-write) is truncated away with a log line;
 * bytes that are not a frame stop the boot with the file and byte offset, unless corrupt tails may be
 * truncated ({@code persistence.aof_load_corrupt = "truncate"}).
 */
final class AofLoader {
    private static final Logger log = LoggerFactory.getLogger(AofLoader.class);

    /** Receives each frame with its offset. */
    interface FrameSink {
        void frame(long offset, byte[][] frame) throws IOException;
    }

    /** What was found: the chain's generation and the offset after its last frame; empty when no AOF exists. */
    record Chain(boolean exists, long generation, long baseOffset, long endOffset, long frames) {
    }

    private AofLoader() {
    }

    /**
     * Reads every frame of shard {@code shard}'s chain in offset order.
     *
     * @throws IOException naming the file and offset on corruption, or a chain whose files do not fit together
     */
    static Chain read(Path dir, int shard, boolean truncateCorrupt, FrameSink sink) throws IOException {
        List<Path> files = new ArrayList<>();
        Path main = AofWriter.aofPath(dir, shard);
        Path next = AofWriter.nextPath(dir, shard);
        if (Files.exists(main)) {
            files.add(main);
        }
        if (Files.exists(next)) {
            files.add(next);
        }
        if (files.isEmpty()) {
            return new Chain(false, 0, 0, 0, 0);
        }
        long gen = 0;
        long base = -1;
        long end = -1;
        long frames = 0;
        for (Path f : files) {
            AofHeader h = readHeader(f);
            if (end >= 0) {
                if (h.generation() != gen) {
                    throw new IOException(f + ": generation " + h.generation() + " does not continue " + files.get(0)
                            + " (generation " + gen + ")");
                }
                if (h.baseOffset() > end) {
                    throw new IOException(f + ": starts at offset " + h.baseOffset() + " but " + files.get(0)
                            + " ends at offset " + end + ": frames are missing");
                }
            } else {
                gen = h.generation();
                base = h.baseOffset();
            }
            long[] offset = {h.baseOffset()};
            long skipBelow = end; // a .next overlapping its predecessor: keep each offset once
            long count = readFrames(f, truncateCorrupt, frame -> {
                long o = offset[0]++;
                if (o >= skipBelow) {
                    sink.frame(o, frame);
                }
            });
            frames += count;
            end = Math.max(end, h.baseOffset() + count);
        }
        return new Chain(true, gen, base, end, frames);
    }

    static AofHeader readHeader(Path f) throws IOException {
        try (InputStream in = Files.newInputStream(f)) {
            return AofHeader.decode(in.readNBytes(AofHeader.SIZE), f.toString());
        }
    }

    private interface FrameConsumer {
        void accept(byte[][] frame) throws IOException;
    }

    /** Reads the frames of one file; truncates a torn tail. Returns the number of frames. */
    private static long readFrames(Path f, boolean truncateCorrupt, FrameConsumer consumer) throws IOException {
        long count = 0;
        long cut = -1;
        String reason = null;
        try (InputStream raw = Files.newInputStream(f)) {
            raw.skipNBytes(AofHeader.SIZE);
            FrameReader reader = new FrameReader(new BufferedInputStream(raw, 1 << 16), AofHeader.SIZE, Files.size(f));
            try {
                byte[][] frame;
                while ((frame = reader.next()) != null) {
                    consumer.accept(frame);
                    count++;
                }
            } catch (FrameReader.Torn e) {
                cut = e.recordStart;
                reason = "torn last record (a crash mid-write)";
            } catch (FrameReader.Corrupt e) {
                if (!truncateCorrupt) {
                    throw new IOException(f + ": corrupt at byte " + e.position + " (" + e.what + ", in the record "
                            + "starting at byte " + e.recordStart + "); "
                            + "set persistence.aof_load_corrupt = \"truncate\" to load the valid prefix (the bytes "
                            + "before " + e.recordStart + ") and drop that record and everything after it", e);
                }
                cut = e.recordStart;
                reason = "corrupt record (" + e.getMessage() + ")";
            }
        }
        if (cut >= 0) {
            long size = Files.size(f);
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
                ch.truncate(cut);
                ch.force(true);
            }
            log.warn("{}: truncated {} bytes at byte {}: {}", f, size - cut, cut, reason);
        }
        return count;
    }
}
