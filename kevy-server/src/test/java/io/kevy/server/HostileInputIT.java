package io.kevy.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random bytes, truncated frames and huge declared lengths on many connections: the server stays up, answers
 * PING on a fresh connection, and its heap stays bounded (nothing is allocated for bytes that never arrive).
 */
class HostileInputIT {

    @Test
    void randomBytesAndTruncatedFramesDoNotHurtTheServer() {
        long seed = System.nanoTime();
        System.out.println("HostileInputIT seed=" + seed);
        Random rnd = new Random(seed);
        MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
        try (TestServer server = TestServer.start()) {
            System.gc();
            long before = mem.getHeapMemoryUsage().getUsed();
            List<RawClient> stalled = new ArrayList<>();
            // 200 connections each declaring a 500 MB bulk and sending a few bytes of it: 100 GB if pre-allocated
            for (int i = 0; i < 200; i++) {
                RawClient c = server.raw();
                c.send("*2\r\n$3\r\nSET\r\n$500000000\r\n" + "x".repeat(rnd.nextInt(100)));
                stalled.add(c);
            }
            // 100 connections of random bytes and truncated frames, in random chunks
            for (int i = 0; i < 100; i++) {
                try (RawClient c = server.raw()) {
                    for (int chunk = 0; chunk < 20; chunk++) {
                        byte[] junk = new byte[1 + rnd.nextInt(4096)];
                        rnd.nextBytes(junk);
                        if (rnd.nextInt(4) == 0) {
                            junk[0] = '*';
                        }
                        try {
                            c.send(junk);
                        } catch (RuntimeException closedByServer) {
                            break;
                        }
                    }
                }
            }
            try (RawClient fresh = RawClient.connect(server.port())) {
                assertThat(fresh.call("PING")).isEqualTo("+PONG\r\n");
            }
            System.gc();
            long during = mem.getHeapMemoryUsage().getUsed();
            assertThat(during - before).as("heap growth with 200 stalled 500 MB bulks, bytes")
                    .isLessThan(256L * 1024 * 1024);
            stalled.forEach(RawClient::close);
            try (RawClient fresh = RawClient.connect(server.port())) {
                assertThat(fresh.call("SET", "still", "alive")).isEqualTo("+OK\r\n");
            }
        }
    }
}
