/**
 * The storage engine's core: the {@link io.kevy.engine.Engine} (N shards, sessions, runtime config, statistics,
 * the expiry cron and the timer), each {@link io.kevy.engine.Shard} (its lock, {@link io.kevy.engine.Keyspace},
 * stream cursor and the {@link io.kevy.engine.EffectListener}s its frames go to), the lock ordering of multi-shard
 * work ({@link io.kevy.engine.ShardLocks}) and the key signals of WATCH and blocked clients
 * ({@link io.kevy.engine.KeySignals}). It knows no command, no feed and no file: those are built around it
 * ({@code io.kevy.boot}).
 */
package io.kevy.engine;
