package io.kevy.bridge.webhook;

import io.kevy.config.ConfigException;
import io.kevy.feed.client.envelope.ChangeEnvelopes;
import io.kevy.config.OptionValues;
import io.kevy.config.Option;
import io.kevy.feed.sidecar.SidecarSink;
import io.kevy.feed.sidecar.SinkContext;
import io.kevy.feed.sidecar.SinkProvider;
import io.micrometer.core.instrument.Tags;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@code [sink.webhook]}: the webhook sink in the sidecar runtime ({@code kevy bridge --config webhook.toml}).
 * Each option below is one key of the section; {@code docs/bridges.md} lists them with their defaults, and
 * {@code kevy bridge --sample-config webhook} prints a commented sample. Secrets ({@code secrets},
 * {@code bearer_token}, {@code headers}) are never printed; give them through the environment
 * ({@code KEVY_BRIDGE_SINK_WEBHOOK_SECRETS}, comma-separated; {@code KEVY_BRIDGE_SINK_WEBHOOK_BEARER_TOKEN}).
 * Stateless and thread-safe.
 */
public final class WebhookSinkProvider implements SinkProvider {
    /** The sink type. */
    public static final String TYPE = "webhook";
    private static final String S = "sink." + TYPE;

    public static final Option<String> URL = Option.string(S, "url", null,
            "The endpoint every request is POSTed to: http:// or https://, no user info (use bearer_token or headers "
                    + "for credentials). A query string is sent but never logged.", WebhookSinkProvider::url)
            .required().example("\"https://hooks.example.com/kevy\"");
    public static final Option<List<String>> SECRETS = Option.stringList(S, "secrets", List.of(),
            "Standard Webhooks signing secrets, whsec_<Base64 of 24 to 64 random bytes>, the current one first; "
                    + "each request carries one v1 signature per secret (rotation: add the new secret first, "
                    + "remove the old one once every receiver knows the new one). Make one with: "
                    + "echo whsec_$(openssl rand -base64 32). Never logged.",
            WebhookSigner::check).required().secret().example("[\"whsec_...\"]");
    public static final Option<String> BEARER_TOKEN = Option.string(S, "bearer_token", "",
            "Sent as Authorization: Bearer <token>; empty: no Authorization header. Never logged.").secret();
    public static final Option<java.util.Map<String, String>> HEADERS = Option.stringTable(S,
            "headers", "Extra static request headers (name = value), e.g. { \"X-Tenant\" = \"t1\" }. Not the ones "
                    + "the sink sets (webhook-*, content-type, authorization). Values are never logged.",
            WebhookSettings::checkHeaderName).secret();
    public static final Option<Long> MAX_BATCH = Option.integer(S, "max_batch",
            WebhookSettings.DEFAULT_MAX_BATCH, 1, 100_000, "Most change envelopes per request. A frame's envelopes "
                    + "(an MSET split per key) always travel in one request.");
    public static final Option<Long> MAX_BYTES = Option.integer(S, "max_bytes",
            WebhookSettings.DEFAULT_MAX_BYTES, 1024, 64L << 20, "Most body bytes per request; a single larger "
                    + "change is sent alone.");
    public static final Option<Long> CONNECT_TIMEOUT_MS = Option.integer(S, "connect_timeout_ms",
            WebhookSettings.DEFAULT_CONNECT_TIMEOUT.toMillis(), 1, 600_000, "Time to open a connection.");
    public static final Option<Long> REQUEST_TIMEOUT_MS = Option.integer(S, "request_timeout_ms",
            WebhookSettings.DEFAULT_REQUEST_TIMEOUT.toMillis(), 1, 3_600_000,
            "Time from sending a request to its answer; a timed-out request is retried.");
    public static final Option<Long> RETRY_INITIAL_MS = Option.integer(S, "retry_initial_ms",
            WebhookSettings.DEFAULT_RETRY_INITIAL.toMillis(), 1, 3_600_000,
            "First retry delay after a connection error, a timeout, 408, 429 or 5xx; doubles per retry with "
                    + "±retry_jitter_percent up to retry_max_ms.");
    public static final Option<Long> RETRY_MAX_MS = Option.integer(S, "retry_max_ms",
            WebhookSettings.DEFAULT_RETRY_MAX.toMillis(), 1, 86_400_000, "Longest retry delay (jitter included).");
    public static final Option<Long> RETRY_JITTER_PERCENT = Option.integer(S, "retry_jitter_percent",
            Math.round(WebhookSettings.DEFAULT_RETRY_JITTER * 100), 0, 99, "Random spread of each retry delay, ±.");
    public static final Option<Long> MAX_ATTEMPTS = Option.integer(S, "max_attempts",
            WebhookSettings.DEFAULT_MAX_ATTEMPTS, 0, 1_000_000, "Attempts per request before the batch fails "
                    + "(then consumer.batch_retries and consumer.failure_policy apply); 0 retries until the endpoint "
                    + "answers (raise consumer.delivery_timeout_ms to ride out outages longer than it).");
    public static final Option<Long> RETRY_AFTER_MAX_MS = Option.integer(S, "retry_after_max_ms",
            WebhookSettings.DEFAULT_RETRY_AFTER_MAX.toMillis(), 1, 86_400_000,
            "A Retry-After header (seconds or HTTP-date) on 408, 429 or 5xx sets the next delay, cut to this.");
    public static final Option<String> ON_REJECTED = Option.oneOf(S, "on_rejected",
            WebhookSettings.DEFAULT_ON_REJECTED.word(), List.of("dead_letter", "stop"),
            "Any other answer (4xx but 408, 410, 429; 3xx): dead_letter appends the request with the status and "
                    + "the start of the answer to dead_letter_path and goes on; stop fails the batch without retry "
                    + "(consumer.failure_policy applies). 410 Gone always disables the endpoint: nothing more is "
                    + "sent and /readyz fails.");
    public static final Option<String> DEAD_LETTER_PATH = Option.nonBlank(S, "dead_letter_path",
            WebhookSettings.DEFAULT_DEAD_LETTER_FILE.toString(),
            "JSON-lines file of rejected requests (time, endpoint, webhookId, type, status, response, events, "
                    + "payload), fsynced before the cursor moves past them.");
    public static final Option<Boolean> PER_KEY = Option.bool(S, "per_key",
            WebhookSettings.DEFAULT_PER_KEY, "One envelope per key (MSET pairs, multi-key DEL and RENAME split, as "
                    + "the Kafka bridge's records); false: one envelope per frame.");
    public static final Option<String> ENDPOINT_NAME = Option.string(S, "endpoint_name", "",
            "The endpoint tag of the metrics and its name in logs; empty: the url without query.");

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public List<Option<?>> options() {
        return List.of(URL, SECRETS, BEARER_TOKEN, HEADERS, MAX_BATCH, MAX_BYTES, CONNECT_TIMEOUT_MS,
                REQUEST_TIMEOUT_MS, RETRY_INITIAL_MS, RETRY_MAX_MS, RETRY_JITTER_PERCENT, MAX_ATTEMPTS,
                RETRY_AFTER_MAX_MS, ON_REJECTED, DEAD_LETTER_PATH, PER_KEY, ENDPOINT_NAME);
    }

    @Override
    public void validate(OptionValues values) {
        if (values.get(SECRETS).isEmpty()) {
            throw values.error(SECRETS, "at least one whsec_ secret is required");
        }
        if (values.get(RETRY_MAX_MS) < values.get(RETRY_INITIAL_MS)) {
            throw values.error(RETRY_MAX_MS, "must not be below " + S + ".retry_initial_ms");
        }
        settings(values);
    }

    @Override
    public SidecarSink open(SinkContext context) {
        WebhookSettings settings = settings(context.values());
        WebhookSink<byte[], byte[]> sink = WebhookSink.builder(settings)
                .envelopes(ChangeEnvelopes.forSource(context.authority(), context.clock()))
                .meterRegistry(context.registry())
                .meterTags(Tags.of("consumer", context.consumer(), "sink", TYPE))
                .clock(context.clock())
                .build();
        return new WebhookSidecarSink(sink);
    }

    /**
     * The sink's settings from the section's values.
     *
     * @throws ConfigException naming the option when a value does not work
     */
    static WebhookSettings settings(OptionValues v) {
        String token = v.get(BEARER_TOKEN);
        WebhookSettings.Builder b = WebhookSettings.builder(URI.create(v.get(URL)))
                .secrets(v.get(SECRETS))
                .bearerToken(token.isEmpty() ? null : token)
                .headers(v.get(HEADERS))
                .maxBatch(v.get(MAX_BATCH).intValue())
                .maxBytes(v.get(MAX_BYTES))
                .connectTimeout(Duration.ofMillis(v.get(CONNECT_TIMEOUT_MS)))
                .requestTimeout(Duration.ofMillis(v.get(REQUEST_TIMEOUT_MS)))
                .retryBackoff(Duration.ofMillis(v.get(RETRY_INITIAL_MS)), Duration.ofMillis(v.get(RETRY_MAX_MS)),
                        WebhookSettings.DEFAULT_RETRY_MULTIPLIER, v.get(RETRY_JITTER_PERCENT) / 100.0)
                .maxAttempts(v.get(MAX_ATTEMPTS).intValue())
                .retryAfterMax(Duration.ofMillis(v.get(RETRY_AFTER_MAX_MS)))
                .onRejected(WebhookSettings.OnRejected.ofWord(v.get(ON_REJECTED)))
                .deadLetterFile(Path.of(v.get(DEAD_LETTER_PATH)))
                .perKey(v.get(PER_KEY))
                .endpointName(v.get(ENDPOINT_NAME));
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            // the per-option parsers checked each value; what is left concerns the headers' values
            throw v.error(HEADERS, e.getMessage());
        }
    }

    private static String url(String s) {
        try {
            return WebhookSettings.checkUrl(new URI(s.trim())).toString();
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a URL: " + e.getReason());
        }
    }
}
