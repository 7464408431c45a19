package io.kevy.bench;

import io.kevy.embedded.ChangeBatch;
import io.kevy.embedded.Config;
import io.kevy.embedded.Store;
import io.kevy.feed.FeedCursor;
import io.kevy.feed.client.Change;
import io.kevy.feed.client.Cursor;
import io.kevy.feed.client.EmbeddedFeedSource;
import io.kevy.feed.client.FeedConsumer;
import io.kevy.feed.client.FeedSource;
import io.kevy.feed.client.FrameBatch;
import io.kevy.feed.client.StartFrom;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * The Java side of {@code bench/feed.sh} (issue 10): feed drain rate and write-to-handler latency.
 *
 * <ul>
 *   <li>{@code drain --port P --frames N}: writes N {@code SET} frames to a fresh kevy server (feed on), then
 *       reads them all back with one reader at COUNT 4096: first with {@link FeedSource#read} in a loop
 *       (the raw FEED.READ rate), then with a {@link FeedConsumer} from EARLIEST (decode + handler). Figures:
 *       frames per second.</li>
 *   <li>{@code drain-embedded --frames N}: the same against an in-process {@link Store}:
 *       {@link Store#changesSince} in a loop, then a FeedConsumer over {@link EmbeddedFeedSource#of}.</li>
 *   <li>{@code latency --port P --rates 1000,10000,50000 --seconds S}: for each rate and for BLOCK and for
 *       polling ({@code block(Duration.ZERO)}, default poll interval 1-100 ms), one writer sends
 *       {@code SET lat:<i> x} at a fixed rate (asynchronously, so a slow reply does not lower the rate) while
 *       a FeedConsumer with prefix {@code lat:} runs; the latency of write i is the time from its
 *       acknowledgement reaching the writer to the handler seeing its change (0 when the handler was first).
 *       The first second of each run is warm-up and not recorded. Figures: p50, p99, p99.9 in microseconds,
 *       and the p99 from the write being sent (which a busy client JVM cannot make look shorter by handling
 *       the acknowledgement late). Mode {@code durable} is BLOCK with {@code durableOnly(true)} (FEED.READ
 *       ... DURABLE: the handler sees a change once the AOF fsync covers it). Before the first point, {@code --warmup S} seconds (default 3) of each mode
 *       at 10k writes/s warm the server and client JITs, unreported. With {@code --read-port R} (a replica of
 *       {@code P}, bench/replication.sh) the consumer reads the replica's feed while the writes go to P: the
 *       figure is then replication lag, from the primary's acknowledgement to the replica's feed serving the
 *       change, named {@code replication-lag.*}.</li>
 * </ul>
 * Options: {@code --csv} (machine-readable lines, see {@link Report}).
 */
public final class FeedBench {
    private static final int COUNT = FeedSource.MAX_COUNT;
    private static final byte[] VALUE = "xyz".getBytes(StandardCharsets.US_ASCII);

    private FeedBench() {
    }

    public static void main(String[] argv) throws Exception {
        if (argv.length == 0) {
            System.err.println("usage: FeedBench drain|drain-embedded|latency [--port P] [--read-port R] "
                    + "[--frames N] [--rates R1,R2] [--seconds S] [--modes block,poll] [--csv]");
            System.exit(2);
        }
        Args a = new Args(argv, 1);
        Report out = new Report(a.flag("csv"));
        switch (argv[0]) {
            case "drain" -> drainRemote(out, a.integer("port", 6004), a.integer("frames", 1_000_000));
            case "drain-embedded" -> drainEmbedded(out, a.integer("frames", 1_000_000));
            case "latency" -> {
                int port = a.integer("port", 6004);
                int readPort = a.integer("read-port", port);
                // warm both JVMs (server JIT, client, both consumer modes) before the first measured point
                int warmup = a.integer("warmup", 3);
                if (warmup > 0) {
                    for (String mode : new String[] {"block", "poll"}) {
                        latency(null, port, readPort, mode, 10_000, warmup);
                    }
                }
                for (String mode : a.string("modes", "block,poll").split(",")) {
                    for (String r : a.string("rates", "1000,10000,50000").split(",")) {
                        latency(out, port, readPort, mode, Integer.parseInt(r.trim()), a.integer("seconds", 5));
                    }
                }
            }
            default -> throw new IllegalArgumentException("unknown benchmark " + argv[0]);
        }
        System.exit(0); // lettuce / consumer threads are daemons or closed; do not wait for stragglers
    }

    /* ---------------- drain ---------------- */

    private static void drainRemote(Report out, int port, int frames) throws Exception {
        String uri = "redis://127.0.0.1:" + port;
        try (FeedSource source = FeedSource.connect(uri)) {
            int shards = source.shards().toCompletableFuture().get();
            Cursor[] from = new Cursor[shards];
            for (int s = 0; s < shards; s++) {
                from[s] = source.tail(s).toCompletableFuture().get();
            }
            RedisClient client = RedisClient.create(uri);
            try (StatefulRedisConnection<byte[], byte[]> c = client.connect(ByteArrayCodec.INSTANCE)) {
                fill(c, "d:", frames);
            } finally {
                client.shutdown();
            }
            readAll(source, from); // warm-up pass (JIT of client and server); reading does not consume
            long[] read = new long[1];
            double secs = timed(() -> read[0] = readAll(source, from));
            out.figure("drain.remote.read", read[0] / secs, "frames/s",
                    "FEED.READ COUNT " + COUNT + " in a loop, " + shards + " shards one after the other, "
                            + read[0] + " frames");
            consumerDrain(out, "drain.remote.consumer", source, frames);
        }
    }

    private static long readAll(FeedSource source, Cursor[] from) throws Exception {
        long n = 0;
        for (Cursor c : from) {
            Cursor tail = source.tail(c.shard()).toCompletableFuture().get();
            Cursor cur = c;
            while (cur.offset() < tail.offset()) {
                FrameBatch b = source.read(cur, COUNT, List.of(), null).toCompletableFuture().get();
                n += b.frames().size();
                cur = b.next();
            }
        }
        return n;
    }

    private static void drainEmbedded(Report out, int frames) throws Exception {
        try (Store store = Store.open(Config.defaults().withFeed(512L << 20))) {
            FeedCursor start = store.changesTail();
            for (int i = 0; i < frames; i++) {
                store.set(("d:" + i).getBytes(StandardCharsets.US_ASCII), VALUE);
            }
            readEmbedded(store, start, frames); // warm-up pass (JIT); reading does not consume
            long[] read = new long[1];
            double secs = timed(() -> read[0] = readEmbedded(store, start, frames));
            out.figure("drain.embedded.changesSince", read[0] / secs, "frames/s",
                    "Store.changesSince limit " + COUNT + " in a loop, " + read[0] + " frames");
            try (FeedSource source = EmbeddedFeedSource.of(store)) {
                consumerDrain(out, "drain.embedded.consumer", source, frames);
            }
        }
    }

    private static long readEmbedded(Store store, FeedCursor start, int frames) {
        long off = start.offset();
        long n = 0;
        while (n < frames) {
            ChangeBatch b = store.changesSince(start.generation(), off, COUNT, List.of());
            n += b.changes().size();
            off = b.next().offset();
        }
        return n;
    }

    /** One FeedConsumer from EARLIEST with batch size COUNT and a handler that counts; frames per second. */
    private static void consumerDrain(Report out, String figure, FeedSource source, int frames) throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        AtomicLong seen = new AtomicLong();
        FeedConsumer<byte[], byte[]> consumer = FeedConsumer.builder(ByteArrayCodec.INSTANCE)
                .source(source).name("bench-drain").startFrom(StartFrom.EARLIEST).batchSize(COUNT)
                .handler(b -> {
                    if (seen.addAndGet(b.size()) >= frames) {
                        done.countDown();
                    }
                }).build();
        long t0 = System.nanoTime();
        consumer.start();
        if (!done.await(10, TimeUnit.MINUTES)) {
            throw new IllegalStateException(figure + ": consumer saw " + seen.get() + " of " + frames);
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        consumer.close();
        out.figure(figure, seen.get() / secs, "frames/s",
                "FeedConsumer from EARLIEST, batchSize " + COUNT + ", counting handler, " + seen.get()
                        + " frames (includes start-up)");
    }

    /** Writes {@code n} {@code SET <prefix><i> xyz} pipelined in batches of 1000. */
    static void fill(StatefulRedisConnection<byte[], byte[]> c, String prefix, int n) throws Exception {
        RedisAsyncCommands<byte[], byte[]> cmd = c.async();
        c.setAutoFlushCommands(false);
        try {
            List<RedisFuture<String>> batch = new ArrayList<>(1000);
            for (int i = 0; i < n; i++) {
                batch.add(cmd.set((prefix + i).getBytes(StandardCharsets.US_ASCII), VALUE));
                if (batch.size() == 1000 || i == n - 1) {
                    c.flushCommands();
                    for (RedisFuture<String> f : batch) {
                        f.get(60, TimeUnit.SECONDS);
                    }
                    batch.clear();
                }
            }
        } finally {
            c.setAutoFlushCommands(true);
        }
    }

    /* ---------------- latency ---------------- */

    private static void latency(Report out, int port, int readPort, String mode, int rate, int seconds)
            throws Exception {
        String uri = "redis://127.0.0.1:" + port;
        String readUri = "redis://127.0.0.1:" + readPort; // a replica's port: the figure is replication lag
        int total = rate * (seconds + 1);
        int warm = rate; // the first second
        long[] sent = new long[total];
        AtomicLongArray acked = new AtomicLongArray(total);
        AtomicLong ackCount = new AtomicLong();
        AtomicLongArray handled = new AtomicLongArray(total);
        AtomicLong handledCount = new AtomicLong();
        String prefix = "lat" + mode + rate + ":";
        byte[][] keys = new byte[total][];
        for (int i = 0; i < total; i++) {
            keys[i] = (prefix + i).getBytes(StandardCharsets.US_ASCII);
        }
        FeedConsumer.Builder<byte[], byte[]> b = FeedConsumer.builder(ByteArrayCodec.INSTANCE)
                .source(FeedSource.connect(readUri)).name("bench-lat").prefixes(prefix).startFrom(StartFrom.TAIL)
                .handler(batch -> {
                    long now = System.nanoTime();
                    for (Change<byte[], byte[]> ch : batch) {
                        int i = index(ch.key(), prefix.length());
                        handled.set(i, now);
                    }
                    handledCount.addAndGet(batch.size());
                });
        if (mode.equals("poll")) {
            b.block(Duration.ZERO);
        } else if (mode.equals("durable")) { // BLOCK with FEED.READ ... DURABLE: frames once fsynced
            b.durableOnly(true);
        }
        FeedConsumer<byte[], byte[]> consumer = b.build();
        RedisClient client = RedisClient.create(uri);
        try (StatefulRedisConnection<byte[], byte[]> c = client.connect(ByteArrayCodec.INSTANCE)) {
            consumer.start().toCompletableFuture().get(60, TimeUnit.SECONDS);
            consumer.awaitCaughtUp(Duration.ofSeconds(30));
            RedisAsyncCommands<byte[], byte[]> cmd = c.async();
            long period = 1_000_000_000L / rate;
            long t0 = System.nanoTime();
            for (int i = 0; i < total; i++) {
                long due = t0 + i * period;
                long wait;
                while ((wait = due - System.nanoTime()) > 0) {
                    if (wait > 60_000) {
                        LockSupport.parkNanos(wait - 50_000);
                    } else {
                        Thread.onSpinWait();
                    }
                }
                final int idx = i;
                sent[i] = System.nanoTime();
                cmd.set(keys[i], VALUE).thenRun(() -> {
                    acked.set(idx, System.nanoTime());
                    ackCount.incrementAndGet();
                });
            }
            double achieved = total / ((System.nanoTime() - t0) / 1e9);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while ((handledCount.get() < total || ackCount.get() < total) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            Histogram h = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
            Histogram fromSend = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
            long first = 0;
            long missing = 0;
            for (int i = warm; i < total; i++) {
                long a = acked.get(i);
                long s = handled.get(i);
                if (a == 0 || s == 0) {
                    missing++;
                    continue;
                }
                if (s <= a) {
                    first++;
                }
                h.recordValue(Math.max(0, s - a));
                fromSend.recordValue(Math.max(0, s - sent[i]));
            }
            String params = mode + " at " + rate + " writes/s (achieved " + Math.round(achieved) + "/s), "
                    + h.getTotalCount() + " writes after 1 s warm-up, handler first " + first
                    + (missing > 0 ? ", MISSING " + missing : "") + ", max " + h.getMaxValue() / 1000 + " us"
                    + "; from send: p50 " + fromSend.getValueAtPercentile(50) / 1000 + " p99 "
                    + fromSend.getValueAtPercentile(99) / 1000 + " us";
            String name = (readPort == port ? "latency." : "replication-lag.") + mode + "." + rate;
            if (out == null) {
                return; // warm-up pass
            }
            out.figure(name + ".p50", h.getValueAtPercentile(50) / 1000.0, "us", params);
            out.figure(name + ".p99", h.getValueAtPercentile(99) / 1000.0, "us", params);
            out.figure(name + ".p99.9", h.getValueAtPercentile(99.9) / 1000.0, "us", params);
            out.figure(name + ".send.p99", fromSend.getValueAtPercentile(99) / 1000.0, "us",
                    "from the write being sent (includes its round trip), " + mode + " at " + rate + " writes/s");
        } finally {
            consumer.close();
            consumer.settings().source().close();
            client.shutdown();
        }
    }

    private static int index(byte[] key, int from) {
        int n = 0;
        for (int i = from; i < key.length; i++) {
            n = n * 10 + (key[i] - '0');
        }
        return n;
    }

    private interface Body {
        void run() throws Exception;
    }

    private static double timed(Body body) throws Exception {
        long t0 = System.nanoTime();
        body.run();
        return (System.nanoTime() - t0) / 1e9;
    }
}
