package io.kevy.feed.client;

import io.kevy.embedded.Config;
import io.kevy.embedded.Store;
import io.kevy.feed.client.support.MirrorRebuildRun;
import org.junit.jupiter.api.Test;

/**
 * Exact rebuilds over an embedded store (issue 31): the randomized {@link MirrorRebuildRun} with
 * {@code EmbeddedFeedSource} (FEED.VALUE through {@code Store.execute}; one shard). No MULTI blocks here: each
 * {@code Store.execute} call is its own client, so MULTI state does not carry between calls. 10 rounds by
 * default ({@code -Dkevy.mirror.rounds=50} for the count).
 */
class FeedMirrorEmbeddedRebuildIT {
    @Test
    void aMirrorOfAnEmbeddedStoreStaysEqualThroughForcedRebuilds() throws Exception {
        try (Store store = Store.open(Config.defaults().withFeed(0));
             FeedSource source = EmbeddedFeedSource.of(store)) {
            MirrorRebuildRun.run("embedded", source, w -> store::execute, false,
                    Integer.getInteger("kevy.mirror.rounds", 10), 3,
                    Long.getLong("kevy.mirror.seed", System.nanoTime()));
        }
    }
}
