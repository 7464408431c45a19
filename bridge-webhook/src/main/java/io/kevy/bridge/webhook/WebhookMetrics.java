package io.kevy.bridge.webhook;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The webhook sink's Micrometer meters; every meter has the tag {@code endpoint}
 * ({@link WebhookSettings#endpointName()}) and those of {@code WebhookSink.Builder.meterTags} (the sidecar adds
 * {@code consumer} and {@code sink}).
 *
 * <table>
 *   <caption>meters</caption>
 *   <tr><th>name</th><th>type</th><th>extra tags</th><th>what</th></tr>
 *   <tr><td>{@value #REQUESTS}</td><td>counter</td><td>status (the code, {@code timeout} or {@code error}),
 *       outcome ({@code success}, {@code retry}, {@code rejected}, {@code gone}, {@code failed})</td>
 *       <td>attempts by answer</td></tr>
 *   <tr><td>{@value #LATENCY}</td><td>timer</td><td></td><td>time of one attempt, sending to answer</td></tr>
 *   <tr><td>{@value #DELIVERY}</td><td>timer</td><td></td><td>time from a request's first attempt to its 2xx,
 *       retries included</td></tr>
 *   <tr><td>{@value #RETRIES}</td><td>counter</td><td></td><td>retries scheduled</td></tr>
 *   <tr><td>{@value #DEAD_LETTERS}</td><td>counter</td><td></td><td>requests written to the dead-letter
 *       file</td></tr>
 *   <tr><td>{@value #EVENTS}</td><td>counter</td><td></td><td>change envelopes accepted (2xx)</td></tr>
 *   <tr><td>{@value #ENABLED}</td><td>gauge</td><td></td><td>1 while the endpoint is enabled, 0 after
 *       410 Gone or a stop</td></tr>
 * </table>
 *
 * <p>Thread-safe.
 */
public final class WebhookMetrics {
    public static final String REQUESTS = "kevy.webhook.requests";
    public static final String LATENCY = "kevy.webhook.request.latency";
    public static final String DELIVERY = "kevy.webhook.delivery";
    public static final String RETRIES = "kevy.webhook.retries";
    public static final String DEAD_LETTERS = "kevy.webhook.dead.letters";
    public static final String EVENTS = "kevy.webhook.events";
    public static final String ENABLED = "kevy.webhook.endpoint.enabled";

    private final MeterRegistry registry;
    private final Tags tags;
    private final Timer latency;
    private final Timer delivery;
    private final Counter retries;
    private final Counter deadLetters;
    private final Counter events;

    WebhookMetrics(MeterRegistry registry, Tags tags, Supplier<Boolean> enabled) {
        this.registry = registry;
        this.tags = tags;
        this.latency = Timer.builder(LATENCY).tags(tags).description("one webhook attempt").register(registry);
        this.delivery = Timer.builder(DELIVERY).tags(tags).description("first attempt to 2xx").register(registry);
        this.retries = Counter.builder(RETRIES).tags(tags).description("webhook retries").register(registry);
        this.deadLetters = Counter.builder(DEAD_LETTERS).tags(tags).description("requests dead-lettered")
                .register(registry);
        this.events = Counter.builder(EVENTS).tags(tags).description("envelopes accepted").register(registry);
        Gauge.builder(ENABLED, () -> enabled.get() ? 1 : 0).tags(tags).description("endpoint enabled")
                .register(registry);
    }

    void attempt(Outcome o) {
        Counter.builder(REQUESTS).tags(tags).tag("status", o.statusTag())
                .tag("outcome", o.kind().name().toLowerCase(java.util.Locale.ROOT)).register(registry).increment();
        latency.record(o.nanos(), TimeUnit.NANOSECONDS);
    }

    void delivered(WebhookRequest r, long nanos) {
        delivery.record(nanos, TimeUnit.NANOSECONDS);
        events.increment(r.events());
    }

    void retry() {
        retries.increment();
    }

    void deadLetter() {
        deadLetters.increment();
    }
}
