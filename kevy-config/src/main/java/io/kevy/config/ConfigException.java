package io.kevy.config;

/**
 * A configuration error: the message names the source (file and line, environment variable or flag), the
 * key and the reason, e.g. {@code kevy.toml:7: feed.feed_buffer_size: caps at 1gb per shard}. The one config
 * error of the option system ({@link ConfigReader}): the server and the bridges print its message and exit with
 * status 2. (The SDK's {@code io.kevy.feed.client.KevyConfigException} is another thing: a consumer setting or a
 * stored cursor that does not fit, at run time, in the SDK's exception hierarchy.)
 */
public class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
