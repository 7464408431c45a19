package io.kevy.bridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Signatures against a published Standard Webhooks vector, rotation, and errors that do not reveal secrets. */
class WebhookSignerTest {
    /** The example of the Standard Webhooks / Svix documentation (also checked with openssl in docs/bridges.md). */
    private static final String VECTOR_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String VECTOR_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    private static final long VECTOR_TS = 1614265330L;
    private static final byte[] VECTOR_BODY = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);
    private static final String VECTOR_SIG = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    @Test
    void signsThePublishedVector() {
        WebhookSigner signer = WebhookSigner.of(List.of(VECTOR_SECRET));
        assertThat(signer.sign(VECTOR_ID, VECTOR_TS, VECTOR_BODY)).isEqualTo(VECTOR_SIG);
        assertThat(new SpecVerifier(Long.MAX_VALUE, VECTOR_SECRET)
                .verify(VECTOR_ID, Long.toString(VECTOR_TS), VECTOR_SIG, VECTOR_BODY, VECTOR_TS)).isTrue();
    }

    @Test
    void rotationSignsWithEverySecretInOrder() {
        String current = SpecVerifier.newSecret(32);
        WebhookSigner signer = WebhookSigner.of(List.of(current, VECTOR_SECRET));
        String header = signer.sign(VECTOR_ID, VECTOR_TS, VECTOR_BODY);
        String[] parts = header.split(" ");
        assertThat(parts).hasSize(2);
        assertThat(parts[1]).isEqualTo(VECTOR_SIG);
        assertThat(parts[0]).startsWith("v1,").isNotEqualTo(VECTOR_SIG);
        for (String s : List.of(current, VECTOR_SECRET)) {
            assertThat(new SpecVerifier(Long.MAX_VALUE, s)
                    .verify(VECTOR_ID, Long.toString(VECTOR_TS), header, VECTOR_BODY, VECTOR_TS)).isTrue();
        }
        assertThat(new SpecVerifier(Long.MAX_VALUE, SpecVerifier.newSecret(32))
                .verify(VECTOR_ID, Long.toString(VECTOR_TS), header, VECTOR_BODY, VECTOR_TS)).isFalse();
        assertThat(signer.verify(VECTOR_ID, VECTOR_TS, VECTOR_BODY, header)).isTrue();
        assertThat(signer.verify(VECTOR_ID, VECTOR_TS + 1, VECTOR_BODY, header)).isFalse();
        assertThat(signer.verify(VECTOR_ID, VECTOR_TS, "{\"test\": 2432232315}".getBytes(StandardCharsets.UTF_8),
                header)).isFalse();
    }

    @Test
    void badSecretsAreRefusedWithoutShowingThem() {
        String shortKey = "whsec_" + java.util.Base64.getEncoder().encodeToString(new byte[16]);
        String noPrefix = "c2VjcmV0LXRoYXQtbXVzdC1ub3QtbGVhaw==";
        String notBase64 = "whsec_not*base64*secret-value";
        assertThatThrownBy(() -> WebhookSigner.of(List.of(VECTOR_SECRET, shortKey)))
                .hasMessageContaining("#2").hasMessageContaining("16 key bytes").hasMessageNotContaining(shortKey);
        assertThatThrownBy(() -> WebhookSigner.of(List.of(noPrefix)))
                .hasMessageContaining("#1").hasMessageNotContaining(noPrefix);
        assertThatThrownBy(() -> WebhookSigner.of(List.of(notBase64)))
                .hasMessageContaining("Base64").hasMessageNotContaining("secret-value");
        assertThatThrownBy(() -> WebhookSigner.of(List.of())).hasMessageContaining("at least one");
        assertThat(WebhookSigner.of(List.of(VECTOR_SECRET)).toString()).doesNotContain("MfKQ9r8");
    }
}
