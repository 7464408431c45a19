package io.kevy.feed.client;

import io.kevy.embedded.ChangeBatch;
import io.kevy.embedded.FeedException;
import io.kevy.embedded.Reply;
import io.kevy.embedded.Store;
import io.kevy.feed.FeedCursor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The embedded {@link FeedSource}: {@code Store.changesTail()} / {@code changesSince(...)} for the feed (one
 * shard, feed contract §9) and {@code Store.execute} for SCAN, TYPE and value reads. Non-blocking calls run on
 * the caller's thread and return completed stages; a read with {@code block} waits on a daemon thread of this
 * source.
 *
 * <p>The one class of the feed client that needs kevy-server, hence its own module (feed-client-embedded), so the
 * SDK names no engine type. It shares the SDK's package to extend its package-private {@code AbstractFeedSource}
 * (a split package: fine on the class path, where every kevy jar lives; on the module path the two jars would
 * have to be merged). Before issue 24 this was {@code EmbeddedFeedSource.of(store)}.
 *
 * <p>Thread-safe.
 */
public final class EmbeddedFeedSource extends AbstractFeedSource {
    private static final AtomicInteger THREADS = new AtomicInteger();
    private final Store store;
    private final ExecutorService blocking = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "kevy-embedded-feed-" + THREADS.incrementAndGet());
        t.setDaemon(true);
        return t;
    });

    private EmbeddedFeedSource(Store store) {
        this.store = java.util.Objects.requireNonNull(store, "store");
    }

    /**
     * A source over an embedded store (one shard, feed contract §9). The store must have been opened with the
     * feed on ({@code Config.withFeed}); closing the source does not close the store.
     *
     * @param store the store; must not be null
     * @return a new source; never null
     * @throws NullPointerException when {@code store} is null
     */
    public static FeedSource of(Store store) {
        return new EmbeddedFeedSource(store);
    }

    @Override
    public String authority() {
        return "embedded";
    }

    @Override
    public CompletionStage<Integer> shards() {
        return supply(() -> store.feedShards());
    }

    @Override
    public CompletionStage<Cursor> tail(int shard) {
        return supply(() -> {
            checkShard(shard);
            FeedCursor c = store.changesTail();
            return new Cursor(0, c.generation(), c.offset());
        });
    }

    @Override
    public CompletionStage<FrameBatch> read(Cursor from, int count, List<byte[]> prefixes, Duration block) {
        if (block == null || block.isZero()) {
            return supply(() -> toBatch(store.changesSince(from.generation(), from.offset(), count, prefixes)));
        }
        try {
            checkShard(from.shard());
        } catch (KevyException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<FrameBatch> f = new CompletableFuture<>();
        blocking.execute(() -> {
            try {
                f.complete(toBatch(store.changesSince(from.generation(), from.offset(), count, prefixes, block)));
            } catch (InterruptedException e) {
                f.completeExceptionally(new KevyConnectionException("interrupted", e));
            } catch (RuntimeException e) {
                f.completeExceptionally(map(e));
            }
        });
        return f;
    }

    private static void checkShard(int shard) {
        if (shard != 0) {
            throw new KevyServerException("ERR shard out of range");
        }
    }

    private static FrameBatch toBatch(ChangeBatch b) {
        List<Frame> frames = new ArrayList<>(b.changes().size());
        for (io.kevy.embedded.Change c : b.changes()) {
            frames.add(new Frame(c.offset(), c.argv()));
        }
        return new FrameBatch(new Cursor(0, b.next().generation(), b.next().offset()), frames);
    }

    @Override
    CompletionStage<Object> call(boolean array, byte[]... argv) {
        return supply(() -> plain(store.execute(argv)));
    }

    private static Object plain(Reply r) {
        if (r instanceof Reply.Error e) {
            throw ServerErrors.fromReply(e.message());
        }
        if (r instanceof Reply.Int i) {
            return i.value();
        }
        if (r instanceof Reply.Bulk b) {
            return b.value();
        }
        if (r instanceof Reply.Simple s) {
            return ascii(s.value());
        }
        if (r instanceof Reply.Array a) {
            List<Object> out = new ArrayList<>(a.elements().size());
            for (Reply e : a.elements()) {
                out.add(plain(e));
            }
            return out;
        }
        return null;
    }

    private interface Call<T> {
        T get();
    }

    private <T> CompletionStage<T> supply(Call<T> call) {
        try {
            return CompletableFuture.completedFuture(call.get());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(map(e));
        }
    }

    private static KevyException map(RuntimeException e) {
        if (e instanceof KevyException k) {
            return k;
        }
        if (e instanceof FeedException.Resync r) {
            return new FeedResyncException(r.generation(), r.tail());
        }
        if (e instanceof FeedException.Future) {
            return new CursorAheadException("ERR feed cursor ahead of stream");
        }
        if (e instanceof FeedException.Disabled) {
            return new KevyServerException("ERR feed disabled (open the store with Config.withFeed)");
        }
        if (e instanceof IllegalStateException) {
            return new KevyConnectionException("embedded store: " + e.getMessage(), e);
        }
        return new KevyException(e.toString(), e);
    }

    @Override
    public void close() {
        blocking.shutdownNow();
    }

    @Override
    public String toString() {
        return "FeedSource[embedded]";
    }
}
