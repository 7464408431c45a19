package io.kevy.feed.client;

/**
 * The server answered with an error reply ({@code -ERR ...}, {@code -WRONGTYPE ...}); {@link #getMessage()} is
 * the reply without the leading {@code -}. Not retried, except the subtypes' own handling.
 * {@link ServerErrors#fromReply(String)} builds the right subtype from a reply.
 */
public class KevyServerException extends KevyException {
    private static final long serialVersionUID = 1L;

    public KevyServerException(String message) {
        super(message);
    }

    protected KevyServerException(String message, boolean withStackTrace) {
        super(message, null, withStackTrace);
    }

    /** The error code: the reply up to the first space ({@code ERR}, {@code WRONGTYPE}, {@code FEEDRESYNC}). */
    public String code() {
        String m = getMessage();
        int sp = m.indexOf(' ');
        return sp < 0 ? m : m.substring(0, sp);
    }

    /** True for {@code ERR syntax error}: what upstream kevy answers to {@code FEED.READ ... BLOCK}. */
    public boolean isSyntaxError() {
        return getMessage().equals("ERR syntax error");
    }

    /**
     * True for our server's refusal of {@code FEED.READ ... DURABLE} where no fsync schedule exists ({@code ERR
     * DURABLE needs an fsync schedule ...}) and for a source that has no DURABLE; upstream answers {@link #isSyntaxError}.
     */
    public boolean isDurableUnavailable() {
        return getMessage().startsWith("ERR DURABLE ");
    }
}
