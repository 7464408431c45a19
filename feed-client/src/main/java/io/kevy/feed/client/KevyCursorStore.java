package io.kevy.feed.client;

import io.kevy.common.Slots;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@link CursorStore#kevy(FeedSource)}: the record as JSON in a key of the server. Each write is itself a frame
 * on the key's shard; a save whose only difference from the last written record is that shard's offset moving
 * by one (the frame of the previous save) is skipped, so reading one's own commit never causes another.
 */
final class KevyCursorStore implements CursorStore {
    static final String DEFAULT_KEY_PREFIX = "__kevy:feed-cursor:";
    private static final long TIMEOUT_SECONDS = 30;
    private final FeedSource source;
    private final String keyPrefix;
    private StoredCursors lastWritten;

    KevyCursorStore(FeedSource source, String keyPrefix) {
        this.source = java.util.Objects.requireNonNull(source, "source");
        this.keyPrefix = keyPrefix;
    }

    private byte[] key(String consumer) {
        return (keyPrefix + consumer).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public Optional<byte[]> ownKey(String consumer) {
        return Optional.of(key(consumer));
    }

    @Override
    public Optional<StoredCursors> load(String consumer) {
        byte[] json = await(source.get(key(consumer)).toCompletableFuture());
        if (json == null) {
            return Optional.empty();
        }
        StoredCursors c = StoredCursors.fromJson(json, "key " + keyPrefix + consumer);
        if (!c.consumer().equals(consumer)) {
            throw new KevyConfigException("key " + keyPrefix + consumer + " holds the cursors of '" + c.consumer()
                    + "'");
        }
        synchronized (this) {
            lastWritten = c;
        }
        return Optional.of(c);
    }

    @Override
    public synchronized void save(StoredCursors cursors) {
        if (onlyOwnFrame(cursors)) {
            return;
        }
        await(source.set(key(cursors.consumer()), cursors.toJson()).toCompletableFuture());
        lastWritten = cursors;
    }

    /** True when {@code next} differs from the last written record only by one frame on the key's shard. */
    private boolean onlyOwnFrame(StoredCursors next) {
        StoredCursors last = lastWritten;
        if (last == null || last.shards() != next.shards() || !last.consumer().equals(next.consumer())) {
            return false;
        }
        int own = Slots.shard(key(next.consumer()), next.shards());
        for (int i = 0; i < next.shards(); i++) {
            Cursor a = last.cursor(i);
            Cursor b = next.cursor(i);
            if (i == own) {
                if (a.generation() != b.generation() || b.offset() - a.offset() > 1 || b.offset() < a.offset()) {
                    return false;
                }
            } else if (!a.equals(b)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public synchronized void delete(String consumer) {
        await(source.del(key(consumer)).toCompletableFuture());
        lastWritten = null;
    }

    private static <T> T await(java.util.concurrent.CompletableFuture<T> f) {
        try {
            return f.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KevyConnectionException("interrupted", e);
        } catch (ExecutionException e) {
            throw RemoteFeedSource.map(e.getCause());
        } catch (TimeoutException e) {
            throw new KevyTimeoutException("cursor store: no reply in " + TIMEOUT_SECONDS + " s", e);
        }
    }

    @Override
    public String toString() {
        return "CursorStore.kevy(" + source + ")";
    }
}
