/**
 * Server-assisted client-side caching ({@code CLIENT TRACKING}, Redis 7.0's {@code tracking.c}): the tracking
 * table of the keys each tracking client read ({@link io.kevy.tracking.TrackingTable}, one per shard), the BCAST
 * prefixes ({@link io.kevy.tracking.PrefixRegistry}), and {@link io.kevy.tracking.Tracking}, the
 * {@link io.kevy.engine.EffectListener} that turns effect frames into invalidations. Where an invalidation goes
 * is decided once, by {@link io.kevy.tracking.InvalidationTargets}, and written by an
 * {@link io.kevy.tracking.InvalidationTarget}. Uses the engine, its sessions, Pub/Sub and resp.
 */
package io.kevy.tracking;
