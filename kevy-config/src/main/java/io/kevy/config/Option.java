package io.kevy.feed.sidecar;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * One sidecar setting, defined once (in the spirit of Debezium's {@code Field}): its TOML section and key (the
 * unit is part of the key: {@code timeout_ms}), its type, its default, a description for the documentation and
 * the sample config, and the validator that turns a TOML value or an environment string into the typed value.
 * {@link SidecarOptions} holds the runtime's table; each {@link SinkProvider} brings the table of its
 * {@code [sink.<type>]} section.
 *
 * <p>Environment overrides: {@code KEVY_BRIDGE_} + the dotted key in upper case with {@code .} as {@code _}
 * ({@code source.uri} → {@code KEVY_BRIDGE_SOURCE_URI}, {@code sink.kafka.bootstrap_servers} →
 * {@code KEVY_BRIDGE_SINK_KAFKA_BOOTSTRAP_SERVERS}). Lists take comma-separated values; tables and arrays of
 * tables have no environment form.
 *
 * <p>Immutable and thread-safe.
 *
 * @param <T> the value type
 */
public final class SidecarOption<T> {
    /** The environment prefix of every override. */
    public static final String ENV_PREFIX = "KEVY_BRIDGE_";

    /** The shape of a value, for the docs and for the loader. */
    public enum Kind {
        STRING("string"), INTEGER("integer"), BOOLEAN("boolean"), ENUM("string"), STRING_LIST("list of strings"),
        STRING_TABLE("table of strings"), TABLE_ARRAY("array of tables");

        private final String word;

        Kind(String word) {
            this.word = word;
        }

        /** How the docs name the type. */
        public String word() {
            return word;
        }
    }

    private final String section;
    private final String name;
    private final Kind kind;
    private final T defaultValue;
    private final boolean required;
    private final boolean secret;
    private final String description;
    private final String example;
    private final Function<Object, T> parser;
    private final List<SidecarOption<?>> fields;
    private final boolean field;

    private SidecarOption(String section, String name, Kind kind, T defaultValue, boolean required, boolean secret,
            String description, String example, Function<Object, T> parser, List<SidecarOption<?>> fields) {
        this(section, name, kind, defaultValue, required, secret, description, example, parser, fields, false);
    }

    private SidecarOption(String section, String name, Kind kind, T defaultValue, boolean required, boolean secret,
            String description, String example, Function<Object, T> parser, List<SidecarOption<?>> fields,
            boolean field) {
        this.section = Objects.requireNonNull(section, "section");
        this.name = Objects.requireNonNull(name, "name");
        this.kind = kind;
        this.defaultValue = defaultValue;
        this.required = required;
        this.secret = secret;
        this.description = Objects.requireNonNull(description, "description");
        this.example = example;
        this.parser = parser;
        this.fields = List.copyOf(fields);
        this.field = field;
    }

    // ---- factories -------------------------------------------------------------------------------------------

    /** A string; {@code check} normalises it or throws {@link IllegalArgumentException} with the reason. */
    public static SidecarOption<String> string(String section, String name, String def, String description,
            Function<String, String> check) {
        return new SidecarOption<>(section, name, Kind.STRING, def, false, false, description, null, v -> {
            if (!(v instanceof String s)) {
                throw new IllegalArgumentException("must be a string, got " + describe(v));
            }
            return check.apply(s);
        }, List.of());
    }

    /** A string with no constraint. */
    public static SidecarOption<String> string(String section, String name, String def, String description) {
        return string(section, name, def, description, s -> s);
    }

    /** A string that must not be blank. */
    public static SidecarOption<String> nonBlank(String section, String name, String def, String description) {
        return string(section, name, def, description, s -> {
            if (s.isBlank()) {
                throw new IllegalArgumentException("must not be empty");
            }
            return s.trim();
        });
    }

    /** An integer in [{@code min}, {@code max}]; put the unit in the name ({@code _ms}, {@code _bytes}). */
    public static SidecarOption<Long> integer(String section, String name, long def, long min, long max,
            String description) {
        return new SidecarOption<>(section, name, Kind.INTEGER, def, false, false, description, null, v -> {
            long l;
            if (v instanceof Long x) {
                l = x;
            } else if (v instanceof String s) {
                try {
                    l = Long.parseLong(s.trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("must be an integer, got '" + s + "'");
                }
            } else {
                throw new IllegalArgumentException("must be an integer, got " + describe(v));
            }
            if (l < min || l > max) {
                throw new IllegalArgumentException("must be between " + min + " and " + max + ", got " + l);
            }
            return l;
        }, List.of());
    }

    /** A boolean; environment strings accept true/false/yes/no/1/0/on/off. */
    public static SidecarOption<Boolean> bool(String section, String name, boolean def, String description) {
        return new SidecarOption<>(section, name, Kind.BOOLEAN, def, false, false, description, null, v -> {
            if (v instanceof Boolean b) {
                return b;
            }
            if (v instanceof String s) {
                switch (s.trim().toLowerCase(Locale.ROOT)) {
                    case "true", "yes", "1", "on":
                        return true;
                    case "false", "no", "0", "off":
                        return false;
                    default:
                        throw new IllegalArgumentException("must be true or false, got '" + s + "'");
                }
            }
            throw new IllegalArgumentException("must be a boolean (true or false), got " + describe(v));
        }, List.of());
    }

    /** One of {@code allowed} (case-insensitive, the value is lower case). */
    public static SidecarOption<String> oneOf(String section, String name, String def, List<String> allowed,
            String description) {
        Set<String> set = Set.copyOf(allowed);
        return new SidecarOption<>(section, name, Kind.ENUM, def, false, false,
                description + " One of: " + String.join(", ", allowed) + ".", null, v -> {
                    if (!(v instanceof String s)) {
                        throw new IllegalArgumentException("must be a string, got " + describe(v));
                    }
                    String l = s.trim().toLowerCase(Locale.ROOT);
                    if (!set.contains(l)) {
                        throw new IllegalArgumentException("must be one of " + String.join(", ", allowed) + ", got '"
                                + s + "'");
                    }
                    return l;
                }, List.of());
    }

    /** A list of strings (environment: comma-separated); each element checked by {@code check}. */
    public static SidecarOption<List<String>> stringList(String section, String name, List<String> def,
            String description, Function<String, String> check) {
        return new SidecarOption<>(section, name, Kind.STRING_LIST, List.copyOf(def), false, false, description,
                null, v -> {
                    List<String> out = new ArrayList<>();
                    if (v instanceof String s) {
                        for (String part : s.split(",")) {
                            if (!part.isBlank()) {
                                out.add(check.apply(part.trim()));
                            }
                        }
                        return List.copyOf(out);
                    }
                    if (!(v instanceof List<?> l)) {
                        throw new IllegalArgumentException("must be an array of strings, got " + describe(v));
                    }
                    for (Object o : l) {
                        if (!(o instanceof String s)) {
                            throw new IllegalArgumentException("must be an array of strings, found " + describe(o));
                        }
                        out.add(check.apply(s));
                    }
                    return List.copyOf(out);
                }, List.of());
    }

    /**
     * A free-form table of string, integer or boolean values, kept as strings (e.g. Kafka producer properties:
     * {@code "linger.ms" = 5}); keys checked by {@code checkKey}. No environment form.
     */
    public static SidecarOption<Map<String, String>> stringTable(String section, String name, String description,
            Function<String, String> checkKey) {
        return new SidecarOption<>(section, name, Kind.STRING_TABLE, Map.of(), false, false, description, null,
                v -> {
                    if (!(v instanceof Map<?, ?> m)) {
                        throw new IllegalArgumentException("must be a table, got " + describe(v));
                    }
                    Map<String, String> out = new LinkedHashMap<>();
                    for (Map.Entry<?, ?> e : m.entrySet()) {
                        String k = checkKey.apply(String.valueOf(e.getKey()));
                        Object x = e.getValue();
                        if (!(x instanceof String || x instanceof Long || x instanceof Boolean || x instanceof Double)) {
                            throw new IllegalArgumentException("\"" + k + "\" must be a string, number or boolean, "
                                    + "got " + describe(x));
                        }
                        out.put(k, String.valueOf(x));
                    }
                    return Collections.unmodifiableMap(out);
                }, List.of());
    }

    /**
     * An array of tables ({@code [[section.name]]}), each table holding the options {@code fields} (their
     * section must be {@code section + "." + name}). The value is one {@link OptionValues} per table, in file
     * order. No environment form.
     */
    public static SidecarOption<List<OptionValues>> tables(String section, String name, String description,
            List<SidecarOption<?>> fields) {
        List<SidecarOption<?>> asFields = new ArrayList<>();
        for (SidecarOption<?> f : fields) {
            if (!f.section().equals(section + "." + name)) {
                throw new IllegalArgumentException(f.key() + " is not a field of " + section + "." + name);
            }
            asFields.add(f.asField());
        }
        return new SidecarOption<>(section, name, Kind.TABLE_ARRAY, List.of(), false, false, description, null,
                v -> {
                    throw new IllegalStateException("arrays of tables are read by the loader");
                }, asFields);
    }

    // ---- modifiers -------------------------------------------------------------------------------------------

    /** This option, required (no default: a missing value fails at start). */
    public SidecarOption<T> required() {
        return new SidecarOption<>(section, name, kind, null, true, secret, description, example, parser, fields);
    }

    /** This option, secret: its value is never logged or printed. */
    public SidecarOption<T> secret() {
        return new SidecarOption<>(section, name, kind, defaultValue, required, true, description, example, parser,
                fields);
    }

    /** This option with an example value (TOML literal) for the sample config. */
    public SidecarOption<T> example(String tomlLiteral) {
        return new SidecarOption<>(section, name, kind, defaultValue, required, secret, description, tomlLiteral,
                parser, fields);
    }

    /** This option as a field of an array of tables (no environment form); equal to this option. */
    private SidecarOption<T> asField() {
        return new SidecarOption<>(section, name, kind, defaultValue, required, secret, description, example, parser,
                fields, true);
    }

    // ---- accessors -------------------------------------------------------------------------------------------

    /** The TOML section, dotted ({@code source}, {@code sink.kafka}, {@code sink.kafka.routes}). */
    public String section() {
        return section;
    }

    /** The key inside the section. */
    public String name() {
        return name;
    }

    /** The dotted key, {@code section.name}. */
    public String key() {
        return section + "." + name;
    }

    /** The environment variable, or null for tables and arrays of tables. */
    public String env() {
        if (field || kind == Kind.STRING_TABLE || kind == Kind.TABLE_ARRAY) {
            return null;
        }
        return ENV_PREFIX + key().toUpperCase(Locale.ROOT).replace('.', '_');
    }

    public Kind kind() {
        return kind;
    }

    /** The default, or null when the option is required or has none. */
    public T defaultValue() {
        return defaultValue;
    }

    public boolean isRequired() {
        return required;
    }

    public boolean isSecret() {
        return secret;
    }

    public String description() {
        return description;
    }

    /** The example TOML literal for the sample config, or null. */
    public String example() {
        return example;
    }

    /** The options of each table of a {@link Kind#TABLE_ARRAY}; empty otherwise. */
    public List<SidecarOption<?>> fields() {
        return fields;
    }

    /**
     * Parses a TOML value (String, Long, Double, Boolean, List, Map) or an environment string.
     *
     * @throws IllegalArgumentException with the reason when the value does not fit
     */
    public T parse(Object value) {
        return parser.apply(value);
    }

    /** Options are equal when their keys are (one option per key). */
    @Override
    public boolean equals(Object o) {
        return o instanceof SidecarOption<?> x && x.key().equals(key());
    }

    @Override
    public int hashCode() {
        return key().hashCode();
    }

    @Override
    public String toString() {
        return key();
    }

    static String describe(Object v) {
        if (v instanceof String s) {
            return "the string \"" + s + "\"";
        }
        if (v instanceof Double d) {
            return "the float " + d;
        }
        if (v instanceof Long l) {
            return "the integer " + l;
        }
        if (v instanceof Boolean b) {
            return "the boolean " + b;
        }
        if (v instanceof List) {
            return "an array";
        }
        if (v instanceof Map) {
            return "a table";
        }
        return v == null ? "nothing" : "a " + v.getClass().getSimpleName();
    }
}
