package io.kevy.pubsub;

/**
 * The {@code pubsub} class of {@code client-output-buffer-limit} (Redis 7.0 default {@code pubsub 32mb 8mb 60}):
 * a subscriber whose unsent output reaches {@code hardBytes}, or stays at or over {@code softBytes} for more than
 * {@code softSeconds}, is disconnected. 0 turns a limit off. The rule is Redis's
 * {@code checkClientOutputBufferLimits}, checked when a message is queued.
 *
 * @param hardBytes   the hard limit in bytes, 0 for none
 * @param softBytes   the soft limit in bytes, 0 for none
 * @param softSeconds how long the soft limit may be exceeded, in seconds
 */
public record OutputLimit(long hardBytes, long softBytes, long softSeconds) {
    /** Redis 7.0's default: 32 MiB hard, 8 MiB for 60 s soft. */
    public static final OutputLimit DEFAULT = new OutputLimit(32L << 20, 8L << 20, 60);

    /**
     * The pubsub class of a canonical {@code client-output-buffer-limit} value ({@code normal 0 0 0 slave ...
     * pubsub 33554432 8388608 60}, as CONFIG GET prints it); {@link #DEFAULT} when it names no pubsub class.
     *
     * @throws NumberFormatException when the pubsub class's numbers are not integers
     */
    public static OutputLimit fromConfig(String canonical) {
        String[] a = canonical.trim().split("\\s+");
        for (int j = 0; j + 3 < a.length; j += 4) {
            if (a[j].equalsIgnoreCase("pubsub")) {
                return new OutputLimit(Long.parseLong(a[j + 1]), Long.parseLong(a[j + 2]), Long.parseLong(a[j + 3]));
            }
        }
        return DEFAULT;
    }

    /** True when {@code usedBytes} reaches the hard limit. */
    boolean hardReached(long usedBytes) {
        return hardBytes > 0 && usedBytes >= hardBytes;
    }

    /** True when {@code usedBytes} reaches the soft limit. */
    boolean softReached(long usedBytes) {
        return softBytes > 0 && usedBytes >= softBytes;
    }
}
