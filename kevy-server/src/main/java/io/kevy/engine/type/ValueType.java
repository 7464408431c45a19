package io.kevy.engine.type;

/** The Redis data types kevy stores, with the names TYPE and SCAN TYPE use. */
public enum ValueType {
    STRING("string"),
    LIST("list"),
    SET("set"),
    ZSET("zset"),
    HASH("hash"),
    STREAM("stream");

    private final String typeName;

    ValueType(String typeName) {
        this.typeName = typeName;
    }

    /** The name TYPE replies with, e.g. {@code "string"}. */
    public String typeName() {
        return typeName;
    }

    /** The type named {@code name} (case-insensitive), or null. */
    public static ValueType fromName(String name) {
        for (ValueType t : values()) {
            if (t.typeName.equalsIgnoreCase(name)) {
                return t;
            }
        }
        return null;
    }
}
