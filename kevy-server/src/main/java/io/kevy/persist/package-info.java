/**
 * Durability: the per-shard append-only file of effect frames ({@code aof-{i}.aof}), snapshots with the feed
 * cursor ({@code dump-{i}.rdb}, feed contract §10), the generation files ({@code feed-{i}.gen},
 * {@code feed-{i}.meta}, contract §5), {@code shards.meta}, and the boot sequence that puts them together.
 */
package io.kevy.persist;
