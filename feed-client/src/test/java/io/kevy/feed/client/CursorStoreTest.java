package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cursor stores: JSON format, atomic file replace, name checks, the kevy store's own-frame rule is
 * KevyCursorStoreEmbeddedTest in feed-client-embedded (it runs on an embedded store). */
class CursorStoreTest {
    @TempDir
    Path dir;

    static StoredCursors cursors(String name, long... offsets) {
        List<Cursor> cs = new java.util.ArrayList<>();
        for (int i = 0; i < offsets.length; i++) {
            cs.add(new Cursor(i, 77, offsets[i]));
        }
        return new StoredCursors(name, offsets.length, cs);
    }

    @Test
    void theJsonFormatRoundTripsAndRejectsGarbage() {
        StoredCursors c = cursors("c", 1, 2);
        assertThat(new String(c.toJson(), StandardCharsets.UTF_8)).isEqualTo("{\"version\":1,\"consumer\":\"c\","
                + "\"shards\":2,\"cursors\":[{\"shard\":0,\"generation\":77,\"offset\":1},"
                + "{\"shard\":1,\"generation\":77,\"offset\":2}]}");
        assertThat(StoredCursors.fromJson(c.toJson(), "t")).isEqualTo(c);
        assertThatThrownBy(() -> StoredCursors.fromJson("{".getBytes(StandardCharsets.UTF_8), "f.json"))
                .isInstanceOf(KevyConfigException.class).hasMessageContaining("f.json");
        assertThatThrownBy(() -> new StoredCursors("c", 2, List.of(new Cursor(0, 1, 1))))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theFileStoreReplacesAtomicallyAndChecksTheName() throws Exception {
        Path file = dir.resolve("sub/c.json");
        CursorStore store = CursorStore.file(file);
        assertThat(store.load("c")).isEmpty();
        store.save(cursors("c", 1, 2));
        store.save(cursors("c", 3, 4));
        assertThat(store.load("c")).contains(cursors("c", 3, 4));
        try (var files = Files.list(file.getParent())) {
            assertThat(files).extracting(p -> p.getFileName().toString()).containsExactly("c.json");
        }
        assertThatThrownBy(() -> store.load("other")).isInstanceOf(KevyConfigException.class)
                .hasMessageContaining("belongs to consumer 'c'");
        Files.writeString(file, "not json");
        assertThatThrownBy(() -> store.load("c")).isInstanceOf(KevyConfigException.class);
    }

    @Test
    void theMemoryStoreKeepsOneRecordPerConsumer() {
        CursorStore store = CursorStore.inMemory();
        store.save(cursors("a", 1));
        store.save(cursors("b", 2));
        assertThat(store.load("a")).contains(cursors("a", 1));
        assertThat(store.load("c")).isEmpty();
    }
}
