package io.kevy.engine;

/**
 * The engine's view of the transport a {@link Session} talks over (a TCP connection, or the embedded caller).
 * Used for work that happens outside the session's own command loop: a blocked command served by another
 * client's write, or CLIENT KILL.
 *
 * <p>Implementations must be thread-safe.
 */
public interface ClientChannel {
    /** A reply sink for a reply produced on another thread, later passed to {@link #sendAsync}. */
    ReplySink newAsyncReply();

    /**
     * Delivers a reply produced with {@link #newAsyncReply()} and resumes the session's command loop (it was
     * parked on a blocking command). Safe from any thread.
     */
    void sendAsync(ReplySink reply);

    /** Closes the transport (CLIENT KILL). Safe from any thread; idempotent. */
    void close();

    /** The peer address as {@code ip:port}, or {@code ""}. */
    String remoteAddress();

    /** The local address as {@code ip:port}, or {@code ""}. */
    String localAddress();
}
