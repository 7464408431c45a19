package io.kevy.bridge.kafka.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.feed.client.Cursor;
import io.kevy.feed.client.StoredCursors;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.storage.MemoryOffsetBackingStore;
import org.apache.kafka.connect.storage.OffsetStorageReaderImpl;
import org.apache.kafka.connect.storage.OffsetStorageWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Stored Connect offsets mapped to the consumer's cursors, through Connect's own offset writer, reader and
 * in-memory backing store with the JSON converter (what a worker stores in its offsets topic).
 */
class ConnectCursorStoreTest {
    private static final String NS = "kevy";

    private MemoryOffsetBackingStore store;
    private JsonConverter converter;

    @BeforeEach
    void start() {
        store = new MemoryOffsetBackingStore() {
            @Override
            public Set<Map<String, Object>> connectorPartitions(String connectorName) {
                return Set.of();
            }
        };
        store.start();
        converter = new JsonConverter();
        converter.configure(Map.of("schemas.enable", "false"), false);
    }

    @AfterEach
    void stop() {
        store.stop();
    }

    private void commit(int shard, Map<String, Object> offset) throws Exception {
        OffsetStorageWriter w = new OffsetStorageWriter(store, NS, converter, converter);
        w.offset(SourceOffsets.partition(shard), offset);
        assertThat(w.beginFlush(10, TimeUnit.SECONDS)).isTrue();
        w.doFlush((error, result) -> { }).get(10, TimeUnit.SECONDS);
    }

    private Optional<StoredCursors> load(List<Integer> shards, int count, boolean earliest) {
        OffsetStorageReaderImpl reader = new OffsetStorageReaderImpl(store, NS, converter, converter);
        return new ConnectCursorStore(reader, shards, () -> count,
                earliest ? s -> new Cursor(s, 900 + s, 0) : null).load("c");
    }

    @Test
    void noOffsetForAnyAssignedShardLeavesTheStartToThePolicy() {
        assertThat(load(List.of(1, 3), 4, true)).isEmpty();
        assertThat(load(List.of(1, 3), 4, false)).isEmpty();
    }

    @Test
    void storedOffsetsResumeAndUnassignedShardsGetPlaceholders() throws Exception {
        commit(1, SourceOffsets.offset(7, 41, 4));
        commit(3, SourceOffsets.offset(8, 5, 4));
        StoredCursors c = load(List.of(1, 3), 4, false).orElseThrow();
        assertThat(c.shards()).isEqualTo(4);
        assertThat(c.cursor(1)).isEqualTo(new Cursor(1, 7, 41));
        assertThat(c.cursor(3)).isEqualTo(new Cursor(3, 8, 5));
        assertThat(c.cursor(0).generation()).isZero();
    }

    @Test
    void aShardWithoutAnOffsetStartsAtItsEarliestWhenStartFromIsEarliest() throws Exception {
        // the task stopped after Connect committed records of shard 3 but none of shard 1: with start.from
        // earliest, shard 1 reads its whole backlog (a rebuild would skip the changes since the first start)
        commit(3, SourceOffsets.offset(8, 5, 4));
        StoredCursors c = load(List.of(1, 3), 4, true).orElseThrow();
        assertThat(c.cursor(1)).isEqualTo(new Cursor(1, 901, 0));
        assertThat(c.cursor(3)).isEqualTo(new Cursor(3, 8, 5));
    }

    @Test
    void aShardWithoutAnOffsetRebuildsUnderTheOtherPolicies() throws Exception {
        commit(3, SourceOffsets.offset(8, 5, 4));
        StoredCursors c = load(List.of(1, 3), 4, false).orElseThrow();
        assertThat(c.cursor(1)).isEqualTo(new Cursor(1, 0, 0));
        assertThat(c.cursor(3)).isEqualTo(new Cursor(3, 8, 5));
    }

    @Test
    void anUnfinishedRebuildRebuildsAgainEvenFromEarliest() throws Exception {
        commit(1, SourceOffsets.snapshot(7, 41, 4));
        commit(3, SourceOffsets.offset(8, 5, 4));
        StoredCursors c = load(List.of(1, 3), 4, true).orElseThrow();
        assertThat(c.cursor(1).generation()).isZero();
    }

    @Test
    void offsetsOfAnotherShardCountRebuildEveryShard() throws Exception {
        commit(1, SourceOffsets.offset(7, 41, 2));
        StoredCursors c = load(List.of(1, 3), 4, true).orElseThrow();
        assertThat(c.shards()).isEqualTo(2);
        assertThat(c.cursors()).allMatch(x -> x.generation() == 0);
    }
}
