package io.kevy.feed.client;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** {@link CursorStore#inMemory()}. */
final class MemoryCursorStore implements CursorStore {
    private final Map<String, StoredCursors> records = new ConcurrentHashMap<>();

    @Override
    public Optional<StoredCursors> load(String consumer) {
        return Optional.ofNullable(records.get(consumer));
    }

    @Override
    public void save(StoredCursors cursors) {
        records.put(cursors.consumer(), cursors);
    }

    @Override
    public void delete(String consumer) {
        records.remove(consumer);
    }

    @Override
    public String toString() {
        return "CursorStore.inMemory()";
    }
}
