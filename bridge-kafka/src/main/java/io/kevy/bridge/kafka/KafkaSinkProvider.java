package io.kevy.bridge.kafka;

import io.kevy.feed.client.CursorStore;
import io.kevy.config.OptionValues;
import io.kevy.config.Option;
import io.kevy.feed.sidecar.SidecarSink;
import io.kevy.feed.sidecar.SinkContext;
import io.kevy.feed.sidecar.SinkProvider;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * {@code [sink.kafka]}: the option table of the Kafka sink and how to open it ({@link KafkaSink}). Found by the
 * sidecar runtime through {@code META-INF/services/io.kevy.feed.sidecar.SinkProvider}.
 */
public final class KafkaSinkProvider implements SinkProvider {
    /** The sink type. */
    public static final String TYPE = "kafka";
    static final String S = "sink.kafka";

    /** Producer properties that the bridge sets itself and a config may not change. */
    static final Set<String> RESERVED = Set.of(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
            ProducerConfig.TRANSACTIONAL_ID_CONFIG, ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            ProducerConfig.COMPRESSION_TYPE_CONFIG);

    public static final Option<String> BOOTSTRAP_SERVERS = Option.nonBlank(S, "bootstrap_servers",
            null, "Kafka brokers, host:port[,host:port...] (producer bootstrap.servers).").required()
            .example("\"127.0.0.1:9092\"");
    public static final Option<String> TOPIC = Option.nonBlank(S, "topic", "kevy.changes",
            "The default topic: every change when there are no routes, else the changes of keys no route matches "
                    + "(unless unmatched = \"drop\").");
    public static final Option<String> UNMATCHED = Option.oneOf(S, "unmatched", "topic",
            List.of("topic", "drop"), "Keys that match no route: topic (to the default topic) or drop (not "
                    + "forwarded; counted in kevy.bridge.kafka.dropped).");
    public static final Option<String> ROUTE_PREFIX = Option.string(S + ".routes", "prefix", null,
            "Keys starting with this prefix (the longest matching prefix wins).", s -> {
                if (s.isEmpty()) {
                    throw new IllegalArgumentException("must not be empty");
                }
                return s;
            }).required().example("\"user:\"");
    public static final Option<String> ROUTE_TOPIC = Option.nonBlank(S + ".routes", "topic", null,
            "... go to this topic.").required().example("\"kevy.user\"");
    public static final Option<List<OptionValues>> ROUTES = Option.tables(S, "routes",
            "Per-prefix routes: [[sink.kafka.routes]] prefix = \"user:\" topic = \"kevy.user\".",
            List.of(ROUTE_PREFIX, ROUTE_TOPIC));
    public static final Option<String> COMPRESSION = Option.oneOf(S, "compression", "lz4",
            List.of("none", "gzip", "snappy", "lz4", "zstd"), "Producer compression.type.");
    public static final Option<Boolean> TRANSACTIONAL = Option.bool(S, "transactional", false,
            "Exactly-once into Kafka: each transaction writes batches' records and their new cursors (to "
                    + "cursor_topic); the cursors are read back from there at start (read_committed). See "
                    + "docs/bridges.md for the precise guarantee.");
    public static final Option<String> TRANSACTIONAL_ID = Option.string(S, "transactional_id", "",
            "The producer's transactional.id; empty: kevy-bridge.<consumer name>. A second bridge with the same id "
                    + "fences the first (it fails and stops).");
    public static final Option<String> CURSOR_TOPIC = Option.nonBlank(S, "cursor_topic",
            "kevy.cursors", "transactional = true: the compacted topic of the cursors (created with 1 partition "
                    + "and cleanup.policy = compact when missing); record key <consumer>/<shard>.");
    public static final Option<Long> CURSOR_TOPIC_REPLICATION = Option.integer(S,
            "cursor_topic_replication", -1, -1, 32, "Replication factor when the bridge creates cursor_topic; -1: "
                    + "the broker's default.replication.factor.");
    public static final Option<Long> TRANSACTION_TIMEOUT_MS = Option.integer(S,
            "transaction_timeout_ms", 60_000, 1000, 900_000, "transactional = true: producer transaction.timeout.ms "
                    + "(the broker aborts a transaction left open this long, e.g. by a killed bridge).");
    public static final Option<String> CLIENT_ID = Option.string(S, "client_id", "",
            "Producer client.id; empty: kevy-bridge-<consumer name>.");
    public static final Option<Map<String, String>> PRODUCER = Option.stringTable(S, "producer",
            "Any other producer property, e.g. [sink.kafka.producer] \"linger.ms\" = 10, \"security.protocol\" = "
                    + "\"SASL_SSL\". Unknown names fail at start; the ones the bridge sets (serializers, "
                    + "enable.idempotence, transactional.id, bootstrap.servers, compression.type) are refused. "
                    + "Values of names that look secret (password, jaas, token ...) are never logged.",
            KafkaSinkProvider::checkProducerKey).example("\"linger.ms\" = 10");

    static String checkProducerKey(String k) {
        if (RESERVED.contains(k)) {
            throw new IllegalArgumentException("\"" + k + "\" is set by the bridge (use the sink.kafka keys)");
        }
        if (k.equals(ProducerConfig.ACKS_CONFIG)) {
            throw new IllegalArgumentException("\"acks\" is always all (idempotent producer)");
        }
        if (!ProducerConfig.configNames().contains(k)) {
            throw new IllegalArgumentException("\"" + k + "\" is not a Kafka producer property");
        }
        return k;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public List<Option<?>> options() {
        return List.of(BOOTSTRAP_SERVERS, TOPIC, UNMATCHED, ROUTES, COMPRESSION, TRANSACTIONAL,
                TRANSACTIONAL_ID, CURSOR_TOPIC, CURSOR_TOPIC_REPLICATION, TRANSACTION_TIMEOUT_MS, CLIENT_ID, PRODUCER);
    }

    @Override
    public void validate(OptionValues values) {
        KafkaSinkSettings.of(values, "validation");
    }

    @Override
    public SidecarSink open(SinkContext context) {
        return new KafkaSink(KafkaSinkSettings.of(context.values(), context.consumer()), context);
    }

    @Override
    public Optional<CursorStore> adminCursorStore(SinkContext context) {
        KafkaSinkSettings s = KafkaSinkSettings.of(context.values(), context.consumer());
        if (!s.transactional()) {
            return Optional.empty();
        }
        return Optional.of(new KafkaCursorStore(new TransactionalWriter(s, context.registry(), context.consumer()),
                s, true));
    }
}
