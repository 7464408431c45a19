package io.kevy.bridge.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kevy.feed.client.Batch;
import io.kevy.feed.client.Change;
import io.kevy.feed.client.Cursor;
import io.kevy.feed.client.RebuildResult;
import io.kevy.feed.client.RebuildScope;
import io.kevy.feed.client.envelope.ChangeEnvelopes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Turns changes into Kafka records: one record per key ({@link ChangeEnvelopes#perKey}: an MSET pair, each key of
 * a multi-key DEL, both keys of a RENAME), in frame order; record key = the kevy key's bytes, value = the
 * envelope's JSON, headers {@value #SHARD}, {@value #GENERATION}, {@value #OFFSET}, {@value #OP} (and
 * {@value #ID}, the envelope id). Changes without a key (FLUSHALL, keyless scripts) and resync markers go to every
 * partition of every topic the bridge writes. Thread-safe. The header names are public: the Kafka Connect source
 * connector writes the same ones.
 */
public final class RecordMapper {
    public static final String SHARD = "kevy-shard";
    public static final String GENERATION = "kevy-generation";
    public static final String OFFSET = "kevy-offset";
    public static final String OP = "kevy-op";
    public static final String ID = "kevy-id";

    private final Routing routing;
    private final ChangeEnvelopes envelopes;
    private final ToIntFunction<String> partitions;

    /** {@code partitions}: the partition count of a topic (asks the producer's metadata). */
    RecordMapper(Routing routing, ChangeEnvelopes envelopes, ToIntFunction<String> partitions) {
        this.routing = routing;
        this.envelopes = envelopes;
        this.partitions = partitions;
    }

    /** The records of a batch, in frame order; {@code dropped[0]} counts the keys no route took. */
    List<ProducerRecord<byte[], byte[]>> records(Batch<byte[], byte[]> batch, long[] dropped) {
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>(batch.size());
        for (Change<byte[], byte[]> c : batch) {
            for (ObjectNode e : envelopes.perKey(c)) {
                JsonNode k = e.path("data").path("key");
                byte[] value = ChangeEnvelopes.toBytes(e);
                List<Header> headers = headers(e, c.shard(), c.generation(), c.offset());
                if (k.isMissingNode() || k.isNull()) {
                    broadcast(value, headers, out);
                    continue;
                }
                byte[] key = ChangeEnvelopes.decodeBytes(k);
                String topic = routing.topic(key);
                if (topic == null) {
                    dropped[0]++;
                    continue;
                }
                out.add(new ProducerRecord<>(topic, (Integer) null, key, value, headers));
            }
        }
        return out;
    }

    /** The {@code io.kevy.resync.begin} markers of {@code scope}: one per rebuilt shard, to every partition. */
    List<ProducerRecord<byte[], byte[]>> begin(RebuildScope scope) {
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>();
        for (int shard : scope.shards()) {
            marker(envelopes.rebuildBegin(scope, shard), scope.carried().get(shard), out);
        }
        return out;
    }

    /** The {@code io.kevy.resync.end} markers of {@code scope}. */
    List<ProducerRecord<byte[], byte[]>> end(RebuildScope scope, RebuildResult result) {
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>();
        for (Map.Entry<Integer, Cursor> e : scope.carried().entrySet()) {
            marker(envelopes.rebuildEnd(scope, e.getKey(), result), e.getValue(), out);
        }
        return out;
    }

    private void marker(ObjectNode e, Cursor carried, List<ProducerRecord<byte[], byte[]>> out) {
        broadcast(ChangeEnvelopes.toBytes(e), headers(e, carried.shard(), carried.generation(), carried.offset()), out);
    }

    private void broadcast(byte[] value, List<Header> headers, List<ProducerRecord<byte[], byte[]>> out) {
        for (String topic : routing.topics()) {
            int n = partitions.applyAsInt(topic);
            for (int p = 0; p < n; p++) {
                out.add(new ProducerRecord<>(topic, p, (byte[]) null, value, headers));
            }
        }
    }

    private static List<Header> headers(ObjectNode e, int shard, long generation, long offset) {
        List<Header> h = new ArrayList<>(5);
        h.add(new RecordHeader(SHARD, ascii(Integer.toString(shard))));
        h.add(new RecordHeader(GENERATION, ascii(Long.toString(generation))));
        h.add(new RecordHeader(OFFSET, ascii(Long.toString(offset))));
        h.add(new RecordHeader(OP, ascii(e.path("data").path("op").asText())));
        h.add(new RecordHeader(ID, ascii(e.path("id").asText())));
        return h;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
