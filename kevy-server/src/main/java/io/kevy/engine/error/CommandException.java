package io.kevy.engine.error;

/**
 * Carries an error reply out of argument parsing. Thrown only before a command changes anything, caught by
 * the dispatcher, which writes {@link #reply()}; the failed command therefore changes nothing and emits no
 * frame. It has no stack trace (it is control flow, not a bug report), so throwing it is cheap.
 */
public final class CommandException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient ErrorReply reply;

    public CommandException(ErrorReply reply) {
        super(reply.message(), null, false, false);
        this.reply = reply;
    }

    /** An {@code ERR}-coded error with {@code text}. */
    public static CommandException err(String text) {
        return new CommandException(ErrorReply.err(text));
    }

    public ErrorReply reply() {
        return reply;
    }
}
