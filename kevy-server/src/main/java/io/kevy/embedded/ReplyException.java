package io.kevy.embedded;

/**
 * A command answered with an error (the typed {@link Store} methods and {@link Reply#orThrow()}):
 * {@code WRONGTYPE ...}, {@code ERR value is not an integer or out of range}, ... Unchecked; no stack trace
 * is filled in beyond the throw site's.
 */
public final class ReplyException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Reply.Error reply;

    public ReplyException(Reply.Error reply) {
        super(reply.message());
        this.reply = reply;
    }

    /** The error reply. */
    public Reply.Error reply() {
        return reply;
    }

    /** The error code ({@code ERR}, {@code WRONGTYPE}, ...). */
    public String code() {
        return reply.code();
    }
}
