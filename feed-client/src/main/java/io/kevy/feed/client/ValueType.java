package io.kevy.feed.client;

import java.util.Locale;

/** The type of a key's value, as {@code TYPE} names it. */
public enum ValueType {
    STRING, LIST, SET, ZSET, HASH, STREAM,
    /** A type this client does not read (modules); the rebuild reports the key without a value. */
    OTHER;

    /** The TYPE reply's word, lower case ({@code "zset"}). */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The type for a TYPE reply; null for {@code none} (the key is gone). */
    public static ValueType ofTypeReply(String reply) {
        switch (reply.toLowerCase(Locale.ROOT)) {
            case "none":
                return null;
            case "string":
                return STRING;
            case "list":
                return LIST;
            case "set":
                return SET;
            case "zset":
                return ZSET;
            case "hash":
                return HASH;
            case "stream":
                return STREAM;
            default:
                return OTHER;
        }
    }
}
