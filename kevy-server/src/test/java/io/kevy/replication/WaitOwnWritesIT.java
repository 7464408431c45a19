package io.kevy.replication;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.server.config.ServerOptions;
import io.kevy.testing.FeedClient;
import io.kevy.testing.RawClient;
import io.kevy.testing.StateDump;
import io.kevy.testing.TestServer;
import org.junit.jupiter.api.Test;

/**
 * {@code WAIT numreplicas timeout} waits for the calling client's own last write, as Redis's WAIT waits for
 * {@code c->woff} (the replication offset after the client's last propagated write), not for every write on the
 * primary. A real primary in-process on port 0; the replica is a raw connection that announces itself
 * ({@code REPLCONF LISTENING-PORT}) and acknowledges exactly the cursors the test chooses
 * ({@code REPLCONF FEED-ACK}), so "acknowledged A's write but not B's" is a fact, not a race.
 */
class WaitOwnWritesIT {
    private static String ack(RawClient replica, int shard, long[] cursor) {
        return replica.call("REPLCONF", "FEED-ACK", Integer.toString(shard), Long.toUnsignedString(cursor[0]),
                Long.toString(cursor[1]));
    }

    @Test
    void waitCountsTheReplicasThatAcknowledgedTheClientsOwnLastWrite() {
        try (TestServer primary = TestServer.start(c -> c.with(ServerOptions.SHARDS, 2)
                .with(ServerOptions.FEED_ENABLED, true))) {
            RawClient replica = primary.raw();
            assertThat(replica.call("REPLCONF", "LISTENING-PORT", "7777")).isEqualTo("+OK\r\n");
            FeedClient feed = new FeedClient(primary.raw());
            long[] shard1 = feed.tail(1);
            assertThat(ack(replica, 1, shard1)).isEqualTo("+OK\r\n");
            String k0 = StateDump.keyOnShard(primary.server().engine(), "k", 0);

            RawClient a = primary.raw();
            RawClient b = primary.raw();
            RawClient idle = primary.raw();
            assertThat(a.call("SET", k0, "a")).isEqualTo("+OK\r\n");
            long[] afterA = feed.tail(0);
            assertThat(b.call("SET", k0, "b")).isEqualTo("+OK\r\n");
            assertThat(b.call("INCR", "counter-" + k0)).isEqualTo(":1\r\n");
            assertThat(ack(replica, 0, afterA)).isEqualTo("+OK\r\n"); // A's write, not B's

            assertThat(a.call("WAIT", "1", "100")).as("A's own write is acknowledged").isEqualTo(":1\r\n");
            long t0 = System.nanoTime();
            assertThat(b.call("WAIT", "1", "200")).as("B's later write is not").isEqualTo(":0\r\n");
            assertThat((System.nanoTime() - t0) / 1_000_000).as("B waited for the timeout").isGreaterThanOrEqualTo(150);
            assertThat(idle.call("WAIT", "1", "0")).as("a client that never wrote waits for nothing")
                    .isEqualTo(":1\r\n");

            // B parks until the replica acknowledges its write (on both shards it wrote), then counts it
            b.send(RawClient.encode(new byte[][] {"WAIT".getBytes(), "1".getBytes(), "0".getBytes()}));
            assertThat(ack(replica, 0, feed.tail(0))).isEqualTo("+OK\r\n");
            assertThat(ack(replica, 1, feed.tail(1))).isEqualTo("+OK\r\n");
            assertThat(b.readReply()).isEqualTo(":1\r\n");

            // a transaction's writes are the client's writes too
            RawClient tx = primary.raw();
            assertThat(tx.call("MULTI")).isEqualTo("+OK\r\n");
            assertThat(tx.call("SET", k0, "tx")).isEqualTo("+QUEUED\r\n");
            assertThat(tx.call("EXEC")).isEqualTo("*1\r\n+OK\r\n");
            assertThat(tx.call("WAIT", "1", "100")).as("EXEC's write is not acknowledged yet").isEqualTo(":0\r\n");
            assertThat(a.call("WAIT", "1", "100")).as("A still needs only its own").isEqualTo(":1\r\n");
            assertThat(ack(replica, 0, feed.tail(0))).isEqualTo("+OK\r\n");
            assertThat(tx.call("WAIT", "1", "100")).isEqualTo(":1\r\n");
        }
    }
}
