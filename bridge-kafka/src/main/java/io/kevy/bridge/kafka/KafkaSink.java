package io.kevy.bridge.kafka;

import io.kevy.feed.client.Batch;
import io.kevy.feed.client.Cursor;
import io.kevy.feed.client.CursorStore;
import io.kevy.feed.client.KevyException;
import io.kevy.feed.client.RebuildResult;
import io.kevy.feed.client.RebuildScope;
import io.kevy.feed.client.SinkException;
import io.kevy.feed.client.envelope.ChangeEnvelopes;
import io.kevy.feed.sidecar.Readiness;
import io.kevy.feed.sidecar.SidecarSink;
import io.kevy.feed.sidecar.SinkContext;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forwards a kevy change feed to Kafka ({@code [sink.kafka]}, options in {@link KafkaSinkProvider}).
 *
 * <ul>
 *   <li>Routing: each key to the topic of its longest matching route prefix, else to the default topic
 *       ({@code kevy.changes}) or dropped ({@code unmatched = "drop"}). Record key = the kevy key, so one key's
 *       changes stay in one partition, in order; multi-key frames (MSET, multi-key DEL, RENAME) become one record
 *       per key, in frame order; value = the change envelope (CloudEvents JSON); headers {@code kevy-shard},
 *       {@code kevy-generation}, {@code kevy-offset}, {@code kevy-op}, {@code kevy-id}.</li>
 *   <li>At-least-once (default): an idempotent producer ({@code enable.idempotence = true}, {@code acks = all});
 *       a batch completes only when every record is acknowledged; one failed send fails the batch, which the
 *       consumer delivers again (its cursor had not moved).</li>
 *   <li>Exactly-once into Kafka ({@code transactional = true}): a {@link TransactionalWriter} writes the batch's
 *       records and its new cursor (to the compacted cursor topic) in one transaction; the consumer's cursor store
 *       is that topic ({@link #cursorStore()}), read back with read_committed at start.</li>
 *   <li>Rebuilds: an {@code io.kevy.resync.begin} record per rebuilt shard to every partition of every topic the
 *       bridge writes, the snapshot records (op {@code snapshot}, routed like changes), then
 *       {@code io.kevy.resync.end} (in transactional mode, in the transaction that stores the carried cursors).</li>
 * </ul>
 * Meters: {@code kevy.bridge.kafka.records} (tag topic), {@code .dropped}, {@code .send.errors},
 * {@code .batch} (timer: from handing the records to the producer to the last acknowledgement or commit),
 * {@code .transactions}, {@code .transaction.aborts}, and the producer's own metrics ({@code kafka.producer.*}).
 * Thread-safe.
 */
public final class KafkaSink implements SidecarSink {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaSink.class);

    private final KafkaSinkSettings settings;
    private final SinkContext ctx;
    private final RecordMapper mapper;
    private final KafkaProducer<byte[], byte[]> producer;
    private final TransactionalWriter writer;
    private final KafkaCursorStore store;
    private final Map<String, Integer> partitions = new ConcurrentHashMap<>();
    private final Map<String, Counter> records = new ConcurrentHashMap<>();
    private final AtomicReference<KafkaClientMetrics> clientMetrics = new AtomicReference<>();
    private final Counter dropped;
    private final Counter errors;
    private final Timer batchTimer;
    private volatile int shards = -1;

    KafkaSink(KafkaSinkSettings settings, SinkContext ctx) {
        this.settings = settings;
        this.ctx = ctx;
        MeterRegistry r = ctx.registry();
        this.dropped = Counter.builder("kevy.bridge.kafka.dropped").description("keys no route took (unmatched = "
                + "drop)").tag("consumer", ctx.consumer()).tag("sink", "kafka").register(r);
        this.errors = Counter.builder("kevy.bridge.kafka.send.errors").description("records whose send failed")
                .tag("consumer", ctx.consumer()).tag("sink", "kafka").register(r);
        this.batchTimer = Timer.builder("kevy.bridge.kafka.batch").description("from the first send of a batch to "
                + "its last acknowledgement (or its transaction's commit)").tag("consumer", ctx.consumer())
                .tag("sink", "kafka").register(r);
        ChangeEnvelopes envelopes = ChangeEnvelopes.forSource(ctx.authority(), ctx.clock());
        this.mapper = new RecordMapper(settings.routing(), envelopes, this::partitionCount);
        if (settings.transactional()) {
            this.producer = null;
            this.writer = new TransactionalWriter(settings, r, ctx.consumer());
            this.store = new KafkaCursorStore(writer, settings, false);
        } else {
            this.producer = new KafkaProducer<>(settings.producer());
            this.writer = null;
            this.store = null;
            bindClientMetrics(producer);
        }
    }

    private void bindClientMetrics(KafkaProducer<byte[], byte[]> p) {
        KafkaClientMetrics m = new KafkaClientMetrics(p);
        m.bindTo(ctx.registry());
        KafkaClientMetrics old = clientMetrics.getAndSet(m);
        if (old != null) {
            old.close();
        }
    }

    private KafkaProducer<byte[], byte[]> metadataProducer() {
        if (producer != null) {
            return producer;
        }
        writer.awaitInitialized(Duration.ofSeconds(60));
        KafkaProducer<byte[], byte[]> p = writer.producer();
        if (clientMetrics.get() == null) {
            bindClientMetrics(p);
        }
        return p;
    }

    private int partitionCount(String topic) {
        return partitions.computeIfAbsent(topic, t -> {
            try {
                return metadataProducer().partitionsFor(t).size();
            } catch (RuntimeException e) {
                throw new SinkException("no metadata for topic " + t + ": " + e, e, true);
            }
        });
    }

    /** The server's shard count (for the cursor records), asked once. */
    private int shards() {
        int n = shards;
        if (n < 0) {
            try {
                n = ctx.source().shards().toCompletableFuture().get(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SinkException("interrupted", e, true);
            } catch (Exception e) {
                throw new SinkException("FEED.SHARDS failed: " + e, e, true);
            }
            shards = n;
        }
        return n;
    }

    @Override
    public CompletionStage<Void> deliver(Batch<byte[], byte[]> batch) {
        try {
            long[] drop = new long[1];
            List<ProducerRecord<byte[], byte[]>> recs = mapper.records(batch, drop);
            dropped.increment(drop[0]);
            Map<Integer, Cursor> cursor = batch.kind() == Batch.Kind.CHANGES ? Map.of(batch.shard(), batch.next())
                    : Map.of();
            return write(recs, cursor, cursor.isEmpty() ? 0 : shards());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public CompletionStage<Void> beginRebuild(RebuildScope scope) {
        try {
            shards = scope.shardCount();
            return write(mapper.begin(scope), Map.of(), 0);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public CompletionStage<Void> endRebuild(RebuildScope scope, RebuildResult result) {
        try {
            return write(mapper.end(scope, result), scope.carried(), scope.shardCount());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private CompletionStage<Void> write(List<ProducerRecord<byte[], byte[]>> recs, Map<Integer, Cursor> cursors,
            int shardCount) {
        long t0 = System.nanoTime();
        CompletableFuture<Void> done = writer != null ? writer.submit(recs, cursors, shardCount) : send(recs);
        return done.whenComplete((v, e) -> {
            if (e == null) {
                batchTimer.record(System.nanoTime() - t0, TimeUnit.NANOSECONDS);
                for (ProducerRecord<byte[], byte[]> r : recs) {
                    records.computeIfAbsent(r.topic(), t -> Counter.builder("kevy.bridge.kafka.records")
                            .description("records acknowledged (committed in transactional mode)")
                            .tag("consumer", ctx.consumer()).tag("sink", "kafka").tag("topic", t)
                            .register(ctx.registry())).increment();
                }
            }
        });
    }

    /** Sends every record; completes when all are acknowledged, exceptionally with the first failure. */
    private CompletableFuture<Void> send(List<ProducerRecord<byte[], byte[]>> recs) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (recs.isEmpty()) {
            done.complete(null);
            return done;
        }
        AtomicInteger pending = new AtomicInteger(recs.size());
        AtomicReference<Exception> first = new AtomicReference<>();
        Runnable one = () -> {
            if (pending.decrementAndGet() == 0) {
                Exception e = first.get();
                if (e == null) {
                    done.complete(null);
                } else {
                    done.completeExceptionally(new SinkException("Kafka send failed: " + e, e, retryable(e)));
                }
            }
        };
        for (int i = 0; i < recs.size(); i++) {
            try {
                producer.send(recs.get(i), (md, e) -> {
                    if (e != null) {
                        errors.increment();
                        first.compareAndSet(null, e);
                    }
                    one.run();
                });
            } catch (RuntimeException e) {
                errors.increment(recs.size() - i);
                first.compareAndSet(null, e);
                for (int j = i; j < recs.size(); j++) {
                    one.run();
                }
                break;
            }
        }
        return done;
    }

    /** Whether delivering the same records again may succeed. */
    static boolean retryable(Throwable e) {
        return !(e instanceof RecordTooLargeException || e instanceof RecordBatchTooLargeException
                || e instanceof InvalidTopicException || e instanceof AuthorizationException
                || e instanceof SerializationException);
    }

    @Override
    public Readiness readiness() {
        if (writer != null && writer.fenced().isPresent()) {
            return Readiness.notReady(writer.fenced().get());
        }
        return Readiness.READY;
    }

    @Override
    public Optional<CursorStore> cursorStore() {
        return Optional.ofNullable(store);
    }

    @Override
    public void close() {
        try {
            if (writer != null) {
                writer.close(Duration.ofSeconds(10));
            } else {
                producer.close(Duration.ofSeconds(10));
            }
        } catch (RuntimeException e) {
            LOG.warn("kafka sink: closing the producer failed: {}", e.toString());
            throw new KevyException("closing the Kafka producer failed: " + e, e);
        } finally {
            KafkaClientMetrics m = clientMetrics.getAndSet(null);
            if (m != null) {
                m.close();
            }
        }
    }

    @Override
    public String toString() {
        return "KafkaSink[" + settings.producer().get("bootstrap.servers") + ", topics " + settings.routing().topics()
                + (settings.transactional() ? ", transactional.id " + settings.transactionalId() : "") + "]";
    }
}
