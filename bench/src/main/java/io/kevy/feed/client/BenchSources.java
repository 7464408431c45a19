package io.kevy.feed.client;

/**
 * Sources the benchmarks need that the public API does not offer: in feed-client's package (a split package, fine
 * on the class path the benchmarks run on) to reach its package-private switches.
 */
public final class BenchSources {
    private BenchSources() {
    }

    /**
     * A remote source for {@code uri} that reads keys as it does on a server without FEED.VALUE (upstream kevy):
     * each key in MULTI/EXEC with its shard's FEED.TAIL ({@code MultiExecReads}).
     */
    public static FeedSource withoutFeedValue(String uri) {
        return ((AbstractFeedSource) FeedSource.connect(uri)).withoutFeedValue();
    }
}
