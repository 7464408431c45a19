package io.kevy.bridge.webhook;

import java.time.Instant;

/**
 * What a {@link WebhookSink} knows about its endpoint. Immutable.
 *
 * @param endpoint            the endpoint's name ({@link WebhookSettings#endpointName()})
 * @param state               see {@link State}
 * @param lastStatus          the HTTP status of the last answer, -1 before the first or after an I/O error
 * @param lastError           the last failure (status or I/O error, never a secret), or null
 * @param lastSuccess         when a request was last accepted, or null
 * @param consecutiveFailures failed attempts since the last success
 */
public record EndpointHealth(String endpoint, State state, int lastStatus, String lastError, Instant lastSuccess,
        long consecutiveFailures) {
    /** The endpoint's state. */
    public enum State {
        /** Delivering (or nothing sent yet). */
        ACTIVE,
        /** The last attempt failed with a retryable error; retries go on. */
        RETRYING,
        /** The endpoint answered 410 Gone: nothing more is sent until the sink is recreated. */
        DISABLED,
        /** A request was rejected with {@code on_rejected = stop}: the batch failed for good. */
        STOPPED,
        /** The sink was closed while it could deliver (a DISABLED or STOPPED sink keeps that state). */
        CLOSED
    }

    /** True while the sink can deliver: ACTIVE or RETRYING. */
    public boolean ready() {
        return state == State.ACTIVE || state == State.RETRYING;
    }
}
