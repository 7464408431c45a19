package io.kevy.feed.client;

import io.kevy.embedded.Config;
import io.kevy.embedded.Store;

/** The {@link FeedSource} contract over an embedded store (one shard). */
class EmbeddedFeedSourceContractIT extends FeedSourceContractTest {
    private Store store;

    @Override
    protected FeedSource open() {
        store = Store.open(Config.defaults().withFeed(0));
        return EmbeddedFeedSource.of(store);
    }

    @Override
    protected void write(String... argv) {
        store.execute(argv).orThrow();
    }

    @Override
    protected void shutdown() {
        store.close();
    }
}
