package io.kevy.feed.client;

/**
 * A position in one shard's change stream (feed contract §5): the shard, the generation that names the stream,
 * and the offset of the next frame to read. {@code (generation, offset)} names the same stream prefix forever.
 * Immutable.
 *
 * @param shard      the shard index, at least 0
 * @param generation the stream's identity, at least 1 (a random value in [1, 2^53 - 1] on both servers)
 * @param offset     the offset of the next frame to read, at least 0
 */
public record Cursor(int shard, long generation, long offset) {
    public Cursor {
        if (shard < 0) {
            throw new IllegalArgumentException("shard must be >= 0, got " + shard);
        }
        if (generation < 0) {
            throw new IllegalArgumentException("generation must be >= 0, got " + generation);
        }
        if (offset < 0) {
            throw new IllegalArgumentException("offset must be >= 0, got " + offset);
        }
    }

    /** This cursor moved to {@code offset} in the same generation. */
    public Cursor withOffset(long offset) {
        return new Cursor(shard, generation, offset);
    }

    @Override
    public String toString() {
        return shard + ":" + generation + ":" + offset;
    }
}
