package io.kevy.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A replication loop is refused clearly. Redis accepts {@code REPLICAOF} into a loop and its replicas then never
 * sync ({@code -NOMASTERLINK} from a replica whose own link is down); kevy's link refuses it at the handshake
 * instead (each server knows the run ids of its replication chain, {@code REPLCONF KEVY-CHAIN}), keeps its data
 * and says why in {@code INFO replication} ({@code kevy_master_link_error}). Chains without a loop (a replica of
 * a replica) work. Real servers in-process on loopback port 0.
 */
class ReplicationLoopIT {
    private static final Duration SYNC = Duration.ofSeconds(30);

    private static TestServer server() {
        return TestServer.start(c -> c.with(ServerOptions.SHARDS, 2).with(ServerOptions.FEED_ENABLED, true));
    }

    private static void replicaOf(TestServer replica, TestServer primary) {
        assertThat(replica.raw().call("REPLICAOF", "127.0.0.1", Integer.toString(primary.port())))
                .isEqualTo("+OK\r\n");
    }

    private static String info(TestServer s) {
        return s.raw().call("INFO", "replication");
    }

    @Test
    void aReplicaOfItsOwnReplicaIsRefusedAndKeepsItsData() {
        try (TestServer a = server(); TestServer b = server()) {
            RawClient ra = a.raw();
            assertThat(ra.call("SET", "k", "from-a")).isEqualTo("+OK\r\n");
            replicaOf(b, a);
            await().atMost(SYNC).until(() -> info(b).contains("master_link_status:up"));
            await().atMost(SYNC).until(() -> "$6\r\nfrom-a\r\n".equals(b.raw().call("GET", "k")));

            replicaOf(a, b); // accepted as a command (asynchronous, as Redis), refused by the link
            await().atMost(SYNC).until(() -> info(a).contains("kevy_master_link_error:"));
            String infoA = info(a);
            assertThat(infoA).contains("master_link_status:down\r\n");
            assertThat(infoA).containsPattern("kevy_master_link_error:[^\r]*replica loop");
            assertThat(ra.call("GET", "k")).as("A keeps its data").isEqualTo("$6\r\nfrom-a\r\n");
            assertThat(info(a)).contains("kevy_full_syncs:0\r\n");
            assertThat(info(b)).as("B still follows A").contains("master_link_status:up\r\n");

            assertThat(ra.call("REPLICAOF", "NO", "ONE")).isEqualTo("+OK\r\n");
            assertThat(ra.call("SET", "k", "again")).isEqualTo("+OK\r\n");
            await().atMost(SYNC).until(() -> "$5\r\nagain\r\n".equals(b.raw().call("GET", "k")));
        }
    }

    @Test
    void aLoopThroughAChainIsRefusedAndTheChainItselfWorks() {
        try (TestServer a = server(); TestServer b = server(); TestServer c = server()) {
            a.raw().call("SET", "k", "1");
            replicaOf(b, a);
            await().atMost(SYNC).until(() -> info(b).contains("master_link_status:up"));
            replicaOf(c, b); // a replica of a replica: allowed, as Redis
            await().atMost(SYNC).until(() -> info(c).contains("master_link_status:up"));
            assertThat(a.raw().call("SET", "k", "2")).isEqualTo("+OK\r\n");
            await().atMost(SYNC).until(() -> "$1\r\n2\r\n".equals(c.raw().call("GET", "k")));
            assertThat(c.raw().call("REPLCONF", "KEVY-CHAIN")).as("C's chain: itself, B, A")
                    .startsWith("*3\r\n");

            replicaOf(a, c); // A -> C -> B -> A
            await().atMost(SYNC).until(() -> info(a).contains("kevy_master_link_error:"));
            assertThat(info(a)).containsPattern("kevy_master_link_error:[^\r]*loop");
            assertThat(a.raw().call("GET", "k")).isEqualTo("$1\r\n2\r\n");
            assertThat(info(c)).contains("master_link_status:up\r\n");
        }
    }
}
