package io.kevy.bridge.kafka.connect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kevy.bridge.kafka.RecordMapper;
import io.kevy.bridge.kafka.Routing;
import io.kevy.feed.client.Batch;
import io.kevy.feed.client.Change;
import io.kevy.feed.client.Cursor;
import io.kevy.feed.client.Op;
import io.kevy.feed.client.envelope.ChangeEnvelopes;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Turns a batch into Connect records, the sidecar's way ({@link ChangeEnvelopes#perKey}, {@link Routing}): one
 * record per key in frame order, key = the kevy key's bytes ({@link Schema#OPTIONAL_BYTES_SCHEMA}), value = the
 * envelope as a struct ({@link EnvelopeSchema}), headers {@code kevy-op}, {@code kevy-shard},
 * {@code kevy-generation}, {@code kevy-offset}, {@code kevy-id} ({@link RecordMapper}'s names). A deleted key's
 * record (DEL, RENAME's source, a rebuild's VANISHED) is followed by a tombstone when tombstones are on. Rebuild
 * entries are snapshot records: op {@code r} in the header and in {@code data.op}, as Debezium marks them.
 *
 * <p>Offsets ({@link SourceOffsets}): source partition {@code {"shard": i}}; a frame's last record carries the
 * offset after the frame, its other records the frame's own offset (resuming there repeats the frame, loses
 * nothing), the batch's last record the batch's next cursor. Snapshot records carry the carried cursor marked
 * {@code "snapshot": true}: a task resuming from such an offset rebuilds again, since the rebuild was not
 * finished. Not thread-safe as a whole: the held-key set is concurrent, the rest immutable.
 */
final class ChangeRecords {
    static final String OP_SNAPSHOT = "r";

    private final Routing routing;
    private final ChangeEnvelopes envelopes;
    private final boolean tombstones;
    private final int shardCount;
    private final Set<ByteBuffer> held;

    /** {@code held}: the keys the task wrote a value for (the rebuild's sweep), or null when not kept. */
    ChangeRecords(Routing routing, ChangeEnvelopes envelopes, boolean tombstones, int shardCount,
            Set<ByteBuffer> held) {
        this.routing = routing;
        this.envelopes = envelopes;
        this.tombstones = tombstones;
        this.shardCount = shardCount;
        this.held = held;
    }

    /** The records of {@code batch} (possibly none: every key dropped by the routing). */
    List<SourceRecord> records(Batch<byte[], byte[]> batch) {
        List<Spec> specs = new ArrayList<>(batch.size());
        boolean snapshot = batch.kind() == Batch.Kind.SNAPSHOT;
        for (Change<byte[], byte[]> c : batch) {
            int before = specs.size();
            List<ObjectNode> envs = c.op() == Op.SNAPSHOT || c.op() == Op.VANISHED ? List.of(envelopes.envelope(c))
                    : envelopes.perKey(c);
            for (ObjectNode e : envs) {
                add(c, e, specs);
            }
            long after = snapshot ? c.offset() : c.offset() + 1;
            for (int i = before; i < specs.size(); i++) {
                specs.get(i).offset = i == specs.size() - 1 ? after : c.offset();
            }
        }
        List<SourceRecord> out = new ArrayList<>(specs.size());
        for (int i = 0; i < specs.size(); i++) {
            Spec s = specs.get(i);
            Map<String, Object> offset;
            if (snapshot) {
                offset = SourceOffsets.snapshot(s.change.generation(), s.change.offset(), shardCount);
            } else {
                Cursor next = batch.next();
                long o = i == specs.size() - 1 ? next.offset() : s.offset;
                offset = SourceOffsets.offset(next.generation(), o, shardCount);
            }
            out.add(s.record(offset));
        }
        return out;
    }

    private void add(Change<byte[], byte[]> c, ObjectNode e, List<Spec> specs) {
        JsonNode data = e.path("data");
        boolean snap = c.op() == Op.SNAPSHOT;
        if (snap) {
            ((ObjectNode) data).put("op", OP_SNAPSHOT);
        }
        String op = data.path("op").asText();
        JsonNode k = data.path("key");
        Struct value = EnvelopeSchema.struct(e);
        ConnectHeaders headers = headers(c, op, e.path("id").asText());
        if (k.isMissingNode() || k.isNull()) {
            for (String topic : routing.topics()) {
                specs.add(new Spec(c, topic, null, value, headers));
            }
            return;
        }
        byte[] key = ChangeEnvelopes.decodeBytes(k);
        String topic = routing.topic(key);
        if (topic == null) {
            return;
        }
        boolean deleted = c.op() == Op.DEL || c.op() == Op.VANISHED || (c.op() == Op.RENAME && data.has("to"));
        specs.add(new Spec(c, topic, key, value, headers));
        if (deleted && tombstones) {
            specs.add(new Spec(c, topic, key, null, headers));
        }
        if (held != null) {
            if (deleted) {
                held.remove(ByteBuffer.wrap(key));
            } else {
                held.add(ByteBuffer.wrap(key));
            }
        }
    }

    private static ConnectHeaders headers(Change<byte[], byte[]> c, String op, String id) {
        ConnectHeaders h = new ConnectHeaders();
        h.addString(RecordMapper.OP, op);
        h.addString(RecordMapper.SHARD, Integer.toString(c.shard()));
        h.addString(RecordMapper.GENERATION, Long.toString(c.generation()));
        h.addString(RecordMapper.OFFSET, Long.toString(c.offset()));
        h.addString(RecordMapper.ID, id);
        return h;
    }

    /** A record before its offset is known. */
    private static final class Spec {
        final Change<byte[], byte[]> change;
        final String topic;
        final byte[] key;
        final Struct value;
        final ConnectHeaders headers;
        long offset;

        Spec(Change<byte[], byte[]> change, String topic, byte[] key, Struct value, ConnectHeaders headers) {
            this.change = change;
            this.topic = topic;
            this.key = key;
            this.value = value;
            this.headers = headers;
        }

        SourceRecord record(Map<String, Object> offset) {
            return new SourceRecord(SourceOffsets.partition(change.shard()), offset, topic, null,
                    Schema.OPTIONAL_BYTES_SCHEMA, key, value == null ? null : EnvelopeSchema.ENVELOPE, value,
                    change.observedAtMillis(), headers);
        }
    }

    /** A record with {@code offset} instead of its own (the rebuild's last record gets the resume cursor). */
    static SourceRecord withOffset(SourceRecord r, Map<String, ?> offset) {
        return new SourceRecord(r.sourcePartition(), offset, r.topic(), r.kafkaPartition(), r.keySchema(), r.key(),
                r.valueSchema(), r.value(), r.timestamp(), r.headers());
    }

    /** The shard of a record's source partition. */
    static int shard(SourceRecord r) {
        return ((Number) r.sourcePartition().get(SourceOffsets.SHARD)).intValue();
    }
}
