package io.kevy.feed.client;

/**
 * A reply had a shape the client does not expect from the command (a bug or an incompatible server).
 */
public class KevyProtocolException extends KevyException {
    private static final long serialVersionUID = 1L;

    public KevyProtocolException(String message) {
        super(message);
    }

    public KevyProtocolException(String message, Throwable cause) {
        super(message, cause);
    }
}
