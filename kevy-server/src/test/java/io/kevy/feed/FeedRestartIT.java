package io.kevy.feed;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.server.KevyServer;
import io.kevy.server.config.ServerConfig;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.FeedClient;
import io.kevy.testing.RawClient;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The feed across restarts (feed contract §5): a clean restart keeps (generation, next) and refills the backlog
 * from the AOF tail (ours), so a lagging consumer continues without a resync; a crash starts a new generation.
 */
class FeedRestartIT {
    @TempDir
    Path dir;

    private KevyServer start(UnaryOperator<ServerConfig> custom) throws Exception {
        return KevyServer.start(custom.apply(ServerConfig.defaults()
                .with(ServerOptions.PORT, 0)
                .with(ServerOptions.SHARDS, 1)
                .with(ServerOptions.IO_THREADS, 1)
                .with(ServerOptions.DIR, dir.toString())
                .with(ServerOptions.SAVE, "")
                .with(ServerOptions.FEED_ENABLED, true)));
    }

    private static long generation(KevyServer s) {
        try (RawClient c = RawClient.connect(s.port())) {
            return new FeedClient(c).tail(0)[0];
        }
    }

    private static void write(KevyServer s, int from, int to) {
        try (RawClient c = RawClient.connect(s.port())) {
            for (int i = from; i < to; i++) {
                assertThat(c.call("SET", "k" + i, "v")).isEqualTo("+OK\r\n");
            }
        }
    }

    @Test
    void aCleanRestartRefillsTheBacklogSoALaggingCursorContinues() throws Exception {
        long gen;
        try (KevyServer s = start(c -> c)) {
            write(s, 0, 20);
            gen = generation(s);
        }
        try (KevyServer s = start(c -> c); RawClient raw = RawClient.connect(s.port())) {
            FeedClient feed = new FeedClient(raw);
            assertThat(feed.tail(0)).containsExactly(gen, 20);
            FeedClient.Batch b = feed.read(0, gen, 5);
            assertThat(b.frames()).extracting(FeedClient.Frame::offset).first().isEqualTo(5L);
            assertThat(b.frames()).hasSize(15);
            assertThat(b.frames().get(0).toString()).isEqualTo("5 SET k5 v");
            write(s, 20, 22);
            assertThat(feed.read(0, gen, 19).frames()).extracting(FeedClient.Frame::offset)
                    .containsExactly(19L, 20L, 21L);
        }
    }

    @Test
    void theRefillStopsAtTheBudget() throws Exception {
        long gen;
        try (KevyServer s = start(c -> c)) {
            write(s, 0, 20);
            gen = generation(s);
        }
        // frames "SET kNN v" at two-digit offsets are 38 bytes: room for the last five
        try (KevyServer s = start(c -> c.with(ServerOptions.FEED_BUFFER_SIZE, 5L * 38));
             RawClient raw = RawClient.connect(s.port())) {
            assertThat(raw.call("FEED.READ", "0", Long.toString(gen), "14"))
                    .isEqualTo("-FEEDRESYNC " + gen + " 20\r\n");
            assertThat(new FeedClient(raw).read(0, gen, 15).frames()).hasSize(5);
        }
    }

    @Test
    void aCrashStartsANewGeneration() throws Exception {
        long gen;
        KevyServer s = start(c -> c);
        write(s, 0, 10);
        gen = generation(s);
        s.persistence().aof().syncNow();
        s.abort();
        try (KevyServer s2 = start(c -> c); RawClient raw = RawClient.connect(s2.port())) {
            long[] t = new FeedClient(raw).tail(0);
            assertThat(t[0]).isNotEqualTo(gen);
            assertThat(t[1]).isZero();
            assertThat(raw.call("FEED.READ", "0", Long.toString(gen), "3"))
                    .isEqualTo("-FEEDRESYNC " + t[0] + " 0\r\n");
            assertThat(raw.call("GET", "k9")).as("the data survived").isEqualTo("$1\r\nv\r\n");
        }
    }
}
