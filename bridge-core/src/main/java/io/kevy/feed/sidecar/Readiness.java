package io.kevy.feed.sidecar;

import java.util.Objects;

/**
 * Whether a part of the sidecar is ready, and why not. Immutable.
 *
 * @param ready  true when ready
 * @param reason why not ready (empty when ready)
 */
public record Readiness(boolean ready, String reason) {
    /** Ready. */
    public static final Readiness READY = new Readiness(true, "");

    public Readiness {
        Objects.requireNonNull(reason, "reason");
    }

    /** Not ready, because {@code reason}. */
    public static Readiness notReady(String reason) {
        return new Readiness(false, reason);
    }
}
