package io.kevy.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kevy.engine.Engine;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.FeedClient;
import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * FEED.READ BLOCK (feed contract §4, ours): parked at the tail, completed by the next append or the timeout on
 * the connection's own event loop, cancelled by a disconnect; filtered frames advance the returned cursor.
 */
class FeedBlockIT {
    /** Per test: a 1-shard feed server with two I/O threads, a reader and a writer connection, the generation. */
    private TestServer server;
    private RawClient reader;
    private RawClient writer;
    private long g;

    @BeforeEach
    void start() {
        server = server(2);
        reader = server.raw();
        writer = server.raw();
        g = gen(reader);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static TestServer server(int ioThreads) {
        return TestServer.start(c -> c.with(ServerOptions.SHARDS, 1).with(ServerOptions.IO_THREADS, ioThreads)
                .with(ServerOptions.FEED_ENABLED, true));
    }

    private static long gen(RawClient raw) {
        return new FeedClient(raw).tail(0)[0];
    }

    private static String empty(long gen, long next) {
        return "*3\r\n:" + gen + "\r\n:" + next + "\r\n*0\r\n";
    }

    private static void awaitBlocked(TestServer server, int n) {
        Engine e = server.server().engine();
        await().atMost(Duration.ofSeconds(5)).until(() -> e.sessions().blockedCount() == n
                && server.server().feed().backlog(0).stats().readersBlocked() == n);
    }

    @Test
    void anAppendWakesTheReaderWithTheNewFrame() {
        reader.command("FEED.READ", "0", Long.toString(g), "0", "BLOCK", "10000");
        awaitBlocked(server, 1);
        long t0 = System.nanoTime();
        assertThat(writer.call("SET", "k", "v")).isEqualTo("+OK\r\n");
        assertThat(reader.readReply()).isEqualTo("*3\r\n:" + g + "\r\n:1\r\n*1\r\n*2\r\n:0\r\n*3\r\n$3\r\nSET\r\n"
                + "$1\r\nk\r\n$1\r\nv\r\n");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
        awaitBlocked(server, 0);
        assertThat(reader.call("PING")).as("the connection goes on").isEqualTo("+PONG\r\n");
    }

    @Test
    void theTimeoutAnswersAnEmptyBatch() {
        long t0 = System.nanoTime();
        assertThat(reader.call("FEED.READ", "0", Long.toString(g), "0", "BLOCK", "200")).isEqualTo(empty(g, 0));
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThanOrEqualTo(Duration.ofMillis(195));
        assertThat(server.server().engine().sessions().blockedCount()).isZero();
    }

    @Test
    void framesFilteredOutWhileWaitingAdvanceTheCursor() {
        String gs = Long.toString(g);
        long t0 = System.nanoTime();
        reader.command("FEED.READ", "0", gs, "0", "PREFIX", "a:", "BLOCK", "400");
        awaitBlocked(server, 1);
        writer.call("SET", "b:1", "v");
        assertThat(reader.readReply()).as("still waiting after a filtered frame; the timeout moves past it")
                .isEqualTo(empty(g, 1));
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThanOrEqualTo(Duration.ofMillis(395));

        reader.command("FEED.READ", "0", gs, "1", "PREFIX", "a:", "BLOCK", "10000");
        awaitBlocked(server, 1);
        writer.call("SET", "b:2", "v");
        writer.call("SET", "a:1", "v");
        assertThat(reader.readReply()).isEqualTo("*3\r\n:" + g + "\r\n:3\r\n*1\r\n*2\r\n:2\r\n*3\r\n$3\r\nSET\r\n"
                + "$3\r\na:1\r\n$1\r\nv\r\n");
    }

    @Test
    void countBoundsTheFramesScannedOverTheWholeWait() {
        long t0 = System.nanoTime();
        reader.command("FEED.READ", "0", Long.toString(g), "0", "COUNT", "2", "PREFIX", "a:", "BLOCK", "20000");
        awaitBlocked(server, 1);
        writer.call("SET", "b:1", "v");
        writer.call("SET", "b:2", "v");
        assertThat(reader.readReply()).isEqualTo(empty(g, 2));
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void blockZeroWaitsWithoutLimitAndADisconnectCancelsTheWait() {
        reader.command("FEED.READ", "0", Long.toString(g), "0", "BLOCK", "0");
        awaitBlocked(server, 1);
        assertThat(writer.call("CLIENT", "ID")).startsWith(":");
        reader.close();
        awaitBlocked(server, 0);
        assertThat(writer.call("SET", "k", "v")).isEqualTo("+OK\r\n");
        assertThat(server.server().feed().backlog(0).stats().readersBlocked()).isZero();
    }

    @Test
    void clientKillCancelsTheWaitAndInfoReportsBlockedReaders() {
        String id = reader.call("CLIENT", "ID");
        reader.command("FEED.READ", "0", Long.toString(g), "0", "BLOCK", "0");
        awaitBlocked(server, 1);
        assertThat(writer.call("INFO", "clients")).contains("blocked_clients:1\r\n");
        assertThat(writer.call("INFO", "feed")).contains("# Feed\r\nfeed_enabled:1\r\n")
                .contains(",readers_blocked=1\r\n");
        assertThat(writer.call("CLIENT", "KILL", "ID", id.substring(1, id.length() - 2))).isEqualTo(":1\r\n");
        assertThat(reader.isClosedByServer()).isTrue();
        awaitBlocked(server, 0);
        assertThat(writer.call("INFO", "clients")).contains("blocked_clients:0\r\n");
        assertThat(writer.call("INFO", "feed")).contains(",readers_blocked=0\r\n");
    }

    @Test
    void aFlushWhileWaitingAnswersFeedresync() {
        reader.command("FEED.READ", "0", Long.toString(g), "0", "BLOCK", "10000");
        awaitBlocked(server, 1);
        writer.call("FLUSHALL");
        long n = gen(writer);
        assertThat(reader.readReply()).isEqualTo("-FEEDRESYNC " + n + " 0\r\n");
    }

    @Test
    void blockIsIgnoredWhenFramesAreThereOrTheCursorIsInvalid() {
        reader.call("SET", "k", "v");
        assertThat(reader.call("FEED.READ", "0", Long.toString(g), "0", "BLOCK", "10000")).startsWith(
                "*3\r\n:" + g + "\r\n:1\r\n*1\r\n");
        assertThat(reader.call("FEED.READ", "0", Long.toString(g + 1), "1", "BLOCK", "10000"))
                .isEqualTo("-FEEDRESYNC " + g + " 1\r\n");
        assertThat(reader.call("FEED.READ", "0", Long.toString(g), "2", "BLOCK", "10000"))
                .isEqualTo("-ERR feed cursor ahead of stream\r\n");
    }

    @Test
    void waitingNeverHoldsTheEventLoop() {
        // its own server with one I/O thread (the shared one has two)
        try (TestServer oneLoop = server(1)) {
            RawClient r1 = oneLoop.raw();
            RawClient r2 = oneLoop.raw();
            RawClient other = oneLoop.raw();
            long gen = gen(r1);
            r1.command("FEED.READ", "0", Long.toString(gen), "0", "BLOCK", "0");
            r2.command("FEED.READ", "0", Long.toString(gen), "0", "BLOCK", "0");
            awaitBlocked(oneLoop, 2);
            assertThat(other.call("PING")).as("one event loop, two parked readers").isEqualTo("+PONG\r\n");
            assertThat(other.call("SET", "k", "v")).isEqualTo("+OK\r\n");
            String frame = "*3\r\n:" + gen + "\r\n:1\r\n*1\r\n*2\r\n:0\r\n*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n";
            assertThat(r1.readReply()).isEqualTo(frame);
            assertThat(r2.readReply()).isEqualTo(frame);
        }
    }

    @Test
    void pipelinedCommandsWaitForTheBlockedReply() {
        reader.send(new String(RawClient.encode("FEED.READ".getBytes(), "0".getBytes(),
                Long.toString(g).getBytes(), "0".getBytes(), "BLOCK".getBytes(), "10000".getBytes()),
                java.nio.charset.StandardCharsets.ISO_8859_1) + "PING\r\nGET k\r\n");
        awaitBlocked(server, 1);
        writer.call("SET", "k", "v");
        assertThat(reader.readReply()).startsWith("*3\r\n:" + g + "\r\n:1\r\n*1\r\n");
        assertThat(reader.readReply()).isEqualTo("+PONG\r\n");
        assertThat(reader.readReply()).isEqualTo("$1\r\nv\r\n");
    }
}
