package io.kevy.bridge.kafka;

import io.kevy.feed.client.Cursor;
import io.kevy.feed.client.CursorStore;
import io.kevy.feed.client.KevyException;
import io.kevy.feed.client.KevyTimeoutException;
import io.kevy.feed.client.StoredCursors;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The cursor store of {@code transactional = true}: the cursors live in the compacted cursor topic, written by
 * the {@link TransactionalWriter} in the same transactions as the records they cover. {@link #load} first waits
 * for the writer's {@code initTransactions} (which aborts a transaction a killed bridge left open), then reads
 * the topic from the beginning with {@code isolation.level = read_committed}; {@link #save} writes only cursors
 * further on than the last written (the consumer's commits after a transaction are no-ops).
 * Thread-safe.
 */
final class KafkaCursorStore implements CursorStore {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final TransactionalWriter writer;
    private final KafkaSinkSettings settings;
    private final boolean admin;
    private int knownShards;

    /**
     * {@code admin}: a tool's store ({@code kevy cursor}): it owns the writer and loads without initialising the
     * producer (a read does not fence a running bridge; it may miss cursors of a transaction a killed bridge left
     * open, until the broker aborts it after transaction_timeout_ms).
     */
    KafkaCursorStore(TransactionalWriter writer, KafkaSinkSettings settings, boolean admin) {
        this.writer = writer;
        this.settings = settings;
        this.admin = admin;
    }

    @Override
    public Optional<StoredCursors> load(String consumer) {
        if (!admin) {
            writer.awaitInitialized(TIMEOUT);
        }
        CursorRecords.Folder folder = read(consumer);
        writer.written(folder.cursors());
        Optional<StoredCursors> s = folder.stored();
        synchronized (this) {
            knownShards = Math.max(knownShards, folder.cursors().keySet().stream().mapToInt(i -> i + 1).max().orElse(0));
        }
        return s;
    }

    private CursorRecords.Folder read(String consumer) {
        Map<String, Object> c = new HashMap<>();
        for (Map.Entry<String, Object> e : settings.producer().entrySet()) {
            if (ConsumerConfig.configNames().contains(e.getKey()) && !e.getKey().equals(ConsumerConfig.CLIENT_ID_CONFIG)
                    && !e.getKey().endsWith("serializer")) {
                c.put(e.getKey(), e.getValue());
            }
        }
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        CursorRecords.Folder folder = new CursorRecords.Folder(consumer);
        try (KafkaConsumer<byte[], byte[]> kc = new KafkaConsumer<>(c)) {
            List<TopicPartition> parts = new ArrayList<>();
            kc.partitionsFor(settings.cursorTopic(), TIMEOUT).forEach(p -> parts.add(new TopicPartition(p.topic(),
                    p.partition())));
            kc.assign(parts);
            kc.seekToBeginning(parts);
            Map<TopicPartition, Long> end = kc.endOffsets(parts, TIMEOUT);
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (parts.stream().anyMatch(p -> kc.position(p, TIMEOUT) < end.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new KevyTimeoutException("reading the cursor topic " + settings.cursorTopic()
                            + " did not reach its end " + end + " within " + TIMEOUT.toSeconds() + " s");
                }
                for (ConsumerRecord<byte[], byte[]> r : kc.poll(Duration.ofMillis(200))) {
                    folder.add(r.key(), r.value(), r.timestamp());
                }
            }
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            throw new KevyTimeoutException("reading the cursor topic " + settings.cursorTopic() + ": " + e, e);
        }
        return folder;
    }

    @Override
    public void save(StoredCursors cursors) {
        Map<Integer, Cursor> m = new HashMap<>();
        cursors.cursors().forEach(c -> m.put(c.shard(), c));
        synchronized (this) {
            knownShards = Math.max(knownShards, cursors.shards());
        }
        await(writer.saveCursors(m, cursors.shards()), "storing the cursors");
    }

    @Override
    public void delete(String consumer) {
        writer.awaitInitialized(TIMEOUT);
        CursorRecords.Folder folder = read(consumer);
        int shards = folder.cursors().keySet().stream().mapToInt(i -> i + 1).max().orElse(0);
        synchronized (this) {
            shards = Math.max(shards, knownShards);
        }
        if (shards > 0) {
            await(writer.deleteCursors(shards), "removing the cursors");
        }
    }

    private static void await(java.util.concurrent.CompletableFuture<Void> f, String what) {
        try {
            f.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KevyException(what + ": interrupted", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof KevyException k ? k : new KevyException(what + ": " + e.getCause(),
                    e.getCause());
        } catch (TimeoutException e) {
            throw new KevyTimeoutException(what + ": no Kafka commit within " + TIMEOUT.toSeconds() + " s", e);
        }
    }

    @Override
    public void close() {
        if (admin) {
            writer.close();
        }
    }

    @Override
    public String toString() {
        return "Kafka topic " + settings.cursorTopic() + " (transactional.id " + settings.transactionalId() + ")";
    }
}
