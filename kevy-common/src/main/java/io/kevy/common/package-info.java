/**
 * Rules the server and the feed client share and must compute identically: the key-to-shard mapping of feed
 * contract §2 ({@link io.kevy.common.Slots}) and Redis's double text ({@link io.kevy.common.RedisDoubles}).
 */
package io.kevy.common;
