package io.kevy.feed.client.support;

import io.kevy.feed.client.Cursor;
import io.kevy.feed.client.FeedResyncException;
import io.kevy.feed.client.FeedSource;
import io.kevy.feed.client.FrameBatch;
import io.kevy.feed.client.KeyRead;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;

/**
 * Forces real FEEDRESYNCs: between {@link #hold()} and {@link #release()} the consumer's FEED.READs are held
 * here (not sent), so its cursors stay where they are while the test overruns the server's backlog; released,
 * each held read goes to the server, whose cursor check answers {@code -FEEDRESYNC} (feed contract §4, §6) and
 * the consumer rebuilds as it would after any eviction. {@link #evicted()} asks the server itself whether every
 * held cursor is gone (a one-frame FEED.READ at it). Everything else, {@link #reads} included (FEED.VALUE or
 * the inner source's fallback), is forwarded. Thread-safe.
 */
public final class ResyncingFeedSource extends ForwardingFeedSource {
    /** A read the consumer asked for while held. */
    private record Held(Cursor from, int count, List<byte[]> prefixes, Duration block,
                        CompletableFuture<FrameBatch> answer) {
    }

    private final List<Held> held = new ArrayList<>();
    private boolean holding;

    public ResyncingFeedSource(FeedSource inner) {
        super(inner);
    }

    @Override
    public CompletionStage<FrameBatch> read(Cursor from, int count, List<byte[]> prefixes, Duration block) {
        synchronized (held) {
            if (holding) {
                Held h = new Held(from, count, prefixes, block, new CompletableFuture<>());
                held.add(h);
                return h.answer;
            }
        }
        return inner.read(from, count, prefixes, block);
    }

    @Override
    public CompletionStage<List<KeyRead>> reads(List<byte[]> keys, int shardCount) {
        return inner.reads(keys, shardCount);
    }

    private volatile Runnable onScan = () -> { };

    /** Calls {@code hook} whenever a SCAN is sent through this source (a rebuild's first step). */
    public void onScan(Runnable hook) {
        this.onScan = hook;
    }

    @Override
    public CompletionStage<io.kevy.feed.client.ScanPage> scan(String cursor, byte[] match, int count) {
        onScan.run();
        return inner.scan(cursor, match, count);
    }

    /** From now on the consumer's reads wait here. */
    public void hold() {
        synchronized (held) {
            holding = true;
        }
    }

    /**
     * True when every shard of {@code shards} has a held read and the server answers FEEDRESYNC at each held
     * cursor (checked with a one-frame, non-blocking FEED.READ).
     */
    public boolean evicted(int shards) throws InterruptedException {
        List<Held> now;
        synchronized (held) {
            now = new ArrayList<>(held);
        }
        for (int s = 0; s < shards; s++) {
            boolean gone = false;
            for (Held h : now) {
                if (h.from.shard() == s && resyncs(h.from)) {
                    gone = true;
                }
            }
            if (!gone) {
                return false;
            }
        }
        return true;
    }

    private boolean resyncs(Cursor at) throws InterruptedException {
        try {
            inner.read(at, 1, List.of(), null).toCompletableFuture().get();
            return false;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof FeedResyncException) {
                return true;
            }
            throw new CompletionException(e.getCause());
        }
    }

    /** Sends the held reads to the server (in the order asked) and stops holding. */
    public void release() {
        List<Held> out;
        synchronized (held) {
            holding = false;
            out = new ArrayList<>(held);
            held.clear();
        }
        for (Held h : out) {
            inner.read(h.from, h.count, h.prefixes, h.block).whenComplete((b, e) -> {
                if (e != null) {
                    h.answer.completeExceptionally(e);
                } else {
                    h.answer.complete(b);
                }
            });
        }
    }
}
