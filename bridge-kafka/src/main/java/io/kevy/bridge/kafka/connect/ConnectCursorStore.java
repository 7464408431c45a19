package io.kevy.bridge.kafka.connect;

import io.kevy.feed.client.Cursor;
import io.kevy.feed.client.CursorStore;
import io.kevy.feed.client.StoredCursors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer's cursors are Connect's source offsets ({@link SourceOffsets}): {@link #load} reads the task's
 * partitions through Connect's {@link OffsetStorageReader} (with exactly-once, the offsets committed with the
 * records); {@link #save} stores nothing, since Connect commits each record's offset itself once the record is
 * written (or its transaction committed), which is when the task completes the consumer's batch.
 *
 * <p>How a stored offset maps to the consumer's start: none for any assigned shard: empty (the start.from
 * policy); an offset of another shard count: a record of that count (the consumer rebuilds every shard,
 * {@code SHARD_COUNT_CHANGED}); an unfinished rebuild's offset ({@code "snapshot": true}): generation 0, which
 * names no stream (generations are at least 1, feed contract §5), so the consumer rebuilds that shard
 * ({@code GENERATION_GONE}). An assigned shard without an offset while others have one (the task stopped before
 * Connect committed a record of that shard) follows {@code start.from} for that shard alone: {@code earliest}
 * starts at offset 0 of the shard's generation now (its whole backlog, so no change made since the first start
 * is skipped), {@code tail} and {@code rebuild} rebuild it (a tail taken now would skip the changes made since
 * the task first started). Unassigned shards get placeholders the consumer ignores. Thread-safe.
 */
final class ConnectCursorStore implements CursorStore {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectCursorStore.class);

    private final OffsetStorageReader reader;
    private final List<Integer> shards;
    private final IntSupplier shardCount;
    private final IntFunction<Cursor> earliest;

    /**
     * {@code shardCount}: the server's shard count now (asked at load); {@code earliest}: the first cursor of a
     * shard's backlog now (FEED.TAIL with offset 0), for a shard without an offset when {@code start.from} is
     * {@code earliest}, or null for the other policies (such a shard rebuilds).
     */
    ConnectCursorStore(OffsetStorageReader reader, List<Integer> shards, IntSupplier shardCount,
            IntFunction<Cursor> earliest) {
        this.reader = reader;
        this.shards = List.copyOf(shards);
        this.shardCount = shardCount;
        this.earliest = earliest;
    }

    @Override
    public Optional<StoredCursors> load(String consumer) {
        int n = shardCount.getAsInt();
        List<Map<String, Object>> partitions = new ArrayList<>();
        for (int s : shards) {
            partitions.add(SourceOffsets.partition(s));
        }
        Map<Map<String, Object>, Map<String, Object>> stored = reader.offsets(partitions);
        Cursor[] cursors = new Cursor[n];
        boolean any = false;
        List<Integer> without = new ArrayList<>();
        for (int s : shards) {
            Map<String, Object> o = stored.get(SourceOffsets.partition(s));
            if (o == null) {
                without.add(s);
                continue;
            }
            any = true;
            SourceOffsets.Stored st = SourceOffsets.Stored.of(o);
            if (st.shards() != null && st.shards() >= 1 && st.shards() != n) {
                LOG.info("{}: shard {}'s offset was taken with {} shard(s), the server has {}: rebuilding", consumer,
                        s, st.shards(), n);
                return Optional.of(placeholders(consumer, st.shards()));
            }
            if (st.resumable(n) && s < n) {
                cursors[s] = new Cursor(s, st.generation(), st.offset());
            } else if (st.snapshot()) {
                LOG.info("{}: shard {}'s rebuild did not finish: rebuilding again", consumer, s);
            }
        }
        if (!any) {
            return Optional.empty();
        }
        for (int s : without) {
            if (earliest != null && s < n) {
                cursors[s] = earliest.apply(s);
                LOG.info("{}: shard {} has no offset yet: starting at its earliest, {}", consumer, s, cursors[s]);
            } else {
                LOG.info("{}: shard {} has no offset yet: rebuilding it", consumer, s);
            }
        }
        List<Cursor> all = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            all.add(cursors[i] != null ? cursors[i] : new Cursor(i, 0, 0));
        }
        return Optional.of(new StoredCursors(consumer, n, all));
    }

    private static StoredCursors placeholders(String consumer, int count) {
        List<Cursor> all = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            all.add(new Cursor(i, 0, 0));
        }
        return new StoredCursors(consumer, count, all);
    }

    @Override
    public void save(StoredCursors cursors) {
        // Connect stores each record's offset (SourceRecord#sourceOffset) when the record is written
    }

    @Override
    public void delete(String consumer) {
        throw new UnsupportedOperationException("the offsets are Connect's: reset them with the REST API "
                + "(DELETE /connectors/<name>/offsets on a stopped connector)");
    }

    @Override
    public String toString() {
        return "ConnectCursorStore" + shards;
    }
}
