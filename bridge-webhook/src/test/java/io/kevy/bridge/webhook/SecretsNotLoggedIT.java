package io.kevy.bridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.feed.client.FeedConsumer;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Everything the sink and the consumer log (at DEBUG, see simplelogger.properties) through a start, retries, a
 * dead letter, a 410 and the consumer's failure holds none of the secrets, the bearer token, a header value or
 * the URL's query, while it does hold those events (so the capture works).
 */
class SecretsNotLoggedIT {
    @TempDir
    Path dir;

    private static boolean has(Receiver.Received r, String text) {
        return new String(r.body(), StandardCharsets.UTF_8).contains(text);
    }

    @Test
    void logsHoldNoSecret() throws Exception {
        String second = SpecVerifier.newSecret(64);
        String token = "tok-" + SpecVerifier.newSecret(24).substring(6);
        String headerValue = "hv-" + SpecVerifier.newSecret(24).substring(6);
        String querySecret = "q" + Long.toHexString(System.nanoTime());
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.err;
        System.setErr(new PrintStream(new Tee(original, captured), true, StandardCharsets.UTF_8));
        try (Harness h = new Harness(2)) {
            h.receiver.responder = (n, r) -> n == 0 ? Receiver.Reply.status(500)
                    : has(r, "\"poison\"") ? new Receiver.Reply(400, java.util.Map.of(), "no thanks", 0)
                    : has(r, "\"gone\"") ? Receiver.Reply.status(410) : Receiver.Reply.ok();
            WebhookSettings s = h.settings(dir).url(URI.create(h.receiver.uri() + "?key=" + querySecret))
                    .secrets(Harness.SECRET, second).bearerToken(token).header("X-Api-Key", headerValue).build();
            h.start(s);
            h.redis().set("first", "1");
            h.awaitCaughtUp(Duration.ofSeconds(30));
            h.redis().set("poison", "1");
            h.awaitCaughtUp(Duration.ofSeconds(30));
            h.redis().set("gone", "1");
            Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(() -> h.consumer.state() == FeedConsumer.State.FAILED);
            assertThat(h.receiver.requests.get(0).header("x-api-key")).isEqualTo(headerValue);
        } finally {
            System.setErr(original);
        }
        String log = captured.toString(StandardCharsets.UTF_8);
        assertThat(log).contains("webhook sink for", "retrying", "rejected with HTTP 400", "410 Gone", "FAILED");
        List<String> forbidden = new ArrayList<>(List.of(token, headerValue, querySecret));
        for (String secret : List.of(Harness.SECRET, second)) {
            String b64 = secret.substring("whsec_".length());
            forbidden.add(b64.substring(0, 16));
            forbidden.add(new String(Base64.getDecoder().decode(b64), StandardCharsets.ISO_8859_1).substring(0, 8));
        }
        for (String f : forbidden) {
            assertThat(log).as("log output").doesNotContain(f);
        }
    }

    /** Writes to two streams. */
    private static final class Tee extends OutputStream {
        private final OutputStream a;
        private final OutputStream b;

        Tee(OutputStream a, OutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public synchronized void write(int c) throws java.io.IOException {
            a.write(c);
            b.write(c);
        }

        @Override
        public synchronized void write(byte[] buf, int off, int len) throws java.io.IOException {
            a.write(buf, off, len);
            b.write(buf, off, len);
        }
    }
}
