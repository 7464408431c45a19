package io.kevy.feed.client;

import io.kevy.feed.client.support.Servers;
import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;

/** The {@link FeedSource} contract over the network: a 4-shard kevy-server in-process. */
class RemoteFeedSourceContractIT extends FeedSourceContractTest {
    private TestServer server;
    private RawClient raw;

    @Override
    protected FeedSource open() {
        server = Servers.start();
        raw = server.raw();
        return FeedSource.connect(server.uri() + "?timeout=10s");
    }

    @Override
    protected void write(String... argv) {
        String reply = raw.call(argv);
        if (reply.startsWith("-")) {
            throw new IllegalStateException(reply);
        }
    }

    @Override
    protected void shutdown() {
        server.close();
    }
}
