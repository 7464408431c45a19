package io.kevy.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import io.kevy.testing.RedisOracle;
import io.kevy.testing.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code maxclients}: the refusal is byte for byte Redis 7.0's (compared with the real redis-server), and a burst
 * of connections opened at once leaves an established client's PING answered.
 */
class MaxClientsIT {

    /** Everything the server sends on a new connection until it closes it (at most 10 s). */
    private static byte[] untilClosed(int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(10_000);
            InputStream in = s.getInputStream();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[256];
            try {
                for (int n; (n = in.read(buf)) >= 0; ) {
                    out.write(buf, 0, n);
                }
            } catch (java.net.SocketException reset) {
                // closed with a reset: what arrived before it is the reply
            }
            return out.toByteArray();
        }
    }

    /** The one connection maxclients 1 allows, once the server has let go of earlier ones (readiness probes). */
    private static RawClient admitted(int port) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            RawClient c = RawClient.connect(port);
            String reply = c.call("PING");
            if (reply.equals("+PONG\r\n")) {
                return c;
            }
            c.close();
            assertThat(System.nanoTime()).as("admitted within 10 s, last reply %s", reply).isLessThan(deadline);
        }
    }

    @Test
    void theRefusalIsRedisBytesThenClose() throws Exception {
        try (RedisOracle redis = RedisOracle.start("--maxclients", "1");
             TestServer kevy = TestServer.start(ServerOptions.MAXCLIENTS, 1);
             RawClient inRedis = admitted(redis.port()); RawClient inKevy = admitted(kevy.port())) {
            byte[] fromRedis = untilClosed(redis.port());
            byte[] fromKevy = untilClosed(kevy.port());
            assertThat(new String(fromRedis, java.nio.charset.StandardCharsets.US_ASCII))
                    .isEqualTo("-ERR max number of clients reached\r\n");
            assertThat(fromKevy).isEqualTo(fromRedis);
            assertThat(inKevy.call("INFO", "stats")).containsPattern("rejected_connections:[1-9]");
        }
    }

    @Test
    void aBurstOfConnectionsLeavesPingAnswered() throws Exception {
        int burst = 4000; // the test JVM holds both ends: 8,000 descriptors of this machine's 20,000
        io.netty.util.ResourceLeakDetector.Level level = io.netty.util.ResourceLeakDetector.getLevel();
        io.netty.util.ResourceLeakDetector.setLevel(io.netty.util.ResourceLeakDetector.Level.DISABLED);
        List<SocketChannel> opened = new ArrayList<>();
        try (TestServer server = TestServer.start(); RawClient probe = server.raw()) {
            assertThat(probe.call("PING")).isEqualTo("+PONG\r\n");
            long[] pings = new long[2000];
            int n = 0;
            Thread opener = new Thread(() -> {
                try {
                    for (int i = 0; i < burst; i++) {
                        SocketChannel c = SocketChannel.open();
                        c.configureBlocking(false);
                        c.connect(new InetSocketAddress("127.0.0.1", server.port()));
                        synchronized (opened) {
                            opened.add(c);
                        }
                    }
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            opener.start();
            while ((opener.isAlive() || n < 200) && n < pings.length) {
                long t0 = System.nanoTime();
                assertThat(probe.call("PING")).isEqualTo("+PONG\r\n");
                pings[n++] = System.nanoTime() - t0;
            }
            opener.join();
            long[] sorted = Arrays.copyOf(pings, n);
            Arrays.sort(sorted);
            System.out.printf("MaxClientsIT burst: %d connections opened at once; %d PINGs on an established "
                            + "connection meanwhile: p50 %.2f ms, p99 %.2f ms, max %.2f ms%n", burst, n,
                    sorted[n / 2] / 1e6, sorted[Math.min(n - 1, (int) (n * 0.99))] / 1e6, sorted[n - 1] / 1e6);
            assertThat(sorted[n - 1]).as("slowest PING during the burst, ns").isLessThan(TimeUnit.SECONDS.toNanos(5));
        } finally {
            for (SocketChannel c : opened) {
                c.close();
            }
            io.netty.util.ResourceLeakDetector.setLevel(level);
        }
    }
}
