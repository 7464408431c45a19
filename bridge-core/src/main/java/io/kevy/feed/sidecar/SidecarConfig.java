package io.kevy.feed.sidecar;

import io.kevy.feed.client.KevyConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.tomlj.Toml;
import org.tomlj.TomlArray;
import org.tomlj.TomlParseError;
import org.tomlj.TomlParseResult;
import org.tomlj.TomlPosition;
import org.tomlj.TomlTable;

/**
 * A sidecar's resolved configuration: a TOML file ({@code [source]}, {@code [consumer]}, {@code [cursor]},
 * {@code [http]} and exactly one {@code [sink.<type>]}) with {@code KEVY_BRIDGE_*} environment overrides on top
 * (environment wins). Every error names the file and line (or the variable), the key and the reason: TOML
 * syntax errors, unknown sections and keys, values of the wrong type or out of range, missing required keys,
 * unknown environment variables with the {@code KEVY_BRIDGE_} prefix, and combinations a
 * {@link SinkProvider#validate sink} refuses. Immutable.
 */
public final class SidecarConfig {
    private final Path file;
    private final SinkProvider provider;
    private final OptionValues values;

    private SidecarConfig(Path file, SinkProvider provider, OptionValues values) {
        this.file = file;
        this.provider = provider;
        this.values = values;
    }

    /**
     * Loads {@code file} with the providers on the class path ({@link SinkProvider#installed()}).
     *
     * @throws KevyConfigException naming file and line, or variable, key and reason
     */
    public static SidecarConfig load(Path file, Map<String, String> env) {
        return load(file, env, SinkProvider.installed());
    }

    /**
     * Loads {@code file}, overridden by the {@code KEVY_BRIDGE_*} entries of {@code env}, for one of
     * {@code providers}.
     *
     * @throws KevyConfigException naming file and line, or variable, key and reason
     */
    public static SidecarConfig load(Path file, Map<String, String> env, List<SinkProvider> providers) {
        Objects.requireNonNull(file, "file");
        if (!Files.isRegularFile(file)) {
            throw new KevyConfigException(file + ": config file not found");
        }
        TomlParseResult toml;
        try {
            toml = Toml.parse(file);
        } catch (IOException e) {
            throw new KevyConfigException(file + ": cannot read: " + e.getMessage(), e);
        }
        if (toml.hasErrors()) {
            TomlParseError err = toml.errors().get(0);
            throw new KevyConfigException(file + ":" + line(err.position()) + ": " + err.getMessage());
        }
        Reader r = new Reader(file.toString());
        SinkProvider provider = null;
        for (String key : toml.keySet()) {
            TomlPosition pos = toml.inputPositionOf(List.of(key));
            if (SidecarOptions.SECTIONS.contains(key)) {
                r.section(toml, key, List.of(key), SidecarOptions.ALL, r.values, r.origins);
            } else if (key.equals("sink")) {
                provider = sinkSection(r, toml, providers);
            } else {
                throw new KevyConfigException(r.at(pos) + ": unknown section [" + key + "] (known: "
                        + String.join(", ", SidecarOptions.SECTIONS) + ", sink.<type>)");
            }
        }
        if (provider == null) {
            throw new KevyConfigException(file + ": no [sink.<type>] section; one of: " + types(providers));
        }
        List<SidecarOption<?>> all = new ArrayList<>(SidecarOptions.ALL);
        all.addAll(provider.options());
        applyEnv(env, all, providers, r);
        OptionValues values = new OptionValues(r.values, r.origins, file.toString());
        for (SidecarOption<?> o : all) {
            if (o.isRequired() && !values.isSet(o)) {
                throw new KevyConfigException(file + ": " + o.key() + " is required: " + o.description());
            }
        }
        validate(values);
        provider.validate(values);
        return new SidecarConfig(file, provider, values);
    }

    private static SinkProvider sinkSection(Reader r, TomlParseResult toml, List<SinkProvider> providers) {
        TomlPosition pos = toml.inputPositionOf(List.of("sink"));
        if (!toml.isTable("sink")) {
            throw new KevyConfigException(r.at(pos) + ": sink must be a table [sink.<type>]");
        }
        TomlTable sink = toml.getTable("sink");
        if (sink.size() != 1) {
            throw new KevyConfigException(r.at(pos) + ": exactly one [sink.<type>] section, found "
                    + (sink.isEmpty() ? "none" : String.join(", ", sink.keySet())));
        }
        String type = sink.keySet().iterator().next();
        SinkProvider provider = providers.stream().filter(p -> p.type().equals(type)).findFirst().orElse(null);
        TomlPosition tp = sink.inputPositionOf(List.of(type));
        if (provider == null) {
            throw new KevyConfigException(r.at(tp) + ": unknown sink type [sink." + type + "] (this jar has: "
                    + types(providers) + ")");
        }
        if (!sink.isTable(List.of(type))) {
            throw new KevyConfigException(r.at(tp) + ": sink." + type + " must be a table");
        }
        r.section(sink, type, List.of("sink", type), provider.options(), r.values, r.origins);
        return provider;
    }

    private static void applyEnv(Map<String, String> env, List<SidecarOption<?>> active, List<SinkProvider> providers,
            Reader r) {
        Map<String, SidecarOption<?>> byEnv = new LinkedHashMap<>();
        List<SidecarOption<?>> known = new ArrayList<>(SidecarOptions.ALL);
        providers.forEach(p -> known.addAll(p.options()));
        for (SidecarOption<?> o : known) {
            if (o.env() != null) {
                byEnv.put(o.env(), o);
            }
        }
        for (Map.Entry<String, String> e : new java.util.TreeMap<>(env).entrySet()) {
            if (!e.getKey().startsWith(SidecarOption.ENV_PREFIX)) {
                continue;
            }
            SidecarOption<?> o = byEnv.get(e.getKey());
            if (o == null) {
                throw new KevyConfigException("environment variable " + e.getKey() + ": unknown setting (the "
                        + SidecarOption.ENV_PREFIX + "* variables name a config key, e.g. KEVY_BRIDGE_SOURCE_URI)");
            }
            if (!active.contains(o)) {
                continue;
            }
            String where = "environment variable " + e.getKey();
            try {
                r.values.put(o, o.parse(e.getValue()));
            } catch (IllegalArgumentException x) {
                throw new KevyConfigException(where + " (" + o.key() + "): " + x.getMessage());
            }
            r.origins.put(o, where);
        }
    }

    private static void validate(OptionValues v) {
        if (v.get(SidecarOptions.CONSUMER_FAILURE_POLICY).equals("dead_letter")
                && v.get(SidecarOptions.CONSUMER_DEAD_LETTER_PATH).isBlank()) {
            throw v.error(SidecarOptions.CONSUMER_FAILURE_POLICY,
                    "failure_policy = \"dead_letter\" needs consumer.dead_letter_path");
        }
        if (v.get(SidecarOptions.CONSUMER_RETRY_MAX_MS) < v.get(SidecarOptions.CONSUMER_RETRY_INITIAL_MS)) {
            throw v.error(SidecarOptions.CONSUMER_RETRY_MAX_MS, "must not be below consumer.retry_initial_ms");
        }
    }

    private static String types(List<SinkProvider> providers) {
        return providers.isEmpty() ? "none" : String.join(", ", providers.stream().map(SinkProvider::type).toList());
    }

    private static String line(TomlPosition p) {
        return p == null ? "?" : Integer.toString(p.line());
    }

    /** Walks tables, checking each key against an option table. */
    private static final class Reader {
        final String file;
        final Map<SidecarOption<?>, Object> values = new LinkedHashMap<>();
        final Map<SidecarOption<?>, String> origins = new LinkedHashMap<>();

        Reader(String file) {
            this.file = file;
        }

        String at(TomlPosition p) {
            return file + ":" + line(p);
        }

        /** Reads {@code parent[key]} (a table at {@code path}) into {@code into} with {@code options}. */
        void section(TomlTable parent, String key, List<String> path, List<SidecarOption<?>> options,
                Map<SidecarOption<?>, Object> into, Map<SidecarOption<?>, String> origin) {
            String dotted = String.join(".", path);
            TomlPosition pos = parent.inputPositionOf(List.of(key));
            if (!parent.isTable(List.of(key))) {
                throw new KevyConfigException(at(pos) + ": " + dotted + " must be a table [" + dotted + "]");
            }
            TomlTable t = parent.getTable(List.of(key));
            for (String k : t.keySet()) {
                TomlPosition kp = t.inputPositionOf(List.of(k));
                SidecarOption<?> o = find(options, dotted, k);
                if (o == null) {
                    throw new KevyConfigException(at(kp) + ": " + dotted + "." + k + ": unknown key (known in ["
                            + dotted + "]: " + String.join(", ", options.stream().filter(x -> x.section()
                                    .equals(dotted)).map(SidecarOption::name).toList()) + ")");
                }
                Object raw = t.get(List.of(k));
                try {
                    into.put(o, value(o, raw, kp));
                } catch (IllegalArgumentException e) {
                    throw new KevyConfigException(at(kp) + ": " + o.key() + ": " + e.getMessage());
                }
                origin.put(o, at(kp));
            }
        }

        private Object value(SidecarOption<?> o, Object raw, TomlPosition pos) {
            switch (o.kind()) {
                case TABLE_ARRAY:
                    return tables(o, raw);
                case STRING_TABLE:
                    if (!(raw instanceof TomlTable t)) {
                        throw new IllegalArgumentException("must be a table, got " + SidecarOption.describe(raw));
                    }
                    for (String k : t.keySet()) {
                        if (t.isTable(List.of(k)) || t.isArray(List.of(k))) {
                            throw new IllegalArgumentException("\"" + k + "\" must be a string, number or boolean "
                                    + "(quote dotted names: \"linger.ms\" = 5)");
                        }
                    }
                    return o.parse(t.toMap());
                case INTEGER:
                case BOOLEAN:
                    if (raw instanceof String s) {
                        throw new IllegalArgumentException("must be " + (o.kind() == SidecarOption.Kind.INTEGER
                                ? "an integer" : "a boolean (true or false)") + ", got the string \"" + s + "\"");
                    }
                    return o.parse(raw);
                case STRING_LIST:
                    if (!(raw instanceof TomlArray a)) {
                        throw new IllegalArgumentException("must be an array of strings, got "
                                + SidecarOption.describe(raw));
                    }
                    return o.parse(a.toList());
                default:
                    if (raw instanceof TomlArray || raw instanceof TomlTable) {
                        throw new IllegalArgumentException("must be " + o.kind().word() + ", got "
                                + (raw instanceof TomlArray ? "an array" : "a table"));
                    }
                    return o.parse(raw);
            }
        }

        private List<OptionValues> tables(SidecarOption<?> o, Object raw) {
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
                Map<SidecarOption<?>, Object> v = new LinkedHashMap<>();
                Map<SidecarOption<?>, String> origin = new LinkedHashMap<>();
                TomlTable entry = a.getTable(i);
                for (String k : entry.keySet()) {
                    TomlPosition kp = entry.inputPositionOf(List.of(k));
                    SidecarOption<?> f = find(o.fields(), o.key(), k);
                    if (f == null) {
                        throw new KevyConfigException(at(kp) + ": " + o.key() + "." + k + ": unknown key (known: "
                                + String.join(", ", o.fields().stream().map(SidecarOption::name).toList()) + ")");
                    }
                    try {
                        v.put(f, value(f, entry.get(List.of(k)), kp));
                    } catch (IllegalArgumentException e) {
                        throw new KevyConfigException(at(kp) + ": " + f.key() + ": " + e.getMessage());
                    }
                    origin.put(f, at(kp));
                }
                for (SidecarOption<?> f : o.fields()) {
                    if (f.isRequired() && !v.containsKey(f)) {
                        throw new KevyConfigException(at(a.inputPositionOf(i)) + ": [[" + o.key() + "]] needs "
                                + f.name() + ": " + f.description());
                    }
                }
                out.add(new OptionValues(v, origin, at(a.inputPositionOf(i))));
            }
            return List.copyOf(out);
        }

        private static SidecarOption<?> find(List<SidecarOption<?>> options, String section, String name) {
            for (SidecarOption<?> o : options) {
                if (o.section().equals(section) && o.name().equals(name)) {
                    return o;
                }
            }
            return null;
        }
    }

    /** The config file. */
    public Path file() {
        return file;
    }

    /** The provider of the {@code [sink.<type>]} section. */
    public SinkProvider provider() {
        return provider;
    }

    /** The sink type ({@code kafka}, {@code webhook}, {@code file} ...). */
    public String sinkType() {
        return provider.type();
    }

    /** Every resolved value: the runtime's options and the sink's. */
    public OptionValues values() {
        return values;
    }

    /** Shorthand for {@code values().get(option)}. */
    public <T> T get(SidecarOption<T> option) {
        return values.get(option);
    }

    /** The options of this config (the runtime's and the sink's), in documentation order. */
    public List<SidecarOption<?>> options() {
        List<SidecarOption<?>> all = new ArrayList<>(SidecarOptions.ALL);
        all.addAll(provider.options());
        return all;
    }
}
