package io.kevy.tracking;

import io.kevy.engine.text.Bytes;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The tracking table of one shard (Redis's {@code TrackingTable}, split by shard): for each key a tracking
 * client read, the ids of the clients that may cache it. A client that turned tracking off or disconnected
 * stays in the table until the key changes (Redis removes ids lazily too); so does a key that changed while no
 * client tracked (nothing listened to its frame), which costs a spurious invalidation at worst. Keys are kept in the order they
 * were first read, which is the order the {@code tracking-table-max-keys} limit evicts them in (Redis picks
 * random keys).
 *
 * <p>Not thread-safe: used under the shard's lock. The engine-wide counts it updates are atomic.
 */
final class TrackingTable {
    private final LinkedHashMap<Bytes, Set<Long>> keys = new LinkedHashMap<>();
    private final AtomicLong totalKeys;
    private final AtomicLong totalItems;

    TrackingTable(AtomicLong totalKeys, AtomicLong totalItems) {
        this.totalKeys = totalKeys;
        this.totalItems = totalItems;
    }

    /** Records that client {@code id} read {@code key}. */
    void add(byte[] key, long id) {
        Set<Long> ids = keys.get(Bytes.wrap(key));
        if (ids == null) {
            ids = new LinkedHashSet<>(2);
            keys.put(Bytes.wrap(key.clone()), ids);
            totalKeys.incrementAndGet();
        }
        if (ids.add(id)) {
            totalItems.incrementAndGet();
        }
    }

    /** Removes {@code key} and returns the ids that read it, or null when it is not tracked. */
    Set<Long> remove(byte[] key) {
        if (keys.isEmpty()) {
            return null;
        }
        Set<Long> ids = keys.remove(Bytes.wrap(key));
        if (ids != null) {
            forget(ids);
        }
        return ids;
    }

    /** Removes the oldest key; returns it and its ids in {@code into}, or false when the table is empty. */
    boolean removeOldest(Map.Entry<Bytes, Set<Long>>[] into) {
        Iterator<Map.Entry<Bytes, Set<Long>>> it = keys.entrySet().iterator();
        if (!it.hasNext()) {
            return false;
        }
        Map.Entry<Bytes, Set<Long>> e = it.next();
        it.remove();
        forget(e.getValue());
        into[0] = e;
        return true;
    }

    boolean isEmpty() {
        return keys.isEmpty();
    }

    /** FLUSHALL/FLUSHDB: forgets every key. */
    void clear() {
        for (Set<Long> ids : keys.values()) {
            forget(ids);
        }
        keys.clear();
    }

    private void forget(Set<Long> ids) {
        totalKeys.decrementAndGet();
        totalItems.addAndGet(-ids.size());
    }
}
