package io.kevy.bridge.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.bridge.kafka.support.Bridges;
import io.kevy.bridge.kafka.support.Expected;
import io.kevy.bridge.kafka.support.Forwarded;
import io.kevy.bridge.kafka.support.KafkaBroker;
import io.kevy.bridge.kafka.support.Writes;
import io.kevy.feed.client.CursorStore;
import io.kevy.feed.client.FeedSource;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bridge crashes: the sidecar jar runs as a child process and is killed with SIGKILL (no graceful stop) while
 * writes go on; a new process continues. At-least-once: nothing is lost. With {@code transactional = true}: after
 * 10 kills at random points, a read_committed consumer sees each change exactly once.
 */
class KafkaBridgeCrashIT {
    @TempDir
    Path dir;

    private static TestServer server() {
        return TestServer.start(c -> c.with(ServerOptions.SHARDS, 4).with(ServerOptions.FEED_ENABLED, true));
    }

    @Test
    void aKilledBridgeLosesNothingAfterItsRestart() throws Exception {
        KafkaBroker broker = KafkaBroker.shared();
        String tag = "crash";
        try (TestServer server = server(); FeedSource source = FeedSource.connect(server.uri())) {
            Path cfg = Bridges.config(dir, server.uri(), broker.bootstrap(), tag, "batch_size = 64\n", "");
            Path log = dir.resolve("bridge.log");
            Process first = Bridges.startJar(log, Map.of(), "--config", cfg.toString());
            awaitCursors(dir.resolve("cursors-" + tag + ".json"), "bridge-" + tag);
            Writes writes = new Writes(server, 11, 300);
            Thread w = new Thread(() -> {
                try {
                    writes.run(2, 20_000, 4000, new AtomicBoolean());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            w.start();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> writes.done.get() > 6000);
            first.destroyForcibly();
            assertThat(Bridges.await(first, 30)).isEqualTo(137);
            Process second = Bridges.startJar(log, Map.of(), "--config", cfg.toString());
            w.join();
            Expected.awaitCursorsAtTail(source, () -> CursorStore.file(dir.resolve("cursors-" + tag + ".json"))
                    .load("bridge-" + tag).orElseThrow().cursors(), Duration.ofSeconds(120));
            second.destroy();
            assertThat(Bridges.await(second, 60)).as("SIGTERM exit status; log:%n%s", Files.readString(log)).isZero();
            Map<String, Expected.Item> expected = Expected.of(server.uri(), "user:", "order:", "misc:");
            List<Forwarded.Rec> records = Forwarded.read(broker, Bridges.topics(tag), "read_uncommitted");
            long dups = records.size() - records.stream().map(Forwarded.Rec::id).distinct().count();
            System.out.printf("KafkaBridgeCrashIT at-least-once: %d changes, %d records, %d delivered again after "
                    + "the kill%n", expected.size(), records.size(), dups);
            Forwarded.check(expected, records, k -> Bridges.route(tag, k), false);
        }
    }

    @Test
    void transactionalBridgeDeliversEachChangeExactlyOnceAcrossTenKills() throws Exception {
        KafkaBroker broker = KafkaBroker.shared();
        String tag = "eos";
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        System.out.println("KafkaBridgeCrashIT exactly-once seed " + seed);
        try (TestServer server = server(); FeedSource source = FeedSource.connect(server.uri())) {
            Path cfg = Bridges.config(dir, server.uri(), broker.bootstrap(), tag, "batch_size = 128\n",
                    "transactional = true\ncursor_topic = \"kevy.cursors-" + tag + "\"\ntransaction_timeout_ms = 10000\n");
            Path log = dir.resolve("bridge-eos.log");
            Writes writes = new Writes(server, seed, 300);
            AtomicBoolean stop = new AtomicBoolean();
            Process p = Bridges.startJar(log, Map.of(), "--config", cfg.toString());
            // the first start stores its start cursors in the cursor topic before it reads
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> cursors(broker, tag).size() == 4);
            Thread w = new Thread(() -> {
                try {
                    writes.run(2, 1_000_000, 2000, stop);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            w.start();
            for (int kill = 1; kill <= 10; kill++) {
                long ms = 1500 + rnd.nextInt(3000);
                Thread.sleep(ms);
                p.destroyForcibly();
                assertThat(Bridges.await(p, 30)).isEqualTo(137);
                System.out.printf("KafkaBridgeCrashIT exactly-once: kill %d after %d ms (%d writes so far)%n", kill, ms,
                        writes.done.get());
                p = Bridges.startJar(log, Map.of(), "--config", cfg.toString());
            }
            stop.set(true);
            w.join();
            Thread.sleep(2000);
            Process last = p;
            Expected.awaitCursorsAtTail(source, () -> KafkaBridgeCrashIT.cursors(broker, tag), Duration.ofSeconds(120));
            last.destroy();
            assertThat(Bridges.await(last, 60)).as("SIGTERM exit status").isZero();
            Map<String, Expected.Item> expected = Expected.of(server.uri(), "user:", "order:", "misc:");
            List<Forwarded.Rec> records = Forwarded.read(broker, Bridges.topics(tag), "read_committed");
            List<Forwarded.Rec> all = Forwarded.read(broker, Bridges.topics(tag), "read_uncommitted");
            System.out.printf("KafkaBridgeCrashIT exactly-once: %d writes, %d changes, %d committed records, %d "
                    + "records in the log including aborted ones%n", writes.done.get(), expected.size(),
                    records.size(), all.size());
            Forwarded.check(expected, records, k -> Bridges.route(tag, k), true);
        }
    }

    /** The cursors of the exactly-once bridge as stored in its cursor topic. */
    static List<io.kevy.feed.client.Cursor> cursors(KafkaBroker broker, String tag) {
        CursorRecords.Folder f = new CursorRecords.Folder("bridge-" + tag);
        broker.readAll(List.of("kevy.cursors-" + tag), "read_committed")
                .forEach(r -> f.add(r.key(), r.value(), r.timestamp()));
        return f.stored().map(io.kevy.feed.client.StoredCursors::cursors).orElse(List.of());
    }

    private static void awaitCursors(Path file, String name) {
        Awaitility.await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
                .until(() -> CursorStore.file(file).load(name).isPresent());
    }
}
