package io.kevy.bridge.kafka.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.bridge.kafka.support.ConnectWorkers;
import io.kevy.bridge.kafka.support.KafkaBroker;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.TestServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The connector on two distributed Connect workers: a writer makes 50k changes (SETs numbering each of 2000
 * keys' values) while one worker is stopped (its task moves to the other) and later the connector is paused and
 * resumed. Every change arrives (0 lost) and each key's values arrive in order (at-least-once: a replay may
 * repeat values after a move). {@link KevyConnectExactlyOnceIT} runs it with exactly-once.
 */
class KevyConnectDistributedIT {
    private static final int KEYS = 2000;
    private static final int CHANGES = 50_000;

    @Test
    void everyChangeArrivesInKeyOrderThroughAWorkerStopAndAPause() throws Exception {
        run(false);
    }

    /** The scenario; {@code exactlyOnce}: the workers run with exactly.once.source.support=enabled. */
    static void run(boolean exactlyOnce) throws Exception {
        long t0 = System.nanoTime();
        KafkaBroker broker = KafkaBroker.shared();
        String tag = "connect-dist-" + (exactlyOnce ? "eos" : "alo");
        List<String> topics = List.of(tag + ".user", tag + ".order");
        broker.createTopics(3, topics.toArray(new String[0]));
        Map<String, String> worker = exactlyOnce ? Map.of("exactly.once.source.support", "enabled") : Map.of();
        try (TestServer server = TestServer.start(c -> c.with(ServerOptions.SHARDS, 4)
                .with(ServerOptions.FEED_ENABLED, true));
                ConnectWorkers workers = new ConnectWorkers(broker, tag, worker)) {
            workers.start();
            workers.start();
            Map<String, String> config = new HashMap<>();
            config.put("connector.class", KevySourceConnector.class.getName());
            config.put("tasks.max", "2");
            config.put("kevy.uri", server.uri());
            config.put("prefixes", "user:,order:");
            config.put("topic.routes", "user:=" + tag + ".user,order:=" + tag + ".order");
            config.put("unmatched", "drop");
            config.put("start.from", "earliest");
            if (exactlyOnce) {
                config.put("exactly.once.support", "required");
            }
            workers.putConnector(tag, config);
            workers.awaitState(tag, "RUNNING", 2);
            assertThat(Set.copyOf(workers.taskWorkers(tag))).as("one task per worker").hasSize(2);

            // the writes of each phase happen in its condition: both workers, one worker stopped (its task
            // moving), the connector paused; then it resumes
            KeyedWrites writes = new KeyedWrites(server, KEYS, "user:", "order:");
            writes.run(4, 10, 20_000);
            workers.stop(1);
            writes.run(4, 7, 20_000);
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() ->
                    Set.copyOf(workers.taskWorkers(tag)).size() == 1);
            workers.awaitState(tag, "RUNNING", 2);
            assertThat(workers.rest("PUT", "/connectors/" + tag + "/pause", null).status()).isEqualTo(202);
            workers.awaitState(tag, "PAUSED", 2);
            writes.run(4, 8, 20_000);
            assertThat(writes.rounds() * KEYS).isEqualTo(CHANGES);
            assertThat(workers.rest("PUT", "/connectors/" + tag + "/resume", null).status()).isEqualTo(202);
            workers.awaitState(tag, "RUNNING", 2);

            String isolation = exactlyOnce ? "read_committed" : "read_uncommitted";
            Awaitility.await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).until(() ->
                    distinct(TopicRecords.read(broker, topics, isolation)) >= CHANGES);
            TopicRecords recs = TopicRecords.read(broker, topics, isolation);
            Map<String, List<TopicRecords.Rec>> byKey = recs.byKey();
            int rounds = CHANGES / KEYS;
            long duplicates = 0;
            for (int i = 0; i < KEYS; i++) {
                String key = writes.key(i);
                List<Integer> seqs = new ArrayList<>();
                for (TopicRecords.Rec r : byKey.getOrDefault(key, List.of())) {
                    assertThat(r.topic()).isEqualTo(tag + (key.startsWith("user:") ? ".user" : ".order"));
                    assertThat(r.op()).isEqualTo("set");
                    seqs.add(Integer.parseInt(r.dataValue()));
                }
                // 0 lost: every value; per-key order: first arrivals ascending (a replay after a move repeats a
                // suffix of values the key had already)
                List<Integer> first = new ArrayList<>();
                int max = -1;
                for (int s : seqs) {
                    if (s > max) {
                        assertThat(s).as("key %s: %s", key, seqs).isEqualTo(max + 1);
                        max = s;
                        first.add(s);
                    }
                }
                assertThat(max).as("key %s: last value", key).isEqualTo(rounds - 1);
                duplicates += seqs.size() - first.size();
                if (exactlyOnce) {
                    assertThat(seqs).as("key %s, exactly once", key).isEqualTo(first);
                }
            }
            System.out.printf("KevyConnectDistributedIT (exactly-once = %s): %d changes, %d records, %d duplicates, "
                    + "%.1f s%n", exactlyOnce, CHANGES, recs.records().size(), duplicates,
                    (System.nanoTime() - t0) / 1e9);
            if (exactlyOnce) {
                assertThat(duplicates).isZero();
            }
            assertThat(workers.rest("DELETE", "/connectors/" + tag, null).status()).isEqualTo(204);
        }
    }

    private static long distinct(TopicRecords recs) {
        return recs.records().stream().map(r -> r.key() + "=" + r.dataValue()).distinct().count();
    }
}
