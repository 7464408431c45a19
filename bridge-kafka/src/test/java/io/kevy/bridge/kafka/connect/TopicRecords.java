package io.kevy.bridge.kafka.connect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kevy.bridge.kafka.support.KafkaBroker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/** The connector's records read back (value: JsonConverter without schemas; key: the kevy key's bytes). */
record TopicRecords(List<Rec> records) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One record; {@code value} null for a tombstone. */
    record Rec(String topic, int partition, long offset, String key, JsonNode value, Map<String, String> headers) {
        String op() {
            return headers.get("kevy-op");
        }

        boolean tombstone() {
            return value == null;
        }

        /** data.value of the envelope, or null. */
        String dataValue() {
            return value == null || value.path("data").path("value").isNull() ? null
                    : value.path("data").path("value").asText(null);
        }
    }

    static TopicRecords read(KafkaBroker broker, Collection<String> topics, String isolation) {
        List<Rec> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : broker.readAll(topics, isolation)) {
            Map<String, String> h = new HashMap<>();
            for (Header x : r.headers()) {
                h.put(x.key(), new String(x.value(), StandardCharsets.UTF_8));
            }
            try {
                out.add(new Rec(r.topic(), r.partition(), r.offset(), r.key() == null ? null
                        : new String(r.key(), StandardCharsets.UTF_8),
                        r.value() == null ? null : payload(JSON.readTree(r.value())), h));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return new TopicRecords(out);
    }

    /** JsonConverter with schemas.enable=true wraps the value in {"schema": ..., "payload": ...}. */
    private static JsonNode payload(JsonNode v) {
        return v.has("schema") && v.has("payload") ? v.get("payload") : v;
    }

    /** The records not in {@code earlier} (a read before this one), by topic, partition and offset. */
    List<Rec> since(TopicRecords earlier) {
        Set<String> seen = new HashSet<>();
        for (Rec r : earlier.records) {
            seen.add(r.topic() + "/" + r.partition() + "/" + r.offset());
        }
        List<Rec> out = new ArrayList<>();
        for (Rec r : records) {
            if (!seen.contains(r.topic() + "/" + r.partition() + "/" + r.offset())) {
                out.add(r);
            }
        }
        return out;
    }

    /** Each key's records in topic order (a key's records share one partition). */
    Map<String, List<Rec>> byKey() {
        Map<String, List<Rec>> m = new HashMap<>();
        for (Rec r : records) {
            if (r.key() != null) {
                m.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r);
            }
        }
        return m;
    }
}
