package io.kevy.feed.sidecar;

import io.kevy.config.ConfigReader;
import io.kevy.config.Option;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The sidecar runtime's option table: sections {@code [source]}, {@code [consumer]}, {@code [cursor]} and
 * {@code [http]}, as {@link Option}s of the one option system (kevy-config). The loader, the environment
 * overrides, the sample config ({@link ConfigDocs}) and
 * {@code docs/bridges.md} all read it; the {@code [sink.<type>]} section's table comes from its
 * {@link SinkProvider}.
 */
public final class SidecarOptions {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._:@-]{1,200}");

    /** The environment prefix of every override. */
    public static final String ENV_PREFIX = "KEVY_BRIDGE_";

    private SidecarOptions() {
    }

    /**
     * The environment variable of a sidecar option ({@code source.uri} → {@code KEVY_BRIDGE_SOURCE_URI},
     * {@code sink.kafka.bootstrap_servers} → {@code KEVY_BRIDGE_SINK_KAFKA_BOOTSTRAP_SERVERS}), or null for tables,
     * arrays of tables and their fields, which have no environment form.
     */
    public static String env(Option<?> o) {
        if (o.env() != null) {
            return o.env();
        }
        return o.hasStringForm() ? ConfigReader.derivedEnv(ENV_PREFIX, o) : null;
    }

    // ---- [source] --------------------------------------------------------------------------------------------

    public static final Option<String> SOURCE_URI = Option.nonBlank("source", "uri",
            "redis://127.0.0.1:6004", "The kevy server: redis://[[user]:password@]host[:port] or rediss:// for TLS. "
                    + "A password in the URI is masked in logs; prefer source.password (or its environment "
                    + "variable) for secrets.");
    public static final Option<String> SOURCE_USERNAME = Option.string("source", "username", "",
            "ACL user name for AUTH; empty: the URI's, or none.");
    public static final Option<String> SOURCE_PASSWORD = Option.string("source", "password", "",
            "Password for AUTH; empty: the URI's, or none. Never logged.").secret();
    public static final Option<Long> SOURCE_TIMEOUT_MS = Option.integer("source", "timeout_ms", 10_000,
            100, 600_000, "Connect and command timeout; a long-poll read gets block_ms on top.");
    public static final Option<Long> SOURCE_BLOCK_MS = Option.integer("source", "block_ms", 1000, 0,
            60_000, "Long-poll time per FEED.READ when the server supports BLOCK; 0 polls with backoff instead.");

    // ---- [consumer] ------------------------------------------------------------------------------------------

    public static final Option<String> CONSUMER_NAME = Option.string("consumer", "name", "kevy-bridge",
            "The consumer's name: keys its stored cursors and tags its metrics (1-200 of A-Z a-z 0-9 . _ : @ -). "
                    + "Two bridges must not share a name and a cursor store.", s -> {
                if (!NAME.matcher(s).matches()) {
                    throw new IllegalArgumentException("must be 1-200 of A-Z a-z 0-9 . _ : @ -, got '" + s + "'");
                }
                return s;
            });
    public static final Option<List<String>> CONSUMER_PREFIXES = Option.stringList("consumer",
            "prefixes", List.of(), "Only keys starting with one of these prefixes; empty: every key.", s -> {
                if (s.isEmpty()) {
                    throw new IllegalArgumentException("a prefix must not be empty");
                }
                return s;
            });
    public static final Option<String> CONSUMER_START_FROM = Option.oneOf("consumer", "start_from",
            "tail", List.of("tail", "earliest", "rebuild"),
            "Where to start when no cursor is stored: tail (only new changes), earliest (the oldest retained "
                    + "change), rebuild (every current key as a snapshot first, then new changes).");
    public static final Option<Long> CONSUMER_BATCH_SIZE = Option.integer("consumer", "batch_size", 256,
            1, 4096, "Frames scanned per read (FEED.READ COUNT); one read is one batch handed to the sink.");
    public static final Option<Long> CONSUMER_BATCH_RETRIES = Option.integer("consumer",
            "batch_retries", 10, 0, 1000,
            "Retries of a batch the sink rejected (e.g. a Kafka send that failed) before failure_policy applies.");
    public static final Option<Long> CONSUMER_RETRY_INITIAL_MS = Option.integer("consumer",
            "retry_initial_ms", 100, 1, 600_000, "First retry delay (connections, rejected batches); doubles with "
                    + "±50% jitter up to retry_max_ms.");
    public static final Option<Long> CONSUMER_RETRY_MAX_MS = Option.integer("consumer", "retry_max_ms",
            5000, 1, 3_600_000, "Longest retry delay.");
    public static final Option<String> CONSUMER_FAILURE_POLICY = Option.oneOf("consumer",
            "failure_policy", "stop", List.of("stop", "dead_letter"),
            "A batch still rejected after its retries: stop (the consumer fails, the cursor stays before the batch) "
                    + "or dead_letter (the batch's envelopes and the error go to dead_letter_path, delivery goes on).");
    public static final Option<String> CONSUMER_DEAD_LETTER_PATH = Option.string("consumer",
            "dead_letter_path", "", "JSON-lines file for dead-lettered batches (required with failure_policy = "
                    + "\"dead_letter\").");
    public static final Option<Long> CONSUMER_MAX_CONNECTION_ATTEMPTS = Option.integer("consumer",
            "max_connection_attempts", 0, 0, 1_000_000,
            "Attempts per kevy connection outage before the consumer fails; 0 retries without limit.");
    public static final Option<Long> CONSUMER_MAX_FUTILE_REBUILDS = Option.integer("consumer",
            "max_futile_rebuilds", 2, 1, 1000,
            "Rebuilds in a row that end before the shard caught up once, before the consumer fails (the backlog is "
                    + "too small for the sink's speed).");
    public static final Option<Long> CONSUMER_DELIVERY_TIMEOUT_MS = Option.integer("consumer",
            "delivery_timeout_ms", 300_000, 1000, 86_400_000,
            "The longest the sink may take to accept one batch before the attempt counts as failed.");
    public static final Option<Boolean> CONSUMER_EXACT_PREFIX_FILTER = Option.bool("consumer",
            "exact_prefix_filter", true, "Filter the keys of MSET, multi-key DEL and RENAME by prefix in the bridge "
                    + "(the server's filter is fail-open for them); false forwards them whole.");
    public static final Option<Boolean> CONSUMER_DURABLE_ONLY = Option.bool("consumer",
            "durable_only", false, "Forward only changes the server's AOF has fsynced (FEED.READ DURABLE): none is "
                    + "erased by a power loss after it was sent; about 1 s more latency under appendfsync everysec. "
                    + "Servers without it (upstream kevy, no AOF) get plain reads and one WARN line.");
    public static final Option<Long> CONSUMER_SHUTDOWN_TIMEOUT_MS = Option.integer("consumer",
            "shutdown_timeout_ms", 30_000, 100, 3_600_000,
            "On SIGTERM: stop reading, finish in-flight batches, flush the sink, commit cursors and exit 0 within "
                    + "this time; past it the process exits 1 (the next start delivers the unfinished batches again).");
    public static final Option<Boolean> CONSUMER_EXIT_ON_FAILURE = Option.bool("consumer",
            "exit_on_failure", true, "Exit with status 1 when the consumer fails (an orchestrator restarts it); false "
                    + "keeps the process up with /healthz and /readyz answering 503.");

    // ---- [cursor] --------------------------------------------------------------------------------------------

    public static final Option<String> CURSOR_STORE = Option.oneOf("cursor", "store", "file",
            List.of("file", "kevy", "memory", "sink"),
            "Where cursors are kept: file (a JSON file, replaced atomically), kevy (a key in the source server, "
                    + "skipped by the consumer), memory (lost on exit: tests and demos), sink (the sink keeps them "
                    + "with its output, e.g. Kafka with transactional = true; chosen automatically then).");
    public static final Option<String> CURSOR_PATH = Option.string("cursor", "path", "",
            "The cursor file of store = \"file\"; empty: cursors/<consumer name>.json in the working directory.");
    public static final Option<String> CURSOR_KEY_PREFIX = Option.nonBlank("cursor", "key_prefix",
            "__kevy:feed-cursor:", "store = \"kevy\": the key is this prefix and the consumer name.");

    // ---- [http] ----------------------------------------------------------------------------------------------

    public static final Option<Boolean> HTTP_ENABLED = Option.bool("http", "enabled", true,
            "Serve /healthz, /readyz and /metrics.");
    public static final Option<String> HTTP_BIND = Option.nonBlank("http", "bind", "127.0.0.1",
            "Address of the HTTP endpoints; 0.0.0.0 in a container (the Docker image sets it).");
    public static final Option<Long> HTTP_PORT = Option.integer("http", "port", 8686, 0, 65535,
            "Port of the HTTP endpoints; 0 picks a free one (logged at start).");
    public static final Option<Long> HTTP_STALL_MS = Option.integer("http", "stall_ms", 30_000, 100,
            86_400_000, "/readyz turns false when a shard is behind its tail and its cursor has not moved for this "
                    + "long (broker down, sink stuck).");
    public static final Option<Long> HTTP_POLL_MS = Option.integer("http", "poll_ms", 1000, 10, 60_000,
            "How often readiness asks the server for each shard's tail (FEED.TAIL).");

    /** Every runtime option, in documentation order. */
    public static final List<Option<?>> ALL = List.of(SOURCE_URI, SOURCE_USERNAME, SOURCE_PASSWORD,
            SOURCE_TIMEOUT_MS, SOURCE_BLOCK_MS, CONSUMER_NAME, CONSUMER_PREFIXES, CONSUMER_START_FROM,
            CONSUMER_BATCH_SIZE, CONSUMER_BATCH_RETRIES, CONSUMER_RETRY_INITIAL_MS, CONSUMER_RETRY_MAX_MS,
            CONSUMER_FAILURE_POLICY, CONSUMER_DEAD_LETTER_PATH, CONSUMER_MAX_CONNECTION_ATTEMPTS,
            CONSUMER_MAX_FUTILE_REBUILDS, CONSUMER_DELIVERY_TIMEOUT_MS, CONSUMER_EXACT_PREFIX_FILTER,
            CONSUMER_DURABLE_ONLY, CONSUMER_SHUTDOWN_TIMEOUT_MS, CONSUMER_EXIT_ON_FAILURE, CURSOR_STORE, CURSOR_PATH, CURSOR_KEY_PREFIX,
            HTTP_ENABLED, HTTP_BIND, HTTP_PORT, HTTP_STALL_MS, HTTP_POLL_MS);

    /** The runtime's sections, in documentation order. */
    public static final List<String> SECTIONS = List.of("source", "consumer", "cursor", "http");
}
