package io.kevy.tracking;

import io.kevy.engine.session.Session;
import io.kevy.engine.session.Sessions;
import io.kevy.engine.session.TrackingState;
import io.kevy.pubsub.Subscriptions;

/**
 * Chooses where a tracking client's invalidations go (Redis 7.0's {@code sendTrackingMessage}, its choice of
 * connection and protocol): the one place that knows the rule.
 * <ol>
 *   <li>With REDIRECT, the redirect client receives them. When it is gone, the tracking client's redirect is
 *       marked broken (CLIENT LIST flag {@code R}, TRACKINGINFO {@code broken_redirect}) and nothing is
 *       delivered; Redis then tells a RESP3 tracking client {@code >2 tracking-redir-broken <id>} and a RESP2 one
 *       nothing.</li>
 *   <li>A RESP3 receiver gets a push on its own connection; a RESP2 receiver only when it is a redirect client
 *       in Pub/Sub mode (subscribed to anything), as a message on {@code __redis__:invalidate}
 *       ({@link PubSubInvalidation}).</li>
 *   <li>Otherwise (RESP2 without REDIRECT, or a redirect client not subscribed) nothing is delivered: RESP2 has
 *       no push on the client's own connection. Tracking still records the keys, as in Redis.</li>
 * </ol>
 * RESP3 receivers get {@link PushInvalidation}, RESP2 ones {@link PubSubInvalidation}.
 *
 * <p>Thread-safe (stateless); called under shard locks.
 */
final class InvalidationTargets {
    private InvalidationTargets() {
    }

    /**
     * The target for {@code client}'s invalidations now, or null when none can be delivered.
     *
     * @param client a session with tracking on
     */
    static InvalidationTarget of(Sessions sessions, Session client, TrackingState state) {
        long redirect = state.redirect();
        if (redirect == 0) {
            // RESP3: a push on the client's own connection; RESP2 has none
            return client.protocol() > 2 ? new PushInvalidation(client.channel()) : null;
        }
        Session receiver = sessions.byId(redirect);
        if (receiver == null) {
            if (!state.brokenRedirect()) {
                state.brokenRedirect(true);
                if (client.protocol() > 2) {
                    PushInvalidation.redirectBroken(client.channel(), redirect);
                }
            }
            return null;
        }
        if (receiver.protocol() > 2) {
            return new PushInvalidation(receiver.channel());
        }
        if (receiver.subscriptions() instanceof Subscriptions subs && subs.active()) {
            return new PubSubInvalidation(subs.subscriber());
        }
        return null; // a RESP2 redirect client outside Pub/Sub mode cannot receive messages
    }
}
