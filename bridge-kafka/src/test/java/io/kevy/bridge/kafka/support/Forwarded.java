package io.kevy.bridge.kafka.support;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.kevy.feed.client.envelope.ChangeEnvelopes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/** The records a bridge wrote, read back from the broker and decoded. */
public final class Forwarded {
    /** One record: where it is, its key, headers and envelope. */
    public record Rec(String topic, int partition, long kafkaOffset, String key, Map<String, String> headers,
            JsonNode envelope) {
        public String id() {
            return envelope.path("id").asText();
        }

        public String type() {
            return envelope.path("type").asText();
        }

        public String op() {
            return envelope.path("data").path("op").asText();
        }
    }

    private Forwarded() {
    }

    public static List<Rec> read(KafkaBroker broker, Collection<String> topics, String isolation) {
        List<Rec> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : broker.readAll(topics, isolation)) {
            Map<String, String> h = new HashMap<>();
            for (Header x : r.headers()) {
                h.put(x.key(), new String(x.value(), StandardCharsets.UTF_8));
            }
            try {
                out.add(new Rec(r.topic(), r.partition(), r.offset(), r.key() == null ? null
                        : new String(r.key(), StandardCharsets.UTF_8), h, ChangeEnvelopes.mapper().readTree(r.value())));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    /**
     * Asserts that every expected change is there at least once (or exactly once), in the topic {@code route}
     * names for its key, with the kevy key as record key and headers that match the envelope; that per key the
     * records come in offset order; and that nothing else was forwarded (no key outside the prefixes).
     */
    public static void check(Map<String, Expected.Item> expected, List<Rec> records, Function<String, String> route,
            boolean exactlyOnce) {
        Map<String, Integer> seen = new HashMap<>();
        Map<String, long[]> lastPerKey = new HashMap<>();
        for (Rec r : records) {
            if (r.type().startsWith("io.kevy.resync.")) {
                continue;
            }
            Expected.Item e = expected.get(r.id());
            assertThat(e).as("record %s was not expected (key %s)", r.id(), r.key()).isNotNull();
            seen.merge(r.id(), 1, Integer::sum);
            if (!e.key().isEmpty()) {
                assertThat(r.key()).as("record key of %s", r.id()).isEqualTo(e.key());
                assertThat(r.topic()).as("topic of %s (%s)", r.id(), e.key()).isEqualTo(route.apply(e.key()));
            }
            String[] id = r.id().split(":");
            assertThat(r.headers()).containsEntry("kevy-shard", id[0]).containsEntry("kevy-generation", id[1])
                    .containsEntry("kevy-offset", id[2]).containsEntry("kevy-op", e.op())
                    .containsEntry("kevy-id", r.id());
            long offset = Long.parseLong(id[2]);
            long sub = id.length > 3 ? Long.parseLong(id[3]) : -1;
            if (r.key() != null && seen.get(r.id()) == 1) {
                // first occurrences per key must follow the feed's order (a redelivery repeats earlier ids)
                String k = r.key() + "@" + id[0];
                long[] last = lastPerKey.get(k);
                assertThat(last == null || offset > last[0] || (offset == last[0] && sub > last[1]))
                        .as("per-key order of %s: %s after offset %s", r.key(), r.id(), last == null ? "-" : last[0])
                        .isTrue();
                lastPerKey.put(k, new long[] {offset, sub});
            }
        }
        List<String> missing = new ArrayList<>();
        for (String id : expected.keySet()) {
            if (!seen.containsKey(id)) {
                missing.add(id);
            }
        }
        assertThat(missing).as("changes never forwarded (of %d)", expected.size()).isEmpty();
        if (exactlyOnce) {
            List<String> dups = seen.entrySet().stream().filter(x -> x.getValue() > 1).map(Map.Entry::getKey)
                    .limit(10).toList();
            assertThat(dups).as("changes forwarded more than once").isEmpty();
        }
    }
}
