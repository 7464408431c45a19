package io.kevy.bridge.kafka.connect;

import io.kevy.bridge.kafka.Routing;
import io.kevy.feed.client.FeedSource;
import io.kevy.feed.client.StartFrom;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.ValidString;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The connector's settings ({@link #CONFIG_DEF}: types, ranges, documentation; Connect shows a bad value's
 * error per field in the REST response of {@code PUT /connector-plugins/.../config/validate} and refuses to
 * create the connector). {@value #PASSWORD} is {@link Type#PASSWORD}: Connect prints it as {@code [hidden]}, and
 * the connector never logs it. Immutable.
 */
public final class KevySourceConnectorConfig extends AbstractConfig {
    public static final String URI = "kevy.uri";
    public static final String USERNAME = "kevy.username";
    public static final String PASSWORD = "kevy.password";
    public static final String TIMEOUT_MS = "kevy.timeout.ms";
    public static final String PREFIXES = "prefixes";
    public static final String TOPIC = "topic";
    public static final String ROUTES = "topic.routes";
    public static final String UNMATCHED = "unmatched";
    public static final String TOMBSTONES = "tombstones.on.delete";
    public static final String START_FROM = "start.from";
    public static final String BATCH_SIZE = "batch.size";
    public static final String BLOCK_MS = "block.ms";
    public static final String MAX_POLL_RECORDS = "max.poll.records";
    public static final String POLL_TIMEOUT_MS = "poll.timeout.ms";
    public static final String SHARDS_POLL_MS = "shards.poll.interval.ms";
    public static final String RETRY_BACKOFF_MS = "retry.backoff.ms";
    public static final String RETRY_BACKOFF_MAX_MS = "retry.backoff.max.ms";

    /** Set by the connector in each task's config: the shards the task reads, e.g. {@code 0,2}. */
    static final String TASK_SHARDS = "task.shards";
    /** Set by the connector in each task's config: the server's shard count when the tasks were planned. */
    static final String TASK_SHARD_COUNT = "task.shard.count";
    /** Set by the connector in each task's config: the task's index. */
    static final String TASK_ID = "task.id";

    private static final String G_SOURCE = "kevy server";
    private static final String G_RECORDS = "records";
    private static final String G_READ = "reading";

    public static final ConfigDef CONFIG_DEF = new ConfigDef()
            .define(URI, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new UriValidator(), Importance.HIGH,
                    "The kevy server to read the feed from: redis://host:port (or rediss:// for TLS). Put the "
                            + "password in kevy.password, not in the URI.", G_SOURCE, 1,
                    ConfigDef.Width.LONG, "URI")
            .define(USERNAME, Type.STRING, "", Importance.MEDIUM, "ACL user name (AUTH user password); empty: the "
                    + "default user.", G_SOURCE, 2, ConfigDef.Width.MEDIUM, "User")
            .define(PASSWORD, Type.PASSWORD, "", Importance.HIGH, "The server's password (requirepass or the "
                    + "user's); empty: no AUTH. Never logged; Connect shows it as [hidden].", G_SOURCE, 3,
                    ConfigDef.Width.MEDIUM, "Password")
            .define(TIMEOUT_MS, Type.LONG, 10_000L, Range.between(100, 600_000), Importance.LOW,
                    "Command timeout in ms for the server connection.", G_SOURCE, 4, ConfigDef.Width.SHORT,
                    "Timeout")
            .define(PREFIXES, Type.LIST, "", Importance.HIGH, "Only keys starting with one of these prefixes "
                    + "(comma-separated, UTF-8); empty: every key. The server filters (FEED.READ ... PREFIX).",
                    G_RECORDS, 1, ConfigDef.Width.LONG, "Prefixes")
            .define(TOPIC, Type.STRING, "kevy.changes", new ConfigDef.NonEmptyStringWithoutControlChars(),
                    Importance.HIGH, "The default topic: every change when there are no routes, else the changes "
                            + "of keys no route matches (unless unmatched=drop).", G_RECORDS, 2,
                    ConfigDef.Width.MEDIUM, "Topic")
            .define(ROUTES, Type.LIST, "", new RoutesValidator(), Importance.MEDIUM, "Per-prefix topics, "
                    + "comma-separated prefix=topic pairs, e.g. user:=kevy.user,order:=kevy.order; the longest "
                    + "matching prefix wins (as the sidecar's [[sink.kafka.routes]]). A prefix cannot contain a "
                    + "comma.", G_RECORDS, 3, ConfigDef.Width.LONG, "Routes")
            .define(UNMATCHED, Type.STRING, "topic", ValidString.in("topic", "drop"), Importance.LOW,
                    "Keys that match no route: topic (to the default topic) or drop.", G_RECORDS, 4,
                    ConfigDef.Width.SHORT, "Unmatched keys")
            .define(TOMBSTONES, Type.BOOLEAN, true, Importance.MEDIUM, "After the record of a deleted key (DEL, "
                    + "expiry, eviction, RENAME's source, a key a rebuild found gone) a tombstone (null value), so "
                    + "compacted topics mirror the keyspace. Also enables the rebuild's sweep, which keeps the keys "
                    + "the task wrote in memory (about the key's bytes + 64 B each).", G_RECORDS, 5,
                    ConfigDef.Width.SHORT, "Tombstones")
            .define(START_FROM, Type.STRING, "rebuild", ValidString.in("rebuild", "tail", "earliest"),
                    Importance.MEDIUM, "Without a stored offset: rebuild (snapshot records of every key, op r, then "
                            + "the changes), tail (only changes from now on) or earliest (the backlog's oldest "
                            + "changes).", G_READ, 1, ConfigDef.Width.SHORT, "Start from")
            .define(BATCH_SIZE, Type.INT, FeedSource.DEFAULT_COUNT, Range.between(1, FeedSource.MAX_COUNT),
                    Importance.LOW, "Frames read per FEED.READ (COUNT).", G_READ, 2, ConfigDef.Width.SHORT,
                    "Batch size")
            .define(BLOCK_MS, Type.LONG, 1000L, Range.between(0, 60_000), Importance.LOW, "Long-poll time per "
                    + "read in ms (FEED.READ ... BLOCK); 0 polls without BLOCK.", G_READ, 3, ConfigDef.Width.SHORT,
                    "Block")
            .define(MAX_POLL_RECORDS, Type.INT, 4096, Range.between(1, 1_000_000), Importance.LOW, "Records a "
                    + "task returns from one poll() at most (whole feed batches; at least one).", G_READ, 4,
                    ConfigDef.Width.SHORT, "Max records per poll")
            .define(POLL_TIMEOUT_MS, Type.LONG, 500L, Range.between(1, 60_000), Importance.LOW, "How long poll() "
                    + "waits for a batch before returning none (Connect then calls it again).", G_READ, 5,
                    ConfigDef.Width.SHORT, "Poll timeout")
            .define(SHARDS_POLL_MS, Type.LONG, 30_000L, Range.between(100, 3_600_000), Importance.LOW, "How "
                    + "often the connector asks FEED.SHARDS; a changed shard count reconfigures the tasks.", G_READ,
                    6, ConfigDef.Width.SHORT, "Shard check interval")
            .define(RETRY_BACKOFF_MS, Type.LONG, 100L, Range.between(1, 600_000), Importance.LOW, "First retry "
                    + "delay in ms after a failed server connection (exponential, with jitter).", G_READ, 7,
                    ConfigDef.Width.SHORT, "Retry backoff")
            .define(RETRY_BACKOFF_MAX_MS, Type.LONG, 5000L, Range.between(1, 600_000), Importance.LOW, "Longest "
                    + "retry delay in ms.", G_READ, 8, ConfigDef.Width.SHORT, "Retry backoff max");

    public KevySourceConnectorConfig(Map<String, String> props) {
        super(CONFIG_DEF, props, false);
        if (getLong(RETRY_BACKOFF_MAX_MS) < getLong(RETRY_BACKOFF_MS)) {
            throw new ConfigException(RETRY_BACKOFF_MAX_MS, getLong(RETRY_BACKOFF_MAX_MS), "is below "
                    + RETRY_BACKOFF_MS + " (" + getLong(RETRY_BACKOFF_MS) + ")");
        }
    }

    /** The lettuce URI with user, password and timeout applied. */
    public RedisURI redisUri() {
        RedisURI.Builder b = RedisURI.builder(RedisURI.create(getString(URI)))
                .withTimeout(Duration.ofMillis(getLong(TIMEOUT_MS)));
        Password p = getPassword(PASSWORD);
        String password = p == null ? "" : p.value();
        if (!password.isEmpty()) {
            String user = getString(USERNAME);
            if (!user.isEmpty()) {
                b.withAuthentication(user, password);
            } else {
                b.withPassword(password.toCharArray());
            }
        }
        return b.build();
    }

    public List<String> prefixes() {
        List<String> out = new ArrayList<>();
        for (String p : getList(PREFIXES)) {
            if (!p.isEmpty()) {
                out.add(p);
            }
        }
        return out;
    }

    /** The topic routing, the sidecar's {@link Routing}. */
    public Routing routing() {
        return new Routing(parseRoutes(getList(ROUTES)), getString(TOPIC), getString(UNMATCHED).equals("drop"));
    }

    public boolean tombstones() {
        return getBoolean(TOMBSTONES);
    }

    public StartFrom startFrom() {
        return StartFrom.valueOf(getString(START_FROM).toUpperCase(Locale.ROOT));
    }

    /** {@code prefix=topic} pairs; the last {@code =} splits (topic names have none). */
    static List<Routing.Route> parseRoutes(List<String> items) {
        List<Routing.Route> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (String item : items) {
            if (item.isEmpty()) {
                continue;
            }
            int eq = item.lastIndexOf('=');
            if (eq <= 0 || eq == item.length() - 1) {
                throw new ConfigException(ROUTES, item, "not a prefix=topic pair");
            }
            String prefix = item.substring(0, eq);
            String topic = item.substring(eq + 1).trim();
            if (!topic.matches("[a-zA-Z0-9._-]{1,249}")) {
                throw new ConfigException(ROUTES, item, "\"" + topic + "\" is not a legal topic name "
                        + "([a-zA-Z0-9._-], at most 249 characters)");
            }
            if (!seen.add(prefix)) {
                throw new ConfigException(ROUTES, item, "prefix \"" + prefix + "\" has two routes");
            }
            out.add(new Routing.Route(prefix, topic));
        }
        return out;
    }

    /** Checks that the URI parses as a redis:// or rediss:// URI; the message masks a password. */
    static final class UriValidator implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            String s = value == null ? "" : value.toString().trim();
            if (!(s.startsWith("redis://") || s.startsWith("rediss://"))) {
                throw new ConfigException(name, mask(s), "must be a redis:// or rediss:// URI");
            }
            try {
                RedisURI.create(s);
            } catch (RuntimeException e) {
                // not the parser's message: it may quote the URI with its password
                throw new ConfigException(name, mask(s), "not a valid redis:// URI (host, port, database)");
            }
        }

        static String mask(String uri) {
            return uri.replaceAll("//[^@/]*@", "//****@");
        }

        @Override
        public String toString() {
            return "redis://host:port or rediss://host:port";
        }
    }

    /** Checks {@value #ROUTES}. */
    static final class RoutesValidator implements ConfigDef.Validator {
        @Override
        @SuppressWarnings("unchecked")
        public void ensureValid(String name, Object value) {
            parseRoutes(value == null ? List.of() : (List<String>) value);
        }

        @Override
        public String toString() {
            return "prefix=topic[,prefix=topic...]";
        }
    }
}
