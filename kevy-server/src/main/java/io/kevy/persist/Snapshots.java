package io.kevy.persist;

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
}
