package io.kevy.feed.sidecar;

import io.kevy.config.ConfigException;
import io.kevy.config.OptionValues;
import io.kevy.config.Option;
import io.kevy.feed.client.CursorStore;
import io.kevy.feed.client.FeedConsumer;
import io.kevy.feed.client.FeedSource;
import io.kevy.feed.client.StartFrom;
import io.kevy.feed.client.envelope.ChangeEnvelopes;
import io.lettuce.core.RedisURI;
import io.lettuce.core.codec.ByteArrayCodec;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sidecar runtime: one {@link FeedConsumer} from a kevy server to one {@link SidecarSink}, configured by a
 * {@link SidecarConfig}, with {@code /healthz}, {@code /readyz} and {@code /metrics} (Prometheus: JVM, process,
 * consumer and sink meters) and a graceful stop: no new reads, in-flight batches finish, the sink flushes, the
 * cursors are committed, all within {@code consumer.shutdown_timeout_ms}.
 *
 * <pre>{@code
 * Sidecar sidecar = Sidecar.start(SidecarConfig.load(Path.of("bridge.toml"), System.getenv()));
 * ...
 * boolean clean = sidecar.stop();   // what SIGTERM does in SidecarMain
 * }</pre>
 *
 * <p>Thread-safe. Secrets (passwords, tokens) are never logged: options marked secret print as {@code ****},
 * passwords in URIs are masked.
 */
public final class Sidecar implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Sidecar.class);

    private final SidecarConfig config;
    private final PrometheusMeterRegistry registry;
    private final List<AutoCloseable> binders = new ArrayList<>();
    private final FeedSource source;
    private final SidecarSink sink;
    private final CursorStore store;
    private final FeedConsumer<byte[], byte[]> consumer;
    private final ReadinessMonitor readiness;
    private final HttpEndpoints http;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private volatile boolean clean;

    private Sidecar(SidecarConfig config) throws IOException {
        this.config = config;
        OptionValues v = config.values();
        registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        bindJvmMeters();
        String name = v.get(SidecarOptions.CONSUMER_NAME);
        List<String> prefixes = v.get(SidecarOptions.CONSUMER_PREFIXES);
        source = FeedSource.connect(redisUri(v));
        SinkContext ctx = new SinkContext(v, name, prefixes, source, registry, Clock.systemUTC());
        SidecarSink opened = null;
        try {
            opened = config.provider().open(ctx);
            store = cursorStore(v, opened, source, name);
            FeedConsumer.Builder<byte[], byte[]> b = FeedConsumer.builder(ByteArrayCodec.INSTANCE).source(source)
                    .name(name).prefixes(prefixes.toArray(new String[0])).cursorStore(store).sink(opened)
                    .startFrom(StartFrom.valueOf(v.get(SidecarOptions.CONSUMER_START_FROM).toUpperCase(Locale.ROOT)))
                    .batchSize(v.get(SidecarOptions.CONSUMER_BATCH_SIZE).intValue())
                    .block(Duration.ofMillis(v.get(SidecarOptions.SOURCE_BLOCK_MS)))
                    .handlerRetries(v.get(SidecarOptions.CONSUMER_BATCH_RETRIES).intValue())
                    .retryBackoff(Duration.ofMillis(v.get(SidecarOptions.CONSUMER_RETRY_INITIAL_MS)),
                            Duration.ofMillis(v.get(SidecarOptions.CONSUMER_RETRY_MAX_MS)))
                    .maxConnectionAttempts(v.get(SidecarOptions.CONSUMER_MAX_CONNECTION_ATTEMPTS).intValue())
                    .maxFutileRebuilds(v.get(SidecarOptions.CONSUMER_MAX_FUTILE_REBUILDS).intValue())
                    .deliveryTimeout(Duration.ofMillis(v.get(SidecarOptions.CONSUMER_DELIVERY_TIMEOUT_MS)))
                    .exactPrefixFilter(v.get(SidecarOptions.CONSUMER_EXACT_PREFIX_FILTER))
                    .durableOnly(v.get(SidecarOptions.CONSUMER_DURABLE_ONLY))
                    .meterRegistry(registry);
            if (v.get(SidecarOptions.CONSUMER_FAILURE_POLICY).equals("dead_letter")) {
                b.deadLetter(new DeadLetterFile(Path.of(v.get(SidecarOptions.CONSUMER_DEAD_LETTER_PATH)),
                        ChangeEnvelopes.forSource(source.authority()), Clock.systemUTC()));
            }
            consumer = b.build();
            sink = opened;
            readiness = new ReadinessMonitor(consumer, source, sink::readiness,
                    Duration.ofMillis(v.get(SidecarOptions.HTTP_STALL_MS)),
                    Duration.ofMillis(v.get(SidecarOptions.HTTP_POLL_MS)), registry);
            http = v.get(SidecarOptions.HTTP_ENABLED)
                    ? new HttpEndpoints(v.get(SidecarOptions.HTTP_BIND), v.get(SidecarOptions.HTTP_PORT).intValue(),
                            () -> consumer.state() != FeedConsumer.State.FAILED, readiness, registry::scrape)
                    : null;
        } catch (IOException | RuntimeException e) {
            if (opened != null) {
                try {
                    opened.close();
                } catch (Exception x) {
                    e.addSuppressed(x);
                }
            }
            source.close();
            registry.close();
            throw e;
        }
    }

    /**
     * Builds and starts a sidecar: opens the sink, starts the HTTP endpoints and the consumer (which connects in
     * the background: a server that is down is retried, {@code /readyz} says so meanwhile).
     *
     * @throws ConfigException when the settings cannot work (an HTTP port in use, a sink that refuses them; a
     *         sink may also throw the SDK's {@code KevyConfigException})
     */
    public static Sidecar start(SidecarConfig config) {
        Sidecar s;
        try {
            s = new Sidecar(config);
        } catch (IOException e) {
            throw new ConfigException(config.file() + ": cannot serve HTTP on "
                    + config.get(SidecarOptions.HTTP_BIND) + ":" + config.get(SidecarOptions.HTTP_PORT) + ": " + e, e);
        }
        LOG.info("kevy bridge '{}': sink {} ({}), source {}, cursors in {}, HTTP {}", s.consumer.name(),
                config.sinkType(), s.sink, Secrets.maskUri(config.get(SidecarOptions.SOURCE_URI)), s.store,
                s.http == null ? "off" : config.get(SidecarOptions.HTTP_BIND) + ":" + s.http.port());
        for (String line : describe(config, false)) {
            LOG.info("  {}", line);
        }
        s.consumer.start();
        s.readiness.start();
        return s;
    }

    /** The config's settings as {@code key = value} lines, secrets masked; {@code all} includes defaults. */
    public static List<String> describe(SidecarConfig config, boolean all) {
        List<String> out = new ArrayList<>();
        OptionValues v = config.values();
        for (Option<?> o : config.options()) {
            if (!all && !v.isSet(o)) {
                continue;
            }
            Object value = v.isSet(o) || o.defaultValue() != null ? v.get(o) : null;
            out.add(o.key() + " = " + Secrets.printable(o, value) + (v.isSet(o) ? "  (" + v.origin(o) + ")" : ""));
        }
        return out;
    }

    /** The lettuce URI of {@code [source]}: uri, with username/password and timeout applied. */
    static RedisURI redisUri(OptionValues v) {
        String uri = v.get(SidecarOptions.SOURCE_URI);
        RedisURI parsed;
        try {
            parsed = RedisURI.create(uri);
        } catch (IllegalArgumentException e) {
            throw v.error(SidecarOptions.SOURCE_URI, "not a redis:// or rediss:// URI (" + Secrets.maskUri(uri) + ")");
        }
        RedisURI.Builder b = RedisURI.builder(parsed)
                .withTimeout(Duration.ofMillis(v.get(SidecarOptions.SOURCE_TIMEOUT_MS)));
        String password = v.get(SidecarOptions.SOURCE_PASSWORD);
        String user = v.get(SidecarOptions.SOURCE_USERNAME);
        if (!password.isEmpty()) {
            if (!user.isEmpty()) {
                b.withAuthentication(user, password);
            } else {
                b.withPassword(password.toCharArray());
            }
        }
        return b.build();
    }

    /** The cursor store of {@code [cursor]}, or the sink's when it keeps cursors itself. */
    static CursorStore cursorStore(OptionValues v, SidecarSink sink, FeedSource source, String name) {
        String kind = v.get(SidecarOptions.CURSOR_STORE);
        var own = sink == null ? java.util.Optional.<CursorStore>empty() : sink.cursorStore();
        if (own.isPresent()) {
            if (v.isSet(SidecarOptions.CURSOR_STORE) && !kind.equals("sink")) {
                throw v.error(SidecarOptions.CURSOR_STORE, "this sink keeps the cursors with its output (e.g. "
                        + "sink.kafka.transactional = true): remove cursor.store or set it to \"sink\"");
            }
            return own.get();
        }
        return configuredStore(v, source, name);
    }

    /** The store named by {@code [cursor]} (not {@code sink}). */
    static CursorStore configuredStore(OptionValues v, FeedSource source, String name) {
        switch (v.get(SidecarOptions.CURSOR_STORE)) {
            case "kevy":
                return CursorStore.kevy(source, v.get(SidecarOptions.CURSOR_KEY_PREFIX));
            case "memory":
                return CursorStore.inMemory();
            case "sink":
                throw v.error(SidecarOptions.CURSOR_STORE, "this sink does not keep cursors; use file, kevy or memory");
            default:
                String p = v.get(SidecarOptions.CURSOR_PATH);
                return CursorStore.file(p.isBlank() ? Path.of("cursors", name + ".json") : Path.of(p));
        }
    }

    private void bindJvmMeters() {
        new ClassLoaderMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        JvmGcMetrics gc = new JvmGcMetrics();
        gc.bindTo(registry);
        binders.add(gc);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
    }

    public SidecarConfig config() {
        return config;
    }

    public FeedConsumer<byte[], byte[]> consumer() {
        return consumer;
    }

    /** The Prometheus registry behind {@code /metrics}. */
    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** The HTTP port (the chosen one when configured as 0), or -1 when HTTP is off. */
    public int httpPort() {
        return http == null ? -1 : http.port();
    }

    /** The current readiness verdict (what {@code /readyz} answers). */
    public Readiness readiness() {
        return readiness.report();
    }

    /** Completes when the consumer stopped (closed, aborted or FAILED). */
    public CompletionStage<Void> terminated() {
        return consumer.terminated();
    }

    /**
     * Stops gracefully within {@code consumer.shutdown_timeout_ms}: no new reads, in-flight batches finish and
     * their cursors are committed, the sink flushes and closes; then the endpoints and connections close.
     * Idempotent.
     *
     * @return true when everything drained in time and the consumer had not failed
     */
    public boolean stop() {
        if (!stopped.compareAndSet(false, true)) {
            return clean;
        }
        long timeout = config.get(SidecarOptions.CONSUMER_SHUTDOWN_TIMEOUT_MS);
        long t0 = System.nanoTime();
        Thread closer = new Thread(consumer::close, "kevy-bridge-stop");
        closer.setDaemon(true);
        closer.start();
        boolean drained = false;
        try {
            consumer.terminated().toCompletableFuture().get(timeout, TimeUnit.MILLISECONDS);
            drained = true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warn("kevy bridge '{}': did not drain within {} ms (shutdown_timeout_ms); the next start delivers "
                    + "the unfinished batches again", consumer.name(), timeout);
        }
        clean = drained && consumer.failure().isEmpty();
        closeResources();
        LOG.info("kevy bridge '{}': stopped {} in {} ms", consumer.name(), clean ? "cleanly" : "UNCLEANLY",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
        return clean;
    }

    /** Stops as a crash would (no drain, no commit): for tests. */
    public void abort() {
        if (stopped.compareAndSet(false, true)) {
            consumer.abort();
            closeResources();
        }
    }

    private void closeResources() {
        readiness.close();
        if (http != null) {
            http.close();
        }
        try {
            store.close();
        } catch (RuntimeException e) {
            LOG.warn("closing {} failed: {}", store, e.toString());
        }
        source.close();
        for (AutoCloseable b : binders) {
            try {
                b.close();
            } catch (Exception ignored) {
                // meters only
            }
        }
        registry.close();
    }

    /** Same as {@link #stop()}. */
    @Override
    public void close() {
        stop();
    }
}
