package io.kevy.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.RawClient;
import io.kevy.testing.RedisOracle;
import io.kevy.testing.ReplyDiff;
import io.kevy.testing.TestServer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** RESP2 edge cases on a raw socket: split packets, inline commands, bad lengths, binary data, pipelines. */
class ProtocolIT {

    @Test
    void commandSplitAcrossPacketsIsAssembled() throws Exception {
        try (TestServer server = TestServer.start()) {
            RawClient c = server.raw();
            c.send("*2\r\n$4\r\nEC");
            Thread.sleep(20); // let the first half arrive alone: the split is the point of this test
            c.send("HO\r\n$2\r");
            Thread.sleep(20);
            c.send("\nhi\r\n");
            assertThat(c.readReply()).isEqualTo("$2\r\nhi\r\n");
        }
    }

    @Test
    void inlineCommandsWork() {
        try (TestServer server = TestServer.start()) {
            RawClient c = server.raw();
            assertThat(c.send("PING\r\n").readReply()).isEqualTo("+PONG\r\n");
            assertThat(c.send("ECHO \"a b\"\n").readReply()).isEqualTo("$3\r\na b\r\n");
            assertThat(c.send("SET k 'v v'\r\nGET k\r\n").readReply()).isEqualTo("+OK\r\n");
            assertThat(c.readReply()).isEqualTo("$3\r\nv v\r\n");
        }
    }

    @Test
    void protocolErrorsMatchRedisAndCloseOnlyThatConnection() {
        String[] bad = {"*1\r\n$-5\r\n", "*1\r\n$99999999999\r\n", "*abc\r\n", "*1\r\n+PING\r\n",
            "SET \"x\r\n", "*3000000000\r\n"};
        try (TestServer kevy = TestServer.start(); RedisOracle redis = RedisOracle.start()) {
            RawClient bystander = kevy.raw();
            for (String b : bad) {
                try (ReplyDiff diff = new ReplyDiff(kevy.raw(), redis.raw())) {
                    diff.sameRaw(b);
                    assertThat(diff.kevy().isClosedByServer()).as("closed after %s", b).isTrue();
                }
            }
            assertThat(bystander.call("PING")).isEqualTo("+PONG\r\n");
        }
    }

    @Test
    void emptyAndNullMultibulksAreIgnored() {
        try (TestServer server = TestServer.start()) {
            RawClient c = server.raw();
            assertThat(c.send("*0\r\n*-1\r\n\r\n*1\r\n$4\r\nPING\r\n").readReply()).isEqualTo("+PONG\r\n");
        }
    }

    @Test
    void binaryKeysAndValuesRoundTrip() {
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) {
            all[i] = (byte) i;
        }
        try (TestServer server = TestServer.start()) {
            RawClient c = server.raw();
            c.send(RawClient.encode("SET".getBytes(), all, all));
            assertThat(c.readReply()).isEqualTo("+OK\r\n");
            c.send(RawClient.encode("GET".getBytes(), all));
            byte[] reply = c.readReplyBytes();
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            expected.writeBytes("$256\r\n".getBytes(StandardCharsets.US_ASCII));
            expected.writeBytes(all);
            expected.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(reply).isEqualTo(expected.toByteArray());
            assertThat(server.lettuceBinary().get(all)).isEqualTo(all);
        }
    }

    @Test
    void pipelineOfTenThousandCommandsAnswersInOrder() {
        try (TestServer server = TestServer.start()) {
            assertPipelineAnswersInOrder(server.raw(), 10_000);
        }
    }

    /** Sends {@code n} INCRs in one write and checks every reply, in order (also run per transport). */
    static void assertPipelineAnswersInOrder(RawClient c, int n) {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (int i = 0; i < n; i++) {
            wire.writeBytes(RawClient.encode("INCR".getBytes(), "counter".getBytes()));
        }
        c.send(wire.toByteArray());
        for (int i = 1; i <= n; i++) {
            assertThat(c.readReply()).isEqualTo(":" + i + "\r\n");
        }
    }

    @Test
    void stalledHalfCommandBlocksNobody() {
        try (TestServer server = TestServer.start()) {
            RawClient staller = server.raw();
            staller.send("*2\r\n$3\r\nGET\r\n$100000\r\nabc");
            RawClient other = server.raw();
            assertThat(other.call("SET", "a", "1")).isEqualTo("+OK\r\n");
            assertThat(other.call("GET", "a")).isEqualTo("$1\r\n1\r\n");
            staller.send("x".repeat(100_000 - 3) + "\r\n");
            assertThat(staller.readReply()).isEqualTo("$-1\r\n");
        }
    }

    @Test
    void aClientThatDoesNotReadIsPausedAndGetsEveryReplyWhenItReads() {
        try (TestServer server = TestServer.start()) {
            assertNonReaderIsPausedAndServedInFull(server);
        }
    }

    /**
     * A client pipelines 64 GETs of a 1 MB value and does not read: the server stops reading it once its socket
     * is full, serves others meanwhile, and delivers every reply when it reads (also run per transport).
     */
    static void assertNonReaderIsPausedAndServedInFull(TestServer server) {
        RawClient other = server.raw();
        assertThat(other.call("SET", "big", "x".repeat(1 << 20))).isEqualTo("+OK\r\n");
        long before = outputBytes(other);
        RawClient hog = server.raw();
        int gets = 64;
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (int i = 0; i < gets; i++) {
            wire.writeBytes(RawClient.encode("GET".getBytes(), "big".getBytes()));
        }
        hog.send(wire.toByteArray());
        // 64 MB of replies are due; the server stops reading the hog once its socket is full, so what it
        // has written out stays far below that while the hog does not read, and others are served.
        org.awaitility.Awaitility.await().during(java.time.Duration.ofMillis(500))
                .atMost(java.time.Duration.ofSeconds(5))
                .until(() -> outputBytes(other) - before < 32L << 20);
        assertThat(other.call("PING")).isEqualTo("+PONG\r\n");
        String expected = "$" + (1 << 20) + "\r\n" + "x".repeat(1 << 20) + "\r\n";
        for (int i = 0; i < gets; i++) {
            assertThat(hog.readReply()).as("reply %d", i).isEqualTo(expected);
        }
        assertThat(hog.call("PING")).isEqualTo("+PONG\r\n");
    }

    @Test
    void aClientPastTheOutputBufferLimitIsDisconnectedAlone() throws Exception {
        try (TestServer server = TestServer.start(io.kevy.server.config.ServerOptions.CLIENT_OUTPUT_BUFFER_LIMIT,
                1L << 20)) {
            RawClient other = server.raw();
            assertThat(other.call("SET", "big", "x".repeat(8 << 20))).isEqualTo("+OK\r\n");
            RawClient hog = server.raw();
            int gets = 8;
            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            for (int i = 0; i < gets; i++) {
                wire.writeBytes(RawClient.encode("GET".getBytes(), "big".getBytes()));
            }
            hog.send(wire.toByteArray());
            // 64 MB of replies cannot all sit in the socket buffers: more than 1 MB stays unsent, so the server
            // closes the hog (end of stream, not the socket timeout) before it has sent every reply.
            byte[] got = hog.socket().getInputStream().readAllBytes();
            assertThat((long) got.length).isLessThan((long) gets * (8 << 20));
            assertThat(other.call("PING")).isEqualTo("+PONG\r\n");
            org.awaitility.Awaitility.await().untilAsserted(() -> assertThat(other.call("INFO", "clients"))
                    .contains("connected_clients:1\r\n"));
        }
    }

    @Test
    void aBlockedClientIsNotReadUntilItsReplyArrives() throws Exception {
        try (TestServer server = TestServer.start()) {
            RawClient blocked = server.raw();
            blocked.send(RawClient.encode("BLPOP".getBytes(), "list".getBytes(), "0".getBytes()));
            RawClient other = server.raw();
            org.awaitility.Awaitility.await().untilAsserted(() -> assertThat(other.call("INFO", "clients"))
                    .contains("blocked_clients:1\r\n"));
            // 32 MB of pipelined ECHOs behind the BLPOP: the server leaves them in the socket, so the sender
            // stalls once the socket buffers are full, until the BLPOP is served.
            byte[] payload = "x".repeat(64 << 10).getBytes(StandardCharsets.US_ASCII);
            byte[] echo = RawClient.encode("ECHO".getBytes(), payload);
            int echoes = 512;
            java.util.concurrent.CompletableFuture<Void> sending = java.util.concurrent.CompletableFuture.runAsync(
                    () -> {
                        for (int i = 0; i < echoes; i++) {
                            blocked.send(echo);
                        }
                    });
            org.awaitility.Awaitility.await().during(java.time.Duration.ofSeconds(1))
                    .atMost(java.time.Duration.ofSeconds(5)).until(() -> !sending.isDone());
            assertThat(other.call("RPUSH", "list", "v")).isEqualTo(":1\r\n");
            assertThat(blocked.readReply()).isEqualTo("*2\r\n$4\r\nlist\r\n$1\r\nv\r\n");
            String reply = "$" + payload.length + "\r\n" + new String(payload, StandardCharsets.US_ASCII) + "\r\n";
            for (int i = 0; i < echoes; i++) {
                assertThat(new String(blocked.readBytes(reply.length()), StandardCharsets.US_ASCII))
                        .as("reply %d", i).isEqualTo(reply);
            }
            sending.get(30, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    /** INFO stats {@code total_net_output_bytes}, read through {@code c}. */
    static long outputBytes(RawClient c) {
        String info = c.call("INFO", "stats");
        int at = info.indexOf("total_net_output_bytes:") + "total_net_output_bytes:".length();
        return Long.parseLong(info.substring(at, info.indexOf('\r', at)));
    }

    @Test
    void maxclientsRefusesExtraConnections() {
        try (TestServer server = TestServer.start(io.kevy.server.config.ServerOptions.MAXCLIENTS, 2)) {
            RawClient a = server.raw();
            RawClient b = server.raw();
            assertThat(a.call("PING")).isEqualTo("+PONG\r\n");
            assertThat(b.call("PING")).isEqualTo("+PONG\r\n");
            RawClient c = server.raw();
            assertThat(c.readReply()).isEqualTo("-ERR max number of clients reached\r\n");
            assertThat(c.isClosedByServer()).isTrue();
            a.close();
            org.awaitility.Awaitility.await().untilAsserted(() -> {
                try (RawClient d = RawClient.connect(server.port())) {
                    assertThat(d.call("PING")).isEqualTo("+PONG\r\n");
                }
            });
        }
    }
}
