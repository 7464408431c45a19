package io.kevy.feed;

/**
 * A position in one shard's stream (feed contract §5): the generation that names the stream and the offset of
 * the next frame to read. {@code (generation, offset)} names the same stream prefix forever. Immutable.
 *
 * @param generation the stream's identity, in [1, 2^53 - 1]
 * @param offset     the offset of the next frame to read (0 is the first frame of a generation)
 */
public record FeedCursor(long generation, long offset) {
}
