package io.kevy.feed.client;

import static io.kevy.feed.client.CursorStoreTest.cursors;
import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.embedded.Config;
import io.kevy.embedded.Store;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The kevy cursor store's own-frame rule, on an embedded store (moved from CursorStoreTest with issue 24). */
class KevyCursorStoreEmbeddedTest {
    @Test
    void theKevyStoreSkipsACommitCoveringOnlyItsOwnFrame() throws Exception {
        try (Store s = Store.open(Config.defaults().withFeed(0)); FeedSource source = EmbeddedFeedSource.of(s)) {
            CursorStore store = CursorStore.kevy(source);
            assertThat(store.ownKey("c")).hasValue("__kevy:feed-cursor:c".getBytes(StandardCharsets.UTF_8));
            assertThat(store.load("c")).isEmpty();
            store.save(cursors("c", 10));
            assertThat(s.changesTail().offset()).isEqualTo(1);
            store.save(cursors("c", 11));
            assertThat(s.changesTail().offset()).as("one frame more: only our own write, skipped").isEqualTo(1);
            store.save(cursors("c", 13));
            assertThat(s.changesTail().offset()).isEqualTo(2);
            assertThat(store.load("c")).contains(cursors("c", 13));
        }
    }
}
