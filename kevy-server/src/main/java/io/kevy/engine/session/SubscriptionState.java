package io.kevy.engine.session;

/**
 * What the engine needs to know of a connection's Pub/Sub subscriptions: their counts (CLIENT LIST's
 * {@code sub}/{@code psub}/{@code ssub}, the RESP2 subscribed mode) and how to drop them all (RESET,
 * disconnect). Implemented by {@code io.kevy.pubsub.Subscriptions}; the engine names only this interface, so
 * Pub/Sub sits on top of the engine and not inside it (docs/design.md, "Where things live in kevy-server").
 *
 * <p>Counts may be read from any thread (they are published values); {@link #close()} is thread-safe.
 */
public interface SubscriptionState {

    /** Channels subscribed with SUBSCRIBE. */
    int channelCount();

    /** Patterns subscribed with PSUBSCRIBE. */
    int patternCount();

    /** Shard channels subscribed with SSUBSCRIBE. */
    int shardCount();

    /** True while subscribed to anything, shard channels included: the RESP2 subscribed mode. */
    default boolean active() {
        return channelCount() + patternCount() + shardCount() > 0;
    }

    /** Drops every subscription of every type (RESET, disconnect); idempotent. */
    void close();
}
