package io.kevy.feed.client;

import io.kevy.embedded.Config;
import io.kevy.embedded.Store;
import io.kevy.feed.client.support.MirrorRebuildRun;
import io.kevy.feed.client.support.ResyncingFeedSource;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Exact rebuilds over an embedded store (issue 31): the randomized {@link MirrorRebuildRun} with
 * {@code EmbeddedFeedSource} (FEED.VALUE through {@code Store.execute}; the store has one stream, so one
 * shard), {@value #ROUNDS} real FEEDRESYNCs (the store's {@value #BACKLOG}-byte backlog overrun while the
 * consumer's reads are held), MULTI blocks through {@link Store#multi} (each {@code Store.execute} call is its
 * own client). {@code -Dkevy.mirror.rounds=n} sets the count, {@code -Dkevy.mirror.seed=s} replays a run.
 */
class FeedMirrorEmbeddedRebuildIT {
    static final int ROUNDS = 50;
    /**
     * The backlog: in-process writers outrun a small one while the rebuild runs (the consumer would then
     * resync again, and fail after two futile rebuilds), so 4 MiB; the fill overruns it in some 500 SETs.
     */
    static final long BACKLOG = 4 << 20;

    @Test
    void aMirrorOfAnEmbeddedStoreStaysEqualThroughForcedResyncs() throws Exception {
        try (Store store = Store.open(Config.defaults().withFeed(BACKLOG));
             FeedSource inner = EmbeddedFeedSource.of(store);
             ResyncingFeedSource source = new ResyncingFeedSource(inner)) {
            MirrorRebuildRun.Writer writer = new MirrorRebuildRun.Writer() {
                @Override
                public Object call(String... argv) {
                    return store.execute(argv);
                }

                @Override
                public Object multi(List<String[]> block) {
                    return store.multi(block);
                }
            };
            MirrorRebuildRun.run("embedded", source, w -> writer, Integer.getInteger("kevy.mirror.rounds", ROUNDS), 3,
                    Long.getLong("kevy.mirror.seed", System.nanoTime()));
        }
    }
}
