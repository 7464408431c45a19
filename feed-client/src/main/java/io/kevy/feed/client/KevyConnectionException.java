package io.kevy.feed.client;

/**
 * The server could not be reached, or the connection broke (transient: retried with backoff).
 */
public class KevyConnectionException extends KevyException {
    private static final long serialVersionUID = 1L;

    public KevyConnectionException(String message) {
        super(message);
    }

    public KevyConnectionException(String message, Throwable cause) {
        super(message, cause);
    }
}
