package io.kevy.examples.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kevy.examples.support.StoppableCommand;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code java -jar kevy-kafka-consumer.jar}: reads the topics of a kevy Kafka bridge and prints each change
 * ({@code partition@offset op key ...}), keeping a {@link KeyView} of the keys; Ctrl-C prints the view's size and
 * stops. Reads committed records only ({@code isolation.level = read_committed}, what a transactional bridge
 * needs for exactly-once) from the earliest offset for a new group. Exit status: 0 after Ctrl-C, 1 on an error,
 * 2 for bad arguments.
 */
@Command(name = "kevy-kafka-consumer", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Print the changes a kevy Kafka bridge forwards, and keep a view of the keys.")
public final class ChangeTopicConsumer extends StoppableCommand {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = "--bootstrap", defaultValue = "127.0.0.1:9092",
            description = "Kafka brokers (default: ${DEFAULT-VALUE}).")
    String bootstrap;

    @Option(names = "--topic", defaultValue = "kevy.changes", paramLabel = "TOPIC",
            description = "A topic to read (repeatable; default: ${DEFAULT-VALUE}).")
    List<String> topics = new ArrayList<>();

    @Option(names = "--group", defaultValue = "kevy-example",
            description = "Consumer group (default: ${DEFAULT-VALUE}).")
    String group;

    @Option(names = "--quiet", description = "Print no line per change, only the view's size at the end.")
    boolean quiet;

    /** The view, for tests. */
    final KeyView view = new KeyView();

    @Override
    protected int run(PrintWriter out) throws Exception {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(topics);
            while (stop.getCount() > 0) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    JsonNode e = JSON.readTree(r.value());
                    synchronized (view) {
                        view.apply(r.partition(), e);
                    }
                    if (!quiet) {
                        out.println(line(r, e));
                    }
                }
                out.flush();
            }
            out.printf("stopped: %d records, %d keys in the view%n", view.applied(), view.size());
        }
        return 0;
    }

    /** {@code kevy.pkg/1@42 hset pkg:zlib1g version=1:1.2.13.dfsg-1}. */
    static String line(ConsumerRecord<byte[], byte[]> r, JsonNode e) {
        JsonNode d = e.path("data");
        StringBuilder sb = new StringBuilder().append(r.topic()).append('/').append(r.partition()).append('@')
                .append(r.offset()).append(' ').append(d.path("op").asText());
        if (d.has("key")) {
            sb.append(' ').append(d.path("key").isTextual() ? d.path("key").asText() : d.path("key").toString());
        }
        d.path("fields").forEach(f -> sb.append(' ').append(f.path("name").asText()).append('=')
                .append(f.path("value").asText()));
        if (d.has("value")) {
            sb.append(' ').append(d.path("value").asText());
        }
        return sb.toString();
    }

    public static void main(String[] args) {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.exit(new CommandLine(new ChangeTopicConsumer()).execute(args));
    }
}
