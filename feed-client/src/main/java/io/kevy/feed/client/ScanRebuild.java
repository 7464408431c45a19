package io.kevy.feed.client;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The built-in {@link Rebuild}: walks every prefix with {@code SCAN MATCH <escaped prefix>*} (one walk of the
 * whole keyspace when there are no prefixes), keeps the keys of the rebuilt shards, reads each key's type,
 * value and TTL with the cursor of its shard ({@link RebuildContext#read}, {@link FeedSource#reads}: a page of
 * keys in one pipelined round trip of {@code FEED.VALUE}, or two of TYPE and MULTI/EXEC on a server without it,
 * while the next page is scanned and the previous one delivered) and delivers them as {@link Op#SNAPSHOT} entries ({@link Op#VANISHED} for a key gone when read);
 * the consumer then skips, per key, the frames each read already holds (exact rebuilds). Then, when it knows which keys the handler holds ({@link #sweeping}), it delivers
 * a {@link Op#VANISHED} entry for each held key of the rebuilt shards and prefixes that the scan did not find
 * (mark and sweep). Immutable and thread-safe.
 *
 * @param <K> key type
 * @param <V> value type
 */
public final class ScanRebuild<K, V> implements Rebuild<K, V> {
    /** SCAN COUNT per page. */
    public static final int DEFAULT_SCAN_COUNT = 1000;
    /** SNAPSHOT entries per delivered batch. */
    public static final int DEFAULT_BATCH_SIZE = 256;
    private static final long READ_TIMEOUT_SECONDS = 120;

    private final Supplier<? extends Collection<? extends K>> heldKeys;
    private final int scanCount;
    private final int batchSize;

    private ScanRebuild(Supplier<? extends Collection<? extends K>> heldKeys, int scanCount, int batchSize) {
        this.heldKeys = heldKeys;
        this.scanCount = scanCount;
        this.batchSize = batchSize;
    }

    /** Reloads every key; no sweep (the handler holds nothing, or deletes nothing). */
    public static <K, V> ScanRebuild<K, V> create() {
        return new ScanRebuild<>(null, DEFAULT_SCAN_COUNT, DEFAULT_BATCH_SIZE);
    }

    /**
     * Reloads every key, then sweeps: {@code heldKeys} (called once per rebuild, after the scan) lists the keys
     * the handler holds; those of the rebuilt shards and prefixes that are gone get a VANISHED entry.
     */
    public static <K, V> ScanRebuild<K, V> sweeping(Supplier<? extends Collection<? extends K>> heldKeys) {
        return new ScanRebuild<>(java.util.Objects.requireNonNull(heldKeys, "heldKeys"), DEFAULT_SCAN_COUNT,
                DEFAULT_BATCH_SIZE);
    }

    /** This rebuild with another SCAN COUNT and entries per batch (both at least 1). */
    public ScanRebuild<K, V> withSizes(int scanCount, int batchSize) {
        if (scanCount < 1 || batchSize < 1) {
            throw new IllegalArgumentException("sizes must be >= 1: " + scanCount + ", " + batchSize);
        }
        return new ScanRebuild<>(heldKeys, scanCount, batchSize);
    }

    @Override
    public void rebuild(RebuildContext<K, V> ctx) throws Exception {
        Set<ByteBuffer> seen = new HashSet<>();
        List<Change<K, V>> out = new ArrayList<>(batchSize);
        for (byte[] pattern : ctx.scanPatterns()) {
            // pipelined: page N+1 is scanned while page N's keys are read, and page N's keys are read while page
            // N-1's are delivered
            CompletableFuture<ScanPage> next = ctx.source().scan("0", pattern, scanCount).toCompletableFuture();
            CompletableFuture<List<KeyRead>> reading = null;
            ScanPage page;
            do {
                if (ctx.stopping()) {
                    throw new KevyException("consumer closing: rebuild abandoned");
                }
                page = await(next);
                if (!page.last()) {
                    next = ctx.source().scan(page.cursor(), pattern, scanCount).toCompletableFuture();
                }
                List<byte[]> wanted = new ArrayList<>();
                for (byte[] k : page.keys()) {
                    if (ctx.covers(k) && !seen.contains(ByteBuffer.wrap(k))) {
                        wanted.add(k);
                    }
                }
                CompletableFuture<List<KeyRead>> read = ctx.read(wanted).toCompletableFuture();
                if (reading != null) {
                    collect(ctx, await(reading), seen, out);
                }
                reading = read;
            } while (!page.last());
            collect(ctx, await(reading), seen, out);
        }
        if (heldKeys != null) {
            for (K k : heldKeys.get()) {
                ByteBuffer enc = ctx.codec().encodeKey(k);
                byte[] b = new byte[enc.remaining()];
                enc.get(b);
                if (ctx.covers(b) && !seen.contains(ByteBuffer.wrap(b))) {
                    out.add(ctx.vanishedEntry(b));
                    if (out.size() >= batchSize) {
                        ctx.deliver(out);
                        out.clear();
                    }
                }
            }
        }
        ctx.deliver(out);
    }

    /**
     * Adds the entries of keys not delivered yet to {@code out} (SNAPSHOT, or VANISHED for a key the scan saw
     * that was gone when read: deleted or renamed away meanwhile), delivering every full batch.
     */
    private void collect(RebuildContext<K, V> ctx, List<KeyRead> reads, Set<ByteBuffer> seen,
            List<Change<K, V>> out) throws Exception {
        for (KeyRead read : reads) {
            if (seen.add(ByteBuffer.wrap(read.key()))) {
                out.add(ctx.entry(read));
                if (out.size() >= batchSize) {
                    ctx.deliver(out);
                    out.clear();
                }
            }
        }
    }

    private static <T> T await(CompletableFuture<T> f) throws InterruptedException {
        try {
            return f.get(READ_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw RemoteFeedSource.map(e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new KevyTimeoutException("rebuild read: no reply in " + READ_TIMEOUT_SECONDS + " s", e);
        }
    }

    @Override
    public String toString() {
        return "ScanRebuild[sweep=" + (heldKeys != null) + ", scanCount=" + scanCount + ", batch=" + batchSize + "]";
    }
}
