package io.kevy.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import io.kevy.testing.RedisOracle;
import io.kevy.testing.TestServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * kevy replicates only from kevy (its replication stream is the primary's change feed, not Redis's PSYNC): a
 * {@code REPLICAOF} a real {@code redis-server} (the Debian package, skipped when absent) is accepted, as Redis
 * accepts it, but the link stays down, the replica keeps its data, and {@code INFO replication}'s
 * {@code kevy_master_link_error} says why in words an operator can act on, not {@code unexpected reply -ERR
 * unknown command 'FEED.SHARDS'}. A kevy primary with its feed off is refused the same way. Both retry every
 * second and keep the state.
 */
class ReplicationFromRedisIT {
    private static final Duration SYNC = Duration.ofSeconds(30);

    private static String info(TestServer s) {
        return s.raw().call("INFO", "replication");
    }

    /** ROLE of a replica whose link is not up: the state is connect or connecting (Redis's words), never sync. */
    private static void assertRoleNotUp(TestServer replica, int primaryPort) {
        String role = replica.raw().call("ROLE");
        assertThat(role).startsWith("*5\r\n$5\r\nslave\r\n$9\r\n127.0.0.1\r\n:" + primaryPort + "\r\n")
                .containsPattern("\r\n\\$(7\r\nconnect|10\r\nconnecting)\r\n:-1\r\n$");
    }

    @Test
    void aReplicaOfARedisServerStaysDownAndSaysItIsNotKevy() throws InterruptedException {
        try (RedisOracle redis = RedisOracle.start();
                TestServer kevy = TestServer.start(c -> c.with(ServerOptions.FEED_ENABLED, true))) {
            RawClient r = kevy.raw();
            assertThat(r.call("SET", "k", "mine")).isEqualTo("+OK\r\n");
            assertThat(r.call("REPLICAOF", "127.0.0.1", Integer.toString(redis.port()))).isEqualTo("+OK\r\n");
            await().atMost(SYNC).until(() -> info(kevy).contains("kevy_master_link_error:"));
            String expected = "kevy_master_link_error:the primary at 127.0.0.1:" + redis.port()
                    + " is not a kevy server (FEED.SHARDS: unknown command); kevy replicates only from a kevy server"
                    + " with its feed on\r\n";
            assertThat(info(kevy)).contains("role:slave\r\n", "master_link_status:down\r\n", expected);
            assertRoleNotUp(kevy, redis.port());

            Thread.sleep(ReplicaLink.RETRY_MS + 300); // at least one retry: same state, same reason
            assertThat(info(kevy)).contains("master_link_status:down\r\n", expected, "kevy_full_syncs:0\r\n",
                    "kevy_partial_syncs:0\r\n");
            assertRoleNotUp(kevy, redis.port());
            assertThat(r.call("GET", "k")).as("the replica keeps its data").isEqualTo("$4\r\nmine\r\n");
            try (RawClient rc = redis.raw()) {
                assertThat(rc.call("INFO", "replication")).as("Redis has no replica").contains("connected_slaves:0");
            }
        }
    }

    @Test
    void aReplicaOfAKevyWithTheFeedOffSaysSo() {
        try (TestServer primary = TestServer.start();
                TestServer replica = TestServer.start(c -> c.with(ServerOptions.FEED_ENABLED, true))) {
            assertThat(replica.raw().call("REPLICAOF", "127.0.0.1", Integer.toString(primary.port())))
                    .isEqualTo("+OK\r\n");
            await().atMost(SYNC).until(() -> info(replica).contains("kevy_master_link_error:"));
            assertThat(info(replica)).contains("master_link_status:down\r\n")
                    .containsPattern("kevy_master_link_error:the primary at 127.0.0.1:" + primary.port()
                            + " has its change feed off \\(FEED.TAIL: ERR feed disabled[^\r]*\\); kevy replicates "
                            + "over the primary's feed: turn it on there\r\n");
            assertRoleNotUp(replica, primary.port());
        }
    }
}
