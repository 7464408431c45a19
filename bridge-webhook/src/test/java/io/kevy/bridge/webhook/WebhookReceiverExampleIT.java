package io.kevy.bridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example receiver ({@code examples/webhook-receiver/WebhookReceiver.java}, run as {@code java File.java})
 * accepts what the sink sends, acknowledges a replayed id without processing it again, refuses a bad signature, a
 * stale timestamp and missing headers, accepts a rotated signature list, and agrees with the curl/openssl recipe
 * ({@code send-signed.sh}).
 */
class WebhookReceiverExampleIT {
    private static final Path EXAMPLE = Path.of("..", "examples", "webhook-receiver").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    @Test
    void theExampleVerifiesSignaturesTimestampsAndReplays() throws Exception {
        List<String> out = new CopyOnWriteArrayList<>();
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                EXAMPLE.resolve("WebhookReceiver.java").toString(), "--port", "0", "--path", "/kevy")
                .redirectErrorStream(true);
        pb.environment().put("WEBHOOK_SECRETS", Harness.SECRET);
        Process p = pb.start();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    out.add(line);
                }
            } catch (java.io.IOException ignored) {
                // the process ended
            }
        });
        reader.setDaemon(true);
        reader.start();
        try (Harness h = new Harness(2)) {
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> out.stream()
                    .anyMatch(l -> l.startsWith("listening on ")));
            URI url = URI.create(out.stream().filter(l -> l.startsWith("listening on ")).findFirst().orElseThrow()
                    .substring("listening on ".length()));

            h.start(h.settings(dir).url(url).build());
            for (int i = 0; i < 50; i++) {
                h.redis().set("x" + i, "v");
            }
            h.awaitCaughtUp(Duration.ofSeconds(30));
            int events = out.stream().filter(l -> l.startsWith("accepted ")).mapToInt(l -> Integer.parseInt(
                    l.substring(l.indexOf("count=") + 6))).sum();
            assertThat(events).isEqualTo(50);
            assertThat(out).noneMatch(l -> l.startsWith("rejected"));

            WebhookSigner signer = WebhookSigner.of(List.of(Harness.SECRET));
            byte[] body = "{\"type\":\"io.kevy.changes\",\"data\":{\"count\":1,\"events\":[]}}"
                    .getBytes(StandardCharsets.UTF_8);
            long now = Instant.now().getEpochSecond();
            assertThat(post(url, "id-a", now, signer.sign("id-a", now, body), body)).isEqualTo(204);
            assertThat(post(url, "id-a", now, signer.sign("id-a", now, body), body)).isEqualTo(200);
            String foreign = WebhookSigner.of(List.of(SpecVerifier.newSecret(32))).sign("id-b", now, body);
            assertThat(post(url, "id-b", now, foreign, body)).isEqualTo(401);
            assertThat(post(url, "id-b", now, foreign + " " + signer.sign("id-b", now, body), body)).isEqualTo(204);
            long old = now - 600;
            assertThat(post(url, "id-c", old, signer.sign("id-c", old, body), body)).isEqualTo(401);
            assertThat(post(url, null, now, signer.sign("id-d", now, body), body)).isEqualTo(400);
            byte[] tampered = "{\"type\":\"io.kevy.changes\",\"data\":{\"count\":2,\"events\":[]}}"
                    .getBytes(StandardCharsets.UTF_8);
            assertThat(post(url, "id-e", now, signer.sign("id-e", now, body), tampered)).isEqualTo(401);

            // the curl/openssl recipe signs as the sink does
            ProcessBuilder sh = new ProcessBuilder("bash", EXAMPLE.resolve("send-signed.sh").toString(),
                    url.toString(), "{\"hello\":1}", "id-curl").redirectErrorStream(true);
            sh.environment().put("WEBHOOK_SECRET", Harness.SECRET);
            assertThat(run(sh)).isEqualTo("204");
            assertThat(run(sh)).isEqualTo("200");
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> out.contains(
                    "duplicate id-curl (acknowledged, not processed again)"));
            assertThat(out).contains("duplicate id-a (acknowledged, not processed again)")
                    .anyMatch(l -> l.startsWith("rejected id-c 401 timestamp"))
                    .anyMatch(l -> l.startsWith("rejected id-b 401 no valid signature"))
                    .anyMatch(l -> l.startsWith("accepted id-b"));
        } finally {
            p.destroy();
            p.waitFor(10, TimeUnit.SECONDS);
            p.destroyForcibly();
        }
    }

    private static int post(URI url, String id, long ts, String signature, byte[] body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(url).header("webhook-timestamp", Long.toString(ts))
                .header("webhook-signature", signature).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (id != null) {
            b.header("webhook-id", id);
        }
        return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static String run(ProcessBuilder pb) throws Exception {
        Process p = pb.start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.exists(EXAMPLE.resolve("send-signed.sh"))).isTrue();
        return text;
    }
}
