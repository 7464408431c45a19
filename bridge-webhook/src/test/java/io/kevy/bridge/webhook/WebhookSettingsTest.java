package io.kevy.bridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Settings: defaults, checks with the option's name, the round trip, and a toString without secrets. */
class WebhookSettingsTest {
    private static final String SECRET = SpecVerifier.newSecret(32);
    private static final URI URL = URI.create("https://hooks.example.com:8443/kevy/in?tenant=t1");

    private static WebhookSettings.Builder base() {
        return WebhookSettings.builder(URL).secrets(SECRET);
    }

    @Test
    void defaults() {
        WebhookSettings s = base().build();
        assertThat(s.maxBatch()).isEqualTo(WebhookSettings.DEFAULT_MAX_BATCH);
        assertThat(s.maxBytes()).isEqualTo(WebhookSettings.DEFAULT_MAX_BYTES);
        assertThat(s.requestTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(s.maxAttempts()).isZero();
        assertThat(s.onRejected()).isEqualTo(WebhookSettings.OnRejected.DEAD_LETTER);
        assertThat(s.perKey()).isTrue();
        assertThat(s.endpointName()).isEqualTo("https://hooks.example.com:8443/kevy/in");
    }

    @Test
    void toBuilderRoundTrips() {
        WebhookSettings s = base().bearerToken("tok").header("X-Tenant", "t1").maxBatch(7).maxBytes(4096)
                .retryBackoff(Duration.ofMillis(10), Duration.ofSeconds(2), 3.0, 0.25).maxAttempts(9)
                .onRejected(WebhookSettings.OnRejected.STOP).perKey(false).endpointName("hooks").build();
        assertThat(s.toBuilder().build()).isEqualTo(s);
    }

    @Test
    void toStringHidesSecretsTokenAndHeaderValues() {
        String token = "bearer-token-value-123";
        WebhookSettings s = base().secrets(SECRET, SpecVerifier.newSecret(24)).bearerToken(token)
                .header("X-Api-Key", "header-value-456").build();
        String text = s.toString();
        assertThat(text).contains("secrets=2 (hidden)", "X-Api-Key", "hooks.example.com")
                .doesNotContain(SECRET.substring(6), token, "header-value-456", "tenant=t1");
    }

    @Test
    void badValuesNameTheirOption() {
        assertThatThrownBy(() -> WebhookSettings.builder(URI.create("ftp://x/")).secrets(SECRET).build())
                .hasMessageContaining("http");
        assertThatThrownBy(() -> WebhookSettings.builder(URI.create("https://u:p@x/")).secrets(SECRET).build())
                .hasMessageContaining("user info").hasMessageNotContaining("u:p");
        assertThatThrownBy(() -> base().maxBatch(0).build()).hasMessageContaining("max_batch");
        assertThatThrownBy(() -> base().maxBytes(10).build()).hasMessageContaining("max_bytes");
        assertThatThrownBy(() -> base().requestTimeout(Duration.ZERO).build()).hasMessageContaining("request_timeout");
        assertThatThrownBy(() -> base().retryBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1), 2, 0.5).build())
                .hasMessageContaining("retry_max");
        assertThatThrownBy(() -> base().retryBackoff(Duration.ofSeconds(1), Duration.ofSeconds(2), 2, 1.5).build())
                .hasMessageContaining("retry_jitter");
        assertThatThrownBy(() -> base().maxAttempts(-1).build()).hasMessageContaining("max_attempts");
        assertThatThrownBy(() -> base().header("webhook-id", "x").build()).hasMessageContaining("webhook-id");
        assertThatThrownBy(() -> base().header("Authorization", "Basic x").build())
                .hasMessageContaining("bearer_token");
        assertThatThrownBy(() -> base().header("bad header", "x").build()).hasMessageContaining("token");
        assertThatThrownBy(() -> base().secrets().build()).hasMessageContaining("at least one");
        assertThat(WebhookSettings.OnRejected.ofWord("dead_letter")).isEqualTo(WebhookSettings.OnRejected.DEAD_LETTER);
        assertThatThrownBy(() -> WebhookSettings.OnRejected.ofWord("drop")).hasMessageContaining("on_rejected");
    }
}
