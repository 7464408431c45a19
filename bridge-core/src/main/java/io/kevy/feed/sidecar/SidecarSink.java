package io.kevy.feed.sidecar;

import io.kevy.feed.client.CursorStore;
import io.kevy.feed.client.Sink;
import java.util.Optional;

/**
 * A {@link Sink} run by the sidecar: raw bytes (keys and values as read, binary-safe), plus what the runtime
 * asks of it besides deliveries: whether it is ready (its part of {@code /readyz}) and, for a sink that stores
 * cursors with its output, the cursor store the consumer must use. {@link #close()} flushes what was accepted
 * and releases connections (the consumer calls it once when it stops, also on SIGTERM).
 */
public interface SidecarSink extends Sink<byte[], byte[]> {
    /** The sink's readiness, asked on every {@code /readyz} and readiness poll; quick, non-blocking. */
    default Readiness readiness() {
        return Readiness.READY;
    }

    /** The cursor store that keeps cursors with this sink's output, or empty for the {@code [cursor]} store. */
    default Optional<CursorStore> cursorStore() {
        return Optional.empty();
    }
}
