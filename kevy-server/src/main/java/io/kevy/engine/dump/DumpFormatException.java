package io.kevy.engine.dump;

/**
 * A DUMP payload that cannot be read: its message names what was wrong (for logs and tests); RESTORE answers
 * Redis's {@code ERR Bad data format} whatever the detail.
 */
public final class DumpFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public DumpFormatException(String message) {
        super(message, null, false, false);
    }
}
