package io.kevy.bridge.kafka;

import io.kevy.config.OptionValues;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The resolved {@code [sink.kafka]} settings: routing, producer properties, transactions. Immutable.
 *
 * @param routing          where each key goes
 * @param transactional    exactly-once mode
 * @param transactionalId  the producer's transactional.id (transactional mode)
 * @param cursorTopic      the compacted cursor topic (transactional mode)
 * @param cursorReplication replication factor for creating the cursor topic (-1: broker default)
 * @param producer         every producer property
 */
record KafkaSinkSettings(Routing routing, boolean transactional, String transactionalId, String cursorTopic,
        short cursorReplication, Map<String, Object> producer) {

    static KafkaSinkSettings of(OptionValues v, String consumer) {
        List<Routing.Route> routes = new ArrayList<>();
        Set<String> prefixes = new LinkedHashSet<>();
        for (OptionValues r : v.get(KafkaSinkProvider.ROUTES)) {
            String prefix = r.get(KafkaSinkProvider.ROUTE_PREFIX);
            if (!prefixes.add(prefix)) {
                throw r.error(KafkaSinkProvider.ROUTE_PREFIX, "prefix \"" + prefix + "\" has two routes");
            }
            routes.add(new Routing.Route(prefix, r.get(KafkaSinkProvider.ROUTE_TOPIC)));
        }
        Routing routing = new Routing(routes, v.get(KafkaSinkProvider.TOPIC),
                v.get(KafkaSinkProvider.UNMATCHED).equals("drop"));
        boolean tx = v.get(KafkaSinkProvider.TRANSACTIONAL);
        String txId = v.get(KafkaSinkProvider.TRANSACTIONAL_ID);
        if (txId.isBlank()) {
            txId = "kevy-bridge." + consumer;
        }
        String clientId = v.get(KafkaSinkProvider.CLIENT_ID);
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        p.putAll(v.get(KafkaSinkProvider.PRODUCER));
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, v.get(KafkaSinkProvider.BOOTSTRAP_SERVERS));
        p.put(ProducerConfig.CLIENT_ID_CONFIG, clientId.isBlank() ? "kevy-bridge-" + consumer : clientId);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, v.get(KafkaSinkProvider.COMPRESSION));
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        if (tx) {
            p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, txId);
            p.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, v.get(KafkaSinkProvider.TRANSACTION_TIMEOUT_MS).intValue());
        }
        Object inflight = p.get(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION);
        if (inflight != null && Integer.parseInt(inflight.toString().trim()) > 5) {
            throw v.error(KafkaSinkProvider.PRODUCER, "max.in.flight.requests.per.connection must be at most 5 with "
                    + "the idempotent producer (it keeps per-key order across retries)");
        }
        return new KafkaSinkSettings(routing, tx, txId, v.get(KafkaSinkProvider.CURSOR_TOPIC),
                v.get(KafkaSinkProvider.CURSOR_TOPIC_REPLICATION).shortValue(), Map.copyOf(p));
    }
}
