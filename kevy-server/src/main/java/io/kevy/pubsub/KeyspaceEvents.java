package io.kevy.pubsub;

/**
 * The classes of {@code notify-keyspace-events} as bits (Redis 7.0's {@code NOTIFY_*}): which events are
 * published, and on which channels ({@code K}: {@code __keyspace@0__:<key>} with the event as message,
 * {@code E}: {@code __keyevent@0__:<event>} with the key as message).
 *
 * <p>kevy fires {@code g $ l s h z x t}; {@code e} (kevy never evicts), {@code d} (no modules), {@code m} (key
 * misses are reads, not effects) and {@code n} (new keys: the effect frames do not say whether a key was new)
 * are accepted and never fire. Immutable helpers; thread-safe.
 */
public final class KeyspaceEvents {
    public static final int KEYSPACE = 1;
    public static final int KEYEVENT = 1 << 1;
    public static final int GENERIC = 1 << 2;
    public static final int STRING = 1 << 3;
    public static final int LIST = 1 << 4;
    public static final int SET = 1 << 5;
    public static final int HASH = 1 << 6;
    public static final int ZSET = 1 << 7;
    public static final int EXPIRED = 1 << 8;
    public static final int EVICTED = 1 << 9;
    public static final int STREAM = 1 << 10;
    public static final int KEY_MISS = 1 << 11;
    public static final int MODULE = 1 << 12;
    public static final int NEW = 1 << 13;
    /** {@code A}: every class but key misses and new keys (Redis 7.0's NOTIFY_ALL). */
    public static final int ALL = GENERIC | STRING | LIST | SET | HASH | ZSET | EXPIRED | EVICTED | STREAM | MODULE;

    private KeyspaceEvents() {
    }

    /**
     * The bits of a {@code notify-keyspace-events} value ({@code "KEA"}, {@code "Kx"}, ...), as Redis's
     * {@code keyspaceEventsStringToFlags}.
     *
     * @throws IllegalArgumentException on a character that is no class, with Redis's CONFIG SET message
     */
    public static int parse(String value) {
        int flags = 0;
        for (int i = 0; i < value.length(); i++) {
            flags |= switch (value.charAt(i)) {
                case 'A' -> ALL;
                case 'g' -> GENERIC;
                case '$' -> STRING;
                case 'l' -> LIST;
                case 's' -> SET;
                case 'h' -> HASH;
                case 'z' -> ZSET;
                case 'x' -> EXPIRED;
                case 'e' -> EVICTED;
                case 'K' -> KEYSPACE;
                case 'E' -> KEYEVENT;
                case 't' -> STREAM;
                case 'm' -> KEY_MISS;
                case 'd' -> MODULE;
                case 'n' -> NEW;
                default -> throw new IllegalArgumentException("Invalid event class character. Use 'Ag$lshzxeKEtmdn'.");
            };
        }
        return flags;
    }

    /** True when {@code flags} would publish anything: K or E, and at least one class. */
    public static boolean active(int flags) {
        return (flags & (KEYSPACE | KEYEVENT)) != 0 && (flags & ~(KEYSPACE | KEYEVENT)) != 0;
    }
}
