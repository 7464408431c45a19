package io.kevy.persist;

import io.kevy.engine.Keyspace;
import io.kevy.engine.Shard;
import io.kevy.feed.FeedCursor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Public helpers for snapshot files ({@code dump-{i}.rdb}).
 *
 * <p>Thread-safe; static methods only.
 */
public final class Snapshots {
    private Snapshots() {
    }

    /**
     * Reads the stream cursor a snapshot was taken at (feed contract §10): the header's generation and next
     * offset. The header layout is upstream kevy's, so this reads upstream snapshots too.
     *
     * @param file a {@code dump-{i}.rdb}
     * @return the cursor, or empty for a snapshot format version below 5 (no cursor recorded)
     * @throws IOException naming the file for bad magic, a truncated header, or a read error
     */
    public static Optional<FeedCursor> readSnapshotCursor(Path file) throws IOException {
        SnapshotReader.Header h = SnapshotReader.readHeader(file);
        return h.hasCursor() ? Optional.of(new FeedCursor(h.generation(), h.nextOffset())) : Optional.empty();
    }

    /** {@code dir/dump-{shard}.rdb}. */
    public static Path path(Path dir, int shard) {
        return SnapshotFormat.path(dir, shard);
    }

    /** One stored key of a snapshot: a string, or the frames that rebuild a collection ({@link #read}). */
    public interface Entries {
        /** A string value; {@code expireAt} is Unix ms or {@link Keyspace#NO_EXPIRY}. */
        void string(byte[] key, long expireAt, byte[] value) throws IOException;

        /** A collection as the commands that rebuild it; {@code expireAt} as for {@link #string}. */
        void frames(byte[] key, long expireAt, byte[][][] frames) throws IOException;

        /**
         * The frames of the server-wide state (shard 0's snapshot: {@code FUNCTION LOAD REPLACE <code>} per
         * library, {@link io.kevy.engine.ServerState}), before any key; ignored by default.
         */
        default void serverFrames(byte[][][] frames) throws IOException {
        }
    }

    /**
     * Writes {@code shard}'s keyspace (and, for shard 0, the server-wide state: the FUNCTION libraries, captured
     * with the cursor) to {@code target} in the snapshot format (tmp + fsync + rename) as a
     * background SAVE does: the keys are captured under the shard's lock with the stream cursor (the pause is
     * the capture), then written by the calling thread while the shard goes on, collections the capture holds
     * being copied before a write changes them ({@link Keyspace#beginCapture}). Expired keys not yet reaped are
     * written; loaders drop them. Call it off the event loops: the write takes as long as the data.
     *
     * @return the cursor the snapshot was taken at, frozen with its data (feed contract §10)
     * @throws IOException from the file system
     */
    public static FeedCursor writeShard(Shard shard, int shards, Path target) throws IOException {
        Keyspace.Capture capture;
        long gen;
        long next;
        java.util.List<byte[][]> serverFrames;
        shard.lock().lock();
        try {
            capture = shard.keyspace().beginCapture();
            gen = shard.generation();
            next = shard.nextOffset();
            serverFrames = shard.index() == 0 ? shard.engine().serverState().frames() : java.util.List.of();
        } finally {
            shard.lock().unlock();
        }
        try {
            SnapshotWriter.write(target, capture, serverFrames, gen, next, shard.index(), shards,
                    shard.engine().clock().millis(), new java.util.concurrent.atomic.AtomicLong());
            return new FeedCursor(gen, next);
        } finally {
            endCapture(shard);
        }
    }

    /**
     * Reads a snapshot file: verifies its checksum over the whole file first (nothing of a damaged file reaches
     * {@code entries}), then passes every entry.
     *
     * @return the cursor of its header
     * @throws IOException naming the file for a checksum mismatch, truncation or a format error
     */
    public static FeedCursor read(Path file, Entries entries) throws IOException {
        SnapshotReader.Header h = SnapshotReader.read(file, new SnapshotReader.EntryConsumer() {
            @Override
            public void string(byte[] key, long expireAt, byte[] value) throws IOException {
                entries.string(key, expireAt, value);
            }

            @Override
            public void frames(byte[] key, long expireAt, byte[][][] frames) throws IOException {
                entries.frames(key, expireAt, frames);
            }

            @Override
            public void serverFrames(byte[][][] frames) throws IOException {
                entries.serverFrames(frames);
            }
        });
        return new FeedCursor(h.generation(), h.nextOffset());
    }

    /** Ends the shard's capture ({@link Keyspace#endCapture}) under its lock: writers copy values no more. */
    static void endCapture(Shard shard) {
        shard.lock().lock();
        try {
            shard.keyspace().endCapture();
        } finally {
            shard.lock().unlock();
        }
    }
}
