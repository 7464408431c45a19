package io.kevy.feed.sidecar;

import io.kevy.feed.client.KevyConfigException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Resolved values of a set of {@link SidecarOption}s (a whole sidecar config, or one table of an array of
 * tables), each with where it came from ({@code bridge.toml:12}, {@code environment variable KEVY_BRIDGE_...},
 * or {@code default}) so that a check made later can still name file and line. Immutable and thread-safe.
 */
public final class OptionValues {
    private final Map<SidecarOption<?>, Object> values;
    private final Map<SidecarOption<?>, String> origins;
    private final String where;

    OptionValues(Map<SidecarOption<?>, Object> values, Map<SidecarOption<?>, String> origins, String where) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        this.origins = Collections.unmodifiableMap(new LinkedHashMap<>(origins));
        this.where = where;
    }

    /** Values of {@code options} at their defaults (for tests and tools). */
    public static OptionValues defaults(List<SidecarOption<?>> options) {
        Map<SidecarOption<?>, Object> v = new LinkedHashMap<>();
        for (SidecarOption<?> o : options) {
            if (o.defaultValue() != null) {
                v.put(o, o.defaultValue());
            }
        }
        return new OptionValues(v, Map.of(), "defaults");
    }

    /** A copy with {@code option} set to {@code value} (origin "set in code"), for tests and tools. */
    public <T> OptionValues with(SidecarOption<T> option, T value) {
        Map<SidecarOption<?>, Object> v = new LinkedHashMap<>(values);
        Map<SidecarOption<?>, String> o = new LinkedHashMap<>(origins);
        v.put(option, Objects.requireNonNull(value, "value"));
        o.put(option, "set in code");
        return new OptionValues(v, o, where);
    }

    /**
     * The value of {@code option} (its default when it was not given).
     *
     * @throws KevyConfigException when the option is required and was not given
     */
    @SuppressWarnings("unchecked")
    public <T> T get(SidecarOption<T> option) {
        Object v = values.get(option);
        if (v == null) {
            if (option.defaultValue() != null) {
                return option.defaultValue();
            }
            throw new KevyConfigException(where + ": " + option.key() + " is required (" + option.description()
                    + ")");
        }
        return (T) v;
    }

    /** True when the option was given (file, environment or code), not defaulted. */
    public boolean isSet(SidecarOption<?> option) {
        return origins.containsKey(option);
    }

    /** Where the option's value came from: {@code file:line}, an environment variable, or {@code default}. */
    public String origin(SidecarOption<?> option) {
        return origins.getOrDefault(option, "default");
    }

    /** A config error about {@code option}, naming where its value came from. */
    public KevyConfigException error(SidecarOption<?> option, String reason) {
        return new KevyConfigException(origin(option) + ": " + option.key() + ": " + reason);
    }

    /** The source these values were read from (the file, or "defaults"). */
    public String where() {
        return where;
    }

    /** The options that have a value (given or defaulted), in table order. */
    public Map<SidecarOption<?>, Object> asMap() {
        return values;
    }
}
