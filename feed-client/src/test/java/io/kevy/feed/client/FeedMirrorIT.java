package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.kevy.feed.client.support.Servers;
import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import io.lettuce.core.KeyValue;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.codec.StringCodec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * {@link FeedMirror}'s API as issue 31 names it (the exactness through rebuilds is {@code FeedMirrorRebuildIT}'s):
 * readiness ({@code synced()} false until the first rebuild is complete), typed values of every family, listeners
 * with the value before and after, a {@code get} that does not block while the mirror's shard thread is busy
 * (and already sees the change its listener is called for), an expired value hidden before the server's DEL frame
 * is applied, and a start that is always a rebuild (the consumer settings that would change it are refused).
 */
class FeedMirrorIT {
    /** "type content", the same text for equal values (the upstream-frames test compares with it too). */
    static String describe(MirroredValue<String> v) {
        if (v == null) {
            return "absent";
        }
        return switch (v.type()) {
            case STRING -> "string " + v.string();
            case LIST -> "list " + v.list();
            case SET -> "set " + new java.util.TreeSet<>(v.set());
            case HASH -> {
                Map<String, String> m = new TreeMap<>();
                for (KeyValue<String, String> kv : v.hash()) {
                    m.put(kv.getKey(), kv.getValue());
                }
                yield "hash " + m;
            }
            case ZSET -> {
                Map<String, Double> m = new TreeMap<>();
                for (ScoredValue<String> sv : v.zset()) {
                    m.put(sv.getValue(), sv.getScore());
                }
                yield "zset " + m;
            }
            default -> v.type().word();
        };
    }

    static String describe(Optional<MirroredValue<String>> v) {
        return describe(v.orElse(null));
    }

    @Test
    void typedValuesListenersWithBeforeAndAfterANonBlockingGetAndReadiness() throws Exception {
        try (TestServer server = Servers.start(); FeedSource source = FeedSource.connect(server.uri());
             RawClient raw = server.raw()) {
            raw.call("SET", "u:s", "ada");
            raw.call("HSET", "u:{a}h", "f", "1", "g", "2");
            raw.call("RPUSH", "u:l", "a", "b", "c");
            raw.call("SADD", "u:set", "x", "y");
            raw.call("ZADD", "u:z", "1.5", "m", "2", "n");
            raw.call("SET", "other:1", "not mirrored");
            Map<String, String> changes = new ConcurrentHashMap<>();
            try (FeedMirror<String, String> m = FeedMirror.builder(StringCodec.UTF8).source(source)
                    .name("mirror-api").prefixes("u:")
                    .listener((k, before, after) -> changes.merge(k, describe(before) + " -> " + describe(after),
                            (a, b) -> a + "; " + b))
                    .build()) {
                assertThat(m.synced()).as("not synced before start").isFalse();
                assertThat(m.get("u:s")).isEmpty();
                m.start().toCompletableFuture().get();
                assertThat(m.awaitSynced(Duration.ofSeconds(30))).isTrue();
                assertThat(m.synced()).isTrue();

                // the first rebuild: every key under the prefix, typed
                assertThat(m.size()).isEqualTo(5);
                assertThat(describe(m.get("u:s"))).isEqualTo("string ada");
                assertThat(describe(m.get("u:{a}h"))).isEqualTo("hash {f=1, g=2}");
                assertThat(describe(m.get("u:l"))).isEqualTo("list [a, b, c]");
                assertThat(describe(m.get("u:set"))).isEqualTo("set [x, y]");
                assertThat(describe(m.get("u:z"))).isEqualTo("zset {m=1.5, n=2.0}");
                assertThat(m.get("other:1")).as("outside the prefixes").isEmpty();
                assertThat(changes).as("the rebuild's keys reached the listeners, from absent").containsOnly(
                        Map.entry("u:s", "absent -> string ada"),
                        Map.entry("u:{a}h", "absent -> hash {f=1, g=2}"),
                        Map.entry("u:l", "absent -> list [a, b, c]"),
                        Map.entry("u:set", "absent -> set [x, y]"),
                        Map.entry("u:z", "absent -> zset {m=1.5, n=2.0}"));
                changes.clear();

                raw.call("SET", "u:s", "grace");
                raw.call("DEL", "u:l");
                raw.call("RENAME", "u:{a}h", "u:{a}h2");
                raw.call("LPUSH", "u:l2", "p");
                raw.call("ZADD", "u:z", "7", "m");
                raw.call("SREM", "u:set", "x");
                raw.call("SET", "other:1", "still not mirrored");
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> changes.size() >= 7);
                assertThat(changes).as("before and after of each change").containsOnly(
                        Map.entry("u:s", "string ada -> string grace"),
                        Map.entry("u:l", "list [a, b, c] -> absent"),
                        Map.entry("u:{a}h", "hash {f=1, g=2} -> absent"),
                        Map.entry("u:{a}h2", "absent -> hash {f=1, g=2}"),
                        Map.entry("u:l2", "absent -> list [p]"),
                        Map.entry("u:z", "zset {m=1.5, n=2.0} -> zset {m=7.0, n=2.0}"),
                        Map.entry("u:set", "set [x, y] -> set [y]"));

                // a listener that holds its shard's thread: get answers at once, with the change already in it
                CountDownLatch entered = new CountDownLatch(1);
                CountDownLatch release = new CountDownLatch(1);
                m.addListener((k, before, after) -> {
                    if (k.equals("u:{t}block")) {
                        entered.countDown();
                        try {
                            release.await(30, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                });
                raw.call("SET", "u:{t}ttl", "soon", "PX", "1500");
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> m.get("u:{t}ttl").isPresent());
                assertThat(m.get("u:{t}ttl").get().expireAtMillis()).isPresent();
                raw.call("SET", "u:{t}block", "1");
                assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
                try {
                    assertTimeoutPreemptively(Duration.ofSeconds(1), () -> assertThat(describe(m.get("u:{t}block")))
                            .as("visible to get before the listeners run").isEqualTo("string 1"));
                    // u:{t}ttl's shard is held: its DEL frame cannot be applied, yet get hides the expired value
                    long expireAt = m.snapshot().get("u:{t}ttl").expireAtMillis().getAsLong();
                    Thread.sleep(Math.max(0, expireAt - System.currentTimeMillis()) + 20);
                    assertTimeoutPreemptively(Duration.ofSeconds(1), () -> assertThat(m.get("u:{t}ttl"))
                            .as("expired: hidden").isEmpty());
                    assertThat(m.snapshot()).as("still held until the DEL frame arrives").containsKey("u:{t}ttl");
                } finally {
                    release.countDown();
                }
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !m.snapshot().containsKey("u:{t}ttl"));
            }
        }
    }

    @Test
    void aMirrorAlwaysStartsWithARebuild() throws Exception {
        try (TestServer server = Servers.start(); FeedSource source = FeedSource.connect(server.uri())) {
            for (var settings : List.<java.util.function.UnaryOperator<FeedConsumer.Builder<String, String>>>of(
                    b -> b.startFrom(StartFrom.TAIL), b -> b.volatileState(false), b -> b.onRebuild(ctx -> { }),
                    b -> b.sink(Sink.of(batch -> { })))) {
                assertThatThrownBy(() -> FeedMirror.builder(StringCodec.UTF8).source(source).name("m")
                        .consumer(settings).build())
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("was already set");
            }
            assertThatThrownBy(() -> FeedMirror.builder(StringCodec.UTF8).source(source).name("m")
                    .consumer(b -> b.handler(batch -> { })).build())
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("exactly one of sink and handler");

            server.lettuce().set("u:1", "a");
            for (int run = 0; run < 2; run++) {
                // the same name twice (a restart), with a durable cursor store: the stored cursor is ignored
                try (FeedMirror<String, String> m = FeedMirror.builder(StringCodec.UTF8).source(source)
                        .name("restarted").prefixes("u:")
                        .consumer(b -> b.cursorStore(CursorStore.kevy(source))).build()) {
                    m.start().toCompletableFuture().get();
                    assertThat(m.awaitSynced(Duration.ofSeconds(30))).isTrue();
                    assertThat(m.snapshot().keySet()).as("run %d", run).containsExactlyInAnyOrder(
                            run == 0 ? new String[] {"u:1"} : new String[] {"u:1", "u:2"});
                    Servers.awaitCaughtUp(m.consumer(), source, Duration.ofSeconds(30));
                }
                assertThat(server.lettuce().exists("__kevy:feed-cursor:restarted")).as("a cursor was stored")
                        .isEqualTo(1L);
                server.lettuce().set("u:2", "b");
            }
        }
    }
}
