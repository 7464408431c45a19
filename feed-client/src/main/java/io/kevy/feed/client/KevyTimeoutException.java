package io.kevy.feed.client;

/**
 * A command got no reply in time (transient: retried with backoff).
 */
public class KevyTimeoutException extends KevyException {
    private static final long serialVersionUID = 1L;

    public KevyTimeoutException(String message) {
        super(message);
    }

    public KevyTimeoutException(String message, Throwable cause) {
        super(message, cause);
    }
}
