/**
 * The kevy feed client: {@link io.kevy.feed.client.FeedConsumer} follows a kevy change feed (feed contract
 * §11) from a {@link io.kevy.feed.client.FeedSource} (a remote server over lettuce, ours or upstream kevy, or an
 * embedded {@code io.kevy.embedded.Store} through feed-client-embedded's {@code EmbeddedFeedSource}) and
 * delivers typed {@link io.kevy.feed.client.Change}s to a
 * {@link io.kevy.feed.client.Sink} or {@link io.kevy.feed.client.Handler}, storing cursors in a
 * {@link io.kevy.feed.client.CursorStore} only after delivery and rebuilding through a
 * {@link io.kevy.feed.client.Rebuild} when the feed cannot continue (exact with {@link io.kevy.feed.client.ScanRebuild}:
 * each key is read with its shard's feed offset, {@link io.kevy.feed.client.KeyRead}, and the frames a read holds
 * are skipped for that key). {@link io.kevy.feed.client.FeedMirror} is a ready-made local copy of the keys under
 * some prefixes built on it. Errors are rooted in
 * {@link io.kevy.feed.client.KevyException}. Arguments and results are non-null unless a method says otherwise.
 */
package io.kevy.feed.client;
