package io.kevy.engine.error;

import java.nio.charset.StandardCharsets;

/**
 * An error reply: the message as Redis sends it (starting with the error code, e.g.
 * {@code "ERR syntax error"}), and its pre-encoded RESP form {@code -<message>\r\n}.
 *
 * <p>Each character of the message stands for one byte (Latin-1), so messages that quote client bytes are
 * byte-exact on the wire. Immutable and thread-safe. Constants live in {@link Errors}.
 */
public final class ErrorReply {
    private final String message;
    private final byte[] resp;

    private ErrorReply(String message) {
        if (message.indexOf('\r') >= 0 || message.indexOf('\n') >= 0) {
            message = message.replace('\r', ' ').replace('\n', ' ');
        }
        this.message = message;
        this.resp = ("-" + message + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
    }

    /** An error with this exact message (code first: {@code "ERR ..."}, {@code "WRONGTYPE ..."}). */
    public static ErrorReply of(String message) {
        return new ErrorReply(message);
    }

    /** An {@code ERR} error: {@code err("syntax error")} is {@code "ERR syntax error"}. */
    public static ErrorReply err(String text) {
        return new ErrorReply("ERR " + text);
    }

    /** The message without the leading {@code -} and trailing CRLF. */
    public String message() {
        return message;
    }

    /** The error code: the message up to the first space, e.g. {@code ERR}. */
    public String code() {
        int sp = message.indexOf(' ');
        return sp < 0 ? message : message.substring(0, sp);
    }

    /** {@code -<message>\r\n}; callers must not mutate it. */
    public byte[] resp() {
        return resp;
    }

    @Override
    public String toString() {
        return message;
    }
}
