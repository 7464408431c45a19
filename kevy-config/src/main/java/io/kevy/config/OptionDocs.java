package io.kevy.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The one docs renderer of kevy's option tables, so that documentation cannot drift from the loader: the
 * Markdown key table ({@link #markdown}; tests compare {@code docs/bridges.md} with it) and the commented sample
 * TOML ({@link #sampleToml}; {@code kevy bridge --sample-config}). Each takes the table's environment naming
 * ({@link ConfigReader#derivedEnv} for the sidecar, the option's own for the server). Stateless.
 */
public final class OptionDocs {
    private OptionDocs() {
    }

    /**
     * A commented sample TOML: {@code header} (comment lines, each ending in a newline), then every section and
     * key of {@code options} with its description and default; optional keys are commented out at their
     * default, required ones carry their example. The default is the value itself, not
     * {@link Option#defaultDocs()}: a TOML line needs a value.
     */
    public static String sampleToml(String header, List<? extends Option<?>> options,
            Function<Option<?>, String> envName) {
        StringBuilder sb = new StringBuilder(header);
        for (Map.Entry<String, List<Option<?>>> s : bySection(options).entrySet()) {
            List<Option<?>> arrays = new ArrayList<>();
            sb.append('\n');
            if (!s.getKey().isEmpty()) { // root keys have no table header
                sb.append('[').append(s.getKey()).append("]\n");
            }
            for (Option<?> o : s.getValue()) {
                if (o.kind() == Option.Kind.TABLE_ARRAY || o.kind() == Option.Kind.STRING_TABLE) {
                    arrays.add(o);
                    continue;
                }
                entry(sb, o, envName.apply(o));
            }
            for (Option<?> a : arrays) {
                if (a.kind() == Option.Kind.STRING_TABLE) {
                    entry(sb, a, envName.apply(a));
                    continue;
                }
                comment(sb, a.description());
                sb.append("# [[").append(a.key()).append("]]\n");
                for (Option<?> f : a.fields()) {
                    sb.append("# ").append(f.name()).append(" = ")
                            .append(f.example() != null ? f.example() : literal(f)).append('\n');
                }
            }
        }
        return sb.toString();
    }

    private static void entry(StringBuilder sb, Option<?> o, String env) {
        comment(sb, o.description() + (env != null ? " (env " + env + ")" : ""));
        if (o.isRequired()) {
            sb.append(o.name()).append(" = ").append(o.example() != null ? o.example() : "\"\"").append('\n');
        } else if (o.kind() == Option.Kind.STRING_TABLE) {
            sb.append("# [").append(o.key()).append("]\n");
            if (o.example() != null) {
                sb.append("# ").append(o.example()).append('\n');
            }
        } else {
            sb.append("# ").append(o.name()).append(" = ").append(literal(o)).append('\n');
        }
    }

    private static void comment(StringBuilder sb, String text) {
        StringBuilder line = new StringBuilder("#");
        for (String word : text.split(" ")) {
            if (line.length() + word.length() + 1 > 110) {
                sb.append(line).append('\n');
                line = new StringBuilder("#");
            }
            line.append(' ').append(word);
        }
        sb.append(line).append('\n');
    }

    /** The default as a TOML literal ({@code "x"}, {@code 5}, {@code ["a", "b"]}); the example when required. */
    public static String literal(Option<?> o) {
        Object d = o.defaultValue();
        if (d == null) {
            return o.example() != null ? o.example() : "\"\"";
        }
        if (d instanceof String s) {
            return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        }
        if (d instanceof List<?> l) {
            List<String> parts = new ArrayList<>();
            for (Object x : l) {
                parts.add("\"" + x + "\"");
            }
            return "[" + String.join(", ", parts) + "]";
        }
        return String.valueOf(d);
    }

    /**
     * The Markdown table of {@code options}: key, type, default, environment variable, description. Arrays of
     * tables list their fields as {@code key[].field}. The description is {@link Option#docs()} (the docs-only
     * text when the option has one); the default is {@link Option#defaultDocs()} when the option states it,
     * else its value as a literal.
     */
    public static String markdown(List<? extends Option<?>> options, Function<Option<?>, String> envName) {
        StringBuilder sb = new StringBuilder("| key | type | default | environment | description |\n"
                + "|---|---|---|---|---|\n");
        for (Option<?> o : options) {
            row(sb, o, o.key(), envName.apply(o));
            for (Option<?> f : o.fields()) {
                row(sb, f, o.key() + "[]." + f.name(), null);
            }
        }
        return sb.toString();
    }

    private static void row(StringBuilder sb, Option<?> o, String key, String env) {
        String def = o.isRequired() ? "required" : o.defaultDocs() != null ? o.defaultDocs()
                : o.kind() == Option.Kind.TABLE_ARRAY || o.kind() == Option.Kind.STRING_TABLE ? "none"
                : "`" + literal(o) + "`";
        sb.append("| `").append(key).append("` | ").append(o.kind().word()).append(" | ").append(def).append(" | ")
                .append(env == null ? "" : "`" + env + "`").append(" | ")
                .append(o.docs().replace("|", "\\|")).append(" |\n");
    }

    /** The options by section in first-seen order, except that root keys come first (TOML puts them before any table). */
    private static Map<String, List<Option<?>>> bySection(List<? extends Option<?>> options) {
        Map<String, List<Option<?>>> m = new LinkedHashMap<>();
        if (options.stream().anyMatch(o -> o.section().isEmpty())) {
            m.put("", new ArrayList<>());
        }
        for (Option<?> o : options) {
            m.computeIfAbsent(o.section(), k -> new ArrayList<>()).add(o);
        }
        return m;
    }
}
