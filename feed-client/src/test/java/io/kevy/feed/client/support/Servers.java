package io.kevy.feed.client.support;

import io.kevy.feed.client.FeedSource;
import io.kevy.server.config.ServerConfig;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.TestServer;
import io.kevy.testing.TestServer;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.awaitility.Awaitility;

/** In-process kevy servers for the feed-client tests: 4 shards, feed on. */
public final class Servers {
    private Servers() {
    }

    /** A server with 4 shards and the feed on, adjusted by {@code custom}. */
    public static TestServer start(UnaryOperator<ServerConfig> custom) {
        return TestServer.start(c -> custom.apply(c.with(ServerOptions.SHARDS, 4)
                .with(ServerOptions.FEED_ENABLED, true)));
    }

    public static TestServer start() {
        return start(c -> c);
    }

    /** A new pipelining workload connection over lettuce (closed with the server). */
    public static Workload.Conn conn(TestServer server) {
        io.lettuce.core.api.StatefulRedisConnection<String, String> c = server.client().connect();
        c.sync().clientSetname("writer");
        return argv -> {
            io.lettuce.core.protocol.CommandArgs<String, String> args =
                    new io.lettuce.core.protocol.CommandArgs<>(io.lettuce.core.codec.StringCodec.UTF8);
            for (int i = 1; i < argv.length; i++) {
                args.add(argv[i]);
            }
            return c.async().dispatch(io.lettuce.core.protocol.CommandType.valueOf(argv[0]),
                    new io.lettuce.core.output.NestedMultiOutput<>(io.lettuce.core.codec.StringCodec.UTF8), args)
                    .toCompletableFuture();
        };
    }

    /** A workload connection over an embedded store (synchronous). */
    public static Workload.Conn conn(io.kevy.embedded.Store store) {
        return argv -> java.util.concurrent.CompletableFuture.completedFuture(store.execute(argv).orThrow());
    }

    /** Waits until every shard's committed cursor of {@code consumer} reached the server's tail. */
    public static void awaitCaughtUp(io.kevy.feed.client.FeedConsumer<?, ?> consumer, FeedSource source,
            java.time.Duration timeout) {
        Awaitility.await().atMost(timeout).ignoreExceptions().pollInterval(java.time.Duration.ofMillis(50)).until(() -> {
            int shards = source.shards().toCompletableFuture().get();
            var health = consumer.health();
            if (health.shards().size() != shards) {
                return false;
            }
            for (int i = 0; i < shards; i++) {
                var tail = source.tail(i).toCompletableFuture().get();
                var c = health.shards().get(i).cursor();
                if (c == null || !c.equals(tail)) {
                    return false;
                }
            }
            return true;
        });
    }

    /** Asserts two dumps are equal, reporting the first differences. */
    public static void assertSameState(Map<String, String> expected, Map<String, String> actual) {
        if (expected.equals(actual)) {
            return;
        }
        StringBuilder sb = new StringBuilder("states differ (" + expected.size() + " vs " + actual.size() + " keys):");
        int n = 0;
        for (String k : new java.util.TreeSet<>(concat(expected.keySet(), actual.keySet()))) {
            if (!java.util.Objects.equals(expected.get(k), actual.get(k)) && n++ < 10) {
                sb.append("\n  ").append(k).append(": expected ").append(expected.get(k)).append(", mirror ")
                        .append(actual.get(k));
            }
        }
        throw new AssertionError(sb.toString());
    }

    private static java.util.Set<String> concat(java.util.Set<String> a, java.util.Set<String> b) {
        java.util.Set<String> s = new java.util.HashSet<>(a);
        s.addAll(b);
        return s;
    }
}
