package io.kevy.feed.sidecar;

/**
 * Logging defaults of kevy's own programs (the sidecar, {@code kevy tail}, the demo), set as slf4j-simple system
 * properties before the first logger exists, each only when the user did not set it ({@code -D...} wins). For
 * programs' {@code main} methods only: a library must not change the process's logging.
 *
 * <p>{@link #quietLettuceTransports()}: with both of Netty's native transports on the class path (kevy-server
 * brings epoll and io_uring), lettuce logs {@code WARN io.lettuce.core.resource.Transports - Both epoll and
 * io_uring native transports are available, epoll has been prioritized.} on every connection it opens (twice per
 * connection, about 12 times per {@code kevy tail} of a 4-shard server): lettuce's choice is fixed and harmless,
 * so that logger is set to ERROR and the choice is not logged at all. Lettuce reads no option to choose the
 * transport per client (its {@code Transports} are static), and the property that turns io_uring off
 * ({@code io.lettuce.core.iouring}) would change the transport of every lettuce client in the JVM.
 */
public final class LogDefaults {
    /** The slf4j-simple level property of lettuce's transport logger. */
    public static final String LETTUCE_TRANSPORTS = "org.slf4j.simpleLogger.log.io.lettuce.core.resource.Transports";

    private LogDefaults() {
    }

    /** Sets system property {@code key} to {@code value} unless it is set already. */
    public static void setDefault(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }

    /** Lettuce's transport logger at ERROR (unless set): no "Both epoll and io_uring ..." line per connection. */
    public static void quietLettuceTransports() {
        setDefault(LETTUCE_TRANSPORTS, "error");
    }
}
