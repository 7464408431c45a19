package io.kevy.examples.search;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One package of the Debian catalog, with the five fields the examples keep. Stored in kevy as the hash
 * {@code pkg:<name>} with fields {@code name}, {@code version}, {@code section}, {@code maintainer},
 * {@code description} (a field the record lacks, e.g. a package without a section, is left out).
 *
 * @param name        the package name (never empty)
 * @param version     its version, e.g. {@code 1.2.13.dfsg-1}
 * @param section     e.g. {@code libs}; empty when the record has none
 * @param maintainer  e.g. {@code Mark Brown <broonie@debian.org>}; empty when none
 * @param description the synopsis, then the long description's lines (if any) after a newline
 */
public record DebianPackage(String name, String version, String section, String maintainer, String description) {
    /** The key prefix of package hashes. */
    public static final String PREFIX = "pkg:";

    public DebianPackage {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("a package needs a name");
        }
        version = Objects.requireNonNullElse(version, "");
        section = Objects.requireNonNullElse(section, "");
        maintainer = Objects.requireNonNullElse(maintainer, "");
        description = Objects.requireNonNullElse(description, "");
    }

    /** {@code pkg:<name>}. */
    public String key() {
        return PREFIX + name;
    }

    /** The first line of the description. */
    public String synopsis() {
        int nl = description.indexOf('\n');
        return nl < 0 ? description : description.substring(0, nl);
    }

    /** The hash fields, in a fixed order, without empty ones. */
    public Map<String, String> fields() {
        Map<String, String> m = new LinkedHashMap<>();
        put(m, "name", name);
        put(m, "version", version);
        put(m, "section", section);
        put(m, "maintainer", maintainer);
        put(m, "description", description);
        return m;
    }

    private static void put(Map<String, String> m, String field, String value) {
        if (!value.isEmpty()) {
            m.put(field, value);
        }
    }
}
