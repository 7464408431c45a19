package io.kevy.server.config;

import io.kevy.config.Sizes;
import io.kevy.config.Option;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One server setting, defined once: a typed handle on an {@link Option} (the one option type of kevy, shared with
 * the sidecar) whose TOML key is dotted for sections ({@code feed.enabled}) and which names its own environment
 * variable ({@code KEVY_FEED}). The factories below keep {@link ServerOptions} a declarative list: a new setting
 * is one entry there. {@code ConfigLoader} reads the table with {@code io.kevy.config.ConfigReader}. (A handle,
 * not a subclass: the factories' names are the option system's, with the server's arguments.)
 *
 * <p>Immutable and thread-safe.
 *
 * @param <T> the value type
 */
public final class ServerOption<T> {
    /** How the server's TOML errors name a boolean (pinned by ConfigLoaderTest). */
    private static final String TOML_BOOLEAN = "a TOML boolean (true or false)";

    private final Option<T> option;

    private ServerOption(Option<T> option) {
        this.option = option;
    }

    /** The option of the option system (what the loader and the docs renderer read). */
    public Option<T> option() {
        return option;
    }

    /** The TOML key, dotted for keys inside a section. */
    public String key() {
        return option.key();
    }

    /** The environment variable that overrides the TOML value. */
    public String env() {
        return option.env();
    }

    public T defaultValue() {
        return option.defaultValue();
    }

    public String description() {
        return option.description();
    }

    /** The key table's description (Markdown): the docs-only text, else the description. */
    public String docs() {
        return option.docs();
    }

    /** This option with a docs-only description (Markdown) for docs/operations.md ({@link Option#docs(String)}). */
    ServerOption<T> docs(String markdown) {
        return new ServerOption<>(option.docs(markdown));
    }

    /** This option with its default as docs/operations.md states it ({@link Option#defaultDocs(String)}). */
    ServerOption<T> defaultDocs(String markdown) {
        return new ServerOption<>(option.defaultDocs(markdown));
    }

    /** This option, secret: its value is never logged or printed ({@link Option#secret()}). */
    ServerOption<T> secret() {
        return new ServerOption<>(option.secret());
    }

    /** Whether the value is a secret (never logged or printed). */
    public boolean isSecret() {
        return option.isSecret();
    }

    /**
     * Parses a value read from TOML (Long, Double, Boolean, String, ...).
     *
     * @throws IllegalArgumentException with the reason when invalid
     */
    public T fromToml(Object value) {
        return option.fromToml(value);
    }

    /**
     * Parses a value given as a string (environment variable or flag).
     *
     * @throws IllegalArgumentException with the reason when invalid
     */
    public T fromString(String value) {
        return option.fromString(value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ServerOption<?> x && x.option.equals(option);
    }

    @Override
    public int hashCode() {
        return option.hashCode();
    }

    @Override
    public String toString() {
        return option.key();
    }

    private static String section(String key) {
        int dot = key.lastIndexOf('.');
        return dot < 0 ? "" : key.substring(0, dot);
    }

    private static String name(String key) {
        return key.substring(key.lastIndexOf('.') + 1);
    }

    /** An integer in [{@code min}, {@code max}]. */
    static ServerOption<Integer> integer(String key, String env, Supplier<Integer> def, int min, int max,
                                         String description) {
        return new ServerOption<>(Option.integer(section(key), name(key), 0, min, max, description)
                .map(Long::intValue, def).env(env));
    }

    /** A TOML boolean; strings accept true/false/yes/no/1/0/on/off. */
    static ServerOption<Boolean> bool(String key, String env, boolean def, String description) {
        return new ServerOption<>(Option.bool(section(key), name(key), def, description, TOML_BOOLEAN).env(env));
    }

    /** A string checked by {@code check} (which throws IllegalArgumentException). */
    static ServerOption<String> string(String key, String env, String def, String description,
                                       Function<String, String> check) {
        return new ServerOption<>(Option.string(section(key), name(key), def, description, check).env(env));
    }

    /** One of {@code allowed} (case-insensitive, stored lower case; the error lists them sorted). */
    static ServerOption<String> oneOf(String key, String env, String def, Set<String> allowed, String description) {
        List<String> sorted = allowed.stream().sorted().toList();
        return new ServerOption<>(Option.oneOf(section(key), name(key), def, sorted, description, false).env(env));
    }

    /**
     * A byte size (see {@link Sizes}); 0 stands for {@code zeroMeans}; values above {@code cap} are refused
     * with {@code capMessage}. The docs state the default in its unit ({@code "64mb"}, a TOML string).
     */
    static ServerOption<Long> size(String key, String env, long def, long zeroMeans, long cap, String capMessage,
                                   String description) {
        Function<Long, Long> check = v -> {
            if (v == 0) {
                return zeroMeans;
            }
            if (v > cap) {
                throw new IllegalArgumentException(capMessage);
            }
            return v;
        };
        return new ServerOption<>(Option.custom(section(key), name(key), Option.Kind.SIZE, () -> def, description,
                v -> check.apply(Sizes.parse(v)), s -> {
                    String t = s.trim();
                    Object v = t.chars().allMatch(Character::isDigit) && !t.isEmpty() ? (Object) parseLong(t) : t;
                    return check.apply(Sizes.parse(v));
                }).env(env).defaultDocs(def == 0 ? "`0`" : "`\"" + Sizes.format(def) + "\"`"));
    }

    private static Long parseLong(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + s + "' is too large");
        }
    }
}
