package io.kevy.feed;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.engine.Engine;
import io.kevy.server.config.ServerOptions;
import io.kevy.config.Sizes;
import io.kevy.testing.FeedClient;
import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * 8 writer connections and 4 BLOCK readers on 4 shards for about 10 seconds ({@code -Dkevy.concurrency.seconds}):
 * every reader sees every frame of its shard exactly once in offset order, and the frames of each key are
 * exactly the writers' acknowledged writes of that key, in acknowledgement order (feed contract §1: per-key
 * order is apply order).
 */
class FeedConcurrencyIT {
    private static final int SHARDS = 4;
    private static final int WRITERS = 8;

    @Test
    void readersSeeEveryFrameOnceInOrderAndPerKeyOrderMatchesTheAcks() throws Exception {
        long seconds = Long.getLong("kevy.concurrency.seconds", 10);
        long seed = Long.getLong("kevy.seed", new Random().nextLong());
        System.out.printf("FeedConcurrencyIT: seed=%d seconds=%d%n", seed, seconds);
        try (TestServer server = TestServer.start(c -> c.with(ServerOptions.SHARDS, SHARDS)
                .with(ServerOptions.FEED_ENABLED, true).with(ServerOptions.FEED_BUFFER_SIZE, Sizes.GB))) {
            Engine engine = server.server().engine();
            long[] gens = new long[SHARDS];
            FeedClient control = new FeedClient(server.raw());
            for (int s = 0; s < SHARDS; s++) {
                gens[s] = control.tail(s)[0];
                assertThat(control.tail(s)[1]).isZero();
            }
            ExecutorService pool = Executors.newFixedThreadPool(WRITERS + SHARDS);
            AtomicBoolean writing = new AtomicBoolean(true);
            long[] finalTails = new long[SHARDS];
            AtomicBoolean tailsKnown = new AtomicBoolean();
            Map<String, List<String>> acked = new ConcurrentHashMap<>();

            List<Future<List<FeedClient.Frame>>> readers = new ArrayList<>();
            for (int s = 0; s < SHARDS; s++) {
                int shard = s;
                RawClient raw = server.raw();
                readers.add(pool.submit(() -> read(new FeedClient(raw), shard, gens[shard], tailsKnown, finalTails)));
            }
            List<Future<Long>> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int id = w;
                RawClient raw = server.raw();
                Random rnd = new Random(seed + w);
                writers.add(pool.submit(() -> write(raw, id, rnd, writing, acked)));
            }
            Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
            writing.set(false);
            long writes = 0;
            for (Future<Long> f : writers) {
                writes += f.get(30, TimeUnit.SECONDS);
            }
            for (int s = 0; s < SHARDS; s++) {
                finalTails[s] = control.tail(s)[1];
            }
            tailsKnown.set(true);
            long frames = 0;
            Map<String, List<String>> seen = new HashMap<>();
            for (int s = 0; s < SHARDS; s++) {
                List<FeedClient.Frame> got = readers.get(s).get(60, TimeUnit.SECONDS);
                assertThat((long) got.size()).as("shard %d: every frame", s).isEqualTo(finalTails[s]);
                for (int i = 0; i < got.size(); i++) {
                    FeedClient.Frame f = got.get(i);
                    assertThat(f.offset()).as("shard %d: exactly once, in offset order", s).isEqualTo(i);
                    assertThat(engine.shardIndex(f.argv()[1])).isEqualTo(s);
                    seen.computeIfAbsent(utf8(f.argv()[1]), k -> new ArrayList<>()).add(join(f.argv()));
                }
                frames += got.size();
            }
            pool.shutdownNow();
            System.out.printf("  %d acknowledged writes, %d frames, %d keys%n", writes, frames, acked.size());
            assertThat(seen.keySet()).isEqualTo(acked.keySet());
            for (Map.Entry<String, List<String>> e : acked.entrySet()) {
                assertThat(seen.get(e.getKey())).as("frames of %s in acknowledged order", e.getKey())
                        .isEqualTo(e.getValue());
            }
            assertThat(frames).isEqualTo(writes);
        }
    }

    /** One reader: FEED.READ BLOCK from offset 0 until the final tail is known and reached. */
    private static List<FeedClient.Frame> read(FeedClient feed, int shard, long gen, AtomicBoolean tailsKnown,
                                               long[] finalTails) {
        List<FeedClient.Frame> out = new ArrayList<>();
        long cursor = 0;
        while (!(tailsKnown.get() && cursor >= finalTails[shard])) {
            FeedClient.Batch b = feed.read(shard, gen, cursor, "COUNT", "512", "BLOCK", "200");
            for (FeedClient.Frame f : b.frames()) {
                if (f.offset() != cursor) {
                    throw new AssertionError("shard " + shard + ": expected offset " + cursor + ", got " + f);
                }
                out.add(f);
                cursor++;
            }
            if (b.next() != cursor) {
                throw new AssertionError("shard " + shard + ": next " + b.next() + " after offset " + cursor);
            }
        }
        return out;
    }

    /**
     * One writer: SET, INCR, HSET and DEL on its own keys, one command at a time; records the frame each
     * acknowledged write must produce (feed contract §7), per key, in acknowledgement order.
     */
    private static long write(RawClient raw, int id, Random rnd, AtomicBoolean writing,
                              Map<String, List<String>> acked) {
        long n = 0;
        while (writing.get()) {
            int k = rnd.nextInt(16);
            String str = "w" + id + ":s" + k;
            String hash = "w" + id + ":h" + k;
            String expected;
            String key;
            switch (rnd.nextInt(5)) {
                case 0, 1 -> {
                    String v = Integer.toString(rnd.nextInt(1000));
                    key = str;
                    expected = raw.call("SET", str, v).equals("+OK\r\n") ? "SET " + str + " " + v : null;
                }
                case 2 -> {
                    key = str;
                    String r = raw.call("INCR", str);
                    expected = "SET " + str + " " + r.substring(1, r.length() - 2) + " KEEPTTL";
                }
                case 3 -> {
                    String f = "f" + rnd.nextInt(4);
                    String v = Integer.toString(rnd.nextInt(1000));
                    key = hash;
                    raw.call("HSET", hash, f, v);
                    expected = "HSET " + hash + " " + f + " " + v;
                }
                default -> {
                    key = rnd.nextBoolean() ? str : hash;
                    expected = raw.call("DEL", key).equals(":1\r\n") ? "DEL " + key : null;
                }
            }
            if (expected != null) {
                acked.computeIfAbsent(key, x -> new ArrayList<>()).add(expected);
                n++;
            }
        }
        return n;
    }

    private static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private static String join(byte[][] argv) {
        StringBuilder sb = new StringBuilder();
        for (byte[] a : argv) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(utf8(a));
        }
        return sb.toString();
    }
}
