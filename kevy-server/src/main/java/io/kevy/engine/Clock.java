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

    /** The system clock ({@link System#currentTimeMillis()}). */
    static Clock system() {
        return System::currentTimeMillis;
    }
}
