package io.kevy.server.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.tomlj.Toml;
import org.tomlj.TomlParseError;
import org.tomlj.TomlParseResult;
import org.tomlj.TomlPosition;

/**
 * Resolves {@link ServerConfig} from, in increasing precedence: defaults, a TOML file, environment variables
 * ({@code KEVY_*}), command-line flags. Every error names its source, key and reason; unknown TOML keys are
 * errors.
 *
 * <p>Thread-safe; static methods only.
 */
public final class ConfigLoader {
    /** The file read when no {@code --config} is given and it exists in the working directory. */
    public static final String DEFAULT_FILE = "kevy.toml";

    private ConfigLoader() {
    }

    /**
     * @param file  the TOML file, or null for none
     * @param env   environment variables (usually {@link System#getenv()})
     * @param flags values from the command line, as strings
     * @throws KevyConfigException naming the file and line, variable or flag, the key and the reason
     */
    public static ServerConfig load(Path file, Map<String, String> env, Map<ServerOption<?>, String> flags) {
        Map<ServerOption<?>, Object> values = new HashMap<>();
        for (ServerOption<?> o : ServerOptions.ALL) {
            values.put(o, o.defaultValue());
        }
        if (file != null) {
            readToml(file, values);
        }
        for (ServerOption<?> o : ServerOptions.ALL) {
            String v = env.get(o.env());
            if (v != null) {
                values.put(o, parse(o, v, "environment variable " + o.env()));
            }
        }
        for (Map.Entry<ServerOption<?>, String> f : flags.entrySet()) {
            values.put(f.getKey(), parse(f.getKey(), f.getValue(), "option --" + flagName(f.getKey())));
        }
        return new ServerConfig(values, file == null ? "" : file.toAbsolutePath().toString());
    }

    /** The config file to use: {@code explicit} when given, else {@code ./kevy.toml} when present, else null. */
    public static Path locate(Path explicit) {
        if (explicit != null) {
            return explicit;
        }
        Path p = Path.of(DEFAULT_FILE);
        return Files.isRegularFile(p) ? p : null;
    }

    private static void readToml(Path file, Map<ServerOption<?>, Object> values) {
        if (!Files.isRegularFile(file)) {
            throw new KevyConfigException(file + ": config file not found");
        }
        TomlParseResult toml;
        try {
            toml = Toml.parse(file);
        } catch (IOException e) {
            throw new KevyConfigException(file + ": cannot read: " + e.getMessage());
        }
        if (toml.hasErrors()) {
            TomlParseError err = toml.errors().get(0);
            throw new KevyConfigException(file + ":" + line(err.position()) + ": " + err.getMessage());
        }
        for (String key : toml.dottedKeySet()) {
            ServerOption<?> o = ServerOptions.byKey(key);
            String where = file + ":" + line(toml.inputPositionOf(key)) + ": " + key;
            if (o == null) {
                throw new KevyConfigException(where + ": unknown key");
            }
            try {
                values.put(o, o.fromToml(toml.get(key)));
            } catch (IllegalArgumentException e) {
                throw new KevyConfigException(where + ": " + e.getMessage());
            }
        }
    }

    private static Object parse(ServerOption<?> o, String value, String source) {
        try {
            return o.fromString(value);
        } catch (IllegalArgumentException e) {
            throw new KevyConfigException(source + " (" + o.key() + "): " + e.getMessage());
        }
    }

    /** The command-line flag of an option: its last key segment with dashes, e.g. {@code feed-buffer-size}. */
    public static String flagName(ServerOption<?> o) {
        String k = o.key();
        return k.substring(k.lastIndexOf('.') + 1).replace('_', '-');
    }

    private static String line(TomlPosition p) {
        return p == null ? "?" : Integer.toString(p.line());
    }
}
