package io.kevy.feed.client;

import io.kevy.feed.client.support.ForwardingFeedSource;
import io.kevy.feed.client.support.MirrorRebuildRun;
import io.kevy.feed.client.support.Servers;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Exact rebuilds over the wire (issue 31): a FeedMirror through {@value #ROUNDS} forced rebuilds with moves,
 * renames, pushes, pops, expiries and MULTI blocks made during each, on 1 and 4 shards, equal to the server
 * after every one ({@link MirrorRebuildRun}); and the same through a source without FEED.VALUE (upstream kevy's
 * protocol: the fallback reads, FEED.TAIL then the plain reads), where only the key-level guarantee holds, so
 * that run writes only idempotent commands. {@value #ROUNDS} rounds keep CI time small (the 50 are
 * {@code -Dkevy.mirror.rounds=50}).
 */
class FeedMirrorRebuildIT {
    static final int ROUNDS = 10;

    private static int rounds() {
        return Integer.getInteger("kevy.mirror.rounds", ROUNDS);
    }

    private static long seed() {
        return Long.getLong("kevy.mirror.seed", System.nanoTime());
    }

    private static void remote(int shards) throws Exception {
        try (TestServer server = Servers.start(c -> c.with(ServerOptions.SHARDS, shards));
             FeedSource source = FeedSource.connect(server.uri())) {
            List<RawClient> clients = new ArrayList<>();
            Function<Integer, Function<String[], Object>> writers = w -> {
                RawClient raw = server.raw();
                synchronized (clients) {
                    clients.add(raw);
                }
                return raw::call;
            };
            try {
                MirrorRebuildRun.run("remote-" + shards, source, writers, true, rounds(), 3, seed());
            } finally {
                clients.forEach(RawClient::close);
            }
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

    /** Upstream's protocol for the rebuild reads: no FEED.VALUE (the default {@link FeedSource#reads}). */
    static final class NoFeedValue extends ForwardingFeedSource {
        NoFeedValue(FeedSource inner) {
            super(inner);
        }
    }

    @Test
    void theUpstreamFallbackOnFourShards() throws Exception {
        try (TestServer server = Servers.start(c -> c.with(ServerOptions.SHARDS, 4));
             FeedSource inner = FeedSource.connect(server.uri()); FeedSource source = new NoFeedValue(inner)) {
            List<RawClient> clients = new ArrayList<>();
            try {
                MirrorRebuildRun.runIdempotent("upstream-4", source, w -> {
                    RawClient raw = server.raw();
                    synchronized (clients) {
                        clients.add(raw);
                    }
                    return raw::call;
                }, rounds(), 3, seed());
            } finally {
                clients.forEach(RawClient::close);
            }
        }
    }
}
