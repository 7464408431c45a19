package io.kevy.persist;

import io.kevy.engine.Keyspace;
import io.kevy.engine.config.EncodingLimits;
import io.kevy.engine.dump.DumpEncoder;
import io.kevy.engine.type.RedisValue;
import io.kevy.engine.type.StreamValue;
import io.kevy.resp.RespFrameWriter;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;

/**
 * Writes one shard's captured keyspace to {@code dump-{i}.rdb} durably (tmp + fsync + rename + directory
 * fsync), in {@link SnapshotFormat}. Runs on a background thread: the capture it reads is immutable (strings)
 * or protected by copy-on-write (collections, see {@link Keyspace#valueForWrite}).
 */
final class SnapshotWriter {
    /*
     * A stream is stored as RESTORE of its DUMP payload (Redis's RDB encoding), not as the frames that rebuild it:
     * the payload holds its listpack nodes as they are (boundaries, deleted-flagged entries, master entries), as
     * Redis's RDB does, so after a restart XINFO STREAM's node counts and what a later '~' trim removes are
     * Redis's after DEBUG RELOAD; rebuild frames repack the entries into new nodes. It also keeps what the frames
     * lose: consumers' seen times. A payload is built whole in memory, so a stream whose nodes pass
     * STREAM_PAYLOAD_MAX falls back to the frames (repacked on load).
     */
    static final long STREAM_PAYLOAD_MAX = 256L << 20;
    private static final byte[] RESTORE = "RESTORE".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ZERO = {'0'};
    private static final byte[] REPLACE = "REPLACE".getBytes(StandardCharsets.US_ASCII);

    private SnapshotWriter() {
    }

    /** Summary of a written snapshot. */
    record Result(Path path, long keys, long bytes) {
    }

    static Result write(Path target, Keyspace.Capture capture, long generation, long nextOffset, int shard,
                        int shards, long createdMs) throws IOException {
        return write(target, capture, List.of(), generation, nextOffset, shard, shards, createdMs, new AtomicLong());
    }

    /**
     * As above with {@code serverFrames}, the frames of the server-wide state ({@link io.kevy.engine.ServerState},
     * captured with the keyspace; shard 0's only), adding one to {@code written} after each key (the save progress
     * INFO persistence shows).
     */
    static Result write(Path target, Keyspace.Capture capture, List<byte[][]> serverFrames, long generation,
                        long nextOffset, int shard, int shards, long createdMs, AtomicLong written)
            throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        long keys = 0;
        long bytes;
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            FileFaults.beforeWrite();
            CrcOut out = new CrcOut(new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16));
            ByteBuffer h = ByteBuffer.allocate(SnapshotFormat.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
            h.put(SnapshotFormat.MAGIC).put((byte) SnapshotFormat.VERSION_WITH_CURSOR).putLong(generation)
                    .putLong(nextOffset);
            out.write(h.array());
            out.write(SnapshotFormat.BODY_MAGIC);
            out.write(SnapshotFormat.BODY_VERSION);
            out.le32(shard);
            out.le32(shards);
            out.le64(createdMs);
            if (!serverFrames.isEmpty()) {
                out.write(SnapshotFormat.KIND_SERVER_FRAMES);
                out.varint(serverFrames.size());
                for (byte[][] f : serverFrames) {
                    RespFrameWriter.write(f, out);
                }
            }
            List<byte[][]> frames = new ArrayList<>();
            for (int i = 0; i < capture.keys().length; i++) {
                byte[] key = capture.keys()[i];
                Object v = capture.values()[i];
                if (v instanceof byte[] s) {
                    out.write(SnapshotFormat.KIND_STRING);
                    out.le64(capture.expiries()[i]);
                    out.bytes(key);
                    out.bytes(s);
                } else {
                    frames.clear();
                    if (v instanceof StreamValue st && st.listpackBytes() <= STREAM_PAYLOAD_MAX) {
                        frames.add(new byte[][] {RESTORE, key, ZERO,
                                DumpEncoder.dump(st, EncodingLimits.DEFAULTS, false), REPLACE});
                    } else {
                        ((RedisValue) v).rebuild(key, frames::add);
                    }
                    out.write(SnapshotFormat.KIND_FRAMES);
                    out.le64(capture.expiries()[i]);
                    out.bytes(key);
                    out.varint(frames.size());
                    for (byte[][] f : frames) {
                        RespFrameWriter.write(f, out);
                    }
                }
                keys++;
                written.incrementAndGet();
            }
            out.write(SnapshotFormat.END);
            out.le64(keys);
            int crc = (int) out.crc.getValue();
            out.le32(crc);
            out.flush();
            ch.force(true);
            bytes = ch.size();
        }
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        FileSync.directory(target.getParent());
        return new Result(target, keys, bytes);
    }

    /** An output stream that keeps a CRC32C of what passes through and writes little-endian numbers. */
    static final class CrcOut extends OutputStream {
        final CRC32C crc = new CRC32C();
        private final OutputStream out;
        private final byte[] scratch = new byte[10];

        CrcOut(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            crc.update(b);
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            crc.update(b, off, len);
            out.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        void le32(int v) throws IOException {
            for (int i = 0; i < 4; i++) {
                scratch[i] = (byte) (v >>> (8 * i));
            }
            write(scratch, 0, 4);
        }

        void le64(long v) throws IOException {
            for (int i = 0; i < 8; i++) {
                scratch[i] = (byte) (v >>> (8 * i));
            }
            write(scratch, 0, 8);
        }

        void varint(long v) throws IOException {
            int n = 0;
            while ((v & ~0x7FL) != 0) {
                scratch[n++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            scratch[n++] = (byte) v;
            write(scratch, 0, n);
        }

        void bytes(byte[] b) throws IOException {
            varint(b.length);
            write(b, 0, b.length);
        }
    }
}
