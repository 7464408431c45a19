package io.kevy.feed.client;

/**
 * A sink or handler could not accept a batch. {@link #retryable()} tells the consumer whether retrying the
 * same batch may succeed (a broker outage: yes; a record too large: no). Any other exception from a handler
 * or sink counts as retryable.
 */
public class SinkException extends KevyException {
    private static final long serialVersionUID = 1L;
    private final boolean retryable;

    public SinkException(String message, boolean retryable) {
        super(message);
        this.retryable = retryable;
    }

    public SinkException(String message, Throwable cause, boolean retryable) {
        super(message, cause);
        this.retryable = retryable;
    }

    /** True when the same batch may succeed when delivered again. */
    public boolean retryable() {
        return retryable;
    }
}
