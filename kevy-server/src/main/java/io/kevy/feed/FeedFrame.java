package io.kevy.feed;

/**
 * One frame of a shard's stream (feed contract §1): its offset and the applied effect as a Redis command,
 * upper-case verb first (§7). The argument arrays are the backlog's own, shared with the AOF: never mutate
 * them; copy before handing them to code outside kevy.
 *
 * @param offset the frame's offset in its generation
 * @param argv   the effect, verb first
 */
public record FeedFrame(long offset, byte[][] argv) {
}
