package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.feed.client.support.Servers;
import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import io.lettuce.core.RedisURI;
import io.lettuce.core.protocol.ProtocolVersion;
import org.junit.jupiter.api.Test;

/**
 * The {@link FeedSource} contract over the network with the protocol pinned to RESP2 (what a client that never
 * sends {@code HELLO 3} sees); {@link RemoteFeedSourceContractIT} runs it on the negotiated RESP3.
 */
class RemoteFeedSourceResp2ContractIT extends FeedSourceContractTest {
    private TestServer server;
    private RawClient raw;

    @Override
    protected FeedSource open() {
        server = Servers.start();
        raw = server.raw();
        return new RemoteFeedSource(RedisURI.create(server.uri() + "?timeout=10s"), ProtocolVersion.RESP2);
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

    @Test
    void theSourceSpeaksResp2() throws Exception {
        get(source.shards());
        assertThat(raw.call("CLIENT", "LIST")).contains("name=kevy-feed").doesNotContain("resp=3");
    }
}
