package io.kevy.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A full sync of a large primary: {@value #DEFAULT_KEYS} string keys ({@code -Dkevy.fullsync.keys=N} for another
 * count) plus hashes, lists and sorted sets, written to by a client while the primary streams its snapshots
 * ({@code REPL.SNAPSHOT} in the background, {@code REPL.CHUNK} chunks), so the copy-on-write of the capture is
 * exercised. Asserts replica == primary ({@code DEBUG DIGEST}, {@code DBSIZE}, spot values) and that the primary
 * kept answering during the sync (the longest {@code PING} round trip it saw is printed and bounded). Real servers
 * in-process on loopback port 0. The writer's values come from a seeded Random (printed; {@code -Dkevy.seed=N}).
 */
class FullSyncIT {
    static final int DEFAULT_KEYS = 1_000_000;
    private static final Duration SYNC = Duration.ofSeconds(60);

    @Test
    void aFullSyncOfALargePrimaryEqualsThePrimaryAndDoesNotStallIt() throws Exception {
        int keys = Integer.getInteger("kevy.fullsync.keys", DEFAULT_KEYS);
        long seed = Long.getLong("kevy.seed", new Random().nextLong());
        System.out.println("FullSyncIT: keys=" + keys + " seed=" + seed);
        try (TestServer primary = TestServer.start(c -> c.with(ServerOptions.SHARDS, 2)
                .with(ServerOptions.FEED_ENABLED, true));
             TestServer replica = TestServer.start(c -> c.with(ServerOptions.SHARDS, 2)
                     .with(ServerOptions.FEED_ENABLED, true))) {
            RawClient p = primary.raw();
            assertThat(p.call("DEBUG", "POPULATE", Integer.toString(keys), "key", "16")).isEqualTo("+OK\r\n");
            for (int i = 0; i < 200; i++) {
                p.call("HSET", "h" + i, "a", "1", "b", "2");
                p.call("RPUSH", "l" + i, "x", "y", "z");
                p.call("ZADD", "z" + i, "1", "m1", "2", "m2");
            }
            RawClient r = replica.raw();
            assertThat(r.call("SET", "old-only-on-the-replica", "1")).isEqualTo("+OK\r\n");

            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong writes = new AtomicLong();
            Thread writer = new Thread(() -> {
                Random rnd = new Random(seed);
                try (RawClient w = RawClient.connect(primary.port())) {
                    while (!stop.get()) {
                        int i = rnd.nextInt(200);
                        w.call("HSET", "h" + i, "f" + rnd.nextInt(50), Integer.toString(rnd.nextInt()));
                        w.call("RPUSH", "l" + i, Integer.toString(rnd.nextInt(1000)));
                        w.call("ZINCRBY", "z" + i, "1", "m" + rnd.nextInt(10));
                        w.call("SET", "key:" + rnd.nextInt(keys), "rewritten");
                        writes.addAndGet(4);
                    }
                }
            });
            writer.start();
            AtomicLong maxPingMs = new AtomicLong();
            Thread pinger = new Thread(() -> {
                try (RawClient ping = RawClient.connect(primary.port())) {
                    while (!stop.get()) {
                        long t0 = System.nanoTime();
                        ping.call("PING");
                        maxPingMs.accumulateAndGet((System.nanoTime() - t0) / 1_000_000, Math::max);
                    }
                }
            });
            pinger.start();

            long t0 = System.nanoTime();
            assertThat(r.call("REPLICAOF", "127.0.0.1", Integer.toString(primary.port()))).isEqualTo("+OK\r\n");
            await().atMost(SYNC).pollInterval(Duration.ofMillis(50))
                    .until(() -> r.call("INFO", "replication").contains("master_link_status:up"));
            long syncMs = (System.nanoTime() - t0) / 1_000_000;
            stop.set(true);
            writer.join();
            pinger.join();
            System.out.printf("FullSyncIT: full sync of %d keys in %d ms; %d writes during it; longest PING on the "
                    + "primary meanwhile %d ms%n", keys, syncMs, writes.get(), maxPingMs.get());

            String digest = p.call("DEBUG", "DIGEST");
            await().atMost(SYNC).until(() -> r.call("DEBUG", "DIGEST").equals(digest));
            assertThat(r.call("DBSIZE")).isEqualTo(p.call("DBSIZE")).isEqualTo(":" + (keys + 600) + "\r\n");
            assertThat(r.call("EXISTS", "old-only-on-the-replica")).isEqualTo(":0\r\n");
            assertThat(r.call("HGETALL", "h7")).isEqualTo(p.call("HGETALL", "h7"));
            assertThat(r.call("INFO", "replication")).contains("kevy_full_syncs:1\r\n");
            assertThat(maxPingMs.get()).as("the primary kept answering during the full sync").isLessThan(3000);
        }
    }

    @Test
    void replSnapshotAndReplChunkRefuseHostileInputAndEndTheTransferAtTheLastChunk() {
        try (TestServer primary = TestServer.start(c -> c.with(ServerOptions.SHARDS, 2))) {
            RawClient p = primary.raw();
            assertThat(p.call("DEBUG", "POPULATE", "1000")).isEqualTo("+OK\r\n");
            assertThat(p.call("REPL.SNAPSHOT", "x")).isEqualTo("-ERR invalid shard\r\n");
            assertThat(p.call("REPL.SNAPSHOT", "2")).isEqualTo("-ERR shard out of range\r\n");
            assertThat(p.call("REPL.SNAPSHOT", "-1")).isEqualTo("-ERR shard out of range\r\n");
            assertThat(p.call("REPL.CHUNK", "nope", "0")).isEqualTo("-ERR no full-sync snapshot nope in transit\r\n");
            String reply = p.call("REPL.SNAPSHOT", "0"); // *4 :gen :next :size $id
            String[] lines = reply.split("\r\n");
            assertThat(lines[0]).isEqualTo("*4");
            long size = Long.parseLong(lines[3].substring(1));
            String id = lines[5];
            assertThat(size).isPositive();
            assertThat(p.call("REPL.CHUNK", id, "x")).isEqualTo("-ERR invalid offset\r\n");
            assertThat(p.call("REPL.CHUNK", id, "-1")).startsWith("-ERR REPL.CHUNK " + id + ": offset -1 is outside");
            assertThat(p.call("REPL.CHUNK", id, Long.toString(size + 1))).startsWith("-ERR REPL.CHUNK " + id
                    + ": offset " + (size + 1) + " is outside 0.." + size);
            assertThat(p.call("REPL.CHUNK", id)).isEqualTo(
                    "-ERR wrong number of arguments for 'repl.chunk' command\r\n");
            String half = p.call("REPL.CHUNK", id, Long.toString(size - 10));
            assertThat(half).as("the last 10 bytes end the transfer").startsWith("$10\r\n");
            assertThat(p.call("REPL.CHUNK", id, "0")).isEqualTo("-ERR no full-sync snapshot " + id
                    + " in transit\r\n");
        }
    }
}
