package io.kevy.bridge.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.bridge.kafka.support.Bridges;
import io.kevy.bridge.kafka.support.Expected;
import io.kevy.bridge.kafka.support.KafkaBroker;
import io.kevy.feed.client.Batch;
import io.kevy.feed.client.Change;
import io.kevy.feed.client.FeedConsumer;
import io.kevy.feed.client.FeedSource;
import io.kevy.config.OptionValues;
import io.kevy.feed.sidecar.Sidecar;
import io.kevy.feed.sidecar.SidecarOptions;
import io.kevy.feed.sidecar.SidecarSink;
import io.kevy.feed.sidecar.SinkContext;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.TestServer;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Evidence figures of issue 7, printed by every run: records/s forwarded from a full backlog (100,000 writes made
 * before the bridge starts, 4 shards, batch 4096), and the write-to-Kafka-ack latency at a steady 5,000 writes/s
 * (from kevy's reply to the SET reaching the writer to the broker acknowledging the SET's record; p50/p99 over
 * 50,000 writes, one writer with at most 256 writes in flight). In-process kevy,
 * bridge and broker on 2 shared cores: the figures are a floor, not a benchmark.
 */
class KafkaBridgeEvidenceIT {
    @TempDir
    Path dir;

    /** The 1-minute load average (the build machine is shared: figures mean little when it is high). */
    static String loadAverage() {
        try {
            return java.nio.file.Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (java.io.IOException e) {
            return "?";
        }
    }

    private static TestServer server() {
        return TestServer.start(c -> c.with(ServerOptions.SHARDS, 4).with(ServerOptions.FEED_ENABLED, true));
    }

    @Test
    void recordsPerSecondFromAFullBacklog() throws Exception {
        KafkaBroker broker = KafkaBroker.shared();
        String tag = "backlog";
        broker.createTopics(3, Bridges.topics(tag).toArray(new String[0]));
        int writes = 100_000;
        try (TestServer server = server(); FeedSource source = FeedSource.connect(server.uri())) {
            try (StatefulRedisConnection<String, String> c = server.client().connect()) {
                List<RedisFuture<String>> fs = new ArrayList<>();
                for (int i = 0; i < writes; i++) {
                    fs.add(c.async().set((i % 2 == 0 ? "user:" : "order:") + (i % 20_000), "value-" + i));
                    if (fs.size() == 1000) {
                        for (RedisFuture<String> f : fs) {
                            f.get();
                        }
                        fs.clear();
                    }
                }
                for (RedisFuture<String> f : fs) {
                    f.get();
                }
            }
            Path cfg = Bridges.config(dir, server.uri(), broker.bootstrap(), tag,
                    "start_from = \"earliest\"\nbatch_size = 4096\n", "");
            long t0 = System.nanoTime();
            Sidecar bridge = Bridges.start(cfg);
            Expected.awaitCaughtUp(bridge.consumer(), source, Duration.ofSeconds(180));
            double seconds = (System.nanoTime() - t0) / 1e9;
            double records = bridge.registry().find("kevy.bridge.kafka.records").counters().stream()
                    .mapToDouble(x -> x.count()).sum();
            assertThat(bridge.stop()).isTrue();
            System.out.printf("KafkaBridgeEvidenceIT: forwarded %.0f records from a full backlog in %.2f s: %.0f "
                    + "records/s (4 shards, batch 4096, lz4, acks=all; load average %s)%n", records, seconds, records / seconds,
                    loadAverage());
            assertThat(records).isEqualTo(writes);
        }
    }

    @Test
    void writeToKafkaAckLatencyAtFiveThousandWritesPerSecond() throws Exception {
        KafkaBroker broker = KafkaBroker.shared();
        broker.createTopics(3, "kevy.latency");
        int rate = 5000;
        int total = 50_000;
        long[] sent = new long[total];
        long[] acked = new long[total];
        Histogram fromSend = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
        long[] inKafka = new long[total];
        Histogram h = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
        try (TestServer server = server(); FeedSource source = FeedSource.connect(server.uri())) {
            KafkaSinkProvider provider = new KafkaSinkProvider();
            List<io.kevy.config.Option<?>> opts = new ArrayList<>(SidecarOptions.ALL);
            opts.addAll(provider.options());
            OptionValues values = OptionValues.defaults(opts)
                    .with(KafkaSinkProvider.BOOTSTRAP_SERVERS, broker.bootstrap())
                    .with(KafkaSinkProvider.TOPIC, "kevy.latency");
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            SidecarSink kafka = provider.open(new SinkContext(values, "latency", List.of("lat:"), source, meters,
                    Clock.systemUTC()));
            SidecarSink timed = new SidecarSink() {
                @Override
                public CompletionStage<Void> deliver(Batch<byte[], byte[]> batch) {
                    return kafka.deliver(batch).thenRun(() -> {
                        long now = System.nanoTime();
                        for (Change<byte[], byte[]> c : batch) {
                            inKafka[Integer.parseInt(new String(c.value(), StandardCharsets.US_ASCII))] = now;
                        }
                    });
                }

                @Override
                public void close() throws Exception {
                    kafka.close();
                }
            };
            FeedConsumer<byte[], byte[]> consumer = FeedConsumer.builder(ByteArrayCodec.INSTANCE).source(source)
                    .name("latency").prefixes("lat:").sink(timed).build();
            consumer.start().toCompletableFuture().get(60, TimeUnit.SECONDS);
            // warm the producer (metadata, connections) before measuring
            try (StatefulRedisConnection<String, String> c = server.client().connect()) {
                c.sync().set("warmup", "x");
                long t0 = System.nanoTime();
                List<RedisFuture<String>> fs = new ArrayList<>(total);
                for (int i = 0; i < total; i++) {
                    long due = t0 + (long) i * 1_000_000_000L / rate;
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                    if (i >= 256) {
                        // at most 256 writes in flight: a bounded client queue, so the figure is the bridge's
                        fs.get(i - 256).get(30, TimeUnit.SECONDS);
                    }
                    int n = i;
                    sent[i] = System.nanoTime();
                    RedisFuture<String> f = c.async().set("lat:" + (i % 1000), Integer.toString(i));
                    f.thenRun(() -> acked[n] = System.nanoTime());
                    fs.add(f);
                }
                for (RedisFuture<String> f : fs) {
                    f.get();
                }
                double achieved = total / ((System.nanoTime() - t0) / 1e9);
                Expected.awaitCaughtUp(consumer, source, Duration.ofSeconds(60));
                consumer.close();
                for (int i = 0; i < total; i++) {
                    // the feed may hand a change to Kafka before the writer has read kevy's reply: 0 then
                    h.recordValue(Math.max(0, (inKafka[i] - acked[i]) / 1000));
                    fromSend.recordValue(Math.max(0, (inKafka[i] - sent[i]) / 1000));
                }
                synchronized (h) {
                    System.out.printf("KafkaBridgeEvidenceIT: write-to-Kafka-ack latency at %.0f writes/s over %d "
                            + "writes, from kevy's reply: p50 %.2f ms, p99 %.2f ms, max %.2f ms; from sending the write: "
                            + "p50 %.2f ms, p99 %.2f ms (load average %s)%n", achieved, h.getTotalCount(),
                            h.getValueAtPercentile(50) / 1000.0, h.getValueAtPercentile(99) / 1000.0,
                            h.getMaxValue() / 1000.0, fromSend.getValueAtPercentile(50) / 1000.0,
                            fromSend.getValueAtPercentile(99) / 1000.0, loadAverage());
                    io.micrometer.core.instrument.Timer batches = meters.get("kevy.bridge.kafka.batch").timer();
                    System.out.printf("KafkaBridgeEvidenceIT: %d Kafka batches, mean %.2f ms, max %.2f ms from the first "
                            + "send to the last ack%n", batches.count(), batches.mean(TimeUnit.MILLISECONDS),
                            batches.max(TimeUnit.MILLISECONDS));
                    assertThat(h.getTotalCount()).isEqualTo(total);
                }
            }
        }
    }
}
