package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.feed.client.support.Servers;
import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import org.junit.jupiter.api.Test;

/**
 * The {@link FeedSource} contract over the network: a 4-shard kevy-server in-process, on the protocol lettuce
 * negotiates with it (RESP3; {@link RemoteFeedSourceResp2ContractIT} pins RESP2).
 */
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

    @Test
    void theSourceNegotiatesResp3() throws Exception {
        get(source.shards());
        String list = raw.call("CLIENT", "LIST");
        assertThat(list).contains("name=kevy-feed");
        assertThat(list.lines().filter(l -> l.contains("name=kevy-feed"))).allMatch(l -> l.contains(" resp=3"));
    }

    @Override
    protected void shutdown() {
        server.close();
    }
}
