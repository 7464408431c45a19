package io.kevy.feed.client;

import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Where a {@link FeedConsumer} reads: the feed commands of feed contract §4 and the key reads a rebuild needs.
 * Two implementations: {@link #connect(String) remote} (a kevy server, ours or upstream, over lettuce with a
 * binary-safe codec); the embedded source over an in-process {@code io.kevy.embedded.Store} is
 * {@code EmbeddedFeedSource.of(store)} in the feed-client-embedded module.
 *
 * <p>Async first: every method returns at once; its stage completes with the result, or exceptionally with a
 * {@link KevyException}: {@link FeedResyncException}, {@link CursorAheadException} or another
 * {@link KevyServerException} for error replies, {@link KevyConnectionException} when the connection is down
 * or broke, {@link KevyTimeoutException} when no reply came in time. Stages complete on I/O threads: do not
 * block in their callbacks.
 *
 * <p>Thread-safe. A source is an expensive resource (connections, threads): share one per server and close it
 * when done; a consumer does not close the source it was given.
 */
public interface FeedSource extends AutoCloseable {
    /** The COUNT default of FEED.READ (feed contract §4). */
    int DEFAULT_COUNT = 256;
    /** The largest COUNT the servers honour (feed contract §4). */
    int MAX_COUNT = 4096;

    /**
     * A remote source for {@code uri}: {@code redis://[[user]:password@]host[:port][/db][?timeout=5s]} or
     * {@code rediss://...} (TLS), as lettuce's {@link RedisURI} parses it. The URI's timeout (default 60 s)
     * bounds connecting and each command; a {@code BLOCK} read gets its block time on top. Connections open
     * lazily: the first command fails with {@link KevyConnectionException} when the server is not there. They
     * are named {@code kevy-feed} in CLIENT LIST unless the URI sets {@code clientName}.
     *
     * @throws KevyConfigException when the URI does not parse
     */
    static FeedSource connect(String uri) {
        try {
            return connect(RedisURI.create(uri));
        } catch (IllegalArgumentException e) {
            throw new KevyConfigException("bad kevy URI '" + uri + "': " + e.getMessage(), e);
        }
    }

    /** As {@link #connect(String)}, with a lettuce {@link RedisURI}. */
    static FeedSource connect(RedisURI uri) {
        return new RemoteFeedSource(uri);
    }

    /** {@code host:port} of the server, or {@code embedded}: the authority of envelope sources. */
    String authority();

    /** {@code FEED.SHARDS}: the number of shards (1 for an embedded store). */
    CompletionStage<Integer> shards();

    /** {@code FEED.TAIL shard}: the cursor a fresh consumer starts from. */
    CompletionStage<Cursor> tail(int shard);

    /**
     * {@code FEED.READ shard generation offset COUNT count [PREFIX prefix [PREFIX prefix ...]] [BLOCK ms]}.
     *
     * @param from     the cursor to read from
     * @param count    frames to scan, clamped to [1, {@link #MAX_COUNT}]
     * @param prefixes the PREFIX filter (OR; empty = all); fail-open frames are delivered anyway (§8)
     * @param block    null: answer at once; else wait up to this long when nothing is deliverable (ours only:
     *                 upstream fails the stage with {@link KevyServerException} {@code ERR syntax error})
     */
    CompletionStage<FrameBatch> read(Cursor from, int count, List<byte[]> prefixes, Duration block);

    /**
     * As {@link #read(Cursor, int, List, Duration)}; with {@code durable}, {@code FEED.READ ... DURABLE} (ours):
     * only frames the server's AOF has fsynced, a BLOCK read waiting for the fsync. A source without it fails the
     * stage with {@link KevyServerException} (upstream: {@code ERR syntax error}); this default does so for
     * every durable read.
     */
    default CompletionStage<FrameBatch> read(Cursor from, int count, List<byte[]> prefixes, Duration block,
                                             boolean durable) {
        if (!durable) {
            return read(from, count, prefixes, block);
        }
        return java.util.concurrent.CompletableFuture.failedFuture(
                new KevyServerException("ERR DURABLE is not offered by this feed source"));
    }

    /** {@code SCAN cursor MATCH match COUNT count}; {@code match} null = every key. */
    CompletionStage<ScanPage> scan(String cursor, byte[] match, int count);

    /**
     * The key's type, whole value and TTL ({@link KeySnapshot}); empty when the key does not exist. Type and
     * value are read in separate commands; a key that changes type in between is read again.
     */
    CompletionStage<Optional<KeySnapshot>> snapshot(byte[] key);

    /**
     * {@link #snapshot} of every key of {@code keys}, answered in the same order (empty where a key does not
     * exist), with the same rules. The built-in sources read them in two pipelines, TYPE of all keys then the
     * values and TTLs of all keys (a {@link ScanRebuild} page in two round trips); this default calls
     * {@link #snapshot} for each key, all in flight at once. The stage fails when any key's read fails.
     */
    default CompletionStage<List<Optional<KeySnapshot>>> snapshots(List<byte[]> keys) {
        List<CompletableFuture<Optional<KeySnapshot>>> reads = new ArrayList<>();
        for (byte[] k : keys) {
            reads.add(snapshot(k).toCompletableFuture());
        }
        return CompletableFuture.allOf(reads.toArray(new CompletableFuture<?>[0]))
                .thenApply(done -> {
                    List<Optional<KeySnapshot>> out = new ArrayList<>(reads.size());
                    for (CompletableFuture<Optional<KeySnapshot>> r : reads) {
                        out.add(r.join());
                    }
                    return out;
                });
    }

    /**
     * Reads every key of {@code keys} together with the feed cursor of its shard ({@link KeyRead}), answered in
     * the same order, absent keys included. The built-in sources read each key with {@code FEED.VALUE} (value and
     * cursor read atomically: {@link KeyRead#exact()}); on a server without it (upstream kevy) they read the keys
     * and their shard's {@code FEED.TAIL} in {@code MULTI}/{@code EXEC} transactions (exact too where EXEC is
     * atomic), and on a server that refuses those, as this default does. This default takes {@code FEED.TAIL} of
     * every shard of the keys first and then reads the keys with {@link #snapshots}, so each value holds at least
     * the frames below its cursor (not exact). The stage fails when any read fails.
     *
     * @param keys       the keys to read
     * @param shardCount the server's shard count (keys map to shards by feed contract §2)
     */
    default CompletionStage<List<KeyRead>> reads(List<byte[]> keys, int shardCount) {
        if (keys.isEmpty()) {
            return CompletableFuture.completedFuture(List.of());
        }
        java.util.Map<Integer, CompletableFuture<Cursor>> tails = new java.util.TreeMap<>();
        for (byte[] k : keys) {
            tails.computeIfAbsent(io.kevy.common.Slots.shard(k, shardCount), s -> tail(s).toCompletableFuture());
        }
        return CompletableFuture.allOf(tails.values().toArray(new CompletableFuture<?>[0]))
                .thenCompose(done -> snapshots(keys))
                .thenApply(snaps -> {
                    List<KeyRead> out = new ArrayList<>(keys.size());
                    for (int i = 0; i < keys.size(); i++) {
                        byte[] k = keys.get(i);
                        Cursor at = tails.get(io.kevy.common.Slots.shard(k, shardCount)).join();
                        out.add(new KeyRead(k, at, snaps.get(i).orElse(null), false));
                    }
                    return out;
                });
    }

    /** {@code GET key}: the value, or null when absent. */
    CompletionStage<byte[]> get(byte[] key);

    /** {@code SET key value}. */
    CompletionStage<Void> set(byte[] key, byte[] value);

    /**
     * {@code DEL key} (cursor admin: {@code kevy cursor reset} on a kevy-kept cursor). The default fails the stage
     * with {@link UnsupportedOperationException}; both built-in sources implement it.
     */
    default CompletionStage<Void> del(byte[] key) {
        return CompletableFuture.failedFuture(
                new UnsupportedOperationException(this + " cannot delete keys"));
    }

    /** Closes the connections or threads of this source; pending stages fail. Idempotent. */
    @Override
    void close();
}
