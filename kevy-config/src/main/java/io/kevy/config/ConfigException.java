package io.kevy.server.config;

/**
 * A configuration error: the message names the source (file and line, environment variable or flag), the
 * key and the reason, e.g. {@code kevy.toml:7: feed.feed_buffer_size: caps at 1gb per shard}. The server
 * prints it and exits non-zero.
 */
public final class KevyConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public KevyConfigException(String message) {
        super(message);
    }
}
