package io.kevy.feed.sidecar;

import io.kevy.config.OptionValues;
import io.kevy.config.Option;
import java.util.regex.Pattern;

/** Keeps secrets out of logs and printed settings. Stateless. */
public final class Secrets {
    private static final Pattern USERINFO = Pattern.compile("^([a-zA-Z][a-zA-Z0-9+.-]*://)([^@/]*)@");
    /** What a hidden value prints as. */
    public static final String MASK = "****";

    private Secrets() {
    }

    /** {@code uri} with the password of its user info replaced by {@link #MASK} ({@code redis://u:****@h:p}). */
    public static String maskUri(String uri) {
        var m = USERINFO.matcher(uri);
        if (!m.find()) {
            return uri;
        }
        String info = m.group(2);
        int colon = info.indexOf(':');
        String masked = colon < 0 ? MASK : info.substring(0, colon) + ":" + MASK;
        return m.group(1) + masked + "@" + uri.substring(m.end());
    }

    /** True when a free-form property name looks like it holds a secret (password, secret, token, jaas, key). */
    public static boolean looksSecret(String name) {
        String n = name.toLowerCase(java.util.Locale.ROOT);
        return n.contains("password") || n.contains("secret") || n.contains("token") || n.contains("jaas")
                || n.contains("credential") || n.endsWith(".key") || n.contains("apikey") || n.contains("api.key");
    }

    /** How an option's value may be printed: masked when secret, URIs without passwords. */
    public static String printable(Option<?> option, Object value) {
        if (option.isSecret()) {
            return value == null || String.valueOf(value).isEmpty() ? "" : MASK;
        }
        if (value instanceof String s && (option.name().endsWith("uri") || option.name().endsWith("url"))) {
            return maskUri(s);
        }
        if (value instanceof java.util.Map<?, ?> m) {
            java.util.Map<Object, Object> out = new java.util.LinkedHashMap<>();
            m.forEach((k, v) -> out.put(k, looksSecret(String.valueOf(k)) ? MASK : v));
            return out.toString();
        }
        if (value instanceof java.util.List<?> l && !l.isEmpty() && l.get(0) instanceof OptionValues) {
            java.util.List<String> parts = new java.util.ArrayList<>();
            for (Object o : l) {
                java.util.List<String> fields = new java.util.ArrayList<>();
                ((OptionValues) o).asMap().forEach((k, v) -> fields.add(k.name() + "=" + printable(k, v)));
                parts.add("{" + String.join(", ", fields) + "}");
            }
            return parts.toString();
        }
        return String.valueOf(value);
    }
}
