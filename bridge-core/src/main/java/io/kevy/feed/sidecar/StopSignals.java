package io.kevy.feed.sidecar;

import java.util.List;
import sun.misc.Signal;

/**
 * Runs an action on SIGTERM, SIGINT or SIGHUP (a closed terminal) instead of the JVM's default (start the
 * shutdown at once, exit status 143, 130 or 129), so that a sidecar can stop gracefully and then exit with a
 * status of its own through {@link System#exit}: a normal shutdown, which also deletes the files registered with
 * {@link java.io.File#deleteOnExit} (lz4-java's extracted native library, for one), where a
 * {@link Runtime#halt} from a shutdown hook would leave them behind.
 *
 * <p>Uses {@code sun.misc.Signal} (module {@code jdk.unsupported}, as Kafka's and Netty's signal handling do).
 * The action runs on a thread the JVM starts per signal; a second signal runs it again, so it must be
 * idempotent.
 */
final class StopSignals {
    private static final List<String> SIGNALS = List.of("TERM", "INT", "HUP");

    private StopSignals() {
    }

    /**
     * Installs {@code action} for SIGTERM, SIGINT and SIGHUP, each where the JVM lets it (not with {@code -Xrs},
     * for one: the JVM's default, and the caller's shutdown hook, then stay).
     */
    static void install(Runnable action) {
        for (String name : SIGNALS) {
            try {
                Signal.handle(new Signal(name), s -> action.run());
            } catch (IllegalArgumentException notAllowed) {
                // keep the JVM's default for this one
            }
        }
    }
}
