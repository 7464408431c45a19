package io.kevy.bridge.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.bridge.kafka.support.Bridges;
import io.kevy.bridge.kafka.support.Expected;
import io.kevy.bridge.kafka.support.Forwarded;
import io.kevy.bridge.kafka.support.KafkaBroker;
import io.kevy.bridge.kafka.support.Writes;
import io.kevy.feed.client.FeedSource;
import io.kevy.feed.sidecar.Sidecar;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.TestServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker goes away for about 20 s in the middle of a steady write stream and comes back on the same log dir:
 * {@code /readyz} turns 503 (shards behind, cursors stalled) and back to 200, and nothing is lost.
 */
class KafkaBrokerOutageIT {
    @TempDir
    Path dir;

    @Test
    void aTwentySecondBrokerOutageTurnsReadinessOffAndOnAndLosesNothing() throws Exception {
        KafkaBroker broker = KafkaBroker.shared();
        String tag = "outage";
        try (TestServer server = TestServer.start(c -> c.with(ServerOptions.SHARDS, 4)
                .with(ServerOptions.FEED_ENABLED, true)); FeedSource source = FeedSource.connect(server.uri())) {
            Sidecar bridge = Bridges.start(Bridges.config(dir, server.uri(), broker.bootstrap(), tag, "", ""));
            int port = bridge.httpPort();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> Bridges.status(port, "/readyz") == 200);
            Writes writes = new Writes(server, 5, 200);
            AtomicBoolean stop = new AtomicBoolean();
            Thread w = new Thread(() -> {
                try {
                    writes.run(2, 1_000_000, 1000, stop);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            w.start();
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> writes.done.get() > 3000);
            long t0 = System.nanoTime();
            broker.stop();
            Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                    .until(() -> Bridges.status(port, "/readyz") == 503);
            long notReadyAfter = (System.nanoTime() - t0) / 1_000_000;
            System.out.println("KafkaBrokerOutageIT: /readyz 503 " + notReadyAfter + " ms into the outage: "
                    + bridge.readiness().reason());
            assertThat(Bridges.status(port, "/healthz")).isEqualTo(200);
            long left = 20_000 - (System.nanoTime() - t0) / 1_000_000;
            if (left > 0) {
                Thread.sleep(left);
            }
            broker.start();
            long t1 = System.nanoTime();
            Awaitility.await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                    .until(() -> Bridges.status(port, "/readyz") == 200);
            System.out.println("KafkaBrokerOutageIT: broker down " + (t1 - t0) / 1_000_000 + " ms; /readyz 200 again "
                    + (System.nanoTime() - t1) / 1_000_000 + " ms after it came back");
            Thread.sleep(2000);
            stop.set(true);
            w.join();
            Expected.awaitCaughtUp(bridge.consumer(), source, Duration.ofSeconds(120));
            assertThat(bridge.stop()).isTrue();
            Map<String, Expected.Item> expected = Expected.of(server.uri(), "user:", "order:", "misc:");
            List<Forwarded.Rec> records = Forwarded.read(broker, Bridges.topics(tag), "read_uncommitted");
            System.out.printf("KafkaBrokerOutageIT: %d writes, %d changes, %d records%n", writes.done.get(),
                    expected.size(), records.size());
            Forwarded.check(expected, records, k -> Bridges.route(tag, k), false);
        } finally {
            broker.start();
        }
    }
}
