package io.kevy.tracking;

import java.util.List;

/**
 * Where one tracking client's invalidation messages are written: Redis's {@code sendTrackingMessage} once the
 * receiving connection and its protocol are known ({@link InvalidationTargets#of}).
 *
 * <p>A RESP2 connection receives them as Pub/Sub messages on {@code __redis__:invalidate}
 * ({@link PubSubInvalidation}); a RESP3 connection as the push {@code >2 $10 invalidate *<n> <keys...>} (or, for
 * all keys, the null of the tracking client's protocol).
 *
 * <p>Implementations are thread-safe and never block: {@link #deliver} is called under a shard lock and only
 * queues the message for the receiving connection's own thread (or, for the connection whose command caused it,
 * holds it until that command's reply is written: {@link PushInvalidation}).
 */
@FunctionalInterface
public interface InvalidationTarget {
    /**
     * Queues one invalidation message.
     *
     * @param keys the invalidated keys, in order (one for a tracked key, the changed keys of a prefix for BCAST);
     *             null when every key is invalid (FLUSHALL/FLUSHDB: Redis sends a null)
     */
    void deliver(List<byte[]> keys);

    /**
     * Queues one BCAST message: as {@link #deliver}, but Redis sends these at the end of the event-loop cycle
     * ({@code beforeSleep}), after the replies of every command read by then.
     *
     * @param keys the changed keys of one prefix, distinct, in byte order
     */
    default void deliverBroadcast(List<byte[]> keys) {
        deliver(keys);
    }
}
