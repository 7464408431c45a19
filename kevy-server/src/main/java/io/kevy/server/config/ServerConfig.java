package io.kevy.server.config;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * The resolved kevy-server settings: a value for every {@link ServerOptions option}, plus where the TOML file
 * came from. Immutable and thread-safe; {@link #with} returns a modified copy (tests and embedding).
 */
public final class ServerConfig {
    private final Map<ServerOption<?>, Object> values;
    private final String configFile;

    ServerConfig(Map<ServerOption<?>, Object> values, String configFile) {
        this.values = Collections.unmodifiableMap(new HashMap<>(values));
        this.configFile = configFile;
    }

    /** Every option at its default. */
    public static ServerConfig defaults() {
        Map<ServerOption<?>, Object> m = new HashMap<>();
        for (ServerOption<?> o : ServerOptions.ALL) {
            m.put(o, o.defaultValue());
        }
        return new ServerConfig(m, "");
    }

    /** The value of {@code option}. */
    @SuppressWarnings("unchecked")
    public <T> T get(ServerOption<T> option) {
        return (T) values.get(option);
    }

    /** A copy with {@code option} set to {@code value}. */
    public <T> ServerConfig with(ServerOption<T> option, T value) {
        Map<ServerOption<?>, Object> m = new HashMap<>(values);
        m.put(option, value);
        return new ServerConfig(m, configFile);
    }

    /** The TOML file that was read, or {@code ""} when none. */
    public String configFile() {
        return configFile;
    }
}
