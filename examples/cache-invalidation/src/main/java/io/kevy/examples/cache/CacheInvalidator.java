package io.kevy.examples.cache;

import io.kevy.feed.client.Batch;
import io.kevy.feed.client.Change;
import io.kevy.feed.client.FeedConsumer;
import io.kevy.feed.client.FeedSource;
import io.kevy.feed.client.Handler;
import io.kevy.feed.client.Op;
import io.kevy.feed.client.RebuildContext;
import io.lettuce.core.codec.StringCodec;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Keeps a {@link HashCache} honest from the change feed: every change of a key under the cache's prefix drops
 * that key's entry (the next read loads the new value), and a rebuild (FEEDRESYNC, a new generation after a
 * restart or FLUSHALL) drops everything, since the feed cannot say which changes were missed. A frame that
 * names no key (an upstream FLUSHALL or key-less script) also drops everything.
 *
 * <p>The consumer starts at the feed's tail: the cache starts empty, so it needs no history. Cursors are kept
 * in memory (the default): after a restart the cache is empty again and the tail is the right place to start.
 *
 * <p>Thread-safe: the handler runs on the consumer's shard threads, and the cache is thread-safe.
 */
public final class CacheInvalidator implements Handler<String, String>, AutoCloseable {
    private final HashCache cache;
    private final FeedConsumer<String, String> consumer;
    private final LongAdder rebuilds = new LongAdder();
    private final LongAdder changes = new LongAdder();
    private volatile Consumer<Batch<String, String>> afterBatch = b -> { };

    /**
     * An invalidator for {@code cache} reading {@code source} (not closed by the invalidator).
     *
     * @param name      the consumer's name (cursors, metrics)
     * @param customize adjusts the consumer builder (meters, listeners, batch size ...); the identity for none
     */
    public CacheInvalidator(HashCache cache, FeedSource source, String name,
            UnaryOperator<FeedConsumer.Builder<String, String>> customize) {
        this.cache = cache;
        this.consumer = customize.apply(FeedConsumer.builder(StringCodec.UTF8).source(source).name(name)
                .prefixes(cache.prefix())
                .handler(this)
                .onRebuild(this::dropAll)).build();
    }

    /**
     * Calls {@code hook} on the consumer's thread after each batch's entries were dropped (for measurements; a
     * hook that blocks holds the consumer back). Set it before {@link #start()}.
     */
    public CacheInvalidator afterBatch(Consumer<Batch<String, String>> hook) {
        this.afterBatch = hook;
        return this;
    }

    /** Starts following the feed; blocks until every shard has its start cursor. */
    public CacheInvalidator start() throws Exception {
        consumer.start().toCompletableFuture().get();
        return this;
    }

    @Override
    public void handle(Batch<String, String> batch) {
        for (Change<String, String> c : batch) {
            changes.increment();
            if (c.keys().isEmpty() || c.op() == Op.FLUSH) {
                cache.invalidateAll();
                continue;
            }
            for (String key : c.keys()) {
                cache.invalidateKey(key);
            }
        }
        afterBatch.accept(batch);
    }

    private void dropAll(RebuildContext<String, String> ctx) {
        rebuilds.increment();
        cache.invalidateAll();
    }

    /** The consumer (health, state). */
    public FeedConsumer<String, String> consumer() {
        return consumer;
    }

    /** Rebuilds (each dropped the whole cache) since start. */
    public long rebuilds() {
        return rebuilds.sum();
    }

    /** Changes handled since start. */
    public long changes() {
        return changes.sum();
    }

    /** Stops the consumer (the cache stays usable, but is no longer invalidated). */
    @Override
    public void close() {
        consumer.close();
    }
}
