package io.kevy.bench;

import io.kevy.feed.client.Batch;
import io.kevy.feed.client.BenchSources;
import io.kevy.feed.client.ConsumerListener;
import io.kevy.feed.client.FeedConsumer;
import io.kevy.feed.client.FeedSource;
import io.kevy.feed.client.RebuildResult;
import io.kevy.feed.client.RebuildScope;
import io.kevy.feed.client.ScanRebuild;
import io.kevy.feed.client.StartFrom;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Java side of {@code bench/rebuild.sh} (issue 10): the time a FeedConsumer takes for a {@link ScanRebuild}
 * of {@code --keys} string keys under the prefix {@code rb:} on a server that also holds {@code --others} keys
 * under {@code other:} (which the SCAN MATCH walks past). The consumer starts with {@link StartFrom#REBUILD},
 * default SCAN COUNT and batch size, and a handler that counts SNAPSHOT entries; the figures are the rebuild's
 * own duration ({@link RebuildResult#duration()}), the wall time from start to its end (connection and tail
 * queries included), and keys per second. Options: {@code --port}, {@code --keys}, {@code --others},
 * {@code --read exact|plain|nomulti} (exact: FEED.VALUE per key, the default; plain: the reads of a server without
 * FEED.VALUE, upstream kevy's, each key in MULTI/EXEC with its shard's FEED.TAIL, {@link BenchSources}; nomulti:
 * the reads of a server without MULTI either, FEED.TAIL then the plain reads, {@link PlainReadsSource}),
 * {@code --csv}.
 */
public final class RebuildBench {
    private RebuildBench() {
    }

    public static void main(String[] argv) throws Exception {
        Args a = new Args(argv, 0);
        Report out = new Report(a.flag("csv"));
        int port = a.integer("port", 6004);
        int keys = a.integer("keys", 1_000_000);
        int others = a.integer("others", 1_000_000);
        String read = a.string("read", "exact");
        if (!read.equals("exact") && !read.equals("plain") && !read.equals("nomulti")) {
            throw new IllegalArgumentException("--read must be exact, plain or nomulti, got " + read);
        }
        String uri = "redis://127.0.0.1:" + port;
        RedisClient client = RedisClient.create(uri);
        try (StatefulRedisConnection<byte[], byte[]> c = client.connect(ByteArrayCodec.INSTANCE)) {
            FeedBench.fill(c, "rb:", keys);
            FeedBench.fill(c, "other:", others);
        } finally {
            client.shutdown();
        }
        AtomicLong entries = new AtomicLong();
        CompletableFuture<RebuildResult> done = new CompletableFuture<>();
        FeedConsumer<byte[], byte[]> consumer = FeedConsumer.builder(ByteArrayCodec.INSTANCE)
                .source(read.equals("exact") ? FeedSource.connect(uri) : read.equals("plain")
                        ? BenchSources.withoutFeedValue(uri) : new PlainReadsSource(FeedSource.connect(uri)))
                .name("bench-rebuild").prefixes("rb:")
                .startFrom(StartFrom.REBUILD).onRebuild(ScanRebuild.create())
                .handler(b -> {
                    if (b.kind() == Batch.Kind.SNAPSHOT) {
                        entries.addAndGet(b.size());
                    }
                })
                .listener(new ConsumerListener() {
                    @Override
                    public void onRebuild(String name, RebuildScope scope, RebuildResult result) {
                        done.complete(result);
                    }
                }).build();
        long t0 = System.nanoTime();
        try {
            consumer.start();
            RebuildResult r = done.get(30, TimeUnit.MINUTES);
            double wall = (System.nanoTime() - t0) / 1e9;
            if (r.keys() != keys || entries.get() != keys) {
                throw new IllegalStateException("rebuild delivered " + r.keys() + " keys (" + entries.get()
                        + " entries), expected " + keys);
            }
            String params = keys + " keys under rb: among " + others + " others, remote, ScanRebuild SCAN COUNT "
                    + ScanRebuild.DEFAULT_SCAN_COUNT + ", batch " + ScanRebuild.DEFAULT_BATCH_SIZE + ", reads " + read
                    + (read.equals("exact") ? " (FEED.VALUE)" : read.equals("plain")
                            ? " (TYPE, then per shard MULTI PEXPIRETIME/GET ... FEED.TAIL EXEC)"
                            : " (FEED.TAIL, TYPE/PEXPIRETIME, GET)");
            double secs = r.duration().toNanos() / 1e9;
            out.figure("rebuild.duration", secs, "s", params);
            out.figure("rebuild.wall", wall, "s", "from consumer start to the rebuild's end");
            out.figure("rebuild.rate", keys / secs, "keys/s", params);
        } finally {
            consumer.close();
            consumer.settings().source().close();
        }
        System.exit(0);
    }
}
