package io.kevy.server.config;

import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One server setting, defined once: its TOML key (dotted for sections, e.g. {@code feed.enabled}), its
 * environment variable, its default, a description for the docs, and the parsers that validate a TOML value
 * or a string (environment, command-line flag). See {@link ServerOptions} for the table.
 *
 * <p>Immutable and thread-safe.
 *
 * @param <T> the value type
 */
public final class ServerOption<T> {
    private final String key;
    private final String env;
    private final Supplier<T> defaultValue;
    private final String description;
    private final Function<Object, T> fromToml;
    private final Function<String, T> fromString;

    private ServerOption(String key, String env, Supplier<T> defaultValue, String description,
                         Function<Object, T> fromToml, Function<String, T> fromString) {
        this.key = key;
        this.env = env;
        this.defaultValue = defaultValue;
        this.description = description;
        this.fromToml = fromToml;
        this.fromString = fromString;
    }

    /** The TOML key, dotted for keys inside a section. */
    public String key() {
        return key;
    }

    /** The environment variable that overrides the TOML value. */
    public String env() {
        return env;
    }

    public T defaultValue() {
        return defaultValue.get();
    }

    public String description() {
        return description;
    }

    /**
     * Parses a value read from TOML (Long, Double, Boolean, String, ...).
     *
     * @throws IllegalArgumentException with the reason when invalid
     */
    public T fromToml(Object value) {
        return fromToml.apply(value);
    }

    /**
     * Parses a value given as a string (environment variable or flag).
     *
     * @throws IllegalArgumentException with the reason when invalid
     */
    public T fromString(String value) {
        return fromString.apply(value);
    }

    @Override
    public String toString() {
        return key;
    }

    /** An integer in [{@code min}, {@code max}]. */
    static ServerOption<Integer> integer(String key, String env, Supplier<Integer> def, int min, int max,
                                         String description) {
        Function<Long, Integer> check = v -> {
            if (v < min || v > max) {
                throw new IllegalArgumentException("must be between " + min + " and " + max + ", got " + v);
            }
            return v.intValue();
        };
        return new ServerOption<>(key, env, def, description, v -> {
            if (!(v instanceof Long l)) {
                throw new IllegalArgumentException("must be an integer, got " + describe(v));
            }
            return check.apply(l);
        }, s -> {
            try {
                return check.apply(Long.parseLong(s.trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("must be an integer, got '" + s + "'");
            }
        });
    }

    /** A TOML boolean; strings accept true/false/yes/no/1/0. */
    static ServerOption<Boolean> bool(String key, String env, boolean def, String description) {
        return new ServerOption<>(key, env, () -> def, description, v -> {
            if (!(v instanceof Boolean b)) {
                throw new IllegalArgumentException("must be a TOML boolean (true or false), got " + describe(v));
            }
            return b;
        }, s -> switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "1", "on" -> true;
            case "false", "no", "0", "off" -> false;
            default -> throw new IllegalArgumentException("must be true or false, got '" + s + "'");
        });
    }

    /** A string checked by {@code check} (which throws IllegalArgumentException). */
    static ServerOption<String> string(String key, String env, String def, String description,
                                       Function<String, String> check) {
        return new ServerOption<>(key, env, () -> def, description, v -> {
            if (!(v instanceof String s)) {
                throw new IllegalArgumentException("must be a string, got " + describe(v));
            }
            return check.apply(s);
        }, check);
    }

    /** One of {@code allowed} (case-insensitive, stored lower case). */
    static ServerOption<String> oneOf(String key, String env, String def, Set<String> allowed, String description) {
        return string(key, env, def, description, s -> {
            String l = s.toLowerCase(Locale.ROOT);
            if (!allowed.contains(l)) {
                throw new IllegalArgumentException("must be one of " + String.join(", ", allowed.stream().sorted()
                        .toList()) + ", got '" + s + "'");
            }
            return l;
        });
    }

    /**
     * A byte size (see {@link Sizes}); 0 stands for {@code zeroMeans}; values above {@code cap} are refused
     * with {@code capMessage}.
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
        return new ServerOption<>(key, env, () -> def, description, v -> check.apply(Sizes.parse(v)), s -> {
            String t = s.trim();
            Object v = t.chars().allMatch(Character::isDigit) && !t.isEmpty() ? (Object) parseLong(t) : t;
            return check.apply(Sizes.parse(v));
        });
    }

    private static Long parseLong(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + s + "' is too large");
        }
    }

    private static String describe(Object v) {
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
        return v == null ? "nothing" : v.getClass().getSimpleName().replace("Toml", "a TOML ").toLowerCase(Locale.ROOT);
    }
}
