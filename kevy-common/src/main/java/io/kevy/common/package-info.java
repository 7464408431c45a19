/**
 * Rules the server and the feed client share and must compute identically; currently the key-to-shard
 * mapping of feed contract §2 ({@link io.kevy.common.Slots}).
 */
package io.kevy.common;
