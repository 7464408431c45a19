package io.kevy.tracking;

import io.kevy.engine.session.Session;
import io.kevy.engine.session.Sessions;
import io.kevy.engine.session.TrackingState;
import io.kevy.pubsub.Subscriptions;
import java.nio.charset.StandardCharsets;

/**
 * Chooses where a tracking client's invalidations go (Redis 7.0's {@code sendTrackingMessage}, its choice of
 * connection and protocol): the one place that knows the rule.
 * <ol>
 *   <li>With REDIRECT, the redirect client receives them. When it is gone, the tracking client's redirect is
 *       marked broken (CLIENT LIST flag {@code R}, TRACKINGINFO {@code broken_redirect}) and nothing is
 *       delivered; Redis then tells a RESP3 tracking client {@code >2 tracking-redir-broken <id>} in place of
 *       each invalidation (every key, every flush), and a RESP2 one nothing.</li>
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
    private static final byte[] NULL_RESP2 = "$-1\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL_RESP3 = "_\r\n".getBytes(StandardCharsets.US_ASCII);

    private InvalidationTargets() {
    }

    /**
     * The null a flush's invalidation carries: the one of the tracking client's protocol, whatever the receiver
     * speaks (Redis's {@code trackingInvalidateKeysOnFlush} passes {@code shared.null[c->resp]} of the tracking
     * client, so a RESP2 client redirecting to a RESP3 one makes the push carry {@code $-1}, and a RESP3 one
     * redirecting to a RESP2 subscriber makes the message carry {@code _}).
     */
    static byte[] flushNull(Session client) {
        return client.protocol() > 2 ? NULL_RESP3 : NULL_RESP2;
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
            return client.protocol() > 2 ? new PushInvalidation(client, NULL_RESP3) : null;
        }
        Session receiver = sessions.byId(redirect);
        if (receiver == null) {
            state.brokenRedirect(true);
            if (client.protocol() > 2) { // every time, as Redis: one push per invalidation that could not go
                PushInvalidation.redirectBroken(client, redirect);
            }
            return null;
        }
        if (receiver.protocol() > 2) {
            return new PushInvalidation(receiver, flushNull(client));
        }
        if (receiver.subscriptions() instanceof Subscriptions subs && subs.active()) {
            return new PubSubInvalidation(subs.subscriber(), flushNull(client));
        }
        return null; // a RESP2 redirect client outside Pub/Sub mode cannot receive messages
    }
}
