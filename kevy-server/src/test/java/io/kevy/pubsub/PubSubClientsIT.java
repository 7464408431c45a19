package io.kevy.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kevy.testing.RedisOracle;
import io.kevy.testing.TestServer;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Real Pub/Sub clients against kevy: lettuce's {@link StatefulRedisPubSubConnection}, and redis-cli SUBSCRIBE. */
class PubSubClientsIT {

    /** On the protocol lettuce negotiates (RESP3: messages are push frames) and with RESP2 pinned. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(ProtocolVersion.class)
    void lettucePubSubConnectionReceivesMessagesPatternsAndKeyspaceEvents(ProtocolVersion protocol) {
        try (TestServer kevy = TestServer.start()) {
            RedisClient client = RedisClient.create("redis://127.0.0.1:" + kevy.port());
            client.setOptions(ClientOptions.builder().protocolVersion(protocol).build());
            StatefulRedisPubSubConnection<String, String> sub = client.connectPubSub();
            try {
                List<String> got = new CopyOnWriteArrayList<>();
                sub.addListener(new RedisPubSubAdapter<>() {
                    @Override
                    public void message(String channel, String message) {
                        got.add("message " + channel + " " + message);
                    }

                    @Override
                    public void message(String pattern, String channel, String message) {
                        got.add("pmessage " + pattern + " " + channel + " " + message);
                    }
                });
                sub.sync().subscribe("news", "__sentinel__:hello");
                sub.sync().psubscribe("__keyevent@0__:*");
                assertThat(kevy.lettuce().pubsubNumsub("news")).containsEntry("news", 1L);
                assertThat(kevy.lettuce().pubsubNumpat()).isEqualTo(1L);
                kevy.lettuce().configSet("notify-keyspace-events", "E$");
                assertThat(kevy.lettuce().publish("news", "hi")).isEqualTo(1L);
                assertThat(kevy.lettuce().publish("__sentinel__:hello", "127.0.0.1,26379,runid,0")).isEqualTo(1L);
                kevy.lettuce().set("k", "v");
                await().atMost(10, TimeUnit.SECONDS).until(() -> got.size() == 3);
                assertThat(got).containsExactly("message news hi", "message __sentinel__:hello 127.0.0.1,26379,runid,0",
                        "pmessage __keyevent@0__:* __keyevent@0__:set k");
                // RESP2: the pong array, as lettuce reads it; RESP3: PONG
                assertThat(sub.sync().ping()).isEqualTo(subscribedPingAtRedis(protocol));
                if (protocol == ProtocolVersion.RESP3) {
                    assertThat(sub.sync().get("k")).isEqualTo("v"); // RESP3 runs any command while subscribed
                }
                sub.sync().unsubscribe("news", "__sentinel__:hello");
                sub.sync().punsubscribe("__keyevent@0__:*");
                assertThat(kevy.lettuce().pubsubNumsub("news")).containsEntry("news", 0L);
                assertThat(sub.sync().get("k")).isEqualTo("v"); // out of the subscribed mode
            } finally {
                sub.close();
                client.shutdown();
            }
        }
    }

    /** What lettuce's PING answers on a subscribed connection of {@code protocol} to a real Redis. */
    private static String subscribedPingAtRedis(ProtocolVersion protocol) {
        try (RedisOracle redis = RedisOracle.start()) {
            RedisClient client = RedisClient.create("redis://127.0.0.1:" + redis.port());
            client.setOptions(ClientOptions.builder().protocolVersion(protocol).build());
            try (StatefulRedisPubSubConnection<String, String> c = client.connectPubSub()) {
                c.sync().subscribe("x");
                return c.sync().ping();
            } finally {
                client.shutdown();
            }
        }
    }

    @Test
    void redisCliSubscribePrintsWhatItPrintsForRedis() throws Exception {
        try (TestServer kevy = TestServer.start(); RedisOracle redis = RedisOracle.start()) {
            assertThat(cliSubscribe(kevy.port(), () -> kevy.lettuce().publish("ch", "hello")))
                    .isEqualTo(cliSubscribe(redis.port(), () -> redis.raw().call("PUBLISH", "ch", "hello")))
                    .isEqualTo("subscribe\nch\n1\nmessage\nch\nhello\n");
        }
    }

    /** Runs {@code redis-cli -p port SUBSCRIBE ch}, publishes once subscribed, returns what it printed. */
    private static String cliSubscribe(int port, Runnable publish) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("redis-cli", "-p", Integer.toString(port), "SUBSCRIBE", "ch")
                .redirectErrorStream(true).start();
        try {
            InputStream in = p.getInputStream();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            readUntil(in, out, "subscribe\nch\n1\n");
            publish.run();
            readUntil(in, out, "hello\n");
            return out.toString(StandardCharsets.UTF_8);
        } finally {
            p.destroy();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static void readUntil(InputStream in, ByteArrayOutputStream out, String end) throws IOException {
        while (!out.toString(StandardCharsets.UTF_8).endsWith(end)) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("redis-cli ended after: " + out.toString(StandardCharsets.UTF_8));
            }
            out.write(b);
        }
    }
}
