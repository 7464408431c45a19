package io.kevy.examples.search;

import io.kevy.feed.client.CursorStore;
import io.kevy.feed.client.StoredCursors;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a consumer's cursors inside the Lucene index they describe: each cursor record is user data of the
 * index's commits (key {@code kevy.cursors.<consumer>}), so the documents and the cursors become durable in one
 * Lucene commit. After a crash the index reopens at its last commit together with the cursors of exactly that
 * state, and the consumer re-reads what came after (idempotent: documents are replaced whole).
 *
 * <p>{@link #save} only records the cursors; a background thread commits every {@code interval} when
 * something was saved since the last commit (a commit fsyncs, so committing per batch would cost more than the
 * batch), and {@link #close} commits a last time. Thread-safe.
 */
public final class IndexCursorStore implements CursorStore {
    /** Default commit interval: 1 s. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);
    private static final String KEY_PREFIX = "kevy.cursors.";
    private static final Logger LOG = LoggerFactory.getLogger(IndexCursorStore.class);

    private final HashIndex index;
    private final Map<String, String> data = new ConcurrentHashMap<>();
    private final AtomicBoolean dirty = new AtomicBoolean();
    private final ScheduledExecutorService committer;

    /** A store in {@code index}, committing every {@code interval} while cursors move. */
    public IndexCursorStore(HashIndex index, Duration interval) {
        this.index = index;
        this.data.putAll(index.committedUserData());
        this.committer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "index-commit");
            t.setDaemon(true);
            return t;
        });
        long ms = interval.toMillis();
        committer.scheduleWithFixedDelay(this::commitIfDirty, ms, ms, TimeUnit.MILLISECONDS);
    }

    @Override
    public Optional<StoredCursors> load(String consumer) {
        String json = data.get(KEY_PREFIX + consumer);
        return json == null ? Optional.empty()
                : Optional.of(StoredCursors.fromJson(json.getBytes(StandardCharsets.UTF_8), index + " user data"));
    }

    @Override
    public void save(StoredCursors cursors) {
        data.put(KEY_PREFIX + cursors.consumer(), new String(cursors.toJson(), StandardCharsets.UTF_8));
        dirty.set(true);
    }

    /** Commits the index with the cursors saved so far, when any were saved since the last commit. */
    public void commitIfDirty() {
        if (dirty.getAndSet(false)) {
            try {
                index.commit(data);
            } catch (RuntimeException e) {
                dirty.set(true);
                LOG.warn("committing {} failed (the next interval tries again): {}", index, e.toString());
            }
        }
    }

    /**
     * Stops the background commits (a commit in progress completes: interrupting a thread inside Lucene closes
     * its NIO channels, the index's write lock among them) and commits a last time.
     */
    @Override
    public void close() {
        committer.shutdown();
        try {
            committer.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        commitIfDirty();
    }

    @Override
    public String toString() {
        return "IndexCursorStore[" + index + "]";
    }
}
