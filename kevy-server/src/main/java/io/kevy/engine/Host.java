package io.kevy.engine;

import java.util.Map;

/**
 * What the environment around an {@link Engine} (the network server, or the embedded store) provides to
 * server commands: INFO fields it owns, its statistics, CONFIG REWRITE and SHUTDOWN. Defaults describe an embedded engine.
 *
 * <p>Implementations must be thread-safe.
 */
public interface Host {
    /** The embedded default: no network fields, SHUTDOWN refused. */
    Host EMBEDDED = new Host() {
    };

    /**
     * Puts the INFO fields this host owns for {@code section} (lower case: {@code server}, {@code clients},
     * {@code stats}, ...) into {@code fields}, name to value. INFO has already put every field of the section in
     * Redis's order with the engine's values; replacing a value keeps its position, a new name goes at the end.
     */
    default void info(String section, Map<String, String> fields) {
    }

    /** CONFIG RESETSTAT: clears the host's counters (connections received, commands processed, ...). */
    default void resetStats() {
    }

    /**
     * CONFIG REWRITE: writes the settings the host persists into the config file it was started with. Called with
     * the shard locks of a transaction held when inside EXEC (Sentinel sends it so); returns when written.
     *
     * @return null when written, else the error text to reply without the leading {@code -}: Redis 7.0's
     *         {@code ERR The server is running without a config file} (this default: an embedded engine has none),
     *         or {@code ERR Rewriting config file: <reason>}
     */
    default String rewriteConfig() {
        return "ERR The server is running without a config file";
    }

    /**
     * Stops the process after SHUTDOWN (feed contract §5: a clean shutdown writes the marker). Called without
     * shard locks; returns at once, the shutdown runs on another thread.
     *
     * @param save true for SAVE, false for NOSAVE, null when neither was given (NOW and FORCE change nothing in
     *             kevy: there are no replicas to wait for)
     * @return null when shutting down, else the error text to reply (without the leading {@code -})
     */
    default String shutdown(Boolean save) {
        return "ERR SHUTDOWN is not available in an embedded store";
    }
}
