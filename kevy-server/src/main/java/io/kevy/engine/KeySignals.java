package io.kevy.engine;

import io.kevy.engine.session.Session;
import io.kevy.engine.session.WatchedKey;
import io.kevy.engine.text.Bytes;
import io.kevy.resp.FrameKeys;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Per-shard registries of who waits on a key: the sessions that WATCH it, and the blocked commands (BLPOP,
 * BZPOPMIN, ...) parked on it. Every emitted frame {@linkplain #touched touches} its keys (this covers every
 * write, expiry included, because every change emits a frame), which
 * <ul>
 *   <li>marks the key's watchers dirty, so their EXEC aborts (FLUSHALL/FLUSHDB, which emit nothing, call
 *       {@link #touchAll}); a key that was already logically expired when WATCH ran and is now gone counts as
 *       unchanged, as in Redis 7.0;</li>
 *   <li>marks the key <em>ready</em> when commands are blocked on it: the thread that made the change serves
 *       them before it releases the shard's lock ({@link ShardLocks#serveReady}), in the order the keys became
 *       ready and, per key, in the order the clients blocked.</li>
 * </ul>
 *
 * <p>Not thread-safe: used under the shard's lock.
 */
public final class KeySignals {
    private final Shard shard;
    private final Map<Bytes, List<WatchedKey>> watchers = new HashMap<>();
    private final Map<Bytes, ArrayDeque<KeyWaiter>> blocked = new HashMap<>();
    /** Keys with blocked waiters touched since the last serve, with the engine-wide order they became ready. */
    private final LinkedHashMap<Bytes, Long> ready = new LinkedHashMap<>();

    KeySignals(Shard shard) {
        this.shard = shard;
    }

    // ---- WATCH ----

    /**
     * Registers {@code session} as a watcher of {@code key} (which lives on this shard) and returns the entry,
     * which the session keeps to unwatch later. Remembers whether the key is stored but already expired at
     * {@code now}, without reaping it (Redis 7.0's {@code watchForKey}).
     */
    public WatchedKey watch(byte[] key, Session session, long now) {
        WatchedKey w = new WatchedKey(session, shard.index(), key, shard.keyspace().storedButExpired(key, now));
        watchers.computeIfAbsent(Bytes.wrap(key), k -> new ArrayList<>(2)).add(w);
        return w;
    }

    /** Removes the entry {@code w} made by {@link #watch}. */
    public void unwatch(WatchedKey w) {
        Bytes k = Bytes.wrap(w.key());
        List<WatchedKey> list = watchers.get(k);
        if (list != null) {
            list.remove(w);
            if (list.isEmpty()) {
                watchers.remove(k);
            }
        }
    }

    /**
     * True when the key of {@code w} expired since WATCH ran (stored, time passed, not reaped yet): EXEC then
     * fails as if it had been changed (Redis 7.0's {@code isWatchedKeyExpired}).
     */
    public boolean expiredSinceWatch(WatchedKey w, long now) {
        return !w.expiredAtWatch() && shard.keyspace().storedButExpired(w.key(), now);
    }

    /** Number of distinct keys watched on this shard. */
    public int watchedKeys() {
        return watchers.size();
    }

    /** Signals the keys of an emitted frame: watchers dirty, blocked waiters ready. */
    void touched(byte[][] frame) {
        if (watchers.isEmpty() && blocked.isEmpty()) {
            return;
        }
        FrameKeys.forEach(frame, this::signal);
    }

    private void signal(byte[] key) {
        touch(key);
        if (!blocked.isEmpty()) {
            Bytes k = Bytes.wrap(key);
            if (blocked.containsKey(k) && !ready.containsKey(k)) {
                ready.put(k, shard.engine().nextReadySequence());
            }
        }
    }

    /**
     * Marks the watchers of {@code key} dirty (Redis's {@code touchWatchedKey}), except those that watched it
     * while it was already expired if it is now gone: for them nothing changed, and they forget that it was
     * expired.
     */
    public void touch(byte[] key) {
        List<WatchedKey> list = watchers.get(Bytes.wrap(key));
        if (list == null) {
            return;
        }
        boolean stored = shard.keyspace().stored(key);
        for (WatchedKey w : list) {
            if (w.expiredAtWatch() && !stored) {
                w.expiredAtWatch(false);
                continue;
            }
            w.session().dirtyCas(true);
        }
    }

    /**
     * FLUSHALL/FLUSHDB, before the keys are removed: marks dirty the watchers of every watched key that is
     * stored, except those that watched it while it was already expired (Redis 7.0's
     * {@code touchAllWatchedKeysInDb}).
     */
    public void touchAll() {
        for (Map.Entry<Bytes, List<WatchedKey>> e : watchers.entrySet()) {
            if (!shard.keyspace().stored(e.getKey().array())) {
                continue;
            }
            for (WatchedKey w : e.getValue()) {
                if (w.expiredAtWatch()) {
                    w.expiredAtWatch(false);
                } else {
                    w.session().dirtyCas(true);
                }
            }
        }
    }

    // ---- blocked commands ----

    /** Parks {@code waiter} on {@code key} (which lives on this shard), behind the waiters already there. */
    public void block(byte[] key, KeyWaiter waiter) {
        blocked.computeIfAbsent(Bytes.wrap(key), k -> new ArrayDeque<>(2)).addLast(waiter);
    }

    /** Removes {@code waiter} from {@code key}'s queue, if it is there. */
    public void unblock(byte[] key, KeyWaiter waiter) {
        Bytes k = Bytes.wrap(key);
        ArrayDeque<KeyWaiter> q = blocked.get(k);
        if (q != null) {
            q.remove(waiter);
            if (q.isEmpty()) {
                blocked.remove(k);
                ready.remove(k);
            }
        }
    }

    /** Number of keys with blocked waiters on this shard. */
    public int blockedKeys() {
        return blocked.size();
    }

    /** Marks {@code key} ready when commands are blocked on it (a deferred waiter re-drives its key). */
    public void markReady(byte[] key) {
        Bytes k = Bytes.wrap(key);
        if (blocked.containsKey(k) && !ready.containsKey(k)) {
            ready.put(k, shard.engine().nextReadySequence());
        }
    }

    /** Marks every key with blocked waiters ready (FLUSHALL/FLUSHDB removed them all: Redis's signalFlushedDb). */
    public void markAllReady() {
        for (Bytes k : blocked.keySet()) {
            if (!ready.containsKey(k)) {
                ready.put(k, shard.engine().nextReadySequence());
            }
        }
    }

    /** True when some key with blocked waiters was touched and not served yet. */
    public boolean hasReady() {
        return !ready.isEmpty();
    }

    /** The engine-wide sequence of the oldest ready key, or {@link Long#MAX_VALUE} when none. */
    long firstReadySequence() {
        if (ready.isEmpty()) {
            return Long.MAX_VALUE;
        }
        return ready.values().iterator().next();
    }

    /**
     * Serves the waiters of the oldest ready key, first blocked first, until the key has no more data for them
     * (Redis's {@code serveClientsBlockedOnKey}). Waiters that ended meanwhile are dropped on the way.
     */
    void serveFirstReady(ShardLocks locks) {
        Iterator<Map.Entry<Bytes, Long>> it = ready.entrySet().iterator();
        Bytes k = it.next().getKey();
        it.remove();
        ArrayDeque<KeyWaiter> q = blocked.get(k);
        if (q == null) {
            return;
        }
        byte[] key = k.array();
        boolean storedBefore = shard.keyspace().stored(key);
        for (Iterator<KeyWaiter> wi = q.iterator(); wi.hasNext(); ) {
            KeyWaiter w = wi.next();
            if (!w.waiting()) {
                wi.remove();
                continue;
            }
            KeyWaiter.Served r = w.serve(key, locks);
            if (r == KeyWaiter.Served.SERVED) {
                wi.remove();
                if (storedBefore && !shard.keyspace().stored(key)) {
                    break; // emptied and deleted: nothing left for the others
                } // (a key already gone goes on: each XREADGROUP waiter answers UNBLOCKED)
            } else if (r == KeyWaiter.Served.DEFERRED) {
                break;
            }
        }
        if (q.isEmpty()) {
            blocked.remove(k);
            ready.remove(k);
        }
    }
}
