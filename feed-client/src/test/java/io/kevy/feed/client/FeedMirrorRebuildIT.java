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
 * no FEED.VALUE: the fallback reads, each key in MULTI/EXEC with its shard's FEED.TAIL), on 1 and 4 shards too.
 * {@code -Dkevy.mirror.rounds=n} sets the count,
 * {@code -Dkevy.mirror.seed=s} replays a run (the seed is printed).
 */
class FeedMirrorRebuildIT {
    /**
     * The 50: about 90 s for the five tests on a shared 2-core machine (63 s for the three before the
     * upstream runs took the whole workload on 1 and 4 shards).
     */
    static final int ROUNDS = 50;
    /** Rounds of the run over plain (not exact) reads. */
    static final int PLAIN_ROUNDS = 10;
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
     * Upstream kevy's protocol with our server's frames, over the wire as {@code UpstreamCompatibilityIT} runs it:
     * a proxy answers FEED.READ ... BLOCK with {@code -ERR syntax error} (the consumer polls) and FEED.VALUE with
     * {@code -ERR unknown command}, so the rebuild reads each key in MULTI/EXEC with its shard's FEED.TAIL
     * ({@code MultiExecReads}), exact because our EXEC is atomic: the whole workload, pushes, pops and moves
     * included. FEED.VALUE is refused once per run. (Upstream's own frames are inexact: FeedMirrorUpstreamFramesIT.)
     */
    private static void upstream(int shards) throws Exception {
        try (TestServer server = server(shards); NoBlockProxy proxy = NoBlockProxy.upstream(server.port());
             FeedSource inner = FeedSource.connect(proxy.uri() + "?timeout=5s");
             ResyncingFeedSource source = new ResyncingFeedSource(inner)) {
            withWriters(server, w -> MirrorRebuildRun.run("upstream-" + shards, source, w, rounds(), 3, seed()));
            assertThat(proxy.feedValueRejected.get()).as("FEED.VALUE asked once, refused, never again").isEqualTo(1);
            assertThat(proxy.blockRejected.get()).as("BLOCK was tried and refused").isPositive();
            assertThat(proxy.execs.get()).as("MULTI/EXEC reads: at least one per shard and round")
                    .isGreaterThanOrEqualTo(rounds() * shards);
            System.out.println("FeedMirrorRebuildIT upstream-" + shards + ": FEED.VALUE refused "
                    + proxy.feedValueRejected.get() + " time(s), BLOCK " + proxy.blockRejected.get() + ", EXEC "
                    + proxy.execs.get() + ", FEED.READ relayed " + proxy.reads.get());
        }
    }

    /**
     * A server without FEED.VALUE and without MULTI: the reads fall back to FEED.TAIL, then the plain reads (not
     * exact), where only idempotent effects are guaranteed to converge, so this run writes only those, and
     * {@value #PLAIN_ROUNDS} rounds (the exact paths above are the ones that take 50).
     */
    @Test
    void withoutMultiThePlainReadsOnFourShards() throws Exception {
        try (TestServer server = server(4); NoBlockProxy proxy = NoBlockProxy.withoutMulti(server.port());
             FeedSource inner = FeedSource.connect(proxy.uri() + "?timeout=5s");
             ResyncingFeedSource source = new ResyncingFeedSource(inner)) {
            withWriters(server, w -> MirrorRebuildRun.runIdempotent("plain-4", source, w,
                    Math.min(rounds(), PLAIN_ROUNDS), 3, seed()));
            assertThat(proxy.feedValueRejected.get()).as("FEED.VALUE refused once").isEqualTo(1);
            assertThat(proxy.multiRejected.get()).as("MULTI refused in the first page's transactions (one per "
                    + "shard), never asked again").isBetween(1, 4);
        }
    }

    @Test
    void theUpstreamProtocolOnOneShard() throws Exception {
        upstream(1);
    }

    @Test
    void theUpstreamProtocolOnFourShards() throws Exception {
        upstream(4);
    }
}
