package io.kevy.server.config;

import io.kevy.config.OptionValues;

/**
 * The resolved kevy-server settings: a value for every {@link ServerOptions option} (given, or its default),
 * plus where the TOML file came from. Immutable and thread-safe; {@link #with} returns a modified copy (tests
 * and embedding).
 */
public final class ServerConfig {
    private final OptionValues values;
    private final String configFile;

    ServerConfig(OptionValues values, String configFile) {
        this.values = values;
        this.configFile = configFile;
    }

    /** Every option at its default. */
    public static ServerConfig defaults() {
        return new ServerConfig(OptionValues.defaults(ServerOptions.options()), "");
    }

    /** The value of {@code option}. */
    public <T> T get(ServerOption<T> option) {
        return values.get(option.option());
    }

    /** A copy with {@code option} set to {@code value}. */
    public <T> ServerConfig with(ServerOption<T> option, T value) {
        return new ServerConfig(values.with(option.option(), value), configFile);
    }

    /** The TOML file that was read, or {@code ""} when none. */
    public String configFile() {
        return configFile;
    }

    /** Where each value came from ({@code kevy.toml:3}, an environment variable, a flag, or default). */
    public OptionValues values() {
        return values;
    }
}
