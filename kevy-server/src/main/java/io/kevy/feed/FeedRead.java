package io.kevy.feed;

import io.kevy.engine.DurableBound;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One read of a shard's stream in progress: the read logic of FEED.READ (feed contract §4) and of the
 * embedded {@code changesSince} (§9), written once. It holds the cursor, the scan budget ({@code COUNT} /
 * {@code limit}) and the PREFIX filter, and moves the cursor over every frame it scans, delivered or
 * filtered out.
 *
 * <p>{@link #step()} checks the cursor (§4 step 4), copies the encoded bytes of up to the remaining budget of frames
 * under the shard's lock, then filters outside it. It returns a {@link Result}, or null when nothing was
 * deliverable and the scan reached the tail with budget left: a non-blocking caller answers {@link #idle()};
 * a blocking caller {@linkplain #park parks} and steps again when woken, so frames filtered out while it
 * waits still advance the cursor it finally returns, and the budget counts frames scanned over the whole wait.
 *
 * <p>Not thread-safe: one reader uses it at a time (the blocked client's attempts run one by one on the
 * session's thread), except {@link #close}, which is safe from any thread and must be called when a read
 * that parked ends.
 *
 * <p>With a {@link DurableBound} (FEED.READ DURABLE) a step serves only frames the bound says are fsynced, and
 * a blocking read parks on the bound (woken by the fsync) rather than on the backlog's tail.
 */
public final class FeedRead {
    private final FeedBacklog backlog;
    /** The generation followed; moves to the current one when the cursor's ended before it (history). */
    private long generation;
    private final PrefixFilter filter;
    /** FEED.READ DURABLE: serve only frames below this bound; null for every frame. */
    private final DurableBound durable;
    private long cursor;
    private int budget;
    private final AtomicBoolean counted = new AtomicBoolean();

    /** The result of a read: frames, a resync, or a cursor ahead of the stream. */
    public sealed interface Result permits Batch, Resync, Ahead {
    }

    /**
     * Frames delivered (possibly none) and the cursor to read from next: one past the last frame scanned,
     * including frames the filter dropped (§4).
     *
     * @param generation the stream's generation
     * @param next       the next cursor's offset
     * @param frames     the delivered frames, in offset order
     */
    public record Batch(long generation, long next, List<FeedFrame> frames) implements Result {
    }

    /**
     * {@code -FEEDRESYNC <generation> <tail>}: the cursor names another generation or an evicted offset; the
     * consumer rebuilds and continues from the current tail (§4, §11).
     */
    public record Resync(long generation, long tail) implements Result {
    }

    /** {@code -ERR feed cursor ahead of stream}: the offset is past the tail (§4). */
    public record Ahead() implements Result {
        static final Ahead INSTANCE = new Ahead();
    }

    FeedRead(FeedBacklog backlog, long generation, long offset, int count, PrefixFilter filter) {
        this(backlog, generation, offset, count, filter, null);
    }

    FeedRead(FeedBacklog backlog, long generation, long offset, int count, PrefixFilter filter,
             DurableBound durable) {
        this.backlog = backlog;
        this.durable = durable;
        this.generation = generation;
        this.cursor = offset;
        this.budget = count;
        this.filter = filter;
    }

    /** The offset the next step reads from. */
    public long cursor() {
        return cursor;
    }

    /** The generation this read follows. */
    public long generation() {
        return generation;
    }

    /**
     * Reads once: see the class comment.
     *
     * @return the result, or null when nothing was deliverable, the tail was reached and budget is left
     */
    public Result step() {
        while (true) {
            long end = durable == null ? Long.MAX_VALUE : durable.end(generation);
            // DURABLE: copy no further than the bound (at least one frame, so the cursor checks still run)
            int max = durable == null ? budget : (int) Math.max(1, Math.min(budget, end - cursor));
            FeedBacklog.Snapshot s = backlog.snapshot(generation, cursor, max);
            switch (s.status()) {
                case RESYNC:
                    return new Resync(s.generation(), s.next());
                case AHEAD:
                    return Ahead.INSTANCE;
                default:
                    break;
            }
            generation = s.generation(); // differs when the cursor's generation ended before the current one
            int n = s.count();
            boolean bounded = false;
            if (durable != null && cursor + n > end) { // frames not yet fsynced: not served
                n = (int) Math.max(0, end - cursor);
                bounded = true;
            }
            byte[] data = s.data();
            int[] ends = s.ends();
            List<FeedFrame> out = new ArrayList<>(filter.isAll() ? n : 4);
            int from = 0;
            for (int i = 0; i < n; i++) {
                if (filter.accepts(data, from)) {
                    out.add(new FeedFrame(cursor + i, data, from, ends[i]));
                }
                from = ends[i];
            }
            cursor += n;
            budget -= n;
            if (!out.isEmpty() || budget == 0) {
                return new Batch(generation, cursor, out);
            }
            if (bounded || cursor == s.next()) {
                return null;
            }
            // the copy stopped at FeedBacklog.MAX_COPY bytes before the tail: scan on
        }
    }

    /** The answer when nothing was deliverable: no frames, and the cursor as far as it got. */
    public Batch idle() {
        return new Batch(generation, cursor, List.of());
    }

    /**
     * Registers {@code wake} to run on the next append to (or reset of) the shard's stream, if the stream is
     * still at this read's cursor. Returns false when frames arrived meanwhile: step again.
     */
    public boolean park(Runnable wake) {
        if (counted.compareAndSet(false, true)) {
            backlog.countBlocked(1);
        }
        return durable != null ? durable.park(generation, cursor, wake)
                : backlog.parkAtTail(generation, cursor, wake);
    }

    /** Ends a read that may have parked: removes {@code wake} and stops counting it as blocked. Idempotent. */
    public void close(Runnable wake) {
        backlog.unpark(wake);
        if (durable != null) {
            durable.unpark(wake);
        }
        if (counted.compareAndSet(true, false)) {
            backlog.countBlocked(-1);
        }
    }
}
