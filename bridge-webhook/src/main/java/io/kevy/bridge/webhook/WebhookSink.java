package io.kevy.bridge.webhook;

import io.github.resilience4j.core.IntervalBiFunction;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.kevy.feed.client.Batch;
import io.kevy.feed.client.RebuildResult;
import io.kevy.feed.client.RebuildScope;
import io.kevy.feed.client.Sink;
import io.kevy.feed.client.SinkException;
import io.kevy.feed.client.envelope.ChangeEnvelopes;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Sink} that POSTs the feed to one HTTP endpoint as Standard Webhooks (https://www.standardwebhooks.com):
 *
 * <pre>{@code
 * WebhookSettings settings = WebhookSettings.builder(URI.create("https://hooks.example.com/kevy"))
 *     .secrets(System.getenv("KEVY_WEBHOOK_SECRET"))
 *     .build();
 * FeedConsumer<String, String> consumer = FeedConsumer.builder(StringCodec.UTF8)
 *     .source(source).name("webhook")
 *     .sink(WebhookSink.builder(settings).envelopes(ChangeEnvelopes.forSource(source.authority()))
 *         .meterRegistry(registry).build())
 *     .deliveryTimeout(Duration.ofDays(3650))   // an outage holds the feed: let the sink retry
 *     .build();
 * }</pre>
 *
 * <ul>
 *   <li>Requests: a batch becomes one or more POSTs of at most {@code maxBatch} envelopes and {@code maxBytes}
 *       bytes; the body is a Standard Webhooks payload whose {@code data.events} are the change envelopes
 *       ({@code docs/bridges.md}). A shard's requests are sent one at a time, in order, each only after the
 *       previous one was accepted or dead-lettered: a receiver sees each shard's changes in offset order.
 *       Different shards are sent concurrently.</li>
 *   <li>Headers: {@code webhook-id} (stable for the same content: {@code shard:generation:first-last} for
 *       changes), {@code webhook-timestamp} (seconds, renewed per attempt), {@code webhook-signature} (one
 *       {@code v1} signature per secret, {@link WebhookSigner}), {@code content-type: application/json}, the
 *       bearer token and the extra static headers.</li>
 *   <li>Answers: 2xx accepts the request; connection errors, timeouts, 408, 429 and 5xx are retried with
 *       resilience4j (exponential backoff with jitter, capped; a {@code Retry-After} in seconds or as an
 *       HTTP-date sets the next delay, up to {@code retryAfterMax}); 410 Gone disables the endpoint (the batch
 *       fails without retry, readiness turns false, nothing more is sent); any other answer rejects the
 *       request: it goes to the dead-letter file and delivery goes on, or the batch fails for good
 *       ({@link WebhookSettings.OnRejected}).</li>
 *   <li>Completion: {@link #deliver} completes when every request of the batch was accepted (or dead-lettered),
 *       so the consumer commits the cursor only then; it fails retryable when {@code maxAttempts} ran out.</li>
 *   <li>Rebuilds: {@link #beginRebuild} sends an {@code io.kevy.resync.begin} request (one marker envelope per
 *       rebuilt shard), SNAPSHOT batches {@code io.kevy.snapshot} requests, {@link #endRebuild}
 *       {@code io.kevy.resync.end}.</li>
 * </ul>
 *
 * <p>A delivery for a shard that arrives while an earlier one of that shard is still retrying (the consumer's
 * {@code deliveryTimeout} expired) supersedes it: the earlier one stops before its next attempt and the new one
 * starts after the earlier one's request in flight, if any, ended. Secrets, the bearer token and header values
 * are never logged. Thread-safe.
 *
 * @param <K> key type of the consumer's codec (envelopes use the raw bytes)
 * @param <V> value type of the consumer's codec
 */
public final class WebhookSink<K, V> implements Sink<K, V> {
    private static final Logger LOG = LoggerFactory.getLogger(WebhookSink.class);
    /** The response body bytes kept for logs and dead letters: 1024. */
    public static final int EXCERPT_BYTES = 1024;
    private static final int REBUILD_LANE = -1;
    private static final String USER_AGENT = "kevy-bridge-webhook";

    private final WebhookSettings settings;
    private final String endpoint;
    private final WebhookSigner signer;
    private final Payloads payloads;
    private final HttpClient http;
    private final Clock clock;
    private final Retry retry;
    private final ScheduledExecutorService timer;
    private final DeadLetterFile deadLetters;
    private final WebhookMetrics metrics;
    private final Excerpt excerpt = new Excerpt(EXCERPT_BYTES);
    private final Map<Integer, Lane> lanes = new ConcurrentHashMap<>();
    private final AtomicReference<EndpointHealth.State> state =
            new AtomicReference<>(EndpointHealth.State.ACTIVE);
    private final AtomicLong failures = new AtomicLong();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile int lastStatus = -1;
    private volatile String lastError;
    private volatile Instant lastSuccess;

    private WebhookSink(Builder b) {
        this.settings = b.settings;
        this.endpoint = settings.endpointName();
        this.signer = settings.signer();
        this.clock = b.clock;
        this.payloads = new Payloads(b.envelopes, settings, clock);
        this.http = b.httpClient != null ? b.httpClient : HttpClient.newBuilder()
                .connectTimeout(settings.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .version(settings.url().getScheme().equalsIgnoreCase("https") ? HttpClient.Version.HTTP_2
                        : HttpClient.Version.HTTP_1_1)
                .build();
        this.retry = Retry.of("webhook " + endpoint, retryConfig(settings));
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kevy-webhook-retry");
            t.setDaemon(true);
            return t;
        });
        this.deadLetters = new DeadLetterFile(settings.deadLetterFile());
        this.metrics = new WebhookMetrics(b.registry, b.tags.and("endpoint", endpoint), () -> ready());
        LOG.info("webhook sink for {}: {}", endpoint, settings);
    }

    /**
     * The retry policy: attempts while the outcome is {@link Outcome.Kind#RETRY}, up to {@code maxAttempts} (0 =
     * no limit); the delay is the capped exponential backoff with jitter, or the {@code Retry-After} the answer
     * asked for (cut to {@code retryAfterMax}, at least {@code retryInitial}).
     */
    static RetryConfig retryConfig(WebhookSettings s) {
        IntervalFunction backoff = IntervalFunction.ofExponentialRandomBackoff(s.retryInitial(),
                s.retryMultiplier(), s.retryJitter(), s.retryMax());
        IntervalBiFunction<Outcome> interval = (attempt, outcome) -> {
            if (outcome.isRight() && outcome.get().retryAfter() != null) {
                Duration d = outcome.get().retryAfter();
                d = d.compareTo(s.retryAfterMax()) > 0 ? s.retryAfterMax() : d;
                return Math.max(d.toMillis(), s.retryInitial().toMillis());
            }
            return backoff.apply(attempt);
        };
        return RetryConfig.<Outcome>custom()
                .maxAttempts(s.maxAttempts() == 0 ? Integer.MAX_VALUE : s.maxAttempts())
                .retryOnResult(o -> o.kind() == Outcome.Kind.RETRY)
                .retryOnException(e -> false)
                .intervalBiFunction(interval)
                .build();
    }

    /** The resilience4j retry of this sink's endpoint (its events tell each computed delay). */
    Retry retry() {
        return retry;
    }

    /** A builder of a sink with {@code settings}. */
    public static Builder builder(WebhookSettings settings) {
        return new Builder(settings);
    }

    public WebhookSettings settings() {
        return settings;
    }

    /** The endpoint's state, last answer and failures. */
    public EndpointHealth health() {
        EndpointHealth.State s = state.get();
        if (closed.get() && (s == EndpointHealth.State.ACTIVE || s == EndpointHealth.State.RETRYING)) {
            s = EndpointHealth.State.CLOSED;
        }
        return new EndpointHealth(endpoint, s, lastStatus, lastError, lastSuccess, failures.get());
    }

    /** False once the endpoint is disabled (410 Gone), stopped (a rejection with {@code stop}) or closed. */
    public boolean ready() {
        return health().ready();
    }

    @Override
    public CompletionStage<Void> deliver(Batch<K, V> batch) {
        List<WebhookRequest> requests;
        try {
            requests = payloads.of(batch);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(new SinkException("webhook " + endpoint + ": could not encode "
                    + batch + ": " + e, e, false));
        }
        if (requests.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return submit(batch.kind() == Batch.Kind.CHANGES ? batch.shard() : REBUILD_LANE, requests);
    }

    @Override
    public CompletionStage<Void> beginRebuild(RebuildScope scope) {
        return submit(REBUILD_LANE, List.of(payloads.begin(scope)));
    }

    @Override
    public CompletionStage<Void> endRebuild(RebuildScope scope, RebuildResult result) {
        return submit(REBUILD_LANE, List.of(payloads.end(scope, result)));
    }

    private CompletionStage<Void> submit(int lane, List<WebhookRequest> requests) {
        if (closed.get()) {
            return CompletableFuture.failedFuture(new SinkException("webhook " + endpoint + ": the sink is closed",
                    false));
        }
        return lanes.computeIfAbsent(lane, l -> new Lane()).submit(new Job(requests));
    }

    /**
     * Stops: no new attempts; a request in flight may finish (up to the request timeout); waiting retries are
     * abandoned (their batches were not accepted, so their cursors were not committed).
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        CompletableFuture<?>[] idle = lanes.values().stream().map(Lane::cancel).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(idle).get(settings.requestTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("webhook {}: requests still in flight at close", endpoint);
        }
        timer.shutdownNow();
        try {
            deadLetters.close();
        } catch (IOException e) {
            LOG.warn("webhook {}: closing the dead-letter file {} failed: {}", endpoint, deadLetters.path(),
                    e.toString());
        }
    }

    @Override
    public String toString() {
        return "WebhookSink[" + endpoint + ", " + state.get() + "]";
    }

    private HttpRequest httpRequest(WebhookRequest r) {
        long ts = clock.instant().getEpochSecond();
        HttpRequest.Builder b = HttpRequest.newBuilder(settings.url())
                .timeout(settings.requestTimeout())
                .header("content-type", ChangeEnvelopes.CONTENT_TYPE)
                .header("user-agent", USER_AGENT)
                .header("webhook-id", r.id())
                .header("webhook-timestamp", Long.toString(ts))
                .header("webhook-signature", signer.sign(r.id(), ts, r.body()));
        if (settings.bearerToken() != null) {
            b.header("authorization", "Bearer " + settings.bearerToken());
        }
        settings.headers().forEach(b::header);
        return b.POST(HttpRequest.BodyPublishers.ofByteArray(r.body())).build();
    }

    private void succeeded() {
        long failed = failures.getAndSet(0);
        lastSuccess = clock.instant();
        if (state.compareAndSet(EndpointHealth.State.RETRYING, EndpointHealth.State.ACTIVE)) {
            LOG.info("webhook {}: delivering again after {} failed attempt(s)", endpoint, failed);
        }
    }

    private void failed(Outcome o) {
        failures.incrementAndGet();
        lastError = o.describe();
        if (o.kind() == Outcome.Kind.RETRY) {
            state.compareAndSet(EndpointHealth.State.ACTIVE, EndpointHealth.State.RETRYING);
        }
    }

    /** The start of a response body for a log line. */
    private static String shortExcerpt(Outcome o) {
        String e = o.excerpt().replaceAll("\\s+", " ").trim();
        return e.isEmpty() ? "" : ": " + (e.length() > 200 ? e.substring(0, 200) + "..." : e);
    }

    /** Moves to a final state (DISABLED, STOPPED) unless already final. */
    private void halt(EndpointHealth.State to) {
        state.updateAndGet(s -> s == EndpointHealth.State.ACTIVE || s == EndpointHealth.State.RETRYING ? to : s);
    }

    private static Throwable unwrap(Throwable e) {
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    /**
     * One shard's (or the rebuild's) sequence of deliveries: a job starts only after the previous one has no
     * request in flight any more.
     */
    private final class Lane {
        private CompletableFuture<Void> idle = CompletableFuture.completedFuture(null);
        private Job current;

        synchronized CompletableFuture<Void> submit(Job job) {
            if (current != null) {
                current.cancel();
            }
            current = job;
            CompletableFuture<Void> previous = idle;
            idle = job.finished;
            previous.whenComplete((v, e) -> job.next());
            return job.result;
        }

        synchronized CompletableFuture<Void> cancel() {
            if (current != null) {
                current.cancel();
            }
            return idle;
        }
    }

    /** The requests of one delivery, sent in order, each retried until accepted, rejected or given up. */
    private final class Job {
        private final List<WebhookRequest> requests;
        /** The delivery's stage: completes when every request was accepted or dead-lettered. */
        final CompletableFuture<Void> result = new CompletableFuture<>();
        /** Completes when the job will send nothing more (whatever the result). */
        final CompletableFuture<Void> finished = new CompletableFuture<>();
        private int index;
        private int attempt;
        private long firstAttemptNanos;
        private Retry.AsyncContext<Outcome> ctx;
        private ScheduledFuture<?> waiting;
        private boolean cancelled;

        Job(List<WebhookRequest> requests) {
            this.requests = requests;
        }

        /** Starts the next request (or finishes when there is none). */
        void next() {
            WebhookRequest r;
            synchronized (this) {
                if (index == requests.size()) {
                    r = null;
                } else {
                    r = requests.get(index);
                    ctx = retry.asyncContext();
                    attempt = 0;
                    firstAttemptNanos = System.nanoTime();
                }
            }
            if (r == null) {
                done(null);
            } else {
                send(r);
            }
        }

        private void send(WebhookRequest r) {
            Throwable stop = null;
            synchronized (this) {
                waiting = null;
                EndpointHealth.State s = state.get();
                if (cancelled || closed.get()) {
                    stop = new CancellationException("webhook " + endpoint + ": delivery of " + r.id()
                            + " abandoned (superseded or closed)");
                } else if (s == EndpointHealth.State.DISABLED) {
                    stop = new SinkException("webhook " + endpoint + " is disabled (it answered 410 Gone); fix the "
                            + "url and restart", false);
                } else if (s == EndpointHealth.State.STOPPED) {
                    stop = new SinkException("webhook " + endpoint + " stopped after a rejected request", false);
                } else {
                    attempt++;
                }
            }
            if (stop != null) {
                done(stop);
                return;
            }
            long t0 = System.nanoTime();
            CompletableFuture<HttpResponse<String>> f;
            try {
                f = http.sendAsync(httpRequest(r), excerpt);
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            f.whenComplete((resp, err) -> {
                long nanos = System.nanoTime() - t0;
                Outcome o = resp != null
                        ? Outcome.of(resp.statusCode(), resp.body(),
                                RetryAfter.parse(resp.headers().firstValue("retry-after").orElse(null),
                                        clock.instant()), nanos)
                        : Outcome.of(unwrap(err), nanos);
                try {
                    handle(r, o);
                } catch (RuntimeException | Error e) {
                    LOG.error("webhook {}: handling the answer to {} failed", endpoint, r.id(), e);
                    done(e);
                }
            });
        }

        private void handle(WebhookRequest r, Outcome o) {
            metrics.attempt(o);
            lastStatus = o.status();
            switch (o.kind()) {
                case SUCCESS:
                    ctx.onComplete();
                    succeeded();
                    metrics.delivered(r, System.nanoTime() - firstAttemptNanos);
                    advance();
                    return;
                case RETRY:
                    failed(o);
                    long delay = ctx.onResult(o);
                    if (delay < 0) {
                        LOG.warn("webhook {}: {} failed {} time(s), last {}; giving up on this batch", endpoint,
                                r.id(), attempt, o.describe());
                        done(new SinkException("webhook " + endpoint + ": " + r.id() + " failed " + attempt
                                + " time(s), last " + o.describe(), o.error(), true));
                        return;
                    }
                    metrics.retry();
                    if (attempt <= 3 || attempt % 10 == 0) {
                        LOG.warn("webhook {}: {} got {} (attempt {}), retrying in {} ms", endpoint, r.id(),
                                o.describe(), attempt, delay);
                    }
                    schedule(r, delay);
                    return;
                case GONE:
                    failed(o);
                    halt(EndpointHealth.State.DISABLED);
                    LOG.error("webhook {}: {} answered 410 Gone: endpoint disabled, nothing more is sent, the "
                            + "cursor stays before this batch; fix the url and restart", endpoint, r.id());
                    done(new SinkException("webhook " + endpoint + " answered 410 Gone: endpoint disabled", false));
                    return;
                case REJECTED:
                    failed(o);
                    reject(r, o);
                    return;
                default:
                    failed(o);
                    LOG.error("webhook {}: sending {} failed: {}", endpoint, r.id(), o.describe(), o.error());
                    done(new SinkException("webhook " + endpoint + ": sending " + r.id() + " failed: "
                            + o.describe(), o.error(), false));
            }
        }

        private void reject(WebhookRequest r, Outcome o) {
            if (settings.onRejected() == WebhookSettings.OnRejected.STOP) {
                halt(EndpointHealth.State.STOPPED);
                LOG.error("webhook {}: {} rejected with {}{}; on_rejected = stop: the batch fails, the cursor "
                        + "stays before it", endpoint, r.id(), o.describe(), shortExcerpt(o));
                done(new SinkException("webhook " + endpoint + " rejected " + r.id() + " with " + o.describe(),
                        false));
                return;
            }
            try {
                deadLetters.append(endpoint, r, o, clock.instant());
            } catch (IOException e) {
                LOG.error("webhook {}: {} was rejected with {} and writing it to {} failed: {}", endpoint, r.id(),
                        o.describe(), deadLetters.path(), e.toString());
                done(new SinkException("webhook " + endpoint + ": dead-letter file " + deadLetters.path()
                        + " failed: " + e, e, true));
                return;
            }
            metrics.deadLetter();
            LOG.warn("webhook {}: {} rejected with {}{}; {} event(s) written to {}, going on", endpoint, r.id(),
                    o.describe(), shortExcerpt(o), r.events(), deadLetters.path());
            advance();
        }

        private void advance() {
            synchronized (this) {
                index++;
            }
            next();
        }

        private void schedule(WebhookRequest r, long delayMillis) {
            boolean stop;
            synchronized (this) {
                stop = cancelled;
                if (!stop) {
                    try {
                        waiting = timer.schedule(() -> send(r), delayMillis, TimeUnit.MILLISECONDS);
                    } catch (java.util.concurrent.RejectedExecutionException e) {
                        stop = true;
                    }
                }
            }
            if (stop) {
                done(new CancellationException("webhook " + endpoint + ": retry of " + r.id() + " abandoned"));
            }
        }

        /** Stops before the next attempt; a waiting retry ends at once, a request in flight ends first. */
        void cancel() {
            ScheduledFuture<?> w;
            synchronized (this) {
                if (cancelled || finished.isDone()) {
                    return;
                }
                cancelled = true;
                w = waiting;
            }
            if (w != null && w.cancel(false)) {
                done(new CancellationException("webhook " + endpoint + ": delivery abandoned while waiting to retry"));
            }
        }

        private void done(Throwable error) {
            if (error == null) {
                result.complete(null);
            } else {
                result.completeExceptionally(error);
            }
            finished.complete(null);
        }
    }

    /** Builds a {@link WebhookSink}. Not thread-safe. */
    public static final class Builder {
        private final WebhookSettings settings;
        private ChangeEnvelopes envelopes;
        private MeterRegistry registry;
        private HttpClient httpClient;
        private Clock clock = Clock.systemUTC();
        private Tags tags = Tags.empty();

        private Builder(WebhookSettings settings) {
            this.settings = Objects.requireNonNull(settings, "settings");
        }

        /** Required: how changes become envelopes ({@code ChangeEnvelopes.forSource(source.authority())}). */
        public Builder envelopes(ChangeEnvelopes envelopes) {
            this.envelopes = Objects.requireNonNull(envelopes, "envelopes");
            return this;
        }

        /** Where the meters go ({@link WebhookMetrics}); default: a private {@link SimpleMeterRegistry}. */
        public Builder meterRegistry(MeterRegistry registry) {
            this.registry = Objects.requireNonNull(registry, "registry");
            return this;
        }

        /**
         * The HTTP client (for TLS settings, a proxy ...); it should not follow redirects. Default: a client with
         * the settings' connect timeout, no redirects, HTTP/1.1 for {@code http}, HTTP/2 for {@code https}.
         */
        public Builder httpClient(HttpClient client) {
            this.httpClient = Objects.requireNonNull(client, "client");
            return this;
        }

        /** Tags added to every meter besides {@code endpoint} (e.g. {@code consumer}, {@code sink}). */
        public Builder meterTags(Iterable<Tag> tags) {
            this.tags = Tags.of(Objects.requireNonNull(tags, "tags"));
            return this;
        }

        /** The clock of {@code webhook-timestamp}, dead-letter times and health (default: system UTC). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * The sink.
         *
         * @throws IllegalStateException when {@link #envelopes} was not set
         */
        public <K, V> WebhookSink<K, V> build() {
            if (envelopes == null) {
                throw new IllegalStateException("envelopes is required (ChangeEnvelopes.forSource(authority))");
            }
            if (registry == null) {
                registry = new SimpleMeterRegistry();
            }
            return new WebhookSink<>(this);
        }
    }
}
