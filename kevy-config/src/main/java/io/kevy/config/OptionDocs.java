package io.kevy.feed.sidecar;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Documentation generated from the option tables, so that it cannot drift from the loader: the sample config of
 * a sink type ({@code kevy bridge --sample-config kafka}) and the Markdown key tables of {@code docs/bridges.md}
 * (a test compares the file with {@link #markdown}). Stateless.
 */
public final class ConfigDocs {
    private ConfigDocs() {
    }

    /**
     * A commented sample TOML for {@code provider}: every section and key with its description and default;
     * optional keys are commented out at their default, required ones carry their example.
     */
    public static String sample(SinkProvider provider) {
        StringBuilder sb = new StringBuilder();
        sb.append("# kevy bridge: sink ").append(provider.type())
                .append(" (generated from the option tables: kevy bridge --sample-config ").append(provider.type())
                .append(")\n# Every key may be overridden by its environment variable (KEVY_BRIDGE_<SECTION>_<KEY>).\n");
        for (Map.Entry<String, List<SidecarOption<?>>> s : bySection(all(provider)).entrySet()) {
            List<SidecarOption<?>> arrays = new ArrayList<>();
            sb.append("\n[").append(s.getKey()).append("]\n");
            for (SidecarOption<?> o : s.getValue()) {
                if (o.kind() == SidecarOption.Kind.TABLE_ARRAY || o.kind() == SidecarOption.Kind.STRING_TABLE) {
                    arrays.add(o);
                    continue;
                }
                entry(sb, o, "");
            }
            for (SidecarOption<?> a : arrays) {
                if (a.kind() == SidecarOption.Kind.STRING_TABLE) {
                    entry(sb, a, "");
                    continue;
                }
                comment(sb, a.description(), "");
                sb.append("# [[").append(a.key()).append("]]\n");
                for (SidecarOption<?> f : a.fields()) {
                    sb.append("# ").append(f.name()).append(" = ")
                            .append(f.example() != null ? f.example() : literal(f)).append('\n');
                }
            }
        }
        return sb.toString();
    }

    private static void entry(StringBuilder sb, SidecarOption<?> o, String indent) {
        comment(sb, o.description() + (o.env() != null ? " (env " + o.env() + ")" : ""), indent);
        if (o.isRequired()) {
            sb.append(o.name()).append(" = ").append(o.example() != null ? o.example() : "\"\"").append('\n');
        } else if (o.kind() == SidecarOption.Kind.STRING_TABLE) {
            sb.append("# [").append(o.key()).append("]\n");
            if (o.example() != null) {
                sb.append("# ").append(o.example()).append('\n');
            }
        } else {
            sb.append("# ").append(o.name()).append(" = ").append(literal(o)).append('\n');
        }
    }

    private static void comment(StringBuilder sb, String text, String indent) {
        StringBuilder line = new StringBuilder(indent + "#");
        for (String word : text.split(" ")) {
            if (line.length() + word.length() + 1 > 110) {
                sb.append(line).append('\n');
                line = new StringBuilder(indent + "#");
            }
            line.append(' ').append(word);
        }
        sb.append(line).append('\n');
    }

    /** The default as a TOML literal. */
    static String literal(SidecarOption<?> o) {
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
     * tables list their fields as {@code key[].field}.
     */
    public static String markdown(List<SidecarOption<?>> options) {
        StringBuilder sb = new StringBuilder("| key | type | default | environment | description |\n"
                + "|---|---|---|---|---|\n");
        for (SidecarOption<?> o : options) {
            row(sb, o, o.key());
            for (SidecarOption<?> f : o.fields()) {
                row(sb, f, o.key() + "[]." + f.name());
            }
        }
        return sb.toString();
    }

    private static void row(StringBuilder sb, SidecarOption<?> o, String key) {
        String def = o.isRequired() ? "required" : o.kind() == SidecarOption.Kind.TABLE_ARRAY
                || o.kind() == SidecarOption.Kind.STRING_TABLE ? "none" : "`" + literal(o) + "`";
        sb.append("| `").append(key).append("` | ").append(o.kind().word()).append(" | ").append(def).append(" | ")
                .append(o.env() == null ? "" : "`" + o.env() + "`").append(" | ")
                .append(o.description().replace("|", "\\|")).append(" |\n");
    }

    /** The runtime's options followed by the provider's. */
    public static List<SidecarOption<?>> all(SinkProvider provider) {
        List<SidecarOption<?>> all = new ArrayList<>(SidecarOptions.ALL);
        all.addAll(provider.options());
        return all;
    }

    private static Map<String, List<SidecarOption<?>>> bySection(List<SidecarOption<?>> options) {
        Map<String, List<SidecarOption<?>>> m = new LinkedHashMap<>();
        for (SidecarOption<?> o : options) {
            m.computeIfAbsent(o.section(), k -> new ArrayList<>()).add(o);
        }
        return m;
    }
}
