/**
 * The server side of the change feed (feed contract §3-§8): one {@link io.kevy.feed.FeedBacklog} per shard
 * fed by the shard's effect frames, the read logic of FEED.READ and the embedded {@code changesSince}
 * ({@link io.kevy.feed.FeedRead}, written once), the PREFIX filter, and the waiter that completes
 * FEED.READ BLOCK. The wire commands are in {@code io.kevy.feed.FeedCommands}; the embedded API in
 * {@code io.kevy.embedded.Store}.
 */
package io.kevy.feed;
