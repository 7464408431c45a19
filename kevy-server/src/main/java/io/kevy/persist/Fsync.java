package io.kevy.persist;

import java.util.Locale;

/**
 * When the AOF is flushed to stable storage ({@code appendfsync}).
 *
 * <ul>
 *   <li>{@link #ALWAYS}: a write's reply is released only after the fsync that covers it; fsyncs are shared
 *       by every write that arrived meanwhile (group commit). Nothing acknowledged is ever lost.</li>
 *   <li>{@link #EVERYSEC}: frames are written to the OS as soon as the writer thread runs (within about a
 *       millisecond) and fsynced at most once a second. A process crash loses the frames not yet written
 *       (typically under 1 ms of writes); a power loss loses up to about 1 s.</li>
 *   <li>{@link #NO}: written as with everysec, fsynced when the OS decides.</li>
 * </ul>
 */
public enum Fsync {
    ALWAYS, EVERYSEC, NO;

    /** Parses {@code always|everysec|no} (case-insensitive). */
    public static Fsync parse(String s) {
        return valueOf(s.toUpperCase(Locale.ROOT));
    }

    /** The config spelling. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
