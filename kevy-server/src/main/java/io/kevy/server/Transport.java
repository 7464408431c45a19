package io.kevy.server;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The Netty transport the server's event loops use (the {@code transport} setting). {@code io_uring} and
 * {@code epoll} are Linux native transports; {@code nio} runs everywhere. {@code auto} (the default) picks the
 * first available of io_uring, epoll, nio: io_uring took 5-15% less server CPU per request than epoll for
 * pipelined SET/GET in {@code bench/compare.sh} runs (docs/benchmarks.md); kernels or container seccomp
 * profiles without io_uring fall back to epoll.
 *
 * <p>Its {@link #apiName()} is INFO server's {@code multiplexing_api}. Immutable and thread-safe.
 */
enum Transport {
    IO_URING("io_uring", IoUring::unavailabilityCause, IoUringIoHandler::newFactory,
            IoUringServerSocketChannel.class),
    EPOLL("epoll", Epoll::unavailabilityCause, EpollIoHandler::newFactory, EpollServerSocketChannel.class),
    NIO("nio", () -> null, NioIoHandler::newFactory, NioServerSocketChannel.class);

    /** The {@code transport} setting that picks the first available transport (the default). */
    static final String AUTO = "auto";

    private final String apiName;
    // suppliers, not values: a native transport's classes load its library only when first asked
    private final Supplier<Throwable> unavailabilityCause;
    private final Supplier<IoHandlerFactory> ioHandlerFactory;
    private final Class<? extends ServerSocketChannel> serverChannelClass;

    Transport(String apiName, Supplier<Throwable> unavailabilityCause, Supplier<IoHandlerFactory> ioHandlerFactory,
              Class<? extends ServerSocketChannel> serverChannelClass) {
        this.apiName = apiName;
        this.unavailabilityCause = unavailabilityCause;
        this.ioHandlerFactory = ioHandlerFactory;
        this.serverChannelClass = serverChannelClass;
    }

    /** The setting's spelling and INFO's {@code multiplexing_api}: {@code io_uring}, {@code epoll}, {@code nio}. */
    String apiName() {
        return apiName;
    }

    /** Why this transport cannot run here (missing native library, kernel, seccomp), or null when it can. */
    Throwable unavailabilityCause() {
        return unavailabilityCause.get();
    }

    /** A new I/O handler factory for the event loops. */
    IoHandlerFactory ioHandlerFactory() {
        return ioHandlerFactory.get();
    }

    Class<? extends ServerSocketChannel> serverChannelClass() {
        return serverChannelClass;
    }

    boolean isAvailable() {
        return unavailabilityCause() == null;
    }

    /**
     * The transport for a {@code transport} setting: {@code auto} is the first available in declaration order;
     * a named one must be available.
     *
     * @throws IllegalStateException naming the transport and the cause when a named transport cannot run here
     * @throws IllegalArgumentException for a name that is not a transport (the setting's check refuses it first)
     */
    static Transport select(String setting) {
        String s = setting.toLowerCase(Locale.ROOT);
        for (Transport t : values()) {
            if (s.equals(AUTO) && t.isAvailable()) {
                return t;
            }
            if (s.equals(t.apiName)) {
                Throwable cause = t.unavailabilityCause();
                if (cause != null) {
                    throw new IllegalStateException("transport " + t.apiName + " is not available here: " + cause
                            + " (use transport = \"auto\" or \"nio\")", cause);
                }
                return t;
            }
        }
        throw new IllegalArgumentException("unknown transport '" + setting + "'");
    }
}
