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
     * Writes {@code shard}'s keyspace (and, for shard 0, the server-wide state: the FUNCTION libraries) to
     * {@code target} in the snapshot format (tmp + fsync + rename), holding
     * the shard's lock for the whole write so that no capture is shared with a concurrent SAVE: the pause is the
     * write (the replication full sync; a background SAVE pauses only for its capture). Expired keys not yet
     * reaped are written; loaders drop them.
     *
     * @return the cursor the snapshot was taken at, frozen with its data (feed contract §10)
     * @throws IOException from the file system
     */
    public static FeedCursor writeShard(Shard shard, int shards, Path target) throws IOException {
        shard.lock().lock();
        try {
            Keyspace ks = shard.keyspace();
            int n = ks.size();
            byte[][] keys = new byte[n][];
            Object[] values = new Object[n];
            long[] expiries = new long[n];
            int[] i = {0};
            ks.forEach(node -> {
                int k = i[0]++;
                keys[k] = node.key();
                values[k] = node.value();
                expiries[k] = node.aux();
            });
            long gen = shard.generation();
            long next = shard.nextOffset();
            java.util.List<byte[][]> serverFrames = shard.index() == 0 ? shard.engine().serverState().frames()
                    : java.util.List.of();
            SnapshotWriter.write(target, new Keyspace.Capture(keys, values, expiries), serverFrames, gen, next,
                    shard.index(), shards, shard.engine().clock().millis(), new java.util.concurrent.atomic.AtomicLong());
            return new FeedCursor(gen, next);
        } finally {
            shard.lock().unlock();
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
}
