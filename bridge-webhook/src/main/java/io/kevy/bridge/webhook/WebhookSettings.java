package io.kevy.bridge.webhook;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The options of a {@link WebhookSink}: where to POST, how to sign and authenticate, how big a request may be,
 * timeouts, the retry policy and what to do with a rejected batch. Immutable; build with {@link #builder(URI)}.
 * {@link #toString()} never shows secrets, the bearer token or extra header values.
 *
 * @param url             the endpoint; {@code http} or {@code https}
 * @param secrets         the signing secrets, {@code whsec_<Base64>}, current first (several while rotating)
 * @param bearerToken     sent as {@code Authorization: Bearer <token>}; null for none
 * @param headers         extra static request headers (name → value)
 * @param maxBatch        most change envelopes per request (a frame's envelopes are never split, see
 *                        {@link Builder#maxBatch})
 * @param maxBytes        most body bytes per request (a single larger change is sent alone)
 * @param connectTimeout  to open a connection
 * @param requestTimeout  from sending a request to its response
 * @param retryInitial    the first retry delay
 * @param retryMax        the longest retry delay (jitter included)
 * @param retryMultiplier how much each retry delay grows
 * @param retryJitter     the random spread of a delay, ± this fraction
 * @param maxAttempts     attempts per request before the batch fails (retryable), 0 = no limit
 * @param retryAfterMax   the longest {@code Retry-After} honoured; longer ones are cut to it
 * @param onRejected      what a non-retryable answer (other 4xx, 3xx) does
 * @param deadLetterFile  where {@link OnRejected#DEAD_LETTER} appends rejected requests (JSON lines)
 * @param perKey          one envelope per key (MSET pairs, multi-key DEL, RENAME split) or one per frame
 * @param endpointName    the {@code endpoint} tag of the metrics and the name in logs
 */
public record WebhookSettings(URI url, List<String> secrets, String bearerToken, Map<String, String> headers,
        int maxBatch, long maxBytes, Duration connectTimeout, Duration requestTimeout, Duration retryInitial,
        Duration retryMax, double retryMultiplier, double retryJitter, int maxAttempts, Duration retryAfterMax,
        OnRejected onRejected, Path deadLetterFile, boolean perKey, String endpointName) {

    /** Default {@link Builder#maxBatch}: 500 envelopes. */
    public static final int DEFAULT_MAX_BATCH = 500;
    /** Default {@link Builder#maxBytes}: 1 MiB. */
    public static final long DEFAULT_MAX_BYTES = 1L << 20;
    /** Default {@link Builder#connectTimeout}: 5 s. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** Default {@link Builder#requestTimeout}: 30 s (Standard Webhooks recommends 15 to 30 s). */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);
    /** Default first retry delay: 500 ms. */
    public static final Duration DEFAULT_RETRY_INITIAL = Duration.ofMillis(500);
    /** Default longest retry delay: 30 s. */
    public static final Duration DEFAULT_RETRY_MAX = Duration.ofSeconds(30);
    /** Default retry delay multiplier: 2. */
    public static final double DEFAULT_RETRY_MULTIPLIER = 2.0;
    /** Default retry jitter: ±50%. */
    public static final double DEFAULT_RETRY_JITTER = 0.5;
    /** Default {@link Builder#maxAttempts}: 0, retry without limit (the endpoint's outage holds the feed). */
    public static final int DEFAULT_MAX_ATTEMPTS = 0;
    /** Default {@link Builder#retryAfterMax}: 10 min. */
    public static final Duration DEFAULT_RETRY_AFTER_MAX = Duration.ofMinutes(10);
    /** Default {@link Builder#onRejected}: {@link OnRejected#DEAD_LETTER}. */
    public static final OnRejected DEFAULT_ON_REJECTED = OnRejected.DEAD_LETTER;
    /** Default {@link Builder#deadLetterFile}: {@code webhook-dead-letters.jsonl} in the working directory. */
    public static final Path DEFAULT_DEAD_LETTER_FILE = Path.of("webhook-dead-letters.jsonl");
    /** Default {@link Builder#perKey}: true, one envelope per key (as the Kafka bridge's records). */
    public static final boolean DEFAULT_PER_KEY = true;

    /** Headers the sink sets itself or the JDK HTTP client refuses. */
    private static final Set<String> RESERVED = Set.of("webhook-id", "webhook-timestamp", "webhook-signature",
            "content-type", "content-length", "host", "connection", "expect", "upgrade", "authorization");

    /** What a non-retryable answer does. */
    public enum OnRejected {
        /** Append the request to the dead-letter file and go on with the next one (the cursor moves on). */
        DEAD_LETTER,
        /** Fail the batch without retrying: the consumer stops with the cursor before it. */
        STOP;

        /** The config word: {@code dead_letter} or {@code stop}. */
        public String word() {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * The value of a config word.
         *
         * @throws IllegalArgumentException for another word
         */
        public static OnRejected ofWord(String word) {
            for (OnRejected o : values()) {
                if (o.word().equals(word)) {
                    return o;
                }
            }
            throw new IllegalArgumentException("on_rejected must be dead_letter or stop, got '" + word + "'");
        }
    }

    /**
     * Checks every value.
     *
     * @throws IllegalArgumentException when a value is out of range (the message names the option)
     */
    public WebhookSettings {
        checkUrl(url);
        secrets = List.copyOf(secrets);
        WebhookSigner.of(secrets);
        if (bearerToken != null && (bearerToken.isBlank() || bearerToken.contains("\n"))) {
            throw new IllegalArgumentException("bearer_token must not be blank or contain a line break");
        }
        Map<String, String> h = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : headers.entrySet()) {
            checkHeaderName(e.getKey());
            if (e.getValue() == null || e.getValue().contains("\n") || e.getValue().contains("\r")) {
                throw new IllegalArgumentException("header '" + e.getKey() + "' has no value or a line break");
            }
            h.put(e.getKey(), e.getValue());
        }
        headers = java.util.Collections.unmodifiableMap(h);
        if (maxBatch < 1 || maxBatch > 100_000) {
            throw new IllegalArgumentException("max_batch must be in [1, 100000], got " + maxBatch);
        }
        if (maxBytes < 1024) {
            throw new IllegalArgumentException("max_bytes must be at least 1024, got " + maxBytes);
        }
        positive(connectTimeout, "connect_timeout");
        positive(requestTimeout, "request_timeout");
        positive(retryInitial, "retry_initial");
        positive(retryMax, "retry_max");
        if (retryMax.compareTo(retryInitial) < 0) {
            throw new IllegalArgumentException("retry_max " + retryMax.toMillis() + " ms is below retry_initial "
                    + retryInitial.toMillis() + " ms");
        }
        if (!(retryMultiplier >= 1.0 && retryMultiplier <= 10.0)) {
            throw new IllegalArgumentException("retry_multiplier must be in [1, 10], got " + retryMultiplier);
        }
        if (!(retryJitter >= 0.0 && retryJitter < 1.0)) {
            throw new IllegalArgumentException("retry_jitter must be in [0, 1), got " + retryJitter);
        }
        if (maxAttempts < 0) {
            throw new IllegalArgumentException("max_attempts must be >= 0 (0 = no limit), got " + maxAttempts);
        }
        positive(retryAfterMax, "retry_after_max");
        Objects.requireNonNull(onRejected, "onRejected");
        Objects.requireNonNull(deadLetterFile, "deadLetterFile");
        if (endpointName == null || endpointName.isBlank()) {
            endpointName = defaultName(url);
        }
    }

    /**
     * Checks an endpoint URL: {@code http} or {@code https} with a host, no user info, no fragment.
     *
     * @throws IllegalArgumentException with the reason (the message never shows user info or the query)
     */
    public static URI checkUrl(URI url) {
        Objects.requireNonNull(url, "url");
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || url.getHost() == null) {
            throw new IllegalArgumentException("url must be an http:// or https:// URL with a host, got " + safe(url));
        }
        if (url.getRawUserInfo() != null || url.getRawFragment() != null) {
            throw new IllegalArgumentException("url must not have user info or a fragment (use bearer_token or "
                    + "headers for credentials), got " + safe(url));
        }
        return url;
    }

    /**
     * Checks an extra header's name: an HTTP token that the sink does not set itself.
     *
     * @throws IllegalArgumentException with the reason
     */
    public static String checkHeaderName(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (!lower.matches("[a-z0-9!#$%&'*+.^_`|~-]+")) {
            throw new IllegalArgumentException("header name '" + name + "' is not a valid HTTP token");
        }
        if (RESERVED.contains(lower)) {
            throw new IllegalArgumentException("header '" + name + "' is set by the sink itself"
                    + (lower.equals("authorization") ? " (use bearer_token)" : ""));
        }
        return name;
    }

    private static void positive(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, got " + d.toMillis() + " ms");
        }
    }

    /** {@code scheme://host[:port]/path}: the URL without user info, query and fragment (which may hold secrets). */
    static String defaultName(URI url) {
        return url.getScheme().toLowerCase(Locale.ROOT) + "://" + url.getHost()
                + (url.getPort() >= 0 ? ":" + url.getPort() : "") + (url.getRawPath() == null ? "" : url.getRawPath());
    }

    private static String safe(URI url) {
        return url.getScheme() == null || url.getHost() == null ? "'" + url.getScheme() + ":...' (no scheme or host)"
                : defaultName(url);
    }

    /** A builder for the endpoint {@code url} with every other option at its default. */
    public static Builder builder(URI url) {
        return new Builder(url);
    }

    /** A builder holding these settings. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** The signer of these settings' secrets. */
    public WebhookSigner signer() {
        return WebhookSigner.of(secrets);
    }

    @Override
    public String toString() {
        return "WebhookSettings[url=" + endpointName + (url.getRawQuery() != null ? "?<query>" : "")
                + ", secrets=" + secrets.size() + " (hidden), bearerToken="
                + (bearerToken == null ? "none" : "(hidden)")
                + ", headers=" + headers.keySet() + " (values hidden), maxBatch=" + maxBatch + ", maxBytes=" + maxBytes
                + ", connectTimeout=" + connectTimeout.toMillis() + "ms, requestTimeout=" + requestTimeout.toMillis()
                + "ms, retry=" + retryInitial.toMillis() + ".." + retryMax.toMillis() + "ms x" + retryMultiplier
                + " ±" + retryJitter + ", maxAttempts=" + (maxAttempts == 0 ? "unlimited" : maxAttempts)
                + ", retryAfterMax=" + retryAfterMax.toMillis() + "ms, onRejected=" + onRejected.word()
                + (onRejected == OnRejected.DEAD_LETTER ? ", deadLetterFile=" + deadLetterFile : "")
                + ", perKey=" + perKey + "]";
    }

    /**
     * Builds {@link WebhookSettings}. Values are checked by {@link #build()} (the record's constructor). Not
     * thread-safe.
     */
    public static final class Builder {
        private URI url;
        private List<String> secrets = new ArrayList<>();
        private String bearerToken;
        private Map<String, String> headers = new LinkedHashMap<>();
        private int maxBatch = DEFAULT_MAX_BATCH;
        private long maxBytes = DEFAULT_MAX_BYTES;
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
        private Duration retryInitial = DEFAULT_RETRY_INITIAL;
        private Duration retryMax = DEFAULT_RETRY_MAX;
        private double retryMultiplier = DEFAULT_RETRY_MULTIPLIER;
        private double retryJitter = DEFAULT_RETRY_JITTER;
        private int maxAttempts = DEFAULT_MAX_ATTEMPTS;
        private Duration retryAfterMax = DEFAULT_RETRY_AFTER_MAX;
        private OnRejected onRejected = DEFAULT_ON_REJECTED;
        private Path deadLetterFile = DEFAULT_DEAD_LETTER_FILE;
        private boolean perKey = DEFAULT_PER_KEY;
        private String endpointName;

        private Builder(URI url) {
            this.url = Objects.requireNonNull(url, "url");
        }

        private Builder(WebhookSettings s) {
            url = s.url;
            secrets = new ArrayList<>(s.secrets);
            bearerToken = s.bearerToken;
            headers = new LinkedHashMap<>(s.headers);
            maxBatch = s.maxBatch;
            maxBytes = s.maxBytes;
            connectTimeout = s.connectTimeout;
            requestTimeout = s.requestTimeout;
            retryInitial = s.retryInitial;
            retryMax = s.retryMax;
            retryMultiplier = s.retryMultiplier;
            retryJitter = s.retryJitter;
            maxAttempts = s.maxAttempts;
            retryAfterMax = s.retryAfterMax;
            onRejected = s.onRejected;
            deadLetterFile = s.deadLetterFile;
            perKey = s.perKey;
            endpointName = s.endpointName;
        }

        /** The endpoint. */
        public Builder url(URI url) {
            this.url = Objects.requireNonNull(url, "url");
            return this;
        }

        /** Required: the signing secrets ({@code whsec_<Base64>}), the current one first; replaces earlier ones. */
        public Builder secrets(List<String> secrets) {
            this.secrets = new ArrayList<>(Objects.requireNonNull(secrets, "secrets"));
            return this;
        }

        /** As {@link #secrets(List)}. */
        public Builder secrets(String... secrets) {
            return secrets(List.of(secrets));
        }

        /** {@code Authorization: Bearer <token>} on every request; null for none (the default). */
        public Builder bearerToken(String token) {
            this.bearerToken = token;
            return this;
        }

        /** Adds an extra static header (not one the sink sets: webhook-*, content-type, authorization ...). */
        public Builder header(String name, String value) {
            headers.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /** Replaces the extra static headers. */
        public Builder headers(Map<String, String> headers) {
            this.headers = new LinkedHashMap<>(Objects.requireNonNull(headers, "headers"));
            return this;
        }

        /**
         * Most change envelopes per request, 1..100000 (default {@link #DEFAULT_MAX_BATCH}). The envelopes of one
         * frame (an MSET split per key) always travel together, so a request of one large frame may hold more.
         */
        public Builder maxBatch(int envelopes) {
            this.maxBatch = envelopes;
            return this;
        }

        /** Most body bytes per request, at least 1024 (default {@link #DEFAULT_MAX_BYTES}). */
        public Builder maxBytes(long bytes) {
            this.maxBytes = bytes;
            return this;
        }

        /** Default {@link #DEFAULT_CONNECT_TIMEOUT}. */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = timeout;
            return this;
        }

        /** Default {@link #DEFAULT_REQUEST_TIMEOUT}; a timed-out request is retried. */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = timeout;
            return this;
        }

        /**
         * The retry delays: exponential from {@code initial} growing by {@code multiplier} per retry, each spread
         * by ±{@code jitter} and capped at {@code max} (defaults {@link #DEFAULT_RETRY_INITIAL},
         * {@link #DEFAULT_RETRY_MAX}, {@link #DEFAULT_RETRY_MULTIPLIER}, {@link #DEFAULT_RETRY_JITTER}).
         */
        public Builder retryBackoff(Duration initial, Duration max, double multiplier, double jitter) {
            this.retryInitial = initial;
            this.retryMax = max;
            this.retryMultiplier = multiplier;
            this.retryJitter = jitter;
            return this;
        }

        /** Attempts per request before the batch fails as retryable; 0 = no limit (the default). */
        public Builder maxAttempts(int attempts) {
            this.maxAttempts = attempts;
            return this;
        }

        /** The longest {@code Retry-After} honoured (default {@link #DEFAULT_RETRY_AFTER_MAX}). */
        public Builder retryAfterMax(Duration max) {
            this.retryAfterMax = max;
            return this;
        }

        /** What a non-retryable answer does (default {@link #DEFAULT_ON_REJECTED}). */
        public Builder onRejected(OnRejected policy) {
            this.onRejected = policy;
            return this;
        }

        /** Where rejected requests go (default {@link #DEFAULT_DEAD_LETTER_FILE}). */
        public Builder deadLetterFile(Path file) {
            this.deadLetterFile = file;
            return this;
        }

        /** One envelope per key (default {@link #DEFAULT_PER_KEY}) or one per frame. */
        public Builder perKey(boolean perKey) {
            this.perKey = perKey;
            return this;
        }

        /** The metrics tag and log name of the endpoint (default: the URL without user info and query). */
        public Builder endpointName(String name) {
            this.endpointName = name;
            return this;
        }

        /**
         * The settings.
         *
         * @throws IllegalArgumentException when a value is out of range
         */
        public WebhookSettings build() {
            return new WebhookSettings(url, secrets, bearerToken, headers, maxBatch, maxBytes, connectTimeout,
                    requestTimeout, retryInitial, retryMax, retryMultiplier, retryJitter, maxAttempts, retryAfterMax,
                    onRejected, deadLetterFile, perKey, endpointName);
        }
    }
}
