/**
 * kevy embedded: {@link io.kevy.embedded.Store}, the server's engine in-process with one shard and one change
 * stream, its {@link io.kevy.embedded.Config}, typed {@link io.kevy.embedded.Reply replies} and the feed types
 * of feed contract §9 ({@link io.kevy.embedded.ChangeBatch}, {@link io.kevy.embedded.Change},
 * {@link io.kevy.embedded.FeedException}, {@link io.kevy.embedded.PrefixInfo}).
 */
package io.kevy.embedded;
