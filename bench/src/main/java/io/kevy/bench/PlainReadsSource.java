package io.kevy.bench;

import io.kevy.feed.client.Cursor;
import io.kevy.feed.client.FeedSource;
import io.kevy.feed.client.FrameBatch;
import io.kevy.feed.client.KeySnapshot;
import io.kevy.feed.client.ScanPage;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * A source that forwards everything but {@link FeedSource#reads}, so a rebuild uses its default: the last fallback,
 * for a server with neither FEED.VALUE nor MULTI (FEED.TAIL of the page's shards, then TYPE / PEXPIRETIME and the
 * value reads: the reads of the rebuild before exact rebuilds, plus one FEED.TAIL round trip per page).
 * {@code bench/rebuild.sh --read nomulti}.
 */
final class PlainReadsSource implements FeedSource {
    private final FeedSource inner;

    PlainReadsSource(FeedSource inner) {
        this.inner = inner;
    }

    @Override
    public String authority() {
        return inner.authority();
    }

    @Override
    public CompletionStage<Integer> shards() {
        return inner.shards();
    }

    @Override
    public CompletionStage<Cursor> tail(int shard) {
        return inner.tail(shard);
    }

    @Override
    public CompletionStage<FrameBatch> read(Cursor from, int count, List<byte[]> prefixes, Duration block) {
        return inner.read(from, count, prefixes, block);
    }

    @Override
    public CompletionStage<FrameBatch> read(Cursor from, int count, List<byte[]> prefixes, Duration block,
            boolean durable) {
        return inner.read(from, count, prefixes, block, durable);
    }

    @Override
    public CompletionStage<ScanPage> scan(String cursor, byte[] match, int count) {
        return inner.scan(cursor, match, count);
    }

    @Override
    public CompletionStage<Optional<KeySnapshot>> snapshot(byte[] key) {
        return inner.snapshot(key);
    }

    @Override
    public CompletionStage<List<Optional<KeySnapshot>>> snapshots(List<byte[]> keys) {
        return inner.snapshots(keys);
    }

    @Override
    public CompletionStage<byte[]> get(byte[] key) {
        return inner.get(key);
    }

    @Override
    public CompletionStage<Void> set(byte[] key, byte[] value) {
        return inner.set(key, value);
    }

    @Override
    public CompletionStage<Void> del(byte[] key) {
        return inner.del(key);
    }

    @Override
    public void close() {
        inner.close();
    }
}
