package io.kevy.bridge.kafka.support;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A real Kafka broker inside the test JVM: KRaft combined mode (broker and controller, node 1) on two free
 * loopback ports, its log dir formatted with {@link Formatter}, started with {@link KafkaRaftServer}. The only
 * class that touches Kafka's internal server APIs (shared/design/dependencies.md).
 *
 * <p>{@link #shared()} is one broker for every test class of the failsafe JVM (about 350 MB and 2-3 s to start);
 * {@link #stop()} and {@link #start()} take it down and up again on the same log dir and ports (outage tests).
 * Helpers read topics back from the beginning ({@link #readAll}).
 */
public final class KafkaBroker implements AutoCloseable {
    private static KafkaBroker shared;

    private final Path dir;
    private final int port;
    private final int controllerPort;
    private final String clusterId = Uuid.randomUuid().toString();
    private KafkaRaftServer server;

    private KafkaBroker(Path dir) throws IOException {
        this.dir = dir;
        this.port = freePort();
        this.controllerPort = freePort();
    }

    /** The broker shared by the test classes of this JVM, started on first use and stopped at JVM exit. */
    public static synchronized KafkaBroker shared() {
        if (shared == null) {
            try {
                shared = new KafkaBroker(Files.createTempDirectory("kevy-kraft"));
                shared.format();
                shared.start();
            } catch (Exception e) {
                throw new IllegalStateException("the in-process Kafka broker did not start", e);
            }
            KafkaBroker b = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(b::close, "kafka-broker-stop"));
        }
        return shared;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }

    private void format() throws Exception {
        new Formatter().setPrintStream(new PrintStream(PrintStream.nullOutputStream()))
                .setSupportedFeatures(Feature.PRODUCTION_FEATURES).setNodeId(1).setClusterId(clusterId)
                .setDirectories(List.of(dir.toString())).setMetadataLogDirectory(dir.toString())
                .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION).setControllerListenerName("CONTROLLER")
                .run();
    }

    private KafkaConfig config() {
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("log.dirs", dir.toString());
        p.put("metadata.log.dir", dir.toString());
        p.put("num.partitions", "3");
        p.put("auto.create.topics.enable", "true");
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "1");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", "1");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("log.segment.bytes", Integer.toString(64 * 1024 * 1024));
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "2");
        p.put("background.threads", "2");
        p.put("log.cleaner.threads", "1");
        p.put("log.cleaner.dedupe.buffer.size", Integer.toString(2 * 1024 * 1024));
        p.put("controlled.shutdown.enable", "false");
        return KafkaConfig.fromProps(p, false);
    }

    /** Starts (or restarts, on the same log dir and ports) and waits until the broker answers. */
    public synchronized void start() {
        if (server != null) {
            return;
        }
        server = new KafkaRaftServer(config(), Time.SYSTEM);
        server.startup();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try (Admin a = admin()) {
                a.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                return;
            } catch (Exception e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the broker did not answer within 60 s", e);
                }
            }
        }
    }

    /** Stops the broker (the log dir stays for {@link #start()}). */
    public synchronized void stop() {
        if (server != null) {
            server.shutdown();
            server.awaitShutdown();
            server = null;
        }
    }

    public synchronized boolean running() {
        return server != null;
    }

    /** {@code 127.0.0.1:<port>}. */
    public String bootstrap() {
        return "127.0.0.1:" + port;
    }

    /** A new admin client (close it). */
    public Admin admin() {
        Map<String, Object> c = new HashMap<>();
        c.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        c.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        c.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 20_000);
        return Admin.create(c);
    }

    /** Creates {@code topics} with {@code partitions} partitions each, unless they exist. */
    public void createTopics(int partitions, String... topics) {
        try (Admin a = admin()) {
            Set<String> existing = a.listTopics().names().get(20, TimeUnit.SECONDS);
            List<NewTopic> create = new ArrayList<>();
            for (String t : topics) {
                if (!existing.contains(t)) {
                    create.add(new NewTopic(t, partitions, (short) 1));
                }
            }
            if (!create.isEmpty()) {
                a.createTopics(create).all().get(20, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            throw new IllegalStateException("creating " + List.of(topics) + " failed", e);
        }
    }

    /** A consumer with {@code isolation} ({@code read_committed} or {@code read_uncommitted}); close it. */
    public KafkaConsumer<byte[], byte[]> consumer(String isolation) {
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return new KafkaConsumer<>(c);
    }

    /**
     * Every record of {@code topics} from the beginning up to the end offsets at the time of the call (for
     * read_committed, the last stable offsets), in partition order; topics that do not exist read as empty.
     */
    public List<ConsumerRecord<byte[], byte[]>> readAll(Collection<String> topics, String isolation) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = consumer(isolation)) {
            List<TopicPartition> parts = new ArrayList<>();
            Set<String> existing = c.listTopics(Duration.ofSeconds(20)).keySet();
            for (String t : topics) {
                if (existing.contains(t)) {
                    c.partitionsFor(t, Duration.ofSeconds(20)).forEach(p -> parts.add(new TopicPartition(t,
                            p.partition())));
                }
            }
            if (parts.isEmpty()) {
                return out;
            }
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts, Duration.ofSeconds(20));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (parts.stream().anyMatch(p -> c.position(p, Duration.ofSeconds(20)) < end.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("reading " + topics + " did not reach " + end);
                }
                c.poll(Duration.ofMillis(200)).forEach(out::add);
            }
        }
        return out;
    }

    @Override
    public synchronized void close() {
        stop();
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
