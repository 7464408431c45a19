package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.feed.client.support.Dump;
import io.kevy.feed.client.support.Servers;
import io.kevy.feed.client.support.StoreMirror;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.TestServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * What the consumer does with a stored cursor it cannot simply continue from (issue 6, feed contract §5, §11):
 * cursors stored for another shard count and a stored generation that no longer exists both rebuild, every
 * shard in one shared scan, and sweep the keys that vanished; a cursor ahead of the stream fails at once with the
 * reason and is never retried. Also the {@code redis://:password@} form of the source URI against a server with
 * {@code requirepass}, and the server's NOAUTH in the connection error when the URI has no password; a server
 * that never answers fails each call after the URI's timeout, and {@code maxConnectionAttempts} ends the retries.
 */
class FeedConsumerStartIT {
    /** Records every rebuild the consumer reports. */
    static final class Rebuilds implements ConsumerListener {
        final List<RebuildScope> scopes = new CopyOnWriteArrayList<>();

        @Override
        public void onRebuild(String consumer, RebuildScope scope, RebuildResult result) {
            scopes.add(scope);
        }
    }

    private static void load(RedisCommands<String, String> redis) {
        for (int i = 0; i < 200; i++) {
            redis.set("k:" + i, "v" + i);
        }
        redis.hset("h:1", "f", "1");
        redis.rpush("l:1", "a", "b");
        redis.zadd("z:1", 1.5, "m");
        redis.sadd("s:1", "x");
        redis.pexpire("k:7", 600_000);
    }

    private static List<Cursor> tails(FeedSource source, int shards) throws Exception {
        List<Cursor> tails = new ArrayList<>();
        for (int i = 0; i < shards; i++) {
            tails.add(source.tail(i).toCompletableFuture().get());
        }
        return tails;
    }

    /**
     * A rebuild that gives up because the consumer is closing ({@link RebuildContext#stopping}, as
     * {@link ScanRebuild} does) is a stop, not a failure: the consumer ends CLOSED without a failure or an
     * error reported, and stores no cursor for the unfinished rebuild (so the next start has nothing to continue
     * from and rebuilds, then stores its cursors).
     */
    @Test
    void closingDuringARebuildIsAStopNotAFailure() throws Exception {
        try (TestServer server = Servers.start(); FeedSource source = FeedSource.connect(server.uri())) {
            load(server.lettuce());
            CursorStore store = CursorStore.inMemory();
            CountDownLatch entered = new CountDownLatch(1);
            List<String> errors = new CopyOnWriteArrayList<>();
            ConsumerListener listener = new ConsumerListener() {
                @Override
                public void onError(String consumer, int shard, String kind, Throwable error) {
                    errors.add(kind + ": " + error);
                }
            };
            FeedConsumer<String, String> first = FeedConsumer.builder(StringCodec.UTF8).source(source)
                    .name("closing").cursorStore(store).startFrom(StartFrom.REBUILD).listener(listener)
                    .onRebuild(ctx -> {
                        entered.countDown();
                        Awaitility.await().atMost(Duration.ofSeconds(30)).until(ctx::stopping);
                        throw new KevyException("consumer closing: rebuild abandoned");
                    })
                    .handler(batch -> { }).build();
            first.start();
            assertThat(entered.await(30, TimeUnit.SECONDS)).as("the rebuild started").isTrue();
            first.close();
            first.terminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
            assertThat(first.state()).isEqualTo(FeedConsumer.State.CLOSED);
            assertThat(first.failure()).isEmpty();
            assertThat(errors).as("errors reported to the listener").isEmpty();
            assertThat(store.load("closing")).as("no cursor stored for the abandoned rebuild").isEmpty();

            Rebuilds rebuilds = new Rebuilds();
            FeedConsumer<String, String> second = FeedConsumer.builder(StringCodec.UTF8).source(source)
                    .name("closing").cursorStore(store).startFrom(StartFrom.REBUILD).listener(rebuilds)
                    .onRebuild(ScanRebuild.create()).handler(batch -> { }).build();
            try (second) {
                second.start().toCompletableFuture().get(30, TimeUnit.SECONDS);
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !rebuilds.scopes.isEmpty());
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> store.load("closing").isPresent());
            }
        }
    }

    @Test
    void cursorsStoredForAnotherShardCountRebuildEveryShardInOneScan() throws Exception {
        rebuildsFromAStoredCursor(true);
    }

    @Test
    void aStoredGenerationThatIsGoneRebuildsEveryShardInOneScan() throws Exception {
        rebuildsFromAStoredCursor(false);
    }

    private void rebuildsFromAStoredCursor(boolean shardCountChanged) throws Exception {
        try (TestServer server = Servers.start(); StoreMirror mirror = new StoreMirror();
             FeedSource source = FeedSource.connect(server.uri())) {
            load(server.lettuce());
            List<Cursor> tails = tails(source, 4);
            CursorStore store = CursorStore.inMemory();
            StoredCursors stale;
            if (shardCountChanged) {
                long g = tails.get(0).generation();
                stale = new StoredCursors("start", 2, List.of(new Cursor(0, g, 0), new Cursor(1, g, 0)));
            } else {
                List<Cursor> gone = new ArrayList<>();
                for (Cursor t : tails) {
                    gone.add(new Cursor(t.shard(), t.generation() + 1, 5));
                }
                stale = new StoredCursors("start", 4, gone);
            }
            store.save(stale);
            // a key the mirror holds from before that the server no longer has: the sweep must remove it
            mirror.store().execute("SET", "k:stale", "old");
            Rebuilds rebuilds = new Rebuilds();
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            FeedConsumer<String, String> consumer = FeedConsumer.builder(StringCodec.UTF8).source(source)
                    .name("start").cursorStore(store).handler(mirror).listener(rebuilds).meterRegistry(registry)
                    .onRebuild(ScanRebuild.<String, String>sweeping(mirror::keys)).build();
            consumer.start().toCompletableFuture().get(30, TimeUnit.SECONDS);
            Servers.awaitCaughtUp(consumer, source, Duration.ofSeconds(30));
            assertThat(rebuilds.scopes).as("one rebuild for every shard: one scan").hasSize(1);
            RebuildScope scope = rebuilds.scopes.get(0);
            assertThat(scope.reason()).isEqualTo(shardCountChanged ? RebuildReason.SHARD_COUNT_CHANGED
                    : RebuildReason.GENERATION_GONE);
            assertThat(scope.shards()).isEqualTo(Set.of(0, 1, 2, 3));
            assertThat(mirror.vanished.get()).as("the stale key was swept").isEqualTo(1);
            assertThat(mirror.snapshots.get()).isEqualTo(204);
            Servers.assertSameState(Dump.dump(Dump.of(server.lettuce())), mirror.dump());
            StoredCursors now = store.load("start").orElseThrow();
            assertThat(now.shards()).isEqualTo(4);
            assertThat(now.cursors()).isEqualTo(tails);
            server.lettuce().set("k:after", "x");
            Servers.awaitCaughtUp(consumer, source, Duration.ofSeconds(30));
            assertThat(mirror.dump()).containsKey("k:after");
            assertMeters(registry);
            consumer.close();
        }
    }

    /** The documented meters (docs/feed-client.md, Metrics and health) after one rebuild and one change. */
    private static void assertMeters(SimpleMeterRegistry r) {
        assertThat(r.get("kevy.feed.consumer.rebuild").tag("consumer", "start").timer().count()).isEqualTo(1);
        assertThat(r.get("kevy.feed.consumer.rebuild.keys").counter().count()).isEqualTo(204);
        assertThat(r.get("kevy.feed.consumer.rebuild.vanished").counter().count()).isEqualTo(1);
        assertThat(r.get("kevy.feed.consumer.frames").counters()).extracting(c -> c.getId().getTag("consumer"))
                .containsOnly("start");
        assertThat(r.get("kevy.feed.consumer.frames").counters().stream().mapToDouble(c -> c.count()).sum())
                .isEqualTo(1);
        assertThat(r.get("kevy.feed.consumer.batches").counters()).isNotEmpty();
        assertThat(r.get("kevy.feed.consumer.handler").timers().stream().mapToLong(t -> t.count()).sum())
                .as("change batches (the rebuild has its own timer)").isEqualTo(1);
        assertThat(r.get("kevy.feed.consumer.cursor.commits").counter().count()).isPositive();
        assertThat(r.get("kevy.feed.consumer.lag").gauges()).extracting(g -> g.getId().getTag("shard"))
                .containsExactlyInAnyOrder("0", "1", "2", "3");
        assertThat(r.get("kevy.feed.consumer.lag").gauges()).allMatch(g -> g.value() == 0);
    }

    @Test
    void aStoredCursorAheadOfTheStreamFailsAtOnceAndIsNotRetried() throws Exception {
        try (TestServer server = Servers.start(); FeedSource source = FeedSource.connect(server.uri())) {
            server.lettuce().set("a", "1");
            List<Cursor> cursors = new ArrayList<>(tails(source, 4));
            cursors.set(2, cursors.get(2).withOffset(cursors.get(2).offset() + 1000));
            CursorStore store = CursorStore.inMemory();
            store.save(new StoredCursors("ahead", 4, cursors));
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            FeedConsumer<String, String> consumer = FeedConsumer.builder(StringCodec.UTF8).source(source)
                    .name("ahead").cursorStore(store).handler(b -> { }).meterRegistry(registry).build();
            consumer.start();
            Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(() -> consumer.state() == FeedConsumer.State.FAILED);
            String why = consumer.failure().orElseThrow().getMessage();
            assertThat(why).contains("shard 2", "ahead of the stream", "Not retried");
            assertThat(consumer.health().shards().get(2).state()).isEqualTo(ShardState.FAILED);
            assertThat(registry.find("kevy.feed.consumer.retries").counters()).as("never retried")
                    .allMatch(c -> c.count() == 0);
            assertThat(registry.get("kevy.feed.consumer.errors").tag("kind", "cursor_ahead").tag("shard", "2")
                    .counter().count()).as("counted by kind").isEqualTo(1);
            assertThat(store.load("ahead").orElseThrow().cursors()).as("the stored cursor is left as it was")
                    .isEqualTo(cursors);
            consumer.close();
        }
    }

    @Test
    void aPasswordInTheUriAuthenticatesAndWithoutItTheErrorSaysWhy() throws Exception {
        try (TestServer server = Servers.start(c -> c.with(ServerOptions.REQUIREPASS, "s3cret"))) {
            String authed = "redis://:s3cret@127.0.0.1:" + server.port() + "?timeout=5s";
            try (FeedSource without = FeedSource.connect(server.uri() + "?timeout=5s")) {
                ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                        () -> without.shards().toCompletableFuture().get());
                // a connection error (retried like any other), whose message says why
                assertThat(e.getCause()).isInstanceOf(KevyConnectionException.class)
                        .hasMessageContaining("NOAUTH");
            }
            RedisClient client = RedisClient.create(authed);
            try (FeedSource source = FeedSource.connect(authed); StoreMirror mirror = new StoreMirror();
                 StatefulRedisConnection<String, String> c = client.connect()) {
                assertThat(source.shards().toCompletableFuture().get()).isEqualTo(4);
                FeedConsumer<String, String> consumer = FeedConsumer.builder(StringCodec.UTF8).source(source)
                        .name("authed").handler(mirror).build();
                consumer.start().toCompletableFuture().get(30, TimeUnit.SECONDS);
                load(c.sync());
                Servers.awaitCaughtUp(consumer, source, Duration.ofSeconds(30));
                Servers.assertSameState(Dump.dump(Dump.of(c.sync())), mirror.dump());
                consumer.close();
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    @Test
    void aServerThatNeverAnswersTimesOutAfterTheUriTimeoutAndTheAttemptsAreBounded() throws Exception {
        // a black hole: accepts connections (the backlog does) and never answers
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 50,
                java.net.InetAddress.getLoopbackAddress());
             FeedSource source = FeedSource.connect("redis://127.0.0.1:" + silent.getLocalPort() + "?timeout=300ms")) {
            long t0 = System.nanoTime();
            ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> source.shards().toCompletableFuture().get(10, TimeUnit.SECONDS));
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            System.out.println("FeedConsumerStartIT: a silent server failed FEED.SHARDS after " + ms + " ms with "
                    + e.getCause());
            assertThat(e.getCause()).isInstanceOfAny(KevyTimeoutException.class, KevyConnectionException.class);
            assertThat(ms).as("bounded by the URI's timeout").isBetween(250L, 5_000L);
            FeedConsumer<String, String> consumer = FeedConsumer.builder(StringCodec.UTF8).source(source)
                    .name("silent").handler(b -> { }).maxConnectionAttempts(2)
                    .retryBackoff(Duration.ofMillis(10), Duration.ofMillis(20)).build();
            consumer.start();
            Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(() -> consumer.state() == FeedConsumer.State.FAILED);
            assertThat(consumer.failure().orElseThrow().getMessage()).contains("FEED.SHARDS failed 2 times");
            consumer.close();
        }
    }
}
