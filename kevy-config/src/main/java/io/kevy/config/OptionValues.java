package io.kevy.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Resolved values of a set of {@link Option}s (a whole server or sidecar config, or one table of an array of
 * tables), each with where it came from ({@code bridge.toml:12}, {@code environment variable KEVY_BRIDGE_...},
 * or {@code default}) so that a check made later can still name file and line. Immutable and thread-safe.
 */
public final class OptionValues {
    private final Map<Option<?>, Object> values;
    private final Map<Option<?>, String> origins;
    private final String where;

    public OptionValues(Map<Option<?>, Object> values, Map<Option<?>, String> origins, String where) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        this.origins = Collections.unmodifiableMap(new LinkedHashMap<>(origins));
        this.where = where;
    }

    /** Values of {@code options} at their defaults (for tests and tools). */
    public static OptionValues defaults(List<Option<?>> options) {
        Map<Option<?>, Object> v = new LinkedHashMap<>();
        for (Option<?> o : options) {
            if (o.defaultValue() != null) {
                v.put(o, o.defaultValue());
            }
        }
        return new OptionValues(v, Map.of(), "defaults");
    }

    /** A copy with {@code option} set to {@code value} (origin "set in code"), for tests and tools. */
    public <T> OptionValues with(Option<T> option, T value) {
        Map<Option<?>, Object> v = new LinkedHashMap<>(values);
        Map<Option<?>, String> o = new LinkedHashMap<>(origins);
        v.put(option, Objects.requireNonNull(value, "value"));
        o.put(option, "set in code");
        return new OptionValues(v, o, where);
    }

    /**
     * The value of {@code option} (its default when it was not given).
     *
     * @throws ConfigException when the option is required and was not given
     */
    @SuppressWarnings("unchecked")
    public <T> T get(Option<T> option) {
        Object v = values.get(option);
        if (v == null) {
            if (option.defaultValue() != null) {
                return option.defaultValue();
            }
            throw new ConfigException(where + ": " + option.key() + " is required (" + option.description()
                    + ")");
        }
        return (T) v;
    }

    /** True when the option was given (file, environment or code), not defaulted. */
    public boolean isSet(Option<?> option) {
        return origins.containsKey(option);
    }

    /** Where the option's value came from: {@code file:line}, an environment variable, or {@code default}. */
    public String origin(Option<?> option) {
        return origins.getOrDefault(option, "default");
    }

    /** A config error about {@code option}, naming where its value came from. */
    public ConfigException error(Option<?> option, String reason) {
        return new ConfigException(origin(option) + ": " + option.key() + ": " + reason);
    }

    /** The source these values were read from (the file, or "defaults"). */
    public String where() {
        return where;
    }

    /** The options that have a value (given or defaulted), in table order. */
    public Map<Option<?>, Object> asMap() {
        return values;
    }
}
