package io.kevy.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One setting, defined once (in the spirit of Debezium's {@code Field}): its TOML section and key (the unit is
 * part of the key: {@code timeout_ms}), its type, its default, a description for the documentation and the
 * sample config, and the validators that turn a TOML value or a string (environment variable, command-line flag)
 * into the typed value; optionally a longer Markdown text and a stated default for the generated key table
 * ({@link #docs(String)}, {@link #defaultDocs(String)}). The one option type of kevy: the server's table
 * ({@code ServerOptions}), the sidecar runtime's ({@code SidecarOptions}) and each sink's are lists of these,
 * read by {@link ConfigReader} and rendered by {@link OptionDocs}.
 *
 * <p>Environment variables: an option may name its own ({@link #env(String)}, the server's {@code KEVY_PORT});
 * otherwise the table it is read with derives one ({@link ConfigReader#derivedEnv(String, Option)}: {@code KEVY_BRIDGE_}
 * + the dotted key in upper case with {@code .} as {@code _}). Lists take comma-separated values; tables and
 * arrays of tables have no environment form.
 *
 * <p>Immutable and thread-safe.
 *
 * @param <T> the value type
 */
public class Option<T> {
    /** The shape of a value, for the docs and for the loader. */
    public enum Kind {
        STRING("string"), INTEGER("integer"), BOOLEAN("boolean"), ENUM("string"), STRING_LIST("list of strings"),
        STRING_TABLE("table of strings"), TABLE_ARRAY("array of tables"), SIZE("size");

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
    private final Supplier<T> defaultValue;
    private final boolean required;
    private final boolean secret;
    private final String description;
    private final String example;
    private final Function<Object, T> fromToml;
    private final Function<String, T> fromString;
    private final List<Option<?>> fields;
    private final boolean field;
    private final String env;
    private final String docs;
    private final String defaultDocs;

    private Option(String section, String name, Kind kind, Supplier<T> defaultValue, boolean required,
            boolean secret, String description, String example, Function<Object, T> fromToml,
            Function<String, T> fromString, List<Option<?>> fields, boolean field, String env, String docs,
            String defaultDocs) {
        this.section = Objects.requireNonNull(section, "section");
        this.name = Objects.requireNonNull(name, "name");
        this.kind = kind;
        this.defaultValue = defaultValue;
        this.required = required;
        this.secret = secret;
        this.description = Objects.requireNonNull(description, "description");
        this.example = example;
        this.fromToml = fromToml;
        this.fromString = fromString;
        this.fields = List.copyOf(fields);
        this.field = field;
        this.env = env;
        this.docs = docs;
        this.defaultDocs = defaultDocs;
    }

    /** A copy of {@code o}: for subclasses that name a table's options by their own type ({@code ServerOption}). */
    protected Option(Option<T> o) {
        this(o.section, o.name, o.kind, o.defaultValue, o.required, o.secret, o.description, o.example, o.fromToml,
                o.fromString, o.fields, o.field, o.env, o.docs, o.defaultDocs);
    }

        /**
     * An option of {@code kind} with its own parsers: {@code fromToml} gets the TOML value (String, Long, Double,
     * Boolean, List, Map), {@code fromString} an environment or flag string; each throws
     * {@link IllegalArgumentException} with the reason.
     */
    public static <T> Option<T> custom(String section, String name, Kind kind, Supplier<T> def, String description,
            Function<Object, T> fromToml, Function<String, T> fromString) {
        return new Option<>(section, name, kind, def, false, false, description, null, fromToml, fromString,
                List.of(), false, null, null, null);
    }

    // ---- factories -------------------------------------------------------------------------------------------

    /** A string; {@code check} normalises it or throws {@link IllegalArgumentException} with the reason. */
    public static Option<String> string(String section, String name, String def, String description,
            Function<String, String> check) {
        return custom(section, name, Kind.STRING, () -> def, description, v -> {
            if (!(v instanceof String s)) {
                throw new IllegalArgumentException("must be a string, got " + describe(v));
            }
            return check.apply(s);
        }, check);
    }

    /** A string with no constraint. */
    public static Option<String> string(String section, String name, String def, String description) {
        return string(section, name, def, description, s -> s);
    }

    /** A string that must not be blank (stored trimmed). */
    public static Option<String> nonBlank(String section, String name, String def, String description) {
        return string(section, name, def, description, s -> {
            if (s.isBlank()) {
                throw new IllegalArgumentException("must not be empty");
            }
            return s.trim();
        });
    }

    /** An integer in [{@code min}, {@code max}]; put the unit in the name ({@code _ms}, {@code _bytes}). */
    public static Option<Long> integer(String section, String name, long def, long min, long max,
            String description) {
        Function<Long, Long> range = l -> {
            if (l < min || l > max) {
                throw new IllegalArgumentException("must be between " + min + " and " + max + ", got " + l);
            }
            return l;
        };
        return custom(section, name, Kind.INTEGER, () -> def, description, v -> {
            if (!(v instanceof Long l)) {
                throw new IllegalArgumentException("must be an integer, got " + describe(v));
            }
            return range.apply(l);
        }, s -> {
            try {
                return range.apply(Long.parseLong(s.trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("must be an integer, got '" + s + "'");
            }
        });
    }

    /**
     * A boolean; strings accept true/false/yes/no/1/0/on/off. {@code tomlType} is how the TOML error names the
     * type ("a boolean (true or false)" for the sidecar, "a TOML boolean (true or false)" for the server: the two
     * wordings predate the one option system and tests pin both).
     */
    public static Option<Boolean> bool(String section, String name, boolean def, String description,
            String tomlType) {
        return custom(section, name, Kind.BOOLEAN, () -> def, description, v -> {
            if (!(v instanceof Boolean b)) {
                throw new IllegalArgumentException("must be " + tomlType + ", got " + describe(v));
            }
            return b;
        }, s -> switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "1", "on" -> true;
            case "false", "no", "0", "off" -> false;
            default -> throw new IllegalArgumentException("must be true or false, got '" + s + "'");
        });
    }

    /** A boolean; strings accept true/false/yes/no/1/0/on/off. */
    public static Option<Boolean> bool(String section, String name, boolean def, String description) {
        return bool(section, name, def, description, "a boolean (true or false)");
    }

    /**
     * One of {@code allowed} (case-insensitive, trimmed, the value is lower case); {@code listInDescription}
     * appends "One of: ..." to the description (the sidecar's tables do, for their generated docs).
     */
    public static Option<String> oneOf(String section, String name, String def, List<String> allowed,
            String description, boolean listInDescription) {
        Set<String> set = Set.copyOf(allowed);
        return string(section, name, def, listInDescription ? description + " One of: " + String.join(", ", allowed)
                + "." : description, s -> {
                    String l = s.trim().toLowerCase(Locale.ROOT);
                    if (!set.contains(l)) {
                        throw new IllegalArgumentException("must be one of " + String.join(", ", allowed) + ", got '"
                                + s + "'");
                    }
                    return l;
                }).kind(Kind.ENUM);
    }

    /** One of {@code allowed}, listed in the description. */
    public static Option<String> oneOf(String section, String name, String def, List<String> allowed,
            String description) {
        return oneOf(section, name, def, allowed, description, true);
    }

    /** A list of strings (environment: comma-separated); each element checked by {@code check}. */
    public static Option<List<String>> stringList(String section, String name, List<String> def,
            String description, Function<String, String> check) {
        List<String> d = List.copyOf(def);
        return custom(section, name, Kind.STRING_LIST, () -> d, description, v -> {
            if (!(v instanceof List<?> l)) {
                throw new IllegalArgumentException("must be an array of strings, got " + describe(v));
            }
            List<String> out = new ArrayList<>();
            for (Object o : l) {
                if (!(o instanceof String s)) {
                    throw new IllegalArgumentException("must be an array of strings, found " + describe(o));
                }
                out.add(check.apply(s));
            }
            return List.copyOf(out);
        }, s -> {
            List<String> out = new ArrayList<>();
            for (String part : s.split(",")) {
                if (!part.isBlank()) {
                    out.add(check.apply(part.trim()));
                }
            }
            return List.copyOf(out);
        });
    }

    /**
     * A free-form table of string, integer or boolean values, kept as strings (e.g. Kafka producer properties:
     * {@code "linger.ms" = 5}); keys checked by {@code checkKey}. No environment form.
     */
    public static Option<Map<String, String>> stringTable(String section, String name, String description,
            Function<String, String> checkKey) {
        return custom(section, name, Kind.STRING_TABLE, Map::of, description, v -> {
            if (!(v instanceof Map<?, ?> m)) {
                throw new IllegalArgumentException("must be a table, got " + describe(v));
            }
            Map<String, String> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                String k = checkKey.apply(String.valueOf(e.getKey()));
                Object x = e.getValue();
                if (!(x instanceof String || x instanceof Long || x instanceof Boolean || x instanceof Double)) {
                    throw new IllegalArgumentException("\"" + k + "\" must be a string, number or boolean, got "
                            + describe(x));
                }
                out.put(k, String.valueOf(x));
            }
            return Collections.unmodifiableMap(out);
        }, s -> {
            throw new IllegalArgumentException("a table has no string form");
        });
    }

    /**
     * An array of tables ({@code [[section.name]]}), each table holding the options {@code fields} (their
     * section must be {@code section + "." + name}). The value is one {@link OptionValues} per table, in file
     * order. No environment form.
     */
    public static Option<List<OptionValues>> tables(String section, String name, String description,
            List<Option<?>> fields) {
        List<Option<?>> asFields = new ArrayList<>();
        for (Option<?> f : fields) {
            if (!f.section().equals(section + "." + name)) {
                throw new IllegalArgumentException(f.key() + " is not a field of " + section + "." + name);
            }
            asFields.add(f.asField());
        }
        Function<Object, List<OptionValues>> byLoader = v -> {
            throw new IllegalStateException("arrays of tables are read by the loader");
        };
        return new Option<>(section, name, Kind.TABLE_ARRAY, List::of, false, false, description, null, byLoader,
                byLoader::apply, asFields, false, null, null, null);
    }

    // ---- modifiers -------------------------------------------------------------------------------------------

    /** This option, required (no default: a missing value fails at start). */
    public Option<T> required() {
        return new Option<>(section, name, kind, () -> null, true, secret, description, example, fromToml,
                fromString, fields, field, env, docs, defaultDocs);
    }

    /** This option, secret: its value is never logged or printed. */
    public Option<T> secret() {
        return new Option<>(section, name, kind, defaultValue, required, true, description, example, fromToml,
                fromString, fields, field, env, docs, defaultDocs);
    }

    /** This option with an example value (TOML literal) for the sample config. */
    public Option<T> example(String tomlLiteral) {
        return new Option<>(section, name, kind, defaultValue, required, secret, description, tomlLiteral,
                fromToml, fromString, fields, field, env, docs, defaultDocs);
    }

    /** This option with its own environment variable (instead of the one its table derives). */
    public Option<T> env(String variable) {
        return new Option<>(section, name, kind, defaultValue, required, secret, description, example, fromToml,
                fromString, fields, field, Objects.requireNonNull(variable, "variable"), docs, defaultDocs);
    }

    /** This option with a default computed when asked (e.g. from the processor count). */
    public Option<T> defaultValue(Supplier<T> def) {
        return new Option<>(section, name, kind, def, required, secret, description, example, fromToml, fromString,
                fields, field, env, docs, defaultDocs);
    }

    /** This option documented as {@code kind}. */
    public Option<T> kind(Kind newKind) {
        return new Option<>(section, name, newKind, defaultValue, required, secret, description, example, fromToml,
                fromString, fields, field, env, docs, defaultDocs);
    }

    /** This option with its values converted by {@code f} (e.g. a range-checked Long to an Integer). */
    public <R> Option<R> map(Function<T, R> f, Supplier<R> def) {
        return new Option<>(section, name, kind, def, required, secret, description, example, fromToml.andThen(f),
                fromString.andThen(f), fields, field, env, docs, defaultDocs);
    }

    /**
     * This option with a docs-only description: Markdown (links, inline code) for the generated key table, where
     * a row says more than the one-line {@link #description()} that the sample config and a help text print.
     */
    public Option<T> docs(String markdown) {
        return new Option<>(section, name, kind, defaultValue, required, secret, description, example, fromToml,
                fromString, fields, field, env, Objects.requireNonNull(markdown, "markdown"), defaultDocs);
    }

    /**
     * This option with its default as the key table states it (Markdown), instead of the value rendered as a
     * literal: an expression for a default computed on the machine ({@code available processors}), which the
     * docs must not print as the value of the machine that generated them, or a size in its unit.
     */
    public Option<T> defaultDocs(String markdown) {
        return new Option<>(section, name, kind, defaultValue, required, secret, description, example, fromToml,
                fromString, fields, field, env, docs, Objects.requireNonNull(markdown, "markdown"));
    }

    /** This option as a field of an array of tables (no environment form); equal to this option. */
    private Option<T> asField() {
        return new Option<>(section, name, kind, defaultValue, required, secret, description, example, fromToml,
                fromString, fields, true, env, docs, defaultDocs);
    }

    // ---- accessors -------------------------------------------------------------------------------------------

    /** The TOML section, dotted ({@code source}, {@code sink.kafka}, {@code sink.kafka.routes}); "" at the root. */
    public String section() {
        return section;
    }

    /** The key inside the section. */
    public String name() {
        return name;
    }

    /** The dotted key, {@code section.name} ({@code name} at the root). */
    public String key() {
        return section.isEmpty() ? name : section + "." + name;
    }

    /** The option's own environment variable, or null when its table derives it (or it has none). */
    public String env() {
        return env;
    }

    /** Whether a value can come from an environment variable or flag (not tables, arrays of tables, fields). */
    public boolean hasStringForm() {
        return !field && kind != Kind.STRING_TABLE && kind != Kind.TABLE_ARRAY;
    }

    public Kind kind() {
        return kind;
    }

    /** The default, or null when the option is required or has none. */
    public T defaultValue() {
        return defaultValue.get();
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

    /** The key table's description (Markdown): the {@link #docs(String) docs-only one}, else the description. */
    public String docs() {
        return docs != null ? docs : description;
    }

    /** The key table's text for the default ({@link #defaultDocs(String)}), or null to render the value. */
    public String defaultDocs() {
        return defaultDocs;
    }

    /** The example TOML literal for the sample config, or null. */
    public String example() {
        return example;
    }

    /** The options of each table of a {@link Kind#TABLE_ARRAY}; empty otherwise. */
    public List<Option<?>> fields() {
        return fields;
    }

    /**
     * Parses a value read from TOML (String, Long, Double, Boolean, List, Map).
     *
     * @throws IllegalArgumentException with the reason when the value does not fit
     */
    public T fromToml(Object value) {
        return fromToml.apply(value);
    }

    /**
     * Parses a value given as a string (environment variable or command-line flag).
     *
     * @throws IllegalArgumentException with the reason when the value does not fit
     */
    public T fromString(String value) {
        return fromString.apply(value);
    }

    /** Options are equal when their keys are (one option per key). */
    @Override
    public boolean equals(Object o) {
        return o instanceof Option<?> x && x.key().equals(key());
    }

    @Override
    public int hashCode() {
        return key().hashCode();
    }

    @Override
    public String toString() {
        return key();
    }

    /** How an error names a value that does not fit: {@code the string "x"}, {@code an array}, ... */
    public static String describe(Object v) {
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
