package io.kevy.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kevy.testing.RawClient;
import io.kevy.testing.RedisOracle;
import io.kevy.testing.ReplyDiff;
import io.kevy.testing.ServerProcess;
import io.kevy.testing.TestServer;
import java.io.BufferedOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile Pub/Sub use: 10,000 subscriptions on one connection, a 1 MB channel name, and a subscriber that never
 * reads while 100,000 messages are published (its output stays bounded by client-output-buffer-limit pubsub,
 * the publisher is not slowed, and the subscriber is dropped with one log line).
 */
class PubSubHostileIT {

    @Test
    void tenThousandSubscriptionsOnOneConnection() {
        try (TestServer kevy = TestServer.start(); RawClient sub = kevy.raw(); RawClient other = kevy.raw()) {
            String[] args = new String[10_001];
            args[0] = "SUBSCRIBE";
            for (int i = 1; i <= 10_000; i++) {
                args[i] = "ch:" + i;
            }
            sub.command(args);
            StringBuilder expected = new StringBuilder();
            for (int i = 1; i <= 10_000; i++) {
                expected.append(confirmation("subscribe", "ch:" + i, i));
            }
            assertThat(read(sub, expected)).isEqualTo(expected.toString());
            args[0] = "PSUBSCRIBE";
            expected.setLength(0);
            for (int i = 1; i <= 10_000; i++) {
                args[i] = "p" + i + ":*";
                expected.append(confirmation("psubscribe", args[i], 10_000 + i));
            }
            sub.command(args);
            assertThat(read(sub, expected)).isEqualTo(expected.toString());
            assertThat(PubSubCommandsIT.infoField(other, "pubsub_channels")).isEqualTo("10000");
            assertThat(PubSubCommandsIT.infoField(other, "pubsub_patterns")).isEqualTo("10000");
            assertThat(other.call("CLIENT", "LIST", "TYPE", "pubsub")).contains("sub=10000 psub=10000 ssub=0");
            assertThat(other.call("PUBLISH", "ch:7", "x")).isEqualTo(":1\r\n");
            assertThat(other.call("PUBLISH", "p7:x", "y")).isEqualTo(":1\r\n"); // one of 10,000 patterns matches
            assertThat(sub.readReply()).isEqualTo("*3\r\n$7\r\nmessage\r\n$4\r\nch:7\r\n$1\r\nx\r\n");
            assertThat(sub.readReply()).isEqualTo("*4\r\n$8\r\npmessage\r\n$4\r\np7:*\r\n$4\r\np7:x\r\n$1\r\ny\r\n");
            sub.command("UNSUBSCRIBE");
            expected.setLength(0);
            for (int i = 1; i <= 10_000; i++) { // kevy unsubscribes in subscription order
                expected.append(confirmation("unsubscribe", "ch:" + i, 20_000 - i));
            }
            assertThat(read(sub, expected)).isEqualTo(expected.toString());
            assertThat(other.call("PUBSUB", "NUMSUB", "ch:1")).isEqualTo("*2\r\n$4\r\nch:1\r\n:0\r\n");
            assertThat(PubSubCommandsIT.infoField(other, "pubsub_channels")).isEqualTo("0");
            sub.close();
            await().until(() -> PubSubCommandsIT.infoField(other, "pubsub_patterns").equals("0"));
        }
    }

    @Test
    void oneMegabyteChannelNamesMatchRedis() {
        String big = "c".repeat(1 << 20);
        try (TestServer kevy = TestServer.start(); RedisOracle redis = RedisOracle.start();
             ReplyDiff subs = new ReplyDiff(kevy.raw(), redis.raw());
             ReplyDiff pubs = new ReplyDiff(kevy.raw(), redis.raw())) {
            subs.send("SUBSCRIBE", big);
            subs.sameReply("SUBSCRIBE <1 MB>");
            subs.send("PSUBSCRIBE", big.substring(1) + "*");
            subs.sameReply("PSUBSCRIBE <1 MB pattern>");
            assertThat(pubs.same("PUBLISH", big, "m")).isEqualTo(":2\r\n");
            subs.sameReply("message on a 1 MB channel");
            subs.sameReply("pmessage on a 1 MB channel");
            pubs.same("PUBSUB", "NUMSUB", big);
            pubs.same("PUBSUB", "CHANNELS", "c*");
        }
    }

    @Test
    void aSubscriberThatNeverReadsIsDroppedAndThePublisherGoesOn(@TempDir Path dir) throws Exception {
        int messages = 100_000;
        byte[] payload = "x".repeat(4096).getBytes(StandardCharsets.US_ASCII);
        // 100,000 messages of 4 KB are 400 MB: unbounded, they would not fit the child's -Xmx512m next to the rest
        try (ServerProcess server = ServerProcess.start(dir.resolve("data"), "--no-aof");
             Socket stuck = new Socket()) {
            stuck.setReceiveBufferSize(4096);
            stuck.connect(new InetSocketAddress("127.0.0.1", server.port()));
            stuck.getOutputStream().write(RawClient.encode("SUBSCRIBE".getBytes(StandardCharsets.US_ASCII),
                    "feed".getBytes(StandardCharsets.US_ASCII)));
            stuck.getOutputStream().flush();
            try (RawClient probe = server.raw()) {
                await().until(() -> probe.call("PUBSUB", "NUMSUB", "feed").endsWith(":1\r\n"));
            }
            try (Socket pub = new Socket("127.0.0.1", server.port())) {
                pub.setSoTimeout(60_000);
                OutputStream out = new BufferedOutputStream(pub.getOutputStream(), 1 << 16);
                InputStream in = pub.getInputStream();
                byte[] cmd = RawClient.encode("PUBLISH".getBytes(StandardCharsets.US_ASCII),
                        "feed".getBytes(StandardCharsets.US_ASCII), payload);
                long started = System.nanoTime();
                long delivered = 0;
                int batch = 1000;
                for (int sent = 0; sent < messages; sent += batch) {
                    for (int i = 0; i < batch; i++) {
                        out.write(cmd);
                    }
                    out.flush();
                    for (int i = 0; i < batch; i++) {
                        String reply = readLine(in);
                        assertThat(reply).isIn(":1", ":0");
                        delivered += reply.equals(":1") ? 1 : 0;
                    }
                }
                long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
                assertThat(seconds).as("publishing %d messages took %d s", messages, seconds).isLessThan(60);
                assertThat(delivered).as("messages queued before the drop").isLessThan(messages / 2);
            }
            try (RawClient probe = server.raw()) {
                assertThat(probe.call("PUBSUB", "NUMSUB", "feed")).endsWith(":0\r\n");
                assertThat(probe.call("PING")).isEqualTo("+PONG\r\n");
            }
            await().atMost(30, TimeUnit.SECONDS).until(() -> server.log().contains("closing subscriber"));
            assertThat(server.log().lines().filter(l -> l.contains("closing subscriber")).count()).isEqualTo(1);
            assertThat(server.log()).contains("client-output-buffer-limit pubsub 33554432 8388608 60");
        }
    }

    /**
     * A subscribed connection is of the pubsub output class (Redis's getClientType): a SUBSCRIBE whose own
     * confirmations pass {@code client-output-buffer-limit pubsub}'s hard limit, to a client that does not read,
     * closes the connection instead of buffering them without bound (the normal class has no limit).
     */
    @Test
    void aSubscribeConfirmationPastThePubsubLimitClosesTheConnection() throws Exception {
        try (TestServer kevy = TestServer.start(); RawClient admin = kevy.raw(); Socket stuck = new Socket()) {
            assertThat(admin.call("CONFIG", "SET", "client-output-buffer-limit", "pubsub 1mb 0 0"))
                    .isEqualTo("+OK\r\n");
            stuck.setReceiveBufferSize(4096);
            stuck.connect(new InetSocketAddress("127.0.0.1", kevy.port()));
            stuck.setSoTimeout(30_000);
            byte[][] args = new byte[65][];
            args[0] = "SUBSCRIBE".getBytes(StandardCharsets.US_ASCII);
            for (int i = 1; i < args.length; i++) { // 64 channels of 256 KiB: 16 MiB of confirmations
                args[i] = (i + ":" + "c".repeat(256 * 1024)).getBytes(StandardCharsets.US_ASCII);
            }
            stuck.getOutputStream().write(RawClient.encode(args));
            stuck.getOutputStream().flush();
            long drained = stuck.getInputStream().transferTo(OutputStream.nullOutputStream()); // until the close
            assertThat(drained).as("confirmation bytes the client got before the close").isLessThan(16L << 20);
            await().atMost(10, TimeUnit.SECONDS)
                    .until(() -> PubSubCommandsIT.infoField(admin, "pubsub_channels").equals("0"));
            assertThat(admin.call("PING")).isEqualTo("+PONG\r\n");
        }
    }

    /** {@code *3 <verb> <name> :<count>}. */
    private static String confirmation(String verb, String name, int count) {
        return "*3\r\n$" + verb.length() + "\r\n" + verb + "\r\n$" + name.length() + "\r\n" + name + "\r\n:" + count
                + "\r\n";
    }

    /** Reads as many bytes as {@code expected} has (ASCII), in one go rather than reply by reply. */
    private static String read(RawClient c, CharSequence expected) {
        return new String(c.readBytes(expected.length()), StandardCharsets.ISO_8859_1);
    }

    private static String readLine(InputStream in) throws java.io.IOException {
        StringBuilder sb = new StringBuilder();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                throw new java.io.EOFException("after " + sb);
            }
            if (b != '\r') {
                sb.append((char) b);
            }
        }
        return sb.toString();
    }
}
