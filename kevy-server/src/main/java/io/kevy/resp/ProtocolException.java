package io.kevy.resp;

/**
 * A violation of RESP by the client. The message is Redis's text after {@code "Protocol error: "}; the
 * connection answers {@code -ERR Protocol error: <message>} and is closed (only that connection).
 */
public final class ProtocolException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ProtocolException(String message) {
        super(message, null, false, false);
    }

    /** The full error reply text, e.g. {@code "ERR Protocol error: invalid bulk length"}. */
    public String replyText() {
        return "ERR Protocol error: " + getMessage();
    }
}
