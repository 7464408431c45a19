package io.kevy.examples.support;

import io.kevy.feed.client.Batch;
import io.kevy.feed.client.Cursor;
import io.kevy.feed.client.FeedResyncException;
import io.kevy.feed.client.FeedSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Holds a consumer back so that a burst of writes overflows its backlog and it gets FEEDRESYNC when released (the
 * demo's step 5, the search index's resync test). Installed as the consumer's after-batch hook ({@link #hook}),
 * it blocks each shard's thread in the first batch that arrives after {@link #on()} until {@link #off()}.
 * {@link #evicted()} tells when the backlog no longer holds what the held consumer reads next: one prefetched
 * read of {@code readAhead} frames may be in flight past the tail taken once every shard was held, so the check
 * is a {@code FEED.READ} at that tail + {@code readAhead}, which must answer FEEDRESYNC on every shard.
 * Thread-safe.
 */
public final class HoldBack {
    private final FeedSource source;
    private final int shards;
    private final int readAhead;
    private final Set<Integer> held = ConcurrentHashMap.newKeySet();
    private volatile boolean on;
    private List<Cursor> heldAt;

    /**
     * @param source    the server the consumer reads
     * @param shards    its shard count
     * @param readAhead the consumer's batch size (FEED.READ COUNT)
     */
    public HoldBack(FeedSource source, int shards, int readAhead) {
        this.source = source;
        this.shards = shards;
        this.readAhead = readAhead;
    }

    /** From now on, each shard's thread blocks in its next batch. */
    public synchronized void on() {
        held.clear();
        heldAt = null;
        on = true;
    }

    /** Releases the held threads. */
    public synchronized void off() {
        on = false;
        notifyAll();
    }

    /** The after-batch hook: returns at once when off, else waits until {@link #off()}. */
    public void hook(Batch<?, ?> batch) {
        if (!on) {
            return;
        }
        held.add(batch.shard());
        synchronized (this) {
            while (on) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        held.remove(batch.shard());
    }

    /**
     * True once every shard's thread is held and the backlog of every shard has evicted what it reads next; call
     * it between bursts of writes (the first call after every shard is held records the tails).
     *
     * @throws Exception when the server cannot be asked (other than FEEDRESYNC)
     */
    public boolean evicted() throws Exception {
        synchronized (this) {
            if (heldAt == null) {
                if (held.size() < shards) {
                    return false;
                }
                List<Cursor> tails = new ArrayList<>();
                for (int i = 0; i < shards; i++) {
                    tails.add(source.tail(i).toCompletableFuture().get(10, TimeUnit.SECONDS));
                }
                heldAt = tails;
                return false;
            }
        }
        for (Cursor c : heldAt) {
            Cursor probe = c.withOffset(c.offset() + readAhead);
            Cursor tail = source.tail(c.shard()).toCompletableFuture().get(10, TimeUnit.SECONDS);
            if (tail.offset() < probe.offset()) {
                return false;
            }
            try {
                source.read(probe, 1, List.of(), null).toCompletableFuture().get(10, TimeUnit.SECONDS);
                return false;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof FeedResyncException)) {
                    throw e;
                }
            }
        }
        return true;
    }
}
