package io.kevy.examples.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.examples.support.HoldBack;
import io.kevy.feed.client.ConsumerListener;
import io.kevy.feed.client.CursorStore;
import io.kevy.feed.client.FeedSource;
import io.kevy.feed.client.StartFrom;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.TestServer;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The search-index updater against a real server (2 shards, a 32 KiB backlog per shard): after random package
 * updates, field removals, deletes, re-adds, renames, type changes and expiries, and after a forced FEEDRESYNC
 * (the updater held back while a burst overflows its backlog), the index holds exactly the live {@code pkg:*}
 * keys with their current fields. Seeded: {@code -Dseed=N} repeats a run.
 */
class SearchIndexIT {
    private static final int BATCH = 64;

    private static TestServer server() {
        return TestServer.start(c -> c.with(ServerOptions.FEED_ENABLED, true)
                .with(ServerOptions.FEED_BUFFER_SIZE, 32L * 1024));
    }

    /** Every live pkg:* hash on the server, key → fields. */
    static Map<String, Map<String, String>> serverState(RedisCommands<String, String> redis) {
        Map<String, Map<String, String>> out = new HashMap<>();
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<String> page = redis.scan(cursor, ScanArgs.Builder.matches("pkg:*").limit(500));
            for (String k : page.getKeys()) {
                if ("hash".equals(redis.type(k))) {
                    out.put(k, new TreeMap<>(redis.hgetall(k)));
                }
            }
            cursor = page;
        } while (!cursor.isFinished());
        return out;
    }

    @Test
    void afterRandomChangesAndAForcedResyncTheIndexHoldsExactlyTheLiveKeys() throws Exception {
        long seed = Long.getLong("seed", System.nanoTime());
        System.out.println("SearchIndexIT seed: " + seed);
        Random rnd = new Random(seed);
        List<DebianPackage> sample = new ArrayList<>(DebianPackages.sample());
        java.util.Collections.shuffle(sample, rnd);
        List<DebianPackage> packages = sample.subList(0, 400);

        try (TestServer server = server(); FeedSource source = FeedSource.connect(server.uri());
             StatefulRedisConnection<String, String> conn = server.client().connect();
             HashIndex index = HashIndex.inMemory()) {
            RedisCommands<String, String> redis = conn.sync();
            PackageLoader.load(conn, packages.subList(0, 200));

            HoldBack pause = new HoldBack(source, 2, BATCH);
            AtomicInteger resyncs = new AtomicInteger();
            try (IndexUpdater updater = new IndexUpdater(index, source, "search-index", "pkg:",
                    CursorStore.inMemory(), b -> b.startFrom(StartFrom.REBUILD).batchSize(BATCH)
                            .listener(new ConsumerListener() {
                                @Override
                                public void onResync(String consumer, int shard) {
                                    resyncs.incrementAndGet();
                                }
                            }))) {
                updater.afterBatch(pause::hook).start();
                assertThat(index.count()).as("the first rebuild indexed the loaded packages").isEqualTo(200);
                PackageLoader.load(conn, packages.subList(200, 400));

                randomChanges(redis, packages, rnd, 3000);
                assertThat(updater.consumer().awaitCaughtUp(Duration.ofSeconds(30))).isTrue();
                assertThat(index.all()).isEqualTo(serverState(redis));
                assertThat(resyncs.get()).as("no resync yet").isZero();

                // the forced resync: hold the updater back while a burst overflows its backlog
                pause.on();
                int round = 0;
                while (!pause.evicted()) {
                    burst(redis, packages, rnd, round++);
                    assertThat(round).as("the burst overflows the backlog").isLessThan(500);
                }
                pause.off();
                assertThat(updater.consumer().awaitCaughtUp(Duration.ofSeconds(60))).isTrue();
                System.out.printf("SearchIndexIT: %d burst rounds, %d resync(s), %d rebuild entries, %d documents%n",
                        round, resyncs.get(), updater.rebuildEntries(), index.count());
                assertThat(resyncs.get()).as("FEEDRESYNC").isPositive();
                assertThat(updater.rebuildEntries()).isPositive();
                Map<String, Map<String, String>> live = serverState(redis);
                assertThat(index.all()).isEqualTo(live);
                assertThat(index.count()).isEqualTo(live.size());

                randomChanges(redis, packages, rnd, 500);
                assertThat(updater.consumer().awaitCaughtUp(Duration.ofSeconds(30))).isTrue();
                assertThat(index.all()).as("after the rebuild the feed path goes on").isEqualTo(serverState(redis));
            }
        }
    }

    @Test
    void anIndexOnDiskResumesFromTheCursorsCommittedWithIt(@TempDir Path dir) throws Exception {
        List<DebianPackage> packages = DebianPackages.sample().subList(0, 300);
        try (TestServer server = TestServer.start(c -> c.with(ServerOptions.FEED_ENABLED, true));
             FeedSource source = FeedSource.connect(server.uri());
             StatefulRedisConnection<String, String> conn = server.client().connect()) {
            RedisCommands<String, String> redis = conn.sync();
            PackageLoader.load(conn, packages.subList(0, 100));
            AtomicInteger rebuilds = new AtomicInteger();
            ConsumerListener counting = new ConsumerListener() {
                @Override
                public void onRebuild(String c, io.kevy.feed.client.RebuildScope s,
                        io.kevy.feed.client.RebuildResult r) {
                    rebuilds.incrementAndGet();
                }
            };
            try (HashIndex index = HashIndex.open(dir);
                 IndexCursorStore cursors = new IndexCursorStore(index, Duration.ofMillis(50));
                 IndexUpdater updater = new IndexUpdater(index, source, "search-index", "pkg:", cursors,
                         b -> b.startFrom(StartFrom.REBUILD).listener(counting))) {
                updater.start();
                PackageLoader.load(conn, packages.subList(100, 200));
                assertThat(updater.consumer().awaitCaughtUp(Duration.ofSeconds(30))).isTrue();
            }
            assertThat(rebuilds.get()).isEqualTo(1);
            // while the updater is down: changes it must pick up from the committed cursors
            PackageLoader.load(conn, packages.subList(200, 300));
            redis.del("pkg:" + packages.get(0).name());
            redis.hset("pkg:" + packages.get(1).name(), "version", "99");
            assertThat(HashIndex.searchCommitted(dir, "name:" + packages.get(250).name(), 1)).isEmpty();
            try (HashIndex index = HashIndex.open(dir);
                 IndexCursorStore cursors = new IndexCursorStore(index, Duration.ofMillis(50));
                 IndexUpdater updater = new IndexUpdater(index, source, "search-index", "pkg:", cursors,
                         b -> b.startFrom(StartFrom.REBUILD).listener(counting))) {
                updater.start();
                assertThat(updater.consumer().awaitCaughtUp(Duration.ofSeconds(30))).isTrue();
                assertThat(rebuilds.get()).as("resumed from the stored cursors, no second rebuild").isEqualTo(1);
                assertThat(index.all()).isEqualTo(serverState(redis));
                assertThat(index.count()).isEqualTo(299);
            }
        }
    }

    /** Random writes of every kind the updater must follow (pkg:* and a few outside the prefix). */
    private static void randomChanges(RedisCommands<String, String> redis, List<DebianPackage> packages, Random rnd,
            int n) throws InterruptedException {
        List<String> expiring = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            DebianPackage p = packages.get(rnd.nextInt(packages.size()));
            int r = rnd.nextInt(100);
            try {
                change(redis, packages, rnd, p, r, i, expiring);
            } catch (RedisCommandExecutionException e) {
                // WRONGTYPE: a write to a key of another type. "no such key": a RENAME whose source, given a 20 ms
                // TTL earlier (RENAME carries it over), expired between the EXISTS check and the RENAME.
                assertThat(e.getMessage()).as("only writes to keys of another type or RENAMEs of expired keys fail")
                        .matches("WRONGTYPE .*|ERR no such key");
            }
        }
        TimeUnit.MILLISECONDS.sleep(30);
        for (String k : expiring) {
            redis.exists(k); // an expired key is deleted (and its DEL frame emitted) when touched
        }
    }

    private static void change(RedisCommands<String, String> redis, List<DebianPackage> packages, Random rnd,
            DebianPackage p, int r, int i, List<String> expiring) {
        String k = p.key();
        {
            if (r < 30) {
                redis.hset(k, "version", p.version() + "+b" + i);
            } else if (r < 38) {
                redis.hset(k, Map.of("tag", "t" + rnd.nextInt(5), "maintainer", "Team " + i));
            } else if (r < 46) {
                redis.hdel(k, rnd.nextBoolean() ? "tag" : "section");
            } else if (r < 50) {
                redis.hdel(k, "name", "version", "section", "maintainer", "description", "tag", "views");
            } else if (r < 58) {
                redis.del(k);
            } else if (r < 68) {
                redis.hset(k, p.fields());
            } else if (r < 72) {
                String dst = packages.get(rnd.nextInt(packages.size())).key();
                if (redis.exists(k) == 1 && !k.equals(dst)) {
                    redis.rename(k, dst);
                }
            } else if (r < 74) {
                if (redis.exists(k) == 1) {
                    redis.rename(k, "attic:" + p.name());
                }
            } else if (r < 76) {
                redis.hset("attic:" + p.name(), "name", p.name());
                redis.rename("attic:" + p.name(), k);
            } else if (r < 79) {
                redis.set(k, "not a hash");
            } else if (r < 82) {
                redis.pexpire(k, 20);
                expiring.add(k);
            } else if (r < 86) {
                redis.hincrby(k, "views", 1);
            } else if (r < 88) {
                redis.mset(Map.of(k, "string now", "other:" + i, "x"));
            } else if (r < 90) {
                redis.del(k, "other:" + rnd.nextInt(i + 1), packages.get(rnd.nextInt(packages.size())).key());
            } else {
                redis.set("viewed:" + i, k);
            }
        }
    }

    /** One round of the burst: every package's version bumped, a few deleted and re-added. */
    private static void burst(RedisCommands<String, String> redis, List<DebianPackage> packages, Random rnd,
            int round) {
        for (DebianPackage p : packages) {
            int r = rnd.nextInt(100);
            if (r < 3) {
                redis.del(p.key());
            } else if (r < 6 || !"hash".equals(redis.type(p.key()))) {
                redis.del(p.key());
                redis.hset(p.key(), p.fields());
            } else {
                redis.hset(p.key(), "version", p.version() + "+burst" + round);
            }
        }
    }
}
