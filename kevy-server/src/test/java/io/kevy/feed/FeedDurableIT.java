package io.kevy.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kevy.persist.FileFaults;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.FeedClient;
import io.kevy.testing.RawClient;
import io.kevy.testing.Replies;
import io.kevy.testing.TestServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * FEED.READ ... DURABLE (issue 32, point 6; ours): only frames the AOF has fsynced are served, the reply shape is
 * FEED.READ's, BLOCK waits for the fsync, and it is refused where no fsync schedule exists.
 */
class FeedDurableIT {
    @TempDir
    Path control;

    @AfterEach
    void unhook() {
        FileFaults.control(null);
    }

    private static TestServer server(String appendfsync) {
        return TestServer.start(c -> c.with(ServerOptions.SHARDS, 1).with(ServerOptions.FEED_ENABLED, true)
                .with(ServerOptions.AOF, true).with(ServerOptions.APPENDFSYNC, appendfsync));
    }

    private static long gen(RawClient raw) {
        return new FeedClient(raw).tail(0)[0];
    }

    private static List<Object> read(RawClient c, long gen, long offset, String... options) {
        String[] argv = new String[4 + options.length];
        argv[0] = "FEED.READ";
        argv[1] = "0";
        argv[2] = Long.toString(gen);
        argv[3] = Long.toString(offset);
        System.arraycopy(options, 0, argv, 4, options.length);
        String reply = c.call(argv);
        assertThat(reply).startsWith("*3\r\n");
        return Replies.nested(reply);
    }

    private static int frames(List<Object> batch) {
        return ((List<?>) batch.get(2)).size();
    }

    @Test
    void onceFsyncedTheReplyIsByteForByteFeedReads() throws IOException {
        try (TestServer s = server("everysec"); RawClient c = s.raw()) {
            long g = gen(c);
            for (int i = 0; i < 10; i++) {
                c.call("SET", "k" + i, "v" + i);
            }
            s.server().persistence().aof().syncNow();
            String plain = c.call("FEED.READ", "0", Long.toString(g), "0", "COUNT", "100");
            assertThat(c.call("FEED.READ", "0", Long.toString(g), "0", "DURABLE", "COUNT", "100")).isEqualTo(plain);
            assertThat(c.call("FEED.READ", "0", Long.toString(g), "0", "COUNT", "100", "durable")).isEqualTo(plain);
            assertThat(Replies.nested(plain).get(1)).isEqualTo("10");
        }
    }

    @Test
    void framesNoFsyncCoversAreNotServedAndBlockWaitsForAnFsyncThatNeverComes() throws IOException {
        FileFaults.control(control);
        try (TestServer s = server("everysec"); RawClient c = s.raw()) {
            long g = gen(c);
            c.call("SET", "synced", "1");
            s.server().persistence().aof().syncNow();
            Files.writeString(control.resolve("fail-fsync"), "");
            assertThat(c.call("SET", "unsynced", "2")).isEqualTo("+OK\r\n"); // everysec acknowledges before fsync
            assertThat(frames(read(c, g, 0))).as("plain read: both frames").isEqualTo(2);
            List<Object> durable = read(c, g, 0, "DURABLE");
            assertThat(frames(durable)).as("DURABLE: the fsynced frame only").isEqualTo(1);
            assertThat(durable.get(1)).isEqualTo("1");
            List<Object> blocked = read(c, g, 1, "BLOCK", "300", "DURABLE");
            assertThat(frames(blocked)).as("timed out: the fsync failed").isZero();
            assertThat(blocked.get(1)).as("the cursor stays before the unsynced frame").isEqualTo("1");
        }
    }

    @Test
    void blockDurableWakesAtTheFsyncThatCoversTheWrite() throws Exception {
        for (String policy : new String[] {"always", "everysec"}) {
            try (TestServer s = server(policy); RawClient r = s.raw(); RawClient w = s.raw()) {
                long g = gen(r);
                r.command("FEED.READ", "0", Long.toString(g), "0", "BLOCK", "5000", "DURABLE");
                await().atMost(Duration.ofSeconds(5)).until(() -> s.server().engine().sessions().blockedCount() == 1);
                long t0 = System.nanoTime();
                assertThat(w.call("SET", "k", "v")).isEqualTo("+OK\r\n");
                List<Object> batch = Replies.nested(r.readReply());
                long ms = (System.nanoTime() - t0) / 1_000_000;
                System.out.println("FEED.READ BLOCK DURABLE woke " + ms + " ms after the write (" + policy + ")");
                assertThat(frames(batch)).isEqualTo(1);
                assertThat(ms).as("within the fsync cadence").isLessThan(3000);
            }
        }
    }

    @Test
    void withoutAnFsyncScheduleDurableIsRefused() {
        String refused = "-ERR DURABLE needs an fsync schedule: the AOF on ([persistence] aof = true) with "
                + "appendfsync always or everysec\r\n";
        try (TestServer s = TestServer.start(c -> c.with(ServerOptions.SHARDS, 1)
                .with(ServerOptions.FEED_ENABLED, true)); RawClient c = s.raw()) {
            long g = gen(c);
            assertThat(c.call("FEED.READ", "0", Long.toString(g), "0", "DURABLE")).isEqualTo(refused);
            assertThat(c.call("FEED.READ", "0", Long.toString(g), "0", "COUNT", "DURABLE"))
                    .isEqualTo("-ERR invalid COUNT\r\n");
        }
        try (TestServer s = server("no"); RawClient c = s.raw()) {
            assertThat(c.call("FEED.READ", "0", Long.toString(gen(c)), "0", "DURABLE")).isEqualTo(refused);
        }
    }
}
