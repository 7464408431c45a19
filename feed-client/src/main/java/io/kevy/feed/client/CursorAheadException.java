package io.kevy.feed.client;

/**
 * {@code -ERR feed cursor ahead of stream} (feed contract §4): the cursor's offset is past the tail of its
 * generation. The server never moves a tail back within a generation, so this is a bug (a cursor store that
 * mixed consumers up, a hand-edited cursor): the consumer fails loudly and never retries it.
 */
public final class CursorAheadException extends KevyServerException {
    private static final long serialVersionUID = 1L;

    public CursorAheadException(String message) {
        super(message);
    }
}
