package io.kevy.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.tomlj.Toml;
import org.tomlj.TomlArray;
import org.tomlj.TomlParseError;
import org.tomlj.TomlParseResult;
import org.tomlj.TomlPosition;
import org.tomlj.TomlTable;

/**
 * The one loader of kevy's option tables: reads a TOML file's tables against a list of {@link Option}s, then
 * environment variables, then command-line flags, each layer overriding the one before (defaults, TOML,
 * environment, flags), and hands back the {@link OptionValues} with where each value came from. The server
 * ({@code ConfigLoader}) and the sidecar ({@code SidecarConfig}) both use it; what differs between them (the
 * sidecar's {@code [sink.<type>]} choice and its strict {@code KEVY_BRIDGE_*} prefix, the server's flags) stays
 * with them.
 *
 * <p>Every error is a {@link ConfigException} naming the source (file and line, variable or flag), the key and
 * the reason: {@code kevy.toml:2: feed.enabled: must be a TOML boolean (true or false), got the string "yes"}.
 * Unknown keys are errors. A {@link Option#secret() secret} option's error never shows its value.
 *
 * <p>Not thread-safe: one reader per load.
 */
public final class ConfigReader {
    private final String file;
    private final Map<Option<?>, Object> values = new LinkedHashMap<>();
    private final Map<Option<?>, String> origins = new LinkedHashMap<>();

    /** @param file how errors and origins name the TOML file (its path), or "" when there is none */
    public ConfigReader(String file) {
        this.file = file;
    }

    /**
     * Parses {@code file} as TOML.
     *
     * @throws ConfigException when the file is missing or unreadable ({@code file: ...}) or not TOML
     *         ({@code file:line: reason})
     */
    public static TomlParseResult parse(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new ConfigException(file + ": config file not found");
        }
        TomlParseResult toml;
        try {
            toml = Toml.parse(file);
        } catch (IOException e) {
            throw new ConfigException(file + ": cannot read: " + e.getMessage(), e);
        }
        if (toml.hasErrors()) {
            TomlParseError err = toml.errors().get(0);
            throw new ConfigException(file + ":" + line(err.position()) + ": " + err.getMessage());
        }
        return toml;
    }

    /**
     * Parses {@code text} as TOML; {@code name} is how an error names it (a file's path).
     *
     * @throws ConfigException {@code name:line: reason} when it is not TOML
     */
    public static TomlParseResult parse(String name, String text) {
        TomlParseResult toml = Toml.parse(text);
        if (toml.hasErrors()) {
            TomlParseError err = toml.errors().get(0);
            throw new ConfigException(name + ":" + line(err.position()) + ": " + err.getMessage());
        }
        return toml;
    }

    /** {@code file:line} of a TOML position. */
    public String at(TomlPosition p) {
        return file + ":" + line(p);
    }

    /** The name of an environment variable derived from a key: {@code prefix} + the key in upper case, {@code _}. */
    public static String derivedEnv(String prefix, Option<?> o) {
        return prefix + o.key().toUpperCase(Locale.ROOT).replace('.', '_');
    }

    /**
     * Reads every key of {@code table} (the table at dotted path {@code section}, "" for the root) into the
     * options of {@code options} whose section it is; subtables recurse when some option lives in them.
     *
     * @throws ConfigException for an unknown key or a value that does not fit
     */
    public void readTable(TomlTable table, String section, List<? extends Option<?>> options) {
        for (String k : table.keySet()) {
            TomlPosition kp = table.inputPositionOf(List.of(k));
            String dotted = section.isEmpty() ? k : section + "." + k;
            Option<?> o = find(options, section, k);
            if (o != null) {
                put(o, table.get(List.of(k)), kp, values, origins);
            } else if (table.isTable(List.of(k)) && hasSection(options, dotted)) {
                readTable(table.getTable(List.of(k)), dotted, options);
            } else if (section.isEmpty()) {
                throw new ConfigException(at(kp) + ": " + dotted + ": unknown key");
            } else {
                throw new ConfigException(at(kp) + ": " + dotted + ": unknown key (known in [" + section + "]: "
                        + String.join(", ", options.stream().filter(x -> x.section().equals(section))
                                .map(Option::name).toList()) + ")");
            }
        }
    }

    /**
     * Overrides with the environment: each option of {@code options} whose variable ({@code envName}, null for
     * none) is set in {@code env}.
     *
     * @throws ConfigException {@code environment variable NAME (key): reason}
     */
    public void readEnv(Map<String, String> env, List<? extends Option<?>> options,
            Function<Option<?>, String> envName) {
        for (Option<?> o : options) {
            String name = envName.apply(o);
            String v = name == null ? null : env.get(name);
            if (v != null) {
                set(o, v, "environment variable " + name);
            }
        }
    }

    /**
     * Overrides with command-line flags, named by {@code flagName} ({@code --feed-buffer-size}).
     *
     * @throws ConfigException {@code option --name (key): reason}
     */
    public void readFlags(Map<? extends Option<?>, String> flags, Function<Option<?>, String> flagName) {
        for (Map.Entry<? extends Option<?>, String> f : flags.entrySet()) {
            set(f.getKey(), f.getValue(), "option --" + flagName.apply(f.getKey()));
        }
    }

    /**
     * Checks that every required option of {@code options} was given.
     *
     * @throws ConfigException {@code file: key is required: description}
     */
    public void checkRequired(List<? extends Option<?>> options) {
        for (Option<?> o : options) {
            if (o.isRequired() && !origins.containsKey(o)) {
                throw new ConfigException(file + ": " + o.key() + " is required: " + o.description());
            }
        }
    }

    /** The values read so far (unset options answer their defaults), {@code where} naming their source. */
    public OptionValues values(String where) {
        return new OptionValues(values, origins, where);
    }

    private void set(Option<?> o, String v, String where) {
        try {
            values.put(o, o.fromString(v));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(where + " (" + o.key() + "): " + reason(o, e, v));
        }
        origins.put(o, where);
    }

    private void put(Option<?> o, Object raw, TomlPosition kp, Map<Option<?>, Object> into,
            Map<Option<?>, String> origin) {
        try {
            into.put(o, value(o, raw));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(at(kp) + ": " + o.key() + ": " + reason(o, e, raw));
        }
        origin.put(o, at(kp));
    }

    /**
     * Why a value does not fit. For a secret option the message is kept only when it shows none of the value's
     * text (e.g. "signing secret #1 has 13 key bytes"); otherwise its "..., got the integer 1234" tail is cut, or
     * the whole message replaced.
     */
    private static String reason(Option<?> o, IllegalArgumentException e, Object raw) {
        String m = String.valueOf(e.getMessage());
        if (!o.isSecret() || !showsAny(m, raw)) {
            return m;
        }
        int got = m.indexOf(", got ");
        String cut = got < 0 ? "invalid value" : m.substring(0, got);
        return (showsAny(cut, raw) ? "invalid value" : cut) + " (the value is not shown: it is a secret)";
    }

    /** Whether {@code message} contains the text of {@code raw} or of any of its elements (arrays, tables). */
    private static boolean showsAny(String message, Object raw) {
        if (raw instanceof TomlArray a) {
            for (int i = 0; i < a.size(); i++) {
                if (showsAny(message, a.get(i))) {
                    return true;
                }
            }
            return false;
        }
        if (raw instanceof Iterable<?> l) {
            for (Object e : l) {
                if (showsAny(message, e)) {
                    return true;
                }
            }
            return false;
        }
        if (raw instanceof TomlTable t) {
            for (String k : t.keySet()) {
                if (showsAny(message, t.get(List.of(k)))) {
                    return true;
                }
            }
            return false;
        }
        String text = String.valueOf(raw);
        return !text.isEmpty() && message.contains(text);
    }

    private Object value(Option<?> o, Object raw) {
        if (o.kind() == Option.Kind.TABLE_ARRAY) {
            return tables(o, raw);
        }
        if (o.kind() == Option.Kind.STRING_TABLE && raw instanceof TomlTable t) {
            for (String k : t.keySet()) {
                if (t.isTable(List.of(k)) || t.isArray(List.of(k))) {
                    throw new IllegalArgumentException("\"" + k + "\" must be a string, number or boolean "
                            + "(quote dotted names: \"linger.ms\" = 5)");
                }
            }
        }
        return o.fromToml(plain(raw));
    }

    /** tomlj's tables and arrays as Map and List (what {@link Option#fromToml} takes). */
    private static Object plain(Object raw) {
        if (raw instanceof TomlArray a) {
            return a.toList();
        }
        if (raw instanceof TomlTable t) {
            return t.toMap();
        }
        return raw;
    }

    private List<OptionValues> tables(Option<?> o, Object raw) {
        if (!(raw instanceof TomlArray a)) {
            throw new IllegalArgumentException("must be an array of tables [[" + o.key() + "]]");
        }
        for (int i = 0; i < a.size(); i++) {
            if (!a.isTable(i)) {
                throw new IllegalArgumentException("must be an array of tables [[" + o.key() + "]]");
            }
        }
        List<OptionValues> out = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            Map<Option<?>, Object> v = new LinkedHashMap<>();
            Map<Option<?>, String> origin = new LinkedHashMap<>();
            TomlTable entry = a.getTable(i);
            for (String k : entry.keySet()) {
                TomlPosition kp = entry.inputPositionOf(List.of(k));
                Option<?> f = find(o.fields(), o.key(), k);
                if (f == null) {
                    throw new ConfigException(at(kp) + ": " + o.key() + "." + k + ": unknown key (known: "
                            + String.join(", ", o.fields().stream().map(Option::name).toList()) + ")");
                }
                put(f, entry.get(List.of(k)), kp, v, origin);
            }
            for (Option<?> f : o.fields()) {
                if (f.isRequired() && !v.containsKey(f)) {
                    throw new ConfigException(at(a.inputPositionOf(i)) + ": [[" + o.key() + "]] needs " + f.name()
                            + ": " + f.description());
                }
            }
            out.add(new OptionValues(v, origin, at(a.inputPositionOf(i))));
        }
        return List.copyOf(out);
    }

    private static Option<?> find(List<? extends Option<?>> options, String section, String name) {
        for (Option<?> o : options) {
            if (o.section().equals(section) && o.name().equals(name)) {
                return o;
            }
        }
        return null;
    }

    private static boolean hasSection(List<? extends Option<?>> options, String section) {
        for (Option<?> o : options) {
            if (o.section().equals(section) || o.section().startsWith(section + ".")) {
                return true;
            }
        }
        return false;
    }

    private static String line(TomlPosition p) {
        return p == null ? "?" : Integer.toString(p.line());
    }
}
