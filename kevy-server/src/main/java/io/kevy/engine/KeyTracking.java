package io.kevy.engine;

import io.kevy.engine.session.Session;
import io.kevy.engine.session.TrackingState;

/**
 * Server-assisted client-side caching as the engine sees it ({@code CLIENT TRACKING}, Redis 7.0's
 * {@code tracking.c}): the commands turn a session's tracking on and off, the dispatcher reports the keys
 * a tracking session read, INFO reads the counts. The table and the invalidations live in
 * {@code io.kevy.tracking}, attached by {@code io.kevy.boot.KevyInstance}; until then {@link #NONE} stands in.
 *
 * <p>Implementations are thread-safe.
 */
public interface KeyTracking {
    /** No tracking attached: remembers nothing, counts zero, refuses to turn tracking on. */
    KeyTracking NONE = new KeyTracking() {
        @Override
        public void enable(Session session, TrackingState state) {
            throw new UnsupportedOperationException("no client tracking attached to this engine");
        }

        @Override
        public void disable(Session session) {
        }

        @Override
        public void remember(Session session, Shard shard, byte[] key) {
        }
    };

    /**
     * Turns tracking on for {@code session} with {@code state} (or replaces its mode), registering its BCAST
     * prefixes. Called on the session's own thread after the caller validated the options.
     */
    void enable(Session session, TrackingState state);

    /** Turns tracking off for {@code session} (CLIENT TRACKING OFF, RESET, disconnect); idempotent. */
    void disable(Session session);

    /**
     * Remembers that {@code session} (tracking, not BCAST) read {@code key}, which lives on {@code shard}: its
     * next change sends {@code session} an invalidation. The caller holds {@code shard}'s lock.
     */
    void remember(Session session, Shard shard, byte[] key);

    /** INFO's {@code tracking_clients}: sessions with tracking on. */
    default int clients() {
        return 0;
    }

    /** INFO's {@code tracking_total_keys}: distinct keys in the tracking table. */
    default long keys() {
        return 0;
    }

    /** INFO's {@code tracking_total_items}: (key, client) pairs in the tracking table. */
    default long items() {
        return 0;
    }

    /** INFO's {@code tracking_total_prefixes}: distinct BCAST prefixes with at least one client. */
    default long prefixes() {
        return 0;
    }
}
