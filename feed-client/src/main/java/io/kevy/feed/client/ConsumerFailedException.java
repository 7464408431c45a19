package io.kevy.feed.client;

/**
 * Why a {@link FeedConsumer} entered {@link FeedConsumer.State#FAILED}: a handler that kept failing under the
 * stop policy, rebuilds that made no progress, a cursor ahead of its stream, an error reply that retrying
 * cannot fix. The message says what to change; the cause is the underlying error.
 */
public final class ConsumerFailedException extends KevyException {
    private static final long serialVersionUID = 1L;

    public ConsumerFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
