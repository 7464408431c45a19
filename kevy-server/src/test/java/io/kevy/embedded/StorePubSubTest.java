package io.kevy.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kevy.pubsub.Message;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The embedded store's Pub/Sub: publish and subscribe from Java, patterns, keyspace notifications, limits. */
class StorePubSubTest {

    private static String text(Message m) {
        return m.kind().redisName() + (m.pattern() == null ? "" : " " + new String(m.pattern(), StandardCharsets.UTF_8))
                + " " + new String(m.channel(), StandardCharsets.UTF_8) + " "
                + new String(m.payload(), StandardCharsets.UTF_8);
    }

    @Test
    void publishReachesChannelAndPatternSubscribersInOrder() {
        try (Store store = Store.open(Config.defaults())) {
            List<String> got = new CopyOnWriteArrayList<>();
            Subscription sub = store.subscribe(m -> got.add(text(m)), "news").psubscribe("n*");
            assertThat(sub.count()).isEqualTo(2);
            assertThat(store.publish("news", "a")).isEqualTo(2);
            assertThat(store.publish("nope", "b")).isEqualTo(1);
            assertThat(store.execute("PUBLISH", "news", "c")).isEqualTo(new Reply.Int(2)); // PUBLISH as a command
            await().atMost(10, TimeUnit.SECONDS).until(() -> got.size() == 5);
            assertThat(got).containsExactly("message news a", "pmessage n* news a", "pmessage n* nope b",
                    "message news c", "pmessage n* news c");
            sub.unsubscribe("news");
            assertThat(store.publish("news", "d")).isEqualTo(1);
            sub.close();
            assertThat(store.publish("news", "e")).isZero();
        }
    }

    @Test
    void publishEmitsNoFeedFrame() {
        try (Store store = Store.open(Config.defaults().withFeed(0))) {
            var before = store.changesTail();
            store.publish("ch", "m");
            assertThat(store.changesTail()).isEqualTo(before);
        }
    }

    @Test
    void keyspaceNotificationsReachAListener() {
        try (Store store = Store.open(Config.defaults())) {
            assertThat(store.execute("CONFIG", "SET", "notify-keyspace-events", "KEA").toString()).isEqualTo("OK");
            List<String> got = new CopyOnWriteArrayList<>();
            try (Subscription sub = store.subscribe(m -> got.add(text(m)))) {
                sub.psubscribe("__keyevent@0__:*");
                store.set("k", "1");
                store.execute("INCR", "k");
                store.del("k");
                await().atMost(10, TimeUnit.SECONDS).until(() -> got.size() == 3);
                assertThat(got).containsExactly("pmessage __keyevent@0__:* __keyevent@0__:set k",
                        "pmessage __keyevent@0__:* __keyevent@0__:incrby k",
                        "pmessage __keyevent@0__:* __keyevent@0__:del k");
            }
        }
    }

    @Test
    void subscribeAsACommandNamesTheJavaApi() {
        try (Store store = Store.open(Config.defaults())) {
            assertThat(store.execute("SUBSCRIBE", "x").toString()).contains("Store.subscribe");
        }
    }

    @Test
    void aListenerFarBehindIsDroppedAndThePublisherIsNotBlocked() throws InterruptedException {
        try (Store store = Store.open(Config.defaults())) {
            store.execute("CONFIG", "SET", "client-output-buffer-limit", "pubsub 1mb 0 0");
            CountDownLatch release = new CountDownLatch(1);
            Subscription sub = store.subscribe(m -> {
                try {
                    release.await(); // a listener stuck on its first message
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "ch");
            byte[] payload = new byte[1024];
            long reached = 0;
            for (int i = 0; i < 10_000; i++) { // 10 MB for a listener allowed 1 MB behind
                reached += store.publish("ch".getBytes(StandardCharsets.UTF_8), payload);
            }
            release.countDown();
            assertThat(reached).isLessThan(1100);
            assertThat(store.execute("PUBSUB", "NUMSUB", "ch").toString()).contains("(integer) 0");
            assertThat(sub.count()).isZero();
        }
    }

    @Test
    void closingTheStoreEndsItsSubscriptions() {
        Store store = Store.open(Config.defaults());
        Subscription sub = store.subscribe(m -> { }, "a", "b");
        store.close();
        assertThat(sub.count()).isZero();
    }
}
