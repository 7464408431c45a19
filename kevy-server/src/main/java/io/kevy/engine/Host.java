package io.kevy.engine;

/**
 * What the environment around an {@link Engine} (the network server, or the embedded store) provides to
 * server commands: INFO fields it owns, and SHUTDOWN. Defaults describe an embedded engine.
 *
 * <p>Implementations must be thread-safe.
 */
public interface Host {
    /** The embedded default: no network fields, SHUTDOWN refused. */
    Host EMBEDDED = new Host() {
    };

    /**
     * Appends {@code field:value\r\n} lines this host owns to INFO section {@code section} (lower case:
     * {@code server}, {@code clients}, {@code stats}, ...).
     */
    default void appendInfo(String section, StringBuilder out) {
    }

    /**
     * Stops the process after the reply of SHUTDOWN (feed contract §5: a clean shutdown writes the marker).
     *
     * @param save   true for SAVE, false for NOSAVE, null when neither was given
     * @return null when shutting down, else the error text to reply
     */
    default String shutdown(Boolean save) {
        return "ERR SHUTDOWN is not available in an embedded store";
    }
}
