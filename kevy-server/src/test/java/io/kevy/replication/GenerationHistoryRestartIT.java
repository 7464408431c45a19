package io.kevy.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kevy.config.Sizes;
import io.kevy.server.KevyServer;
import io.kevy.server.config.ServerConfig;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.FeedClient;
import io.kevy.testing.RawClient;
import io.kevy.testing.StateDump;
import io.kevy.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generation history survives a clean restart of a promoted primary (docs/cdc.md, "Replicas and failover"):
 * it is kept in {@code feed-{i}.history} next to the generation file. A real primary and a replica with a data
 * directory (AOF on) in-process on loopback port 0; the replica is promoted, written to, stopped cleanly and
 * booted again on the same directory.
 */
class GenerationHistoryRestartIT {
    private static final Duration SYNC = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private KevyServer startReplicaDir() throws Exception {
        return KevyServer.start(ServerConfig.defaults()
                .with(ServerOptions.PORT, 0)
                .with(ServerOptions.SHARDS, 2)
                .with(ServerOptions.IO_THREADS, 1)
                .with(ServerOptions.DIR, dir.toString())
                .with(ServerOptions.SAVE, "")
                .with(ServerOptions.FEED_ENABLED, true)
                .with(ServerOptions.FEED_BUFFER_SIZE, 16 * Sizes.MB));
    }

    @Test
    void aPromotedPrimaryKeepsItsGenerationHistoryAcrossACleanRestart() throws Exception {
        long[] end;
        long[] promoted;
        String key;
        try (TestServer primary = TestServer.start(c -> c.with(ServerOptions.SHARDS, 2)
                .with(ServerOptions.FEED_ENABLED, true))) {
            KevyServer replica = startReplicaDir();
            try (RawClient r = RawClient.connect(replica.port())) {
                assertThat(r.call("REPLICAOF", "127.0.0.1", Integer.toString(primary.port()))).isEqualTo("+OK\r\n");
                await().atMost(SYNC).until(() -> r.call("INFO", "replication").contains("master_link_status:up"));
                RawClient p = primary.raw();
                key = StateDump.keyOnShard(primary.server().engine(), "k", 0);
                for (int i = 0; i < 10; i++) {
                    p.call("SET", key, Integer.toString(i));
                }
                assertThat(p.call("WAIT", "1", "10000")).isEqualTo(":1\r\n");
                end = new FeedClient(p).tail(0);
                primary.server().abort(); // the primary dies

                assertThat(r.call("REPLICAOF", "NO", "ONE")).isEqualTo("+OK\r\n");
                for (int i = 0; i < 3; i++) {
                    assertThat(r.call("SET", key, "new" + i)).isEqualTo("+OK\r\n");
                }
                promoted = new FeedClient(r).tail(0);
                assertThat(promoted[0]).as("a new generation").isNotEqualTo(end[0]);
                assertThat(promoted[1]).as("offsets go on").isEqualTo(end[1] + 3);
            } finally {
                replica.close(); // a clean stop: the generation is kept
            }
        }
        Path history = dir.resolve("feed-0.history");
        assertThat(Files.readString(history)).as("feed-0.history").contains(
                Long.toUnsignedString(end[0]) + " " + end[1] + "\n");

        KevyServer again = startReplicaDir();
        try (RawClient r = RawClient.connect(again.port())) {
            FeedClient f = new FeedClient(r);
            assertThat(f.tail(0)).as("the promoted generation survives the clean restart").isEqualTo(promoted);
            // a consumer caught up with the old primary continues with the new primary's frames, no rebuild
            FeedClient.Batch b = f.read(0, end[0], end[1]);
            assertThat(b.generation()).isEqualTo(promoted[0]);
            assertThat(b.frames()).hasSize(3);
            assertThat(b.frames().get(0).offset()).isEqualTo(end[1]);
            assertThat(new String(b.frames().get(2).argv()[2])).isEqualTo("new2");
            assertThat(b.next()).isEqualTo(promoted[1]);
            // past where the old generation ended here: frames lost with the old primary
            assertThat(r.call("FEED.READ", "0", Long.toUnsignedString(end[0]), Long.toString(end[1] + 1)))
                    .startsWith("-FEEDRESYNC " + promoted[0] + " " + promoted[1] + "\r\n");
        } finally {
            again.close();
        }

        // a data directory from before the history file existed still boots; old-generation cursors then rebuild
        Files.delete(history);
        KevyServer old = startReplicaDir();
        try (RawClient r = RawClient.connect(old.port())) {
            FeedClient f = new FeedClient(r);
            assertThat(f.tail(0)).isEqualTo(promoted);
            assertThat(r.call("GET", key)).isEqualTo("$4\r\nnew2\r\n");
            assertThat(r.call("FEED.READ", "0", Long.toUnsignedString(end[0]), Long.toString(end[1])))
                    .startsWith("-FEEDRESYNC " + promoted[0] + " ");
            assertThat(f.read(0, promoted[0], end[1]).frames()).as("the new generation's own cursors").hasSize(3);
        } finally {
            old.close();
        }
    }

    @Test
    void aCrashStartsANewStreamAndForgetsTheHistory() throws Exception {
        long[] end;
        try (TestServer primary = TestServer.start(c -> c.with(ServerOptions.SHARDS, 2)
                .with(ServerOptions.FEED_ENABLED, true))) {
            KevyServer replica = startReplicaDir();
            try (RawClient r = RawClient.connect(replica.port())) {
                assertThat(r.call("REPLICAOF", "127.0.0.1", Integer.toString(primary.port()))).isEqualTo("+OK\r\n");
                await().atMost(SYNC).until(() -> r.call("INFO", "replication").contains("master_link_status:up"));
                RawClient p = primary.raw();
                String key = StateDump.keyOnShard(primary.server().engine(), "k", 0);
                p.call("SET", key, "1");
                assertThat(p.call("WAIT", "1", "10000")).isEqualTo(":1\r\n");
                end = new FeedClient(p).tail(0);
                assertThat(r.call("REPLICAOF", "NO", "ONE")).isEqualTo("+OK\r\n");
                await().atMost(SYNC).until(() -> Files.exists(dir.resolve("feed-0.history")));
                replica.persistence().aof().syncNow();
            } finally {
                replica.abort(); // kill -9: no clean-shutdown marker
            }
        }
        KevyServer again = startReplicaDir();
        try (RawClient r = RawClient.connect(again.port())) {
            long[] tail = new FeedClient(r).tail(0);
            assertThat(tail[1]).as("a new stream from 0").isZero();
            assertThat(r.call("FEED.READ", "0", Long.toUnsignedString(end[0]), "0"))
                    .startsWith("-FEEDRESYNC " + tail[0] + " 0\r\n");
            assertThat(dir.resolve("feed-0.history")).as("the history of a stream that was not kept").doesNotExist();
        } finally {
            again.close();
        }
    }
}
