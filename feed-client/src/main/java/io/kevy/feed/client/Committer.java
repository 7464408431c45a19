package io.kevy.feed.client;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the consumer's committed cursors and saves them to the {@link CursorStore}: a shard's cursor is
 * committed only after its batch was accepted (the workers call {@link #commit} after the sink completed).
 * Saves are serialized; a failed save is logged and counted, and the next commit writes again.
 */
final class Committer {
    private static final Logger LOG = LoggerFactory.getLogger(Committer.class);
    private final String consumer;
    private final CursorStore store;
    private final Runtime<?, ?> rt;
    private Cursor[] cursors = new Cursor[0];

    Committer(String consumer, CursorStore store, Runtime<?, ?> rt) {
        this.consumer = consumer;
        this.store = store;
        this.rt = rt;
    }

    synchronized void init(int shards) {
        cursors = new Cursor[shards];
    }

    /** The server's shard count (0 before {@link #init}). */
    synchronized int shards() {
        return cursors.length;
    }

    /** The committed cursor of {@code shard}, or null. */
    synchronized Cursor get(int shard) {
        return cursors.length > shard ? cursors[shard] : null;
    }

    /** Sets the shard's cursor in memory only (the start cursors before the first save). */
    synchronized void set(Cursor c) {
        cursors[c.shard()] = c;
    }

    /** Commits {@code c} and saves every cursor once each shard has one. Not after an abort. */
    synchronized void commit(Cursor c) {
        if (rt.aborted()) {
            return;
        }
        cursors[c.shard()] = c;
        save();
    }

    synchronized void save() {
        List<Cursor> all = new ArrayList<>(cursors.length);
        for (Cursor c : cursors) {
            if (c == null) {
                return;
            }
            all.add(c);
        }
        try {
            store.save(new StoredCursors(consumer, cursors.length, all));
            rt.listener.onCommit(consumer);
        } catch (RuntimeException e) {
            LOG.warn("consumer {}: storing the cursors in {} failed (the next commit tries again): {}", consumer,
                    store, e.toString());
            rt.listener.onError(consumer, -1, ConsumerListener.CURSOR_STORE, e);
        }
    }
}
