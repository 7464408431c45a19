package io.kevy.feed;

import io.kevy.engine.session.BlockedClient;
import io.kevy.engine.session.Waiter;
import io.kevy.resp.ReplySink;

/**
 * A FEED.READ with BLOCK parked at the tail of its shard (feed contract §4, ours): each wake-up reads again;
 * the first step that delivers frames, hits the COUNT budget, or finds the cursor invalid (FLUSHALL, eviction)
 * replies; a timeout replies the empty batch with the cursor advanced past any frames the filter dropped
 * meanwhile.
 *
 * <p>Confined to the session's thread except {@link #release}, which is thread-safe.
 */
public final class FeedWaiter implements Waiter {
    private final FeedRead read;
    private volatile Runnable wake;

    public FeedWaiter(FeedRead read) {
        this.read = read;
    }

    /** Parks the read for {@code blocked}; when frames arrived since the last step, wakes it at once. */
    public void park(BlockedClient blocked) {
        Runnable w = wakeOf(blocked);
        if (!read.park(w)) {
            blocked.wake();
        }
    }

    private Runnable wakeOf(BlockedClient blocked) {
        Runnable w = wake;
        if (w == null) {
            w = blocked::wake;
            wake = w;
        }
        return w;
    }

    @Override
    public boolean attempt(BlockedClient self, ReplySink out) {
        Runnable w = wakeOf(self);
        while (true) {
            FeedRead.Result r = read.step();
            if (r != null) {
                FeedReplies.write(out, r);
                return true;
            }
            if (read.park(w)) {
                return false;
            }
        }
    }

    @Override
    public void timedOut(ReplySink out) {
        FeedReplies.write(out, read.idle());
    }

    @Override
    public void release() {
        Runnable w = wake;
        if (w != null) {
            read.close(w);
        }
    }
}
