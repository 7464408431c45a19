package io.kevy.bench;

import java.util.HashMap;
import java.util.Map;

/** {@code --name value} and {@code --flag} options of the harness main classes. */
final class Args {
    private final Map<String, String> values = new HashMap<>();

    Args(String[] argv, int from) {
        for (int i = from; i < argv.length; i++) {
            String a = argv[i];
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument " + a);
            }
            if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) {
                values.put(a.substring(2), argv[++i]);
            } else {
                values.put(a.substring(2), "true");
            }
        }
    }

    String string(String name, String dflt) {
        return values.getOrDefault(name, dflt);
    }

    int integer(String name, int dflt) {
        String v = values.get(name);
        return v == null ? dflt : Integer.parseInt(v.replace("_", ""));
    }

    boolean flag(String name) {
        return Boolean.parseBoolean(values.getOrDefault(name, "false"));
    }
}
