package io.kevy.bridge.kafka;

import io.kevy.feed.client.Cursor;
import io.kevy.feed.client.KevyConnectionException;
import io.kevy.feed.client.KevyException;
import io.kevy.feed.client.SinkException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transactional producer of {@code transactional = true}, owned by one thread. Work items (a batch's records
 * plus the cursors they lead to, resync markers, a cursor store's save) queue up; the thread takes what is
 * queued (group commit: the batches of several shards share one transaction), and in one transaction sends
 * every record and one cursor record per shard ({@link CursorRecords}) to the cursor topic, then commits. Only
 * then do the items' stages complete: a batch's records and its cursor become visible to read_committed readers
 * together, or not at all.
 *
 * <p>Failures: an abortable error aborts the transaction and fails every item of it (retryable: the consumer
 * delivers the batches again); a fatal one (other than fencing) closes the producer and makes a new one, whose
 * {@code initTransactions} aborts whatever the old one left open; {@link ProducerFencedException} (another bridge
 * with the same transactional.id started) fails every item for good and marks the writer fenced.
 *
 * <p>Cursor writes never go back: a shard's cursor is written only when it is the first known or in the same
 * generation further on than the last written one, or when it comes with records or as a rebuild's carried
 * cursor (the feed consumer commits only after the sink completed, so what the cursor store is asked to save can
 * lag what a transaction already wrote). Thread-safe.
 */
final class TransactionalWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionalWriter.class);
    private static final int MAX_GROUP_RECORDS = 50_000;

    /** What one item writes. {@code force}: write the cursors even when not newer (batches and rebuild ends). */
    private record Work(List<ProducerRecord<byte[], byte[]>> records, Map<Integer, Cursor> cursors, int shards,
            boolean force, CompletableFuture<Void> done) {
    }

    private final KafkaSinkSettings settings;
    private final String consumer;
    private final BlockingQueue<Work> queue = new LinkedBlockingQueue<>();
    private final Map<Integer, Cursor> written = new ConcurrentHashMap<>();
    private final CompletableFuture<Void> initialized = new CompletableFuture<>();
    private final Thread thread;
    private final Counter transactions;
    private final Counter aborts;
    private final Timer commit;
    private volatile KafkaProducer<byte[], byte[]> producer;
    private volatile boolean closing;
    private boolean started;
    private volatile String fenced;

    TransactionalWriter(KafkaSinkSettings settings, MeterRegistry registry, String consumer) {
        this.settings = settings;
        this.consumer = consumer;
        this.transactions = Counter.builder("kevy.bridge.kafka.transactions").description("transactions committed")
                .tag("consumer", consumer).tag("sink", "kafka").register(registry);
        this.aborts = Counter.builder("kevy.bridge.kafka.transaction.aborts")
                .description("transactions aborted (their batches are delivered again)").tag("consumer", consumer)
                .tag("sink", "kafka").register(registry);
        this.commit = Timer.builder("kevy.bridge.kafka.transaction").description("from beginTransaction to the "
                + "end of commitTransaction").tag("consumer", consumer).tag("sink", "kafka").register(registry);
        this.thread = new Thread(this::run, "kevy-bridge-kafka-tx");
        this.thread.setDaemon(true);
    }

    /**
     * Starts the producer thread on first use: creating the producer calls initTransactions, which fences any other
     * producer with this transactional.id (a running bridge), so tools that only read never start it.
     */
    private synchronized void ensureStarted() {
        if (!started && !closing) {
            started = true;
            thread.start();
        }
    }

    /** Why the writer is fenced, if it is. */
    Optional<String> fenced() {
        return Optional.ofNullable(fenced);
    }

    /** The producer once initialised (for metrics binding), else null. */
    KafkaProducer<byte[], byte[]> producer() {
        return producer;
    }

    /**
     * Waits until the producer called initTransactions (aborting what a previous run left open, so that
     * read_committed readers of the cursor topic see every committed cursor).
     *
     * @throws KevyConnectionException when that does not happen within {@code timeout} (the consumer retries)
     */
    void awaitInitialized(Duration timeout) {
        ensureStarted();
        try {
            initialized.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KevyConnectionException("interrupted while the Kafka producer initialised", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new SinkException("the Kafka producer could not initialise transactions: " + e.getCause(),
                    e.getCause(), false);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new KevyConnectionException("the Kafka producer did not initialise transactions within "
                    + timeout.toMillis() + " ms (brokers " + settings.producer().get("bootstrap.servers") + ")", e);
        }
    }

    /** Sets the last written cursors (as read back from the cursor topic at start). */
    void written(Map<Integer, Cursor> cursors) {
        written.putAll(cursors);
    }

    /** Cursors written so far, by shard. */
    Map<Integer, Cursor> written() {
        return Map.copyOf(written);
    }

    /** Queues records with the cursors they lead to; the stage completes when the transaction committed. */
    CompletableFuture<Void> submit(List<ProducerRecord<byte[], byte[]>> records, Map<Integer, Cursor> cursors,
            int shards) {
        return enqueue(new Work(records, cursors, shards, true, new CompletableFuture<>()));
    }

    /**
     * Queues the cursors of a cursor store's save; only those further on than the last written are written. The
     * stage completes at once when none is.
     */
    CompletableFuture<Void> saveCursors(Map<Integer, Cursor> cursors, int shards) {
        boolean any = false;
        for (Map.Entry<Integer, Cursor> e : cursors.entrySet()) {
            any |= newer(e.getValue(), written.get(e.getKey()));
        }
        if (!any) {
            return CompletableFuture.completedFuture(null);
        }
        return enqueue(new Work(List.of(), cursors, shards, false, new CompletableFuture<>()));
    }

    /** Queues tombstones for the cursor records of {@code consumer}'s shards 0..shards-1. */
    CompletableFuture<Void> deleteCursors(int shards) {
        List<ProducerRecord<byte[], byte[]>> t = new ArrayList<>();
        for (int i = 0; i < shards; i++) {
            t.add(new ProducerRecord<>(settings.cursorTopic(), CursorRecords.key(consumer, i), null));
        }
        CompletableFuture<Void> f = enqueue(new Work(t, Map.of(), shards, false, new CompletableFuture<>()));
        return f.thenRun(written::clear);
    }

    private CompletableFuture<Void> enqueue(Work w) {
        if (fenced != null) {
            w.done().completeExceptionally(new SinkException(fenced, false));
        } else if (closing) {
            w.done().completeExceptionally(new SinkException("the Kafka sink is closing", true));
        } else {
            queue.add(w);
            ensureStarted();
        }
        return w.done();
    }

    static boolean newer(Cursor c, Cursor last) {
        return last == null || (c.generation() == last.generation() && c.offset() > last.offset());
    }

    private void run() {
        while (producer == null) {
            if (closing) {
                initialized.completeExceptionally(new SinkException("the Kafka sink closed", true));
                failAll(new SinkException("the Kafka sink closed", true), true);
                return;
            }
            try {
                ensureCursorTopic();
                producer = newProducer();
                initialized.complete(null);
            } catch (ProducerFencedException e) {
                fence(e);
                initialized.completeExceptionally(e);
                failAll(new SinkException(fenced, e, false), false);
                return;
            } catch (RuntimeException e) {
                LOG.warn("kafka sink: the transactional producer {} cannot start yet ({}), retrying in 1 s",
                        settings.transactionalId(), e.toString());
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException ie) {
                    return;
                }
            }
        }
        while (!closing || !queue.isEmpty()) {
            Work first;
            try {
                first = queue.poll(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                break;
            }
            if (first == null) {
                continue;
            }
            List<Work> group = new ArrayList<>();
            group.add(first);
            int records = first.records().size();
            while (records < MAX_GROUP_RECORDS && queue.peek() != null) {
                Work w = queue.poll();
                group.add(w);
                records += w.records().size();
            }
            transact(group);
            if (fenced != null) {
                failAll(new SinkException(fenced, false), false);
            }
        }
        failAll(new SinkException("the Kafka sink closed", true), true);
    }

    private void transact(List<Work> group) {
        Map<Integer, Cursor> next = new HashMap<>();
        Map<Integer, Integer> shardCount = new HashMap<>();
        for (Work w : group) {
            for (Map.Entry<Integer, Cursor> e : w.cursors().entrySet()) {
                Cursor last = next.containsKey(e.getKey()) ? next.get(e.getKey()) : written.get(e.getKey());
                if (w.force() || newer(e.getValue(), last)) {
                    next.put(e.getKey(), e.getValue());
                    shardCount.put(e.getKey(), w.shards());
                }
            }
        }
        boolean anyRecords = group.stream().anyMatch(w -> !w.records().isEmpty());
        if (!anyRecords && next.isEmpty()) {
            group.forEach(w -> w.done().complete(null));
            return;
        }
        long t0 = System.nanoTime();
        KafkaProducer<byte[], byte[]> p = producer;
        try {
            p.beginTransaction();
            for (Work w : group) {
                for (ProducerRecord<byte[], byte[]> r : w.records()) {
                    p.send(r);
                }
            }
            for (Map.Entry<Integer, Cursor> e : next.entrySet()) {
                p.send(new ProducerRecord<>(settings.cursorTopic(), CursorRecords.key(consumer, e.getKey()),
                        CursorRecords.value(consumer, shardCount.get(e.getKey()), e.getValue())));
            }
            p.commitTransaction();
            written.putAll(next);
            transactions.increment();
            commit.record(System.nanoTime() - t0, TimeUnit.NANOSECONDS);
            group.forEach(w -> w.done().complete(null));
        } catch (ProducerFencedException e) {
            fence(e);
            group.forEach(w -> w.done().completeExceptionally(new SinkException(fenced, e, false)));
        } catch (RuntimeException e) {
            aborts.increment();
            LOG.warn("kafka sink: transaction of {} item(s) failed, its batches will be delivered again: {}",
                    group.size(), e.toString());
            recover(e);
            group.forEach(w -> w.done().completeExceptionally(new SinkException("Kafka transaction failed: " + e,
                    e, true)));
        }
    }

    /** After a failed transaction: abort it, or replace the producer when it cannot abort (a fatal state). */
    private void recover(RuntimeException e) {
        if (!(e instanceof AuthorizationException || e instanceof UnsupportedVersionException)) {
            try {
                producer.abortTransaction();
                return;
            } catch (ProducerFencedException f) {
                fence(f);
                return;
            } catch (RuntimeException abortFailed) {
                LOG.warn("kafka sink: abortTransaction failed ({}), replacing the producer", abortFailed.toString());
            }
        }
        replaceProducer();
    }

    private void replaceProducer() {
        try {
            producer.close(Duration.ZERO);
        } catch (RuntimeException ignored) {
            // replaced anyway
        }
        while (!closing) {
            try {
                producer = newProducer();
                return;
            } catch (ProducerFencedException f) {
                fence(f);
                return;
            } catch (RuntimeException x) {
                LOG.warn("kafka sink: a new transactional producer failed to initialise ({}), retrying in 1 s",
                        x.toString());
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void fence(RuntimeException e) {
        if (fenced == null) {
            fenced = "another bridge with transactional.id " + settings.transactionalId() + " took over (fenced): "
                    + e.getMessage();
            LOG.error("kafka sink: {}", fenced);
        }
    }

    private KafkaProducer<byte[], byte[]> newProducer() {
        KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(settings.producer());
        try {
            p.initTransactions();
            return p;
        } catch (RuntimeException e) {
            p.close(Duration.ZERO);
            throw e;
        }
    }

    /** Creates the cursor topic (1 partition, compacted) when it does not exist. */
    private void ensureCursorTopic() {
        Map<String, Object> c = new HashMap<>();
        for (Map.Entry<String, Object> e : settings.producer().entrySet()) {
            if (org.apache.kafka.clients.admin.AdminClientConfig.configNames().contains(e.getKey())
                    && !e.getKey().equals(AdminClientConfig.CLIENT_ID_CONFIG)) {
                c.put(e.getKey(), e.getValue());
            }
        }
        try (Admin admin = Admin.create(c)) {
            if (admin.listTopics().names().get(60, TimeUnit.SECONDS).contains(settings.cursorTopic())) {
                return;
            }
            NewTopic t = new NewTopic(settings.cursorTopic(), Optional.of(1),
                    settings.cursorReplication() < 0 ? Optional.empty() : Optional.of(settings.cursorReplication()))
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
            admin.createTopics(List.of(t)).all().get(60, TimeUnit.SECONDS);
            LOG.info("kafka sink: created the compacted cursor topic {}", settings.cursorTopic());
        } catch (java.util.concurrent.ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new KevyException("cannot create the cursor topic " + settings.cursorTopic() + ": "
                        + e.getCause(), e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KevyException("interrupted");
        } catch (java.util.concurrent.TimeoutException e) {
            throw new KevyConnectionException("Kafka did not answer within 60 s (listing topics)", e);
        }
    }

    private void failAll(Exception e, boolean retryable) {
        Work w;
        while ((w = queue.poll()) != null) {
            w.done().completeExceptionally(e instanceof SinkException ? e : new SinkException(e.toString(), e,
                    retryable));
        }
    }

    /** Commits what is queued, then closes the producer (waits up to {@code timeout}). */
    void close(Duration timeout) {
        synchronized (this) {
            closing = true;
            if (!started) {
                return;
            }
        }
        try {
            thread.join(timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        thread.interrupt();
        KafkaProducer<byte[], byte[]> p = producer;
        if (p != null) {
            p.close(thread.isAlive() ? Duration.ZERO : timeout);
        }
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(10));
    }
}
