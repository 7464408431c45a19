package io.kevy.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Per-shard registry of the sessions that WATCH a key. Every emitted frame {@linkplain #touched touches} its
 * keys, which marks the watchers dirty so their EXEC aborts (this covers every write, expiry included,
 * because every change emits a frame). FLUSHALL/FLUSHDB, which emit nothing, call {@link #touchAll}.
 *
 * <p>Not thread-safe: used under the shard's lock.
 */
public final class KeySignals {
    private final Map<Bytes, List<Session>> watchers = new HashMap<>();

    KeySignals(Shard shard) {
    }

    /** Registers {@code session} as a watcher of {@code key}. */
    public void watch(byte[] key, Session session) {
        List<Session> list = watchers.computeIfAbsent(Bytes.wrap(key), k -> new ArrayList<>(2));
        if (!list.contains(session)) {
            list.add(session);
        }
    }

    /** Removes {@code session} from the watchers of {@code key}. */
    public void unwatch(byte[] key, Session session) {
        Bytes k = Bytes.wrap(key);
        List<Session> list = watchers.get(k);
        if (list != null) {
            list.remove(session);
            if (list.isEmpty()) {
                watchers.remove(k);
            }
        }
    }

    /** Marks the watchers of every key of {@code frame} dirty. */
    void touched(byte[][] frame) {
        if (watchers.isEmpty()) {
            return;
        }
        FrameKeys.forEach(frame, this::touch);
    }

    /** Marks the watchers of {@code key} dirty. */
    public void touch(byte[] key) {
        List<Session> list = watchers.get(Bytes.wrap(key));
        if (list != null) {
            for (Session s : list) {
                s.dirtyCas(true);
            }
        }
    }

    /** Marks every watcher of this shard dirty (FLUSHALL/FLUSHDB). */
    public void touchAll() {
        for (List<Session> list : watchers.values()) {
            for (Session s : list) {
                s.dirtyCas(true);
            }
        }
    }
}
