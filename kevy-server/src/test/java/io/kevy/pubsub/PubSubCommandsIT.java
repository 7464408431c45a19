package io.kevy.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.RawClient;
import io.kevy.testing.RedisOracle;
import io.kevy.testing.ReplyDiff;
import io.kevy.testing.TestServer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * PUBLISH, (P|S)SUBSCRIBE, (P|S)UNSUBSCRIBE and PUBSUB against a real Redis 7.0, byte for byte: the push arrays
 * of confirmations and messages, the RESP2 subscribed mode's error and PING reply, and the introspection
 * replies (PUBSUB, INFO, CLIENT LIST).
 */
class PubSubCommandsIT {
    private static TestServer kevy;
    private static RedisOracle redis;

    @BeforeAll
    static void start() {
        kevy = TestServer.start();
        redis = RedisOracle.start();
    }

    @AfterAll
    static void stop() {
        if (kevy != null) {
            kevy.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    private static ReplyDiff diff() {
        return new ReplyDiff(kevy.raw(), redis.raw());
    }

    /** Sends {@code args} to both and compares {@code replies} replies one by one. */
    private static void sameReplies(ReplyDiff d, int replies, String... args) {
        d.send(args);
        for (int i = 0; i < replies; i++) {
            d.sameReply(String.join(" ", args) + " #" + (i + 1));
        }
    }

    @Test
    void subscribedModeMatchesRedis() {
        try (ReplyDiff d = diff()) {
            d.same("SUBSCRIBE");
            d.same("PUBLISH", "a");
            sameReplies(d, 2, "SUBSCRIBE", "a", "b");
            sameReplies(d, 1, "SUBSCRIBE", "a"); // already subscribed: the same confirmation, the same count
            d.same("PING");
            d.same("PING", "x");
            d.same("PING", "x", "y");
            d.same("GET", "k");
            d.same("SET", "k", "v");
            d.same("CLIENT", "LIST");
            d.same("MULTI");
            d.same("NOSUCH");
            sameReplies(d, 1, "PSUBSCRIBE", "p*");
            sameReplies(d, 1, "SSUBSCRIBE", "s1");
            sameReplies(d, 2, "SSUBSCRIBE", "s1", "s2");
            sameReplies(d, 1, "UNSUBSCRIBE", "a");
            sameReplies(d, 1, "UNSUBSCRIBE", "nosuch");
            sameReplies(d, 1, "PUNSUBSCRIBE");
            sameReplies(d, 1, "PUNSUBSCRIBE", "zz");
            sameReplies(d, 1, "SUNSUBSCRIBE", "s2");
            sameReplies(d, 1, "SUNSUBSCRIBE"); // one left: Redis's order of several is its dict's, so one here
            sameReplies(d, 1, "SUNSUBSCRIBE");
            d.same("PING"); // still subscribed to b
            sameReplies(d, 1, "UNSUBSCRIBE");
            sameReplies(d, 1, "UNSUBSCRIBE");
            d.same("PING"); // out of the subscribed mode: +PONG
            d.same("GET", "k");
        }
    }

    @Test
    void subscribeInsideMultiMatchesRedis() {
        try (ReplyDiff d = diff()) {
            d.same("MULTI");
            d.same("SUBSCRIBE", "m");
            d.same("EXEC");
            d.same("PING");
            d.same("GET", "k");
            sameReplies(d, 1, "UNSUBSCRIBE");
            d.same("PING");
        }
    }

    @Test
    void optionsSetTheLimitAndTheNotifications() {
        try (TestServer s = TestServer.start(c -> c
                .with(io.kevy.server.config.ServerOptions.CLIENT_OUTPUT_BUFFER_LIMIT_PUBSUB, "1mb 256kb 30")
                .with(io.kevy.server.config.ServerOptions.NOTIFY_KEYSPACE_EVENTS, "EKA"))) {
            RawClient c = s.raw();
            assertThat(c.call("CONFIG", "GET", "client-output-buffer-limit")).contains("pubsub 1048576 262144 30");
            assertThat(c.call("CONFIG", "GET", "notify-keyspace-events")).contains("$3\r\nAKE\r\n");
            assertThat(s.server().instance().pubsub().outputLimit()).isEqualTo(new OutputLimit(1 << 20, 1 << 18, 30));
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> io.kevy.server.config.ServerOptions
                .NOTIFY_KEYSPACE_EVENTS.fromString("KQ")).hasMessageContaining("Invalid event class character");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> io.kevy.server.config.ServerOptions
                .CLIENT_OUTPUT_BUFFER_LIMIT_PUBSUB.fromString("1mb")).hasMessageContaining("buffer limit");
    }

    @Test
    void configSetLimitsDropASubscriberThatDoesNotRead() throws Exception {
        try (TestServer s = TestServer.start(); RawClient admin = s.raw(); java.net.Socket stuck = new java.net.Socket()) {
            assertThat(admin.call("CONFIG", "SET", "client-output-buffer-limit", "pubsub 256kb 0 0"))
                    .isEqualTo("+OK\r\n");
            stuck.setReceiveBufferSize(4096);
            stuck.connect(new java.net.InetSocketAddress("127.0.0.1", s.port()));
            stuck.getOutputStream().write("*2\r\n$9\r\nSUBSCRIBE\r\n$1\r\nz\r\n".getBytes(
                    java.nio.charset.StandardCharsets.US_ASCII));
            org.awaitility.Awaitility.await().until(() -> admin.call("PUBSUB", "NUMSUB", "z").endsWith(":1\r\n"));
            String kb = "x".repeat(1024);
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> {
                for (int i = 0; i < 500; i++) { // the kernel's socket buffers take some MB before the server's do
                    admin.call("PUBLISH", "z", kb);
                }
                return admin.call("PUBSUB", "NUMSUB", "z").endsWith(":0\r\n");
            });
            // the soft limit: over it for longer than its seconds
            assertThat(admin.call("CONFIG", "SET", "client-output-buffer-limit", "pubsub 0 128kb 1"))
                    .isEqualTo("+OK\r\n");
            assertThat(admin.call("CONFIG", "GET", "client-output-buffer-limit")).contains("pubsub 0 131072 1");
            try (java.net.Socket slow = new java.net.Socket()) {
                slow.setReceiveBufferSize(4096);
                slow.connect(new java.net.InetSocketAddress("127.0.0.1", s.port()));
                slow.getOutputStream().write("*2\r\n$9\r\nSUBSCRIBE\r\n$1\r\ny\r\n".getBytes(
                        java.nio.charset.StandardCharsets.US_ASCII));
                org.awaitility.Awaitility.await().until(() -> admin.call("PUBSUB", "NUMSUB", "y").endsWith(":1\r\n"));
                long start = System.nanoTime();
                org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> {
                    for (int i = 0; i < 500; i++) {
                        admin.call("PUBLISH", "y", kb);
                    }
                    return admin.call("PUBSUB", "NUMSUB", "y").endsWith(":0\r\n");
                });
                assertThat(System.nanoTime() - start).as("dropped after the soft limit's second, not at once")
                        .isGreaterThan(1_000_000_000L);
            }
        }
    }

    @Test
    void resetLeavesTheSubscribedMode() {
        try (ReplyDiff d = diff()) {
            sameReplies(d, 1, "SUBSCRIBE", "r");
            d.same("RESET");
            d.same("PING");
            d.same("PUBSUB", "NUMSUB", "r");
        }
    }

    @Test
    void pubsubSubcommandsMatchRedis() {
        try (ReplyDiff d = diff()) {
            d.same("PUBSUB");
            d.same("PUBSUB", "FOO");
            d.same("PUBSUB", "HELP");
            d.same("PUBSUB", "HELP", "x");
            d.same("PUBSUB", "CHANNELS");
            d.same("PUBSUB", "CHANNELS", "a", "b");
            d.same("PUBSUB", "NUMPAT");
            d.same("PUBSUB", "NUMPAT", "x");
            d.same("PUBSUB", "NUMSUB");
            d.same("PUBSUB", "NUMSUB", "a", "b");
            d.same("PUBSUB", "SHARDCHANNELS");
            d.same("PUBSUB", "SHARDNUMSUB", "x");
            d.same("PUBLISH", "nobody", "m");
            d.same("SPUBLISH", "nobody", "m");
            d.same("SPUBLISH", "nobody");
        }
        try (RawClient ks = kevy.raw(); RawClient rs = redis.raw(); ReplyDiff d = diff()) {
            for (RawClient c : new RawClient[] {ks, rs}) {
                c.command("SUBSCRIBE", "news.1");
                c.readReply();
                c.command("PSUBSCRIBE", "news.*");
                c.readReply();
                c.command("PSUBSCRIBE", "n?ws.*");
                c.readReply();
                c.command("SSUBSCRIBE", "orders");
                c.readReply();
            }
            d.same("PUBSUB", "CHANNELS");
            d.same("PUBSUB", "CHANNELS", "news.*");
            d.same("PUBSUB", "CHANNELS", "x*");
            d.same("PUBSUB", "NUMSUB", "news.1", "news.2");
            d.same("PUBSUB", "NUMPAT");
            d.same("PUBSUB", "SHARDCHANNELS");
            d.same("PUBSUB", "SHARDCHANNELS", "o*");
            d.same("PUBSUB", "SHARDNUMSUB", "orders", "x");
            assertThat(infoField(d.kevy(), "pubsub_channels")).isEqualTo(infoField(d.redis(), "pubsub_channels"))
                    .isEqualTo("1");
            assertThat(infoField(d.kevy(), "pubsub_patterns")).isEqualTo(infoField(d.redis(), "pubsub_patterns"))
                    .isEqualTo("2");
            assertThat(infoField(d.kevy(), "pubsubshard_channels"))
                    .isEqualTo(infoField(d.redis(), "pubsubshard_channels")).isEqualTo("1");
            String kevyLine = clientLine(d.kevy(), ks);
            String redisLine = clientLine(d.redis(), rs);
            for (String field : new String[] {"flags", "sub", "psub", "ssub"}) {
                assertThat(field(kevyLine, field)).as(field).isEqualTo(field(redisLine, field));
            }
            assertThat(field(kevyLine, "flags")).isEqualTo("P");
            assertThat(field(kevyLine, "psub")).isEqualTo("2");
            assertThat(d.kevy().call("CLIENT", "LIST", "TYPE", "pubsub")).contains("sub=1 psub=2 ssub=1");
            assertThat(d.kevy().call("CLIENT", "LIST", "TYPE", "normal")).doesNotContain("flags=P");
        }
    }

    @Test
    void messagesMatchRedis() {
        try (RawClient ks = kevy.raw(); RawClient rs = redis.raw(); ReplyDiff d = diff()) {
            for (RawClient c : new RawClient[] {ks, rs}) {
                c.command("SUBSCRIBE", "ch");
                c.readReply();
                c.command("PSUBSCRIBE", "c*");
                c.readReply();
                c.command("SSUBSCRIBE", "ch");
                c.readReply();
            }
            d.same("PUBLISH", "ch", "hello");
            assertThat(ks.readReply()).isEqualTo(rs.readReply())
                    .isEqualTo("*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$5\r\nhello\r\n");
            assertThat(ks.readReply()).isEqualTo(rs.readReply())
                    .isEqualTo("*4\r\n$8\r\npmessage\r\n$2\r\nc*\r\n$2\r\nch\r\n$5\r\nhello\r\n");
            d.same("PUBLISH", "cx", "");
            assertThat(ks.readReply()).isEqualTo(rs.readReply());
            d.same("SPUBLISH", "ch", "s");
            assertThat(ks.readReply()).isEqualTo(rs.readReply())
                    .isEqualTo("*3\r\n$8\r\nsmessage\r\n$2\r\nch\r\n$1\r\ns\r\n");
            d.sameBytes("PUBLISH", "ch", "\u0000\u00ff\r\n");
            assertThat(ks.readReply()).isEqualTo(rs.readReply());
            assertThat(ks.readReply()).isEqualTo(rs.readReply());
        }
    }

    @Test
    void messagesOfOnePublisherArriveInOrder() {
        try (RawClient sub = kevy.raw(); RawClient pub = kevy.raw()) {
            sub.command("SUBSCRIBE", "seq");
            sub.readReply();
            StringBuilder all = new StringBuilder();
            for (int i = 0; i < 2000; i++) {
                pub.command("PUBLISH", "seq", Integer.toString(i));
            }
            for (int i = 0; i < 2000; i++) {
                assertThat(pub.readReply()).isEqualTo(":1\r\n");
            }
            for (int i = 0; i < 2000; i++) {
                String v = Integer.toString(i);
                assertThat(sub.readReply()).isEqualTo("*3\r\n$7\r\nmessage\r\n$3\r\nseq\r\n$" + v.length() + "\r\n"
                        + v + "\r\n");
            }
        }
    }

    @Test
    void disconnectUnsubscribes() {
        RawClient sub = kevy.raw();
        sub.command("SUBSCRIBE", "gone");
        sub.readReply();
        try (RawClient other = kevy.raw()) {
            assertThat(other.call("PUBSUB", "NUMSUB", "gone")).isEqualTo("*2\r\n$4\r\ngone\r\n:1\r\n");
            sub.close();
            org.awaitility.Awaitility.await().until(() ->
                    other.call("PUBSUB", "NUMSUB", "gone").equals("*2\r\n$4\r\ngone\r\n:0\r\n"));
            assertThat(other.call("PUBLISH", "gone", "x")).isEqualTo(":0\r\n");
        }
    }

    @Test
    void clientKillTypePubsubClosesSubscribersOnly() {
        try (RawClient sub = kevy.raw(); RawClient plain = kevy.raw(); RawClient admin = kevy.raw()) {
            sub.command("PSUBSCRIBE", "k*");
            sub.readReply();
            assertThat(plain.call("PING")).isEqualTo("+PONG\r\n");
            assertThat(admin.call("CLIENT", "KILL", "TYPE", "pubsub")).isEqualTo(":1\r\n");
            assertThat(sub.isClosedByServer()).isTrue();
            assertThat(plain.call("PING")).isEqualTo("+PONG\r\n");
            org.awaitility.Awaitility.await().until(() -> admin.call("PUBSUB", "NUMPAT").equals(":0\r\n"));
        }
    }

    static String infoField(RawClient c, String name) {
        Matcher m = Pattern.compile(name + ":(\\S*)").matcher(c.call("INFO", "stats"));
        return m.find() ? m.group(1) : null;
    }

    /** The CLIENT LIST line of {@code self} (its CLIENT ID), read over {@code admin}. */
    private static String clientLine(RawClient admin, RawClient self) {
        String list = admin.call("CLIENT", "LIST");
        for (String line : list.split("\n")) {
            if (line.contains("cmd=ssubscribe")) {
                return line;
            }
        }
        throw new AssertionError("no subscriber in " + list);
    }

    static String field(String line, String name) {
        Matcher m = Pattern.compile("(?:^| )" + name + "=(\\S*)").matcher(line);
        return m.find() ? m.group(1) : null;
    }
}
