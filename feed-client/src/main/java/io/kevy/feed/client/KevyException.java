package io.kevy.feed.client;

/**
 * The root of the feed client's exceptions (unchecked). Subtypes follow what a caller can do about them:
 * {@link KevyConnectionException} and {@link KevyTimeoutException} are transient (the consumer retries them
 * with backoff); {@link KevyServerException} is an error reply ({@link FeedResyncException} means rebuild,
 * {@link CursorAheadException} is a bug); {@link KevyProtocolException} is a reply of an unexpected shape;
 * {@link SinkException} comes from a sink or handler; {@link KevyConfigException} is a bad setting;
 * {@link ConsumerFailedException} is why a consumer stopped; {@link KevyInterruptedException} is an interrupted
 * wait (the interrupt flag is restored).
 */
public class KevyException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public KevyException(String message) {
        super(message);
    }

    public KevyException(String message, Throwable cause) {
        super(message, cause);
    }

    /** For exceptions thrown routinely: no stack trace is filled in. */
    protected KevyException(String message, Throwable cause, boolean withStackTrace) {
        super(message, cause, false, withStackTrace);
    }
}
