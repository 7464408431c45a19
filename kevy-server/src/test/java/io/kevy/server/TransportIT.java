package io.kevy.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The same server behaviour on every Netty transport this machine can run (the {@code transport} setting): the
 * rest of the suite runs on the default, so pipelining, blocking and backpressure are checked here on each
 * named one. Transports the machine lacks (io_uring off in the kernel or a seccomp profile) are skipped.
 */
class TransportIT {

    @ParameterizedTest
    @ValueSource(strings = {"io_uring", "epoll", "nio"})
    void pipelinesAndBlockedClientsWorkOnEveryTransport(String name) throws Exception {
        assumeTrue(available(name), name + " is not available here");
        try (TestServer server = TestServer.start(ServerOptions.TRANSPORT, name)) {
            RawClient c = server.raw();
            assertThat(c.call("INFO", "server")).contains("multiplexing_api:" + name + "\r\n");
            ProtocolIT.assertPipelineAnswersInOrder(c, 10_000);

            RawClient blocked = server.raw();
            blocked.send("*3\r\n$5\r\nBLPOP\r\n$4\r\nlist\r\n$1\r\n0\r\n*1\r\n$4\r\nPING\r\n");
            Awaitility.await().untilAsserted(() -> assertThat(c.call("INFO", "clients"))
                    .contains("blocked_clients:1\r\n"));
            assertThat(c.call("RPUSH", "list", "v")).isEqualTo(":1\r\n");
            assertThat(blocked.readReply()).isEqualTo("*2\r\n$4\r\nlist\r\n$1\r\nv\r\n");
            assertThat(blocked.readReply()).isEqualTo("+PONG\r\n");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"io_uring", "epoll", "nio"})
    void aClientThatDoesNotReadIsPausedOnEveryTransport(String name) {
        assumeTrue(available(name), name + " is not available here");
        try (TestServer server = TestServer.start(ServerOptions.TRANSPORT, name)) {
            ProtocolIT.assertNonReaderIsPausedAndServedInFull(server);
        }
    }

    @org.junit.jupiter.api.Test
    void autoPicksTheFirstAvailableOfIoUringEpollNio() {
        Transport expected = Transport.IO_URING.isAvailable() ? Transport.IO_URING
                : Transport.EPOLL.isAvailable() ? Transport.EPOLL : Transport.NIO;
        assertThat(Transport.select("auto")).isEqualTo(expected);
        assertThat(Transport.select("nio")).isEqualTo(Transport.NIO);
        assertThatThrownBy(() -> ServerOptions.TRANSPORT.fromString("kqueue"))
                .hasMessage("must be one of auto, epoll, io_uring, nio, got 'kqueue'");
    }

    private static boolean available(String name) {
        for (Transport t : Transport.values()) {
            if (t.apiName().equals(name)) {
                return t.isAvailable();
            }
        }
        throw new IllegalArgumentException(name);
    }
}
