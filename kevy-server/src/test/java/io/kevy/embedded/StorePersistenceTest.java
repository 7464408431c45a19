package io.kevy.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.feed.FeedCursor;
import io.kevy.persist.Snapshots;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded store with a data directory persists exactly like the server (feed contract §9). */
class StorePersistenceTest {
    @TempDir
    Path dir;

    @Test
    void cleanCloseKeepsDataAndFeedCursorAndTheBacklog() {
        FeedCursor tail;
        try (Store s = Store.open(Config.defaults().withFeed(0).withDataDir(dir))) {
            s.set("user:1", "ada");
            s.hset("user:2", "name", "bob");
            s.execute("RPUSH", "list", "a", "b");
            tail = s.changesTail();
            assertThat(tail.offset()).isEqualTo(3);
        }
        assertThat(Files.exists(dir.resolve("feed-0.meta"))).isTrue();
        assertThat(Files.exists(dir.resolve("aof-0.aof"))).isTrue();
        try (Store s = Store.open(Config.defaults().withFeed(0).withDataDir(dir))) {
            assertThat(s.changesTail()).isEqualTo(tail);
            assertThat(s.get("user:1")).isEqualTo("ada");
            assertThat(s.execute("LRANGE", "list", "0", "-1").toString()).contains("a").contains("b");
            // a consumer that was behind continues without a resync: the backlog was refilled from the AOF
            ChangeBatch batch = s.changesSince(tail.generation(), 0, 10, List.of());
            assertThat(batch.changes()).hasSize(3);
            assertThat(batch.next()).isEqualTo(tail);
        }
    }

    @Test
    void crashStartsANewGeneration() {
        FeedCursor tail;
        Store s = Store.open(Config.defaults().withFeed(0).withDataDir(dir));
        s.set("k", "v");
        tail = s.changesTail();
        s.abort();
        try (Store s2 = Store.open(Config.defaults().withFeed(0).withDataDir(dir))) {
            assertThat(s2.changesTail().generation()).isNotEqualTo(tail.generation());
            assertThat(s2.changesTail().offset()).isZero();
            assertThat(s2.get("k")).isEqualTo("v");
        }
    }

    @Test
    void saveRecordsTheCursorInTheSnapshotHeader() throws Exception {
        try (Store s = Store.open(Config.defaults().withFeed(0).withDataDir(dir))) {
            s.set("a", "1");
            s.set("b", "2");
            assertThat(s.execute("SAVE").toString()).contains("OK");
            FeedCursor tail = s.changesTail();
            assertThat(Snapshots.readSnapshotCursor(Snapshots.path(dir, 0))).contains(tail);
        }
    }
}
