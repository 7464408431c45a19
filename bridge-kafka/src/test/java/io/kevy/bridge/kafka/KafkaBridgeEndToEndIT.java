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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 7, end to end: kevy-server (4 shards) → bridge → the in-process KRaft broker, 50,000 mixed writes from 4
 * writers; a consumer reads every topic back: each change id is there at least once, in the topic of its key's
 * route, with the kevy key as record key and the kevy-* headers of its envelope; per key the records follow the
 * feed's offsets; keys outside the prefixes are not forwarded.
 */
class KafkaBridgeEndToEndIT {
    @TempDir
    Path dir;

    @Test
    void fiftyThousandMixedWritesArriveRoutedOrderedAndWithHeaders() throws Exception {
        KafkaBroker broker = KafkaBroker.shared();
        try (TestServer server = TestServer.start(c -> c.with(ServerOptions.SHARDS, 4)
                .with(ServerOptions.FEED_ENABLED, true)); FeedSource source = FeedSource.connect(server.uri())) {
            String tag = "e2e";
            Sidecar bridge = Bridges.start(Bridges.config(dir, server.uri(), broker.bootstrap(), tag, "", ""));
            try {
                bridge.consumer().start();
            } catch (IllegalStateException started) {
                // Sidecar.start started it
            }
            long seed = System.nanoTime();
            System.out.println("KafkaBridgeEndToEndIT seed " + seed);
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> bridge.readiness().ready());
            new Writes(server, seed, 500).run(4, 50_000);
            Expected.awaitCaughtUp(bridge.consumer(), source, Duration.ofSeconds(120));
            Map<String, Expected.Item> expected = Expected.of(server.uri(), "user:", "order:", "misc:");
            List<Forwarded.Rec> records = Forwarded.read(broker, Bridges.topics(tag), "read_uncommitted");
            System.out.printf("KafkaBridgeEndToEndIT: %d expected per-key changes, %d records in %s%n",
                    expected.size(), records.size(), Bridges.topics(tag));
            assertThat(expected.size()).isGreaterThan(40_000);
            Forwarded.check(expected, records, key -> Bridges.route(tag, key), false);
            assertThat(records).noneMatch(r -> r.key() != null && r.key().startsWith("other:"));
            assertThat(records.stream().map(Forwarded.Rec::topic).distinct()).containsExactlyInAnyOrderElementsOf(
                    Bridges.topics(tag));
            assertThat(bridge.registry().scrape()).contains("kevy_bridge_kafka_records_total",
                    "kafka_producer_record_send_total");
            assertThat(bridge.stop()).isTrue();
        }
    }
}
