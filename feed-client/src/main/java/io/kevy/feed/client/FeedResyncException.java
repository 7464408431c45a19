package io.kevy.feed.client;

/**
 * {@code -FEEDRESYNC <generation> <tail>} (feed contract §4, §11): the cursor names another generation (a
 * flush, a restart after a crash) or an offset the backlog no longer holds. Rebuild the derived state, then
 * continue from {@code (generation, tail)}. Thrown routinely, so without a stack trace.
 */
public final class FeedResyncException extends KevyServerException {
    private static final long serialVersionUID = 1L;
    private final long generation;
    private final long tail;

    public FeedResyncException(long generation, long tail) {
        super("FEEDRESYNC " + generation + " " + tail, false);
        this.generation = generation;
        this.tail = tail;
    }

    /** The shard's current generation. */
    public long generation() {
        return generation;
    }

    /** The shard's current next offset: where to continue after the rebuild. */
    public long tail() {
        return tail;
    }
}
