package io.kevy.bridge.kafka.connect;

import io.kevy.feed.client.Batch;
import io.kevy.feed.client.Cursor;
import io.kevy.feed.client.RebuildResult;
import io.kevy.feed.client.RebuildScope;
import io.kevy.feed.client.Sink;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * The bounded hand-off between the push-based {@link io.kevy.feed.client.FeedConsumer} and Connect's pull-based
 * {@link org.apache.kafka.connect.source.SourceTask#poll()}: {@link #deliver} turns a batch into records on the
 * shard's worker thread and queues them; {@link #take} gives queued batches to poll(); the batch's stage
 * completes when Connect confirmed every one of its records ({@link #committed}: the task's commitRecord, after
 * the broker acknowledged the record or, with exactly-once, after its transaction committed). Since the consumer
 * delivers one batch per shard at a time and waits for that stage, the queue holds at most one batch per
 * assigned shard (plus one of a rebuild): that is its bound, and the consumer's cursor never passes what Connect
 * has.
 *
 * <p>Rebuilds: the last record of each rebuilt shard is held back until the next snapshot batch or the rebuild's
 * end; at the end it is sent with the resume cursor as its offset (no {@code snapshot} mark), so Connect's
 * offset for the shard moves past the rebuild only with its last record. A rebuilt shard with no record keeps
 * its previous offset (it rebuilds again after a restart). Thread-safe.
 */
final class HandOff implements Sink<byte[], byte[]> {
    /** Records of one delivery; its stage completes when all are confirmed. */
    static final class Pending {
        final List<SourceRecord> records;
        final AtomicInteger left;
        final CompletableFuture<Void> done = new CompletableFuture<>();

        Pending(List<SourceRecord> records) {
            this.records = records;
            this.left = new AtomicInteger(records.size());
        }
    }

    private final ChangeRecords mapper;
    private final LinkedBlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    private final Map<SourceRecord, Pending> inFlight = new java.util.IdentityHashMap<>();
    private final Map<Integer, SourceRecord> heldBack = new HashMap<>();
    private final int shardCount;

    HandOff(ChangeRecords mapper, int shardCount) {
        this.mapper = mapper;
        this.shardCount = shardCount;
    }

    @Override
    public CompletionStage<Void> deliver(Batch<byte[], byte[]> batch) {
        try {
            List<SourceRecord> recs = mapper.records(batch);
            if (batch.kind() == Batch.Kind.SNAPSHOT) {
                recs = holdBack(recs);
            }
            return offer(recs);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Sends the records held back so far first, and holds back the last record of each shard instead. */
    private List<SourceRecord> holdBack(List<SourceRecord> recs) {
        synchronized (heldBack) {
            List<SourceRecord> out = new ArrayList<>(heldBack.values());
            heldBack.clear();
            for (int i = recs.size() - 1; i >= 0; i--) {
                SourceRecord r = recs.get(i);
                heldBack.putIfAbsent(ChangeRecords.shard(r), r);
            }
            for (SourceRecord r : recs) {
                if (heldBack.get(ChangeRecords.shard(r)) != r) {
                    out.add(r);
                }
            }
            return out;
        }
    }

    @Override
    public CompletionStage<Void> beginRebuild(RebuildScope scope) {
        synchronized (heldBack) {
            heldBack.keySet().removeAll(scope.shards());
        }
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletionStage<Void> endRebuild(RebuildScope scope, RebuildResult result) {
        List<SourceRecord> last = new ArrayList<>();
        synchronized (heldBack) {
            for (Map.Entry<Integer, Cursor> e : scope.carried().entrySet()) {
                SourceRecord r = heldBack.remove(e.getKey());
                if (r != null) {
                    last.add(ChangeRecords.withOffset(r, SourceOffsets.offset(e.getValue(), shardCount)));
                }
            }
        }
        return offer(last);
    }

    private CompletableFuture<Void> offer(List<SourceRecord> recs) {
        if (recs.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        Pending p = new Pending(recs);
        synchronized (inFlight) {
            for (SourceRecord r : recs) {
                inFlight.put(r, p);
            }
        }
        queue.add(p);
        return p.done;
    }

    /**
     * Queued batches, waiting up to {@code timeoutMs} for the first: whole batches while the total stays within
     * {@code maxRecords} (the first batch always). Null when none came.
     */
    List<SourceRecord> take(long timeoutMs, int maxRecords) throws InterruptedException {
        Pending first = queue.poll(timeoutMs, TimeUnit.MILLISECONDS);
        if (first == null) {
            return null;
        }
        List<SourceRecord> out = new ArrayList<>(first.records);
        for (Pending p = queue.peek(); p != null && out.size() + p.records.size() <= maxRecords; p = queue.peek()) {
            queue.poll();
            out.addAll(p.records);
        }
        return out;
    }

    /** Connect confirmed {@code record} (written, or dropped by a transformation). */
    void committed(SourceRecord record) {
        Pending p;
        synchronized (inFlight) {
            p = inFlight.remove(record);
        }
        if (p != null && p.left.decrementAndGet() == 0) {
            p.done.complete(null);
        }
    }

    /** Nothing to release: the queue goes with the task (batches not confirmed are read again by the next). */
    @Override
    public void close() {
    }

    /** Batches waiting for poll(). */
    int queued() {
        return queue.size();
    }
}
