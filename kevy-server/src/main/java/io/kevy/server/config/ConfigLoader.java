package io.kevy.server.config;

import io.kevy.config.ConfigException;
import io.kevy.config.ConfigReader;
import io.kevy.config.Option;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Resolves {@link ServerConfig} from, in increasing precedence: defaults, a TOML file, environment variables
 * ({@code KEVY_*}), command-line flags, with the option system's one loader ({@link ConfigReader}). Every error
 * names its source, key and reason; unknown TOML keys are errors.
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
     * @throws ConfigException naming the file and line, variable or flag, the key and the reason
     */
    public static ServerConfig load(Path file, Map<String, String> env, Map<ServerOption<?>, String> flags) {
        ConfigReader r = new ConfigReader(file == null ? "" : file.toString());
        List<Option<?>> table = ServerOptions.options();
        if (file != null) {
            r.readTable(ConfigReader.parse(file), "", table);
        }
        r.readEnv(env, table, Option::env);
        Map<Option<?>, String> byOption = new LinkedHashMap<>();
        flags.forEach((o, v) -> byOption.put(o.option(), v));
        r.readFlags(byOption, ConfigLoader::flagName);
        return new ServerConfig(r.values(file == null ? "defaults" : file.toString()),
                file == null ? "" : file.toAbsolutePath().toString());
    }

    /** The config file to use: {@code explicit} when given, else {@code ./kevy.toml} when present, else null. */
    public static Path locate(Path explicit) {
        if (explicit != null) {
            return explicit;
        }
        Path p = Path.of(DEFAULT_FILE);
        return Files.isRegularFile(p) ? p : null;
    }

    /** The command-line flag of an option: its last key segment with dashes, e.g. {@code feed-buffer-size}. */
    public static String flagName(ServerOption<?> o) {
        return flagName(o.option());
    }

    private static String flagName(Option<?> o) {
        return o.name().replace('_', '-');
    }
}
