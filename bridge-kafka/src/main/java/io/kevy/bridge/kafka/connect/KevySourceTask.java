package io.kevy.bridge.kafka.connect;

import io.kevy.feed.client.ConsumerFailedException;
import io.kevy.feed.client.Cursor;
import io.kevy.feed.client.FeedConsumer;
import io.kevy.feed.client.FeedSource;
import io.kevy.feed.client.ScanRebuild;
import io.kevy.feed.client.StartFrom;
import io.kevy.feed.client.envelope.ChangeEnvelopes;
import io.lettuce.core.codec.ByteArrayCodec;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the feed of the shards the connector assigned ({@value KevySourceConnectorConfig#TASK_SHARDS}) with one
 * {@link FeedConsumer} and hands its batches to Connect ({@link HandOff}). The consumer's cursor store is
 * Connect's offsets ({@link ConnectCursorStore}), so a restarted or moved task resumes where Connect's
 * committed offsets are; FEEDRESYNC and new generations run the consumer's SCAN rebuild
 * ({@link ScanRebuild#sweeping}: the keys this task wrote are swept, vanished ones get tombstones).
 *
 * <p>Connect calls {@link #poll()} and {@link #commitRecord} from its task thread and producer threads, and
 * {@link #stop()} from another thread; all are safe to call concurrently.
 */
public final class KevySourceTask extends SourceTask {
    private static final Logger LOG = LoggerFactory.getLogger(KevySourceTask.class);

    private volatile FeedConsumer<byte[], byte[]> consumer;
    private volatile HandOff handOff;
    private FeedSource source;
    private long pollTimeoutMs;
    private int maxPollRecords;
    private TaskMetrics metrics;

    @Override
    public String version() {
        return KevySourceConnector.VERSION;
    }

    @Override
    public void start(Map<String, String> props) {
        KevySourceConnectorConfig config = new KevySourceConnectorConfig(props);
        List<Integer> shards = new ArrayList<>();
        for (String s : props.getOrDefault(KevySourceConnectorConfig.TASK_SHARDS, "").split(",")) {
            if (!s.isBlank()) {
                shards.add(Integer.parseInt(s.trim()));
            }
        }
        if (shards.isEmpty()) {
            throw new ConnectException("the task has no shards (" + KevySourceConnectorConfig.TASK_SHARDS
                    + " is empty): the connector plans tasks, do not start them alone");
        }
        int planned = Integer.parseInt(props.getOrDefault(KevySourceConnectorConfig.TASK_SHARD_COUNT, "0"));
        pollTimeoutMs = config.getLong(KevySourceConnectorConfig.POLL_TIMEOUT_MS);
        maxPollRecords = config.getInt(KevySourceConnectorConfig.MAX_POLL_RECORDS);
        String name = consumerName(props.getOrDefault("name", "kevy"),
                props.getOrDefault(KevySourceConnectorConfig.TASK_ID, "0"));
        source = FeedSource.connect(config.redisUri());
        Set<ByteBuffer> held = config.tombstones() ? ConcurrentHashMap.newKeySet() : null;
        ChangeRecords mapper = new ChangeRecords(config.routing(), ChangeEnvelopes.forSource(source.authority()),
                config.tombstones(), planned, held);
        handOff = new HandOff(mapper, planned);
        FeedConsumer.Builder<byte[], byte[]> b = FeedConsumer.builder(ByteArrayCodec.INSTANCE)
                .source(source)
                .name(name)
                .assign(shards)
                .cursorStore(new ConnectCursorStore(context.offsetStorageReader(), shards, () -> planned,
                        config.startFrom() == StartFrom.EARLIEST ? this::earliest : null))
                .sink(handOff)
                .startFrom(config.startFrom())
                .batchSize(config.getInt(KevySourceConnectorConfig.BATCH_SIZE))
                .block(Duration.ofMillis(config.getLong(KevySourceConnectorConfig.BLOCK_MS)))
                .retryBackoff(Duration.ofMillis(config.getLong(KevySourceConnectorConfig.RETRY_BACKOFF_MS)),
                        Duration.ofMillis(config.getLong(KevySourceConnectorConfig.RETRY_BACKOFF_MAX_MS)))
                // a paused connector leaves batches unpolled for as long as it is paused: never time them out
                .deliveryTimeout(Duration.ofDays(365));
        metrics = new TaskMetrics(context.pluginMetrics(), handOff);
        b.listener(metrics);
        if (held != null) {
            b.onRebuild(ScanRebuild.<byte[], byte[]>sweeping(() -> {
                List<byte[]> keys = new ArrayList<>(held.size());
                for (ByteBuffer k : held) {
                    keys.add(k.array());
                }
                return keys;
            }));
        }
        String[] prefixes = config.prefixes().toArray(new String[0]);
        if (prefixes.length > 0) {
            b.prefixes(prefixes);
        }
        consumer = b.build();
        metrics.bind(consumer);
        consumer.start();
        LOG.info("kevy source task {} reading shard(s) {} of {} from {}", name, shards, planned, source.authority());
    }

    /** The first cursor of {@code shard}'s backlog now: its FEED.TAIL with offset 0 (as StartFrom.EARLIEST). */
    private Cursor earliest(int shard) {
        try {
            return source.tail(shard).toCompletableFuture().get(30, TimeUnit.SECONDS).withOffset(0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("interrupted while reading FEED.TAIL of shard " + shard, e);
        } catch (Exception e) {
            throw new ConnectException("FEED.TAIL of shard " + shard + " failed: " + e, e);
        }
    }

    /** {@code kevy-connect.<connector>.<task>} within the consumer-name alphabet. */
    static String consumerName(String connector, String task) {
        String n = ("kevy-connect." + connector + "." + task).replaceAll("[^A-Za-z0-9._:@-]", "_");
        return n.length() > 200 ? n.substring(0, 200) : n;
    }

    @Override
    public List<SourceRecord> poll() throws InterruptedException {
        FeedConsumer<byte[], byte[]> c = consumer;
        HandOff h = handOff;
        if (c == null || h == null) {
            return null;
        }
        List<SourceRecord> out = h.take(pollTimeoutMs, maxPollRecords);
        if (out == null) {
            var failure = c.failure();
            if (failure.isPresent()) {
                ConsumerFailedException f = failure.get();
                throw new ConnectException("the kevy feed consumer failed: " + f.getMessage(), f);
            }
        }
        return out;
    }

    @Override
    public void commitRecord(SourceRecord record, RecordMetadata metadata) {
        HandOff h = handOff;
        if (h != null) {
            h.committed(record);
        }
    }

    @Override
    public void stop() {
        FeedConsumer<byte[], byte[]> c = consumer;
        if (c != null) {
            // abort, not close: batches waiting for Connect's confirmation will not get it any more, and Connect
            // resumes from its own committed offsets
            c.abort();
            try {
                c.terminated().toCompletableFuture().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                LOG.warn("kevy source task {}: the consumer did not stop in 10 s", c.name());
            }
        }
        if (metrics != null) {
            metrics.close();
        }
        if (source != null) {
            source.close();
        }
    }
}
