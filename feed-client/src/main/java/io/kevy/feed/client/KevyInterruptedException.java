package io.kevy.feed.client;

/**
 * A blocking call of the feed client was interrupted ({@link Thread#interrupt()}). Unchecked, like every feed
 * client exception; the thrower restores the thread's interrupt flag before throwing, so
 * {@code Thread.currentThread().isInterrupted()} is true when it is caught. The cause is the
 * {@link InterruptedException}.
 */
public class KevyInterruptedException extends KevyException {
    private static final long serialVersionUID = 1L;

    public KevyInterruptedException(String message, InterruptedException cause) {
        super(message, cause);
    }
}
