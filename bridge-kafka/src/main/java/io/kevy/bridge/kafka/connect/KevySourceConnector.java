package io.kevy.bridge.kafka.connect;

import io.kevy.feed.client.FeedSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.ConnectorTransactionBoundaries;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka Connect source connector for a kevy change feed (docs/bridges.md, "Kafka Connect"): one source
 * partition per kevy shard ({@code {"shard": i}}), the source offset is the shard's cursor
 * ({@link SourceOffsets}); {@code tasks.max} spreads the shards over tasks (shard i to task i mod tasks); the
 * records are the sidecar's change envelopes ({@link ChangeRecords}).
 *
 * <p>The connector asks {@code FEED.SHARDS} at start and every {@value KevySourceConnectorConfig#SHARDS_POLL_MS}
 * ms; a changed count calls {@code requestTaskReconfiguration()}, and the new tasks rebuild (their offsets name
 * the old count). Exactly-once source delivery (KIP-618) is {@link ExactlyOnceSupport#SUPPORTED}: a task's
 * records and offsets are written in one transaction per poll() batch (the worker's
 * {@code transaction.boundary=poll}, or {@code interval}); the connector does not define boundaries itself
 * ({@link ConnectorTransactionBoundaries#UNSUPPORTED}), since a batch of the feed is already a poll() batch and a
 * rebuild's records need not be one transaction (an unfinished rebuild is redone, see {@link SourceOffsets}).
 */
public final class KevySourceConnector extends SourceConnector {
    private static final Logger LOG = LoggerFactory.getLogger(KevySourceConnector.class);
    /** The connector's version: the Maven project version of its jar (or "dev" outside a jar). */
    static final String VERSION = versionOf();

    private Map<String, String> props;
    private volatile int shardCount;
    private ScheduledExecutorService monitor;
    private FeedSource source;

    private static String versionOf() {
        String v = KevySourceConnector.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    @Override
    public String version() {
        return VERSION;
    }

    @Override
    public void start(Map<String, String> props) {
        KevySourceConnectorConfig config = new KevySourceConnectorConfig(props);
        this.props = Map.copyOf(props);
        source = FeedSource.connect(config.redisUri());
        try {
            shardCount = source.shards().toCompletableFuture().get(config.getLong(KevySourceConnectorConfig
                    .TIMEOUT_MS), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            source.close();
            throw new ConnectException("FEED.SHARDS on " + source.authority() + " failed: " + e, e);
        }
        long every = config.getLong(KevySourceConnectorConfig.SHARDS_POLL_MS);
        monitor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kevy-connect-shards-" + props.getOrDefault("name", ""));
            t.setDaemon(true);
            return t;
        });
        monitor.scheduleWithFixedDelay(this::checkShards, every, every, TimeUnit.MILLISECONDS);
        LOG.info("kevy source connector {}: {} shard(s) on {}", props.get("name"), shardCount, source.authority());
    }

    private void checkShards() {
        try {
            int now = source.shards().toCompletableFuture().get(30, TimeUnit.SECONDS);
            if (now != shardCount) {
                LOG.info("kevy source connector {}: the server now has {} shard(s) (was {}): reconfiguring the tasks",
                        props.get("name"), now, shardCount);
                shardCount = now;
                context().requestTaskReconfiguration();
            }
        } catch (Exception e) {
            LOG.warn("kevy source connector {}: FEED.SHARDS failed (checked again later): {}", props.get("name"),
                    e.toString());
        }
    }

    @Override
    public Class<? extends Task> taskClass() {
        return KevySourceTask.class;
    }

    /** At most {@code min(maxTasks, shards)} tasks; shard i goes to task i mod tasks. */
    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        int n = shardCount;
        int tasks = Math.max(1, Math.min(maxTasks, n));
        List<Map<String, String>> out = new ArrayList<>(tasks);
        for (int t = 0; t < tasks; t++) {
            StringBuilder shards = new StringBuilder();
            for (int s = t; s < n; s += tasks) {
                shards.append(shards.length() == 0 ? "" : ",").append(s);
            }
            Map<String, String> c = new HashMap<>(props);
            c.put(KevySourceConnectorConfig.TASK_SHARDS, shards.toString());
            c.put(KevySourceConnectorConfig.TASK_SHARD_COUNT, Integer.toString(n));
            c.put(KevySourceConnectorConfig.TASK_ID, Integer.toString(t));
            out.add(c);
        }
        return out;
    }

    @Override
    public void stop() {
        if (monitor != null) {
            monitor.shutdownNow();
        }
        if (source != null) {
            source.close();
        }
    }

    @Override
    public ConfigDef config() {
        return KevySourceConnectorConfig.CONFIG_DEF;
    }

    /** The ConfigDef's checks, then those across settings (reported on the setting named). */
    @Override
    public Config validate(Map<String, String> connectorConfigs) {
        Config config = super.validate(connectorConfigs);
        boolean clean = config.configValues().stream().allMatch(v -> v.errorMessages().isEmpty());
        if (clean) {
            try {
                new KevySourceConnectorConfig(connectorConfigs);
            } catch (org.apache.kafka.common.config.ConfigException e) {
                for (ConfigValue v : config.configValues()) {
                    if (v.name().equals(KevySourceConnectorConfig.RETRY_BACKOFF_MAX_MS)) {
                        v.addErrorMessage(e.getMessage());
                    }
                }
            }
        }
        return config;
    }

    @Override
    public ExactlyOnceSupport exactlyOnceSupport(Map<String, String> connectorConfig) {
        return ExactlyOnceSupport.SUPPORTED;
    }

    @Override
    public ConnectorTransactionBoundaries canDefineTransactionBoundaries(Map<String, String> connectorConfig) {
        return ConnectorTransactionBoundaries.UNSUPPORTED;
    }
}
