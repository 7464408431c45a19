package io.kevy.bridge.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.feed.client.Cursor;
import io.kevy.feed.client.StoredCursors;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Folding the cursor topic: last record per shard wins, tombstones remove, newest complete shard count wins. */
class CursorRecordsTest {
    @Test
    void foldsTheTopicIntoTheStoredCursors() {
        CursorRecords.Folder f = new CursorRecords.Folder("b");
        for (int i = 0; i < 2; i++) {
            f.add(CursorRecords.key("b", i), CursorRecords.value("b", 2, new Cursor(i, 7, 10)), 1);
        }
        f.add(CursorRecords.key("b", 1), CursorRecords.value("b", 2, new Cursor(1, 7, 12)), 2);
        f.add(CursorRecords.key("other", 0), CursorRecords.value("other", 2, new Cursor(0, 7, 99)), 3);
        f.add(CursorRecords.key("b2", 0), CursorRecords.value("b2", 1, new Cursor(0, 7, 99)), 3);
        assertThat(f.stored()).contains(new StoredCursors("b", 2, List.of(new Cursor(0, 7, 10), new Cursor(1, 7, 12))));

        // the server now has 3 shards: a rebuild writes all three, the newest complete count wins
        for (int i = 0; i < 3; i++) {
            f.add(CursorRecords.key("b", i), CursorRecords.value("b", 3, new Cursor(i, 9, 0)), 4);
        }
        assertThat(f.stored().orElseThrow().shards()).isEqualTo(3);

        f.add(CursorRecords.key("b", 2), null, 5);
        assertThat(f.stored()).isEmpty();
        assertThat(f.cursors()).containsOnlyKeys(0, 1);
    }

    @Test
    void onlyNewerCursorsOfTheSameGenerationAreWrittenBack() {
        Cursor c = new Cursor(0, 7, 10);
        assertThat(TransactionalWriter.newer(c, null)).isTrue();
        assertThat(TransactionalWriter.newer(c, new Cursor(0, 7, 9))).isTrue();
        assertThat(TransactionalWriter.newer(c, new Cursor(0, 7, 10))).isFalse();
        assertThat(TransactionalWriter.newer(c, new Cursor(0, 7, 11))).isFalse();
        assertThat(TransactionalWriter.newer(c, new Cursor(0, 8, 1))).as("a stale generation").isFalse();
    }
}
