package io.kevy.feed.client;

/**
 * A setting or a stored cursor does not fit (wrong consumer name, unreadable cursor file, bad URI).
 */
public class KevyConfigException extends KevyException {
    private static final long serialVersionUID = 1L;

    public KevyConfigException(String message) {
        super(message);
    }

    public KevyConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
