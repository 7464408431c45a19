package io.kevy.engine;

/**
 * The engine's wall clock in milliseconds since the epoch. Injected (never read from a static) so tests can
 * move time; see {@link #system()}.
 *
 * <p>Implementations must be thread-safe.
 */
@FunctionalInterface
public interface Clock {
    /** Current time, ms since the Unix epoch. */
    long millis();

    /**
     * Current time, microseconds since the Unix epoch (TIME's second element). The default is {@link #millis()}
     * in microseconds, for clocks tests move by milliseconds.
     */
    default long micros() {
        return millis() * 1000L;
    }

    /** The system clock ({@link System#currentTimeMillis()}; microseconds from {@link java.time.Instant#now()}). */
    static Clock system() {
        return new Clock() {
            @Override
            public long millis() {
                return System.currentTimeMillis();
            }

            @Override
            public long micros() {
                java.time.Instant i = java.time.Instant.now();
                return i.getEpochSecond() * 1_000_000L + i.getNano() / 1000;
            }
        };
    }
}
