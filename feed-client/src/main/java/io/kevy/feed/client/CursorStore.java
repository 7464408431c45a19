package io.kevy.feed.client;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Where a consumer keeps its cursors between runs (feed contract §11). The consumer saves only after its sink
 * completed the batches the cursors cover, so what a store holds is always safe to resume from; it saves the
 * whole record, one per consumer name.
 *
 * <p>Built in: {@link #file(Path)} (a JSON file, replaced atomically), {@link #kevy(FeedSource)} (a key in the
 * server itself), {@link #inMemory()}. Implementations must be thread-safe; {@link #save} may be called from
 * several threads, and the last call wins.
 */
public interface CursorStore extends AutoCloseable {
    /**
     * The stored cursors of {@code consumer}, or empty when there are none.
     *
     * @throws KevyConfigException when the stored record is unreadable or belongs to another consumer
     * @throws KevyException when the store cannot be reached (the consumer retries connection failures)
     */
    Optional<StoredCursors> load(String consumer);

    /** Stores {@code cursors}, replacing the consumer's previous record. */
    void save(StoredCursors cursors);

    /**
     * Removes the stored cursors of {@code consumer} (cursor admin: the next start follows its start policy).
     * Removing nothing is not an error. The default throws {@link UnsupportedOperationException}; the built-in
     * stores implement it.
     *
     * @throws KevyException when the store cannot be reached
     */
    default void delete(String consumer) {
        throw new UnsupportedOperationException(this + " cannot delete cursors");
    }

    /**
     * The key this store writes in the feed's own server for {@code consumer}, if any: the consumer skips
     * changes of that key, so its own commits never reach its sink.
     */
    default Optional<byte[]> ownKey(String consumer) {
        return Optional.empty();
    }

    /** Releases resources; the default does nothing. */
    @Override
    default void close() {
    }

    /**
     * A JSON file per consumer at {@code path} (parent directories are created): written to a temporary file
     * in the same directory, fsynced and renamed over the old one, so a crash leaves the old or the new
     * record, never a torn one. Loading a file written by another consumer name fails.
     */
    static CursorStore file(Path path) {
        return new FileCursorStore(path);
    }

    /** Cursors in this store object only (lost with the process); share the object to resume. */
    static CursorStore inMemory() {
        return new MemoryCursorStore();
    }

    /**
     * A key {@code __kevy:feed-cursor:<consumer>} in the server {@code source} reads from, holding the JSON.
     * The consumer skips that key's changes. A commit that would only cover the frame of the previous commit
     * is not written, so an idle consumer does not feed itself.
     */
    static CursorStore kevy(FeedSource source) {
        return new KevyCursorStore(source, KevyCursorStore.DEFAULT_KEY_PREFIX);
    }

    /** As {@link #kevy(FeedSource)}, with the key {@code keyPrefix + consumer}. */
    static CursorStore kevy(FeedSource source, String keyPrefix) {
        return new KevyCursorStore(source, keyPrefix);
    }
}
