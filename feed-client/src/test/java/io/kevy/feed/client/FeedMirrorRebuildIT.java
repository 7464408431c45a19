package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.feed.client.support.NoBlockProxy;
import io.kevy.feed.client.support.MirrorRebuildRun;
import io.kevy.feed.client.support.ResyncingFeedSource;
import io.kevy.feed.client.support.Servers;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Exact rebuilds over the wire (issue 31): a FeedMirror through {@value #ROUNDS} real FEEDRESYNCs (its reads held
 * while the server's {@value #BACKLOG}-byte backlog is overrun, then answered {@code -FEEDRESYNC} by the server)
 * with moves, renames, pushes, pops, expiries and MULTI blocks made during each rebuild, on 1 and 4 shards, equal
 * to the server after every one ({@link MirrorRebuildRun}); and the same over upstream kevy's protocol (no BLOCK,
 * no FEED.VALUE: the fallback reads, FEED.TAIL then the plain reads), where only the key-level guarantee holds,
 * so that run writes only idempotent commands. {@code -Dkevy.mirror.rounds=n} sets the count,
 * {@code -Dkevy.mirror.seed=s} replays a run (the seed is printed).
 */
class FeedMirrorRebuildIT {
    static final int ROUNDS = 20;
    /** The backlog per shard: small, so a few dozen 8 KiB SETs evict a held cursor. */
    static final long BACKLOG = 256 << 10;

    static int rounds() {
        return Integer.getInteger("kevy.mirror.rounds", ROUNDS);
    }

    static long seed() {
        return Long.getLong("kevy.mirror.seed", System.nanoTime());
    }

    private static TestServer server(int shards) {
        return Servers.start(c -> c.with(ServerOptions.SHARDS, shards).with(ServerOptions.FEED_BUFFER_SIZE, BACKLOG));
    }

    /** Runs {@code body} with a writer factory over new connections to {@code server}, closed afterwards. */
    private static void withWriters(TestServer server, Run body) throws Exception {
        List<RawClient> clients = new ArrayList<>();
        try {
            body.run(w -> {
                RawClient raw = server.raw();
                synchronized (clients) {
                    clients.add(raw);
                }
                return raw::call;
            });
        } finally {
            clients.forEach(RawClient::close);
        }
    }

    private interface Run {
        void run(java.util.function.Function<Integer, MirrorRebuildRun.Writer> writers) throws Exception;
    }

    private static void remote(int shards) throws Exception {
        try (TestServer server = server(shards); FeedSource inner = FeedSource.connect(server.uri());
             ResyncingFeedSource source = new ResyncingFeedSource(inner)) {
            withWriters(server, w -> MirrorRebuildRun.run("remote-" + shards, source, w, rounds(), 3, seed()));
        }
    }

    @Test
    void oneShard() throws Exception {
        remote(1);
    }

    @Test
    void fourShards() throws Exception {
        remote(4);
    }

    /**
     * Upstream kevy's protocol, over the wire as {@code UpstreamCompatibilityIT} runs it: a proxy answers
     * FEED.READ ... BLOCK with {@code -ERR syntax error} (the consumer polls) and FEED.VALUE with
     * {@code -ERR unknown command} (the rebuild falls back to FEED.TAIL, then the plain reads).
     */
    @Test
    void theUpstreamProtocolOnFourShards() throws Exception {
        try (TestServer server = server(4); NoBlockProxy proxy = NoBlockProxy.upstream(server.port());
             FeedSource inner = FeedSource.connect(proxy.uri() + "?timeout=5s");
             ResyncingFeedSource source = new ResyncingFeedSource(inner)) {
            withWriters(server, w -> MirrorRebuildRun.runIdempotent("upstream-4", source, w, rounds(), 3, seed()));
            assertThat(proxy.feedValueRejected.get()).as("FEED.VALUE was tried and refused").isPositive();
            assertThat(proxy.blockRejected.get()).as("BLOCK was tried and refused").isPositive();
            System.out.println("FeedMirrorRebuildIT upstream-4: FEED.VALUE refused " + proxy.feedValueRejected.get()
                    + " time(s), BLOCK " + proxy.blockRejected.get() + ", FEED.READ relayed " + proxy.reads.get());
        }
    }
}
