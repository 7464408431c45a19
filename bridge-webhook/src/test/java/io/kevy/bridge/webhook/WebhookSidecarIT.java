package io.kevy.bridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.feed.client.FeedConsumer;
import io.kevy.feed.sidecar.Sidecar;
import io.kevy.feed.sidecar.SidecarConfig;
import io.kevy.feed.sidecar.SidecarMain;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code [sink.webhook]} in the sidecar runtime: a TOML config with secrets from the environment, delivery with
 * signatures, the bearer token and static headers, the sink's meters on {@code /metrics}, {@code /readyz}
 * failing after 410 Gone, {@code --check} masking secrets, config errors naming file and line without showing
 * a secret, and the runnable jar as a child process that drains and exits 0 on SIGTERM.
 */
class WebhookSidecarIT {
    private static final String TOKEN = "bearer-" + Long.toHexString(System.nanoTime());

    @TempDir
    Path dir;
    private final HttpClient http = HttpClient.newHttpClient();

    private Path config(TestServer server, Receiver receiver, String extra) throws Exception {
        Path p = dir.resolve("webhook.toml");
        Files.writeString(p, "[source]\nuri = \"" + server.uri() + "\"\n"
                + "[consumer]\nname = \"webhook-it\"\nstart_from = \"earliest\"\n"
                + "[cursor]\npath = \"" + dir.resolve("cursors.json") + "\"\n"
                + "[http]\nport = 0\nstall_ms = 2000\npoll_ms = 100\n"
                + "[sink.webhook]\nurl = \"" + receiver.uri() + "\"\nmax_batch = 100\nretry_initial_ms = 50\n"
                + "retry_max_ms = 500\ndead_letter_path = \"" + dir.resolve("dead.jsonl") + "\"\n" + extra
                + "[sink.webhook.headers]\n\"X-Tenant\" = \"t1\"\n");
        return p;
    }

    private static Map<String, String> env() {
        return Map.of("KEVY_BRIDGE_SINK_WEBHOOK_SECRETS", Harness.SECRET, "KEVY_BRIDGE_SINK_WEBHOOK_BEARER_TOKEN",
                TOKEN);
    }

    private HttpResponse<String> get(int port, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static TestServer server() {
        return TestServer.start(c -> c.with(ServerOptions.SHARDS, 4).with(ServerOptions.FEED_ENABLED, true));
    }

    @Test
    void forwardsSignedRequestsAndFailsReadinessOnGone() throws Exception {
        try (TestServer server = server(); Receiver receiver = new Receiver()) {
            receiver.responder = (n, r) -> new String(r.body(), StandardCharsets.UTF_8).contains("\"gone\"")
                    ? Receiver.Reply.status(410) : Receiver.Reply.ok();
            Sidecar s = Sidecar.start(SidecarConfig.load(config(server, receiver, ""), env()));
            try {
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> s.readiness().ready());
                var redis = server.lettuce();
                for (int i = 0; i < 500; i++) {
                    redis.set("k" + i, "v" + i);
                }
                Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> receiver.accepted().stream()
                        .mapToInt(r -> r.json().path("data").path("count").asInt()).sum() == 500);
                SpecVerifier verifier = new SpecVerifier(300, Harness.SECRET);
                long now = Instant.now().getEpochSecond();
                assertThat(receiver.requests).allSatisfy(r -> {
                    assertThat(verifier.verify(r.id(), r.timestamp(), r.signature(), r.body(), now)).isTrue();
                    assertThat(r.header("authorization")).isEqualTo("Bearer " + TOKEN);
                    assertThat(r.header("x-tenant")).isEqualTo("t1");
                });
                String metrics = get(s.httpPort(), "/metrics").body();
                assertThat(metrics).contains("kevy_webhook_requests_total{", "sink=\"webhook\"",
                        "consumer=\"webhook-it\"", "endpoint=\"" + receiver.uri() + "\"", "status=\"204\"",
                        "kevy_webhook_request_latency_seconds", "kevy_webhook_endpoint_enabled");
                assertThat(metrics).doesNotContain(TOKEN, Harness.SECRET.substring(6, 20));
                assertThat(get(s.httpPort(), "/readyz").statusCode()).isEqualTo(200);

                redis.set("gone", "x");
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !s.readiness().ready());
                assertThat(s.readiness().reason()).contains("410");
                var readyz = get(s.httpPort(), "/readyz");
                assertThat(readyz.statusCode()).isEqualTo(503);
                assertThat(readyz.body()).contains("410 Gone");
                Awaitility.await().atMost(Duration.ofSeconds(10))
                        .until(() -> s.consumer().state() == FeedConsumer.State.FAILED);
            } finally {
                s.stop();
            }
        }
    }

    @Test
    void checkMasksSecretsAndConfigErrorsNameFileAndLine() throws Exception {
        try (TestServer server = server(); Receiver receiver = new Receiver()) {
            Path cfg = config(server, receiver, "secrets = [\"" + Harness.SECRET + "\"]\nbearer_token = \"" + TOKEN
                    + "\"\n");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            var cl = SidecarMain.commandLine();
            cl.setOut(new PrintWriter(out, true));
            assertThat(cl.execute("--check", "--config", cfg.toString())).isZero();
            String text = out.toString(StandardCharsets.UTF_8);
            assertThat(text).contains("sink.webhook.secrets = ****", "sink.webhook.bearer_token = ****",
                    "sink.webhook.headers = ****", "sink.webhook.url = " + receiver.uri())
                    .doesNotContain(TOKEN, Harness.SECRET.substring(6), "t1");

            String leaked = "whsec_" + java.util.Base64.getEncoder().encodeToString("too-short-key".getBytes());
            Path bad = config(server, receiver, "secrets = [\"" + leaked + "\"]\n");
            List<String> lines = Files.readAllLines(bad);
            int line = lines.indexOf("secrets = [\"" + leaked + "\"]") + 1;
            String err = errorOf(bad);
            assertThat(err).contains(bad + ":" + line, "sink.webhook.secrets", "13 key bytes").doesNotContain(leaked);

            Path badUrl = config(server, receiver, "");
            Files.writeString(badUrl, Files.readString(badUrl).replace(receiver.uri().toString(),
                    "ftp://user:pw@example.com/x"));
            assertThat(errorOf(badUrl)).contains("sink.webhook.url", "http://").doesNotContain("pw");
            Path badHeader = config(server, receiver, "");
            Files.writeString(badHeader, Files.readString(badHeader) + "\"webhook-id\" = \"x\"\n");
            assertThat(errorOf(badHeader)).contains("sink.webhook.headers", "set by the sink");
        }
    }

    private static String errorOf(Path config) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        var cl = SidecarMain.commandLine();
        cl.setErr(new PrintWriter(err, true));
        assertThat(cl.execute("--check", "--config", config.toString())).isEqualTo(2);
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theRunnableJarDeliversAndDrainsOnSigterm() throws Exception {
        Path jar = Path.of("target", "kevy-bridge-webhook.jar").toAbsolutePath();
        assertThat(jar).as("built by the package phase").exists();
        try (TestServer server = server(); Receiver receiver = new Receiver()) {
            Path cfg = config(server, receiver, "");
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-Xmx256m", "-jar", jar.toString(), "--config", cfg.toString()));
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("bridge.log").toFile());
            pb.environment().putAll(env());
            Process p = pb.start();
            try {
                Awaitility.await().atMost(Duration.ofSeconds(90)).alias("the bridge started").until(() -> {
                    assertThat(p.isAlive()).as(Files.readString(dir.resolve("bridge.log"))).isTrue();
                    return Files.readString(dir.resolve("bridge.log")).contains("HTTP 127.0.0.1:");
                });
                var redis = server.lettuce();
                for (int i = 0; i < 200; i++) {
                    redis.set("j" + i, "v");
                }
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> receiver.accepted().stream()
                        .mapToInt(r -> r.json().path("data").path("count").asInt()).sum() >= 200);
                p.destroy();
                assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
                String log = Files.readString(dir.resolve("bridge.log"));
                assertThat(p.exitValue()).as(log).isZero();
                assertThat(log).contains("stopped cleanly").doesNotContain(TOKEN, Harness.SECRET.substring(6, 20));
                var stored = io.kevy.feed.client.CursorStore.file(dir.resolve("cursors.json")).load("webhook-it")
                        .orElseThrow();
                try (var source = io.kevy.feed.client.FeedSource.connect(server.uri())) {
                    for (int i = 0; i < 4; i++) {
                        assertThat(stored.cursor(i)).isEqualTo(source.tail(i).toCompletableFuture().get());
                    }
                }
            } finally {
                p.destroyForcibly();
            }
        }
    }
}
