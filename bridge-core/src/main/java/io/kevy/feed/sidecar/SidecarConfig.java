package io.kevy.feed.sidecar;

import io.kevy.config.ConfigException;
import io.kevy.config.ConfigReader;
import io.kevy.config.Option;
import io.kevy.config.OptionValues;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.tomlj.TomlParseResult;
import org.tomlj.TomlPosition;
import org.tomlj.TomlTable;

/**
 * A sidecar's resolved configuration: a TOML file ({@code [source]}, {@code [consumer]}, {@code [cursor]},
 * {@code [http]} and exactly one {@code [sink.<type>]}) with {@code KEVY_BRIDGE_*} environment overrides on top
 * (environment wins), read with the option system's one loader ({@link ConfigReader}). Every error names the
 * file and line (or the variable), the key and the reason: TOML syntax errors, unknown sections and keys, values
 * of the wrong type or out of range, missing required keys, unknown environment variables with the
 * {@code KEVY_BRIDGE_} prefix, and combinations a {@link SinkProvider#validate sink} refuses. Immutable.
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
     * @throws ConfigException naming file and line, or variable, key and reason
     */
    public static SidecarConfig load(Path file, Map<String, String> env) {
        return load(file, env, SinkProvider.installed());
    }

    /**
     * Loads {@code file}, overridden by the {@code KEVY_BRIDGE_*} entries of {@code env}, for one of
     * {@code providers}.
     *
     * @throws ConfigException naming file and line, or variable, key and reason
     */
    public static SidecarConfig load(Path file, Map<String, String> env, List<SinkProvider> providers) {
        Objects.requireNonNull(file, "file");
        TomlParseResult toml = ConfigReader.parse(file);
        ConfigReader r = new ConfigReader(file.toString());
        SinkProvider provider = null;
        for (String key : toml.keySet()) {
            TomlPosition pos = toml.inputPositionOf(List.of(key));
            if (key.equals("sink")) {
                provider = sinkType(r, toml, providers);
            } else if (!SidecarOptions.SECTIONS.contains(key)) {
                throw new ConfigException(r.at(pos) + ": unknown section [" + key + "] (known: "
                        + String.join(", ", SidecarOptions.SECTIONS) + ", sink.<type>)");
            } else if (!toml.isTable(List.of(key))) {
                throw new ConfigException(r.at(pos) + ": " + key + " must be a table [" + key + "]");
            }
        }
        if (provider == null) {
            throw new ConfigException(file + ": no [sink.<type>] section; one of: " + types(providers));
        }
        List<Option<?>> all = new ArrayList<>(SidecarOptions.ALL);
        all.addAll(provider.options());
        r.readTable(toml, "", all);
        checkEnvNames(env, providers);
        r.readEnv(env, all, SidecarOptions::env);
        r.checkRequired(all);
        OptionValues values = r.values(file.toString());
        validate(values);
        provider.validate(values);
        return new SidecarConfig(file, provider, values);
    }

    /** The provider of the one {@code [sink.<type>]} table. */
    private static SinkProvider sinkType(ConfigReader r, TomlParseResult toml, List<SinkProvider> providers) {
        TomlPosition pos = toml.inputPositionOf(List.of("sink"));
        if (!toml.isTable("sink")) {
            throw new ConfigException(r.at(pos) + ": sink must be a table [sink.<type>]");
        }
        TomlTable sink = toml.getTable("sink");
        if (sink.size() != 1) {
            throw new ConfigException(r.at(pos) + ": exactly one [sink.<type>] section, found "
                    + (sink.isEmpty() ? "none" : String.join(", ", sink.keySet())));
        }
        String type = sink.keySet().iterator().next();
        SinkProvider provider = providers.stream().filter(p -> p.type().equals(type)).findFirst().orElse(null);
        TomlPosition tp = sink.inputPositionOf(List.of(type));
        if (provider == null) {
            throw new ConfigException(r.at(tp) + ": unknown sink type [sink." + type + "] (this jar has: "
                    + types(providers) + ")");
        }
        if (!sink.isTable(List.of(type))) {
            throw new ConfigException(r.at(tp) + ": sink." + type + " must be a table");
        }
        return provider;
    }

    /** Every {@code KEVY_BRIDGE_*} variable must name a setting of the runtime or of an installed sink. */
    private static void checkEnvNames(Map<String, String> env, List<SinkProvider> providers) {
        List<Option<?>> known = new ArrayList<>(SidecarOptions.ALL);
        providers.forEach(p -> known.addAll(p.options()));
        Set<String> names = known.stream().map(SidecarOptions::env).filter(Objects::nonNull)
                .collect(Collectors.toSet());
        for (String name : new TreeMap<>(env).keySet()) {
            if (name.startsWith(SidecarOptions.ENV_PREFIX) && !names.contains(name)) {
                throw new ConfigException("environment variable " + name + ": unknown setting (the "
                        + SidecarOptions.ENV_PREFIX + "* variables name a config key, e.g. KEVY_BRIDGE_SOURCE_URI)");
            }
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
    public <T> T get(Option<T> option) {
        return values.get(option);
    }

    /** The options of this config (the runtime's and the sink's), in documentation order. */
    public List<Option<?>> options() {
        List<Option<?>> all = new ArrayList<>(SidecarOptions.ALL);
        all.addAll(provider.options());
        return all;
    }
}
