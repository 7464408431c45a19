package io.kevy.bridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kevy.feed.client.FeedConsumer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Answers that are not retried: a 400 goes to the dead-letter file (status, body excerpt, the whole payload)
 * and later batches are still delivered; with {@code on_rejected = stop} the consumer stops with the cursor
 * before the batch; 410 Gone disables the endpoint, readiness turns false and nothing more is sent.
 */
class WebhookRejectIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    private Harness h;

    @AfterEach
    void close() {
        if (h != null) {
            h.close();
        }
    }

    private static boolean contains(Receiver.Received r, String text) {
        return new String(r.body(), StandardCharsets.UTF_8).contains(text);
    }

    private void writeAndWait(String... keys) {
        for (String k : keys) {
            h.redis().set(k, "v");
        }
        h.awaitCaughtUp(Duration.ofSeconds(30));
    }

    @Test
    void aRejectedRequestIsDeadLetteredAndDeliveryGoesOn() throws Exception {
        h = new Harness(4);
        String longBody = "bad payload: " + "x".repeat(3000);
        h.receiver.responder = (n, r) -> contains(r, "\"poison\"") ? new Receiver.Reply(400, java.util.Map.of(),
                longBody, 0) : Receiver.Reply.ok();
        h.start(h.settings(dir).build());
        writeAndWait("a0", "a1", "a2", "a3");
        writeAndWait("poison");
        writeAndWait("b0", "b1", "b2", "b3");

        assertThat(h.acceptedKeys()).contains("a0", "a1", "a2", "a3", "b0", "b1", "b2", "b3")
                .doesNotContain("poison");
        List<String> lines = Files.readAllLines(dir.resolve("dead-letters.jsonl"));
        assertThat(lines).hasSize(1);
        JsonNode dl = JSON.readTree(lines.get(0));
        Receiver.Received rejected = h.receiver.requests.stream().filter(r -> r.answered() == 400).findFirst()
                .orElseThrow();
        assertThat(dl.path("status").asInt()).isEqualTo(400);
        assertThat(dl.path("webhookId").asText()).isEqualTo(rejected.id());
        assertThat(dl.path("type").asText()).isEqualTo("io.kevy.changes");
        assertThat(dl.path("endpoint").asText()).isEqualTo(h.receiver.uri().toString());
        assertThat(dl.path("response").asText()).startsWith("bad payload: xxx").hasSize(WebhookSink.EXCERPT_BYTES + 3);
        assertThat(dl.path("payload")).isEqualTo(rejected.json());
        assertThat(dl.path("payload").path("data").path("events").get(0).path("subject").asText()).isEqualTo("poison");
        assertThat(h.registry.get(WebhookMetrics.DEAD_LETTERS).counter().count()).isEqualTo(1);
        assertThat(h.consumer.state()).isEqualTo(FeedConsumer.State.RUNNING);
        assertThat(h.sink.ready()).isTrue();
        assertThat(h.receiver.requests.stream().filter(r -> r.id().equals(rejected.id()))).hasSize(1);
    }

    @Test
    void onRejectedStopStopsTheConsumerWithTheCursorBeforeTheBatch() {
        h = new Harness(4);
        h.receiver.responder = (n, r) -> contains(r, "\"poison\"") ? Receiver.Reply.status(422) : Receiver.Reply.ok();
        h.start(h.settings(dir).onRejected(WebhookSettings.OnRejected.STOP).build());
        writeAndWait("a0", "a1");
        h.redis().set("poison", "v");
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> h.consumer.state() == FeedConsumer.State.FAILED);
        Receiver.Received rejected = h.receiver.requests.stream().filter(r -> r.answered() == 422).findFirst()
                .orElseThrow();
        JsonNode data = rejected.json().path("data");
        var cursor = h.consumer.health().shards().get(data.path("shard").asInt()).cursor();
        assertThat(cursor.offset()).isEqualTo(data.path("firstOffset").asLong());
        assertThat(h.sink.health().state()).isEqualTo(EndpointHealth.State.STOPPED);
        assertThat(h.sink.ready()).isFalse();
        assertThat(h.consumer.failure().orElseThrow().getMessage()).contains("422");
        assertThat(dir.resolve("dead-letters.jsonl")).doesNotExist();
        assertThat(h.receiver.requests.stream().filter(r -> r.id().equals(rejected.id()))).hasSize(1);
    }

    @Test
    void goneDisablesTheEndpointAndReadiness() throws Exception {
        h = new Harness(4);
        h.receiver.responder = (n, r) -> contains(r, "\"gone\"") ? Receiver.Reply.status(410) : Receiver.Reply.ok();
        h.start(h.settings(dir).build());
        writeAndWait("a0", "a1");
        assertThat(h.registry.get(WebhookMetrics.ENABLED).gauge().value()).isEqualTo(1.0);
        h.redis().set("gone", "v");
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !h.sink.ready());
        assertThat(h.sink.health().state()).isEqualTo(EndpointHealth.State.DISABLED);
        assertThat(h.sink.health().lastStatus()).isEqualTo(410);
        assertThat(h.registry.get(WebhookMetrics.ENABLED).gauge().value()).isEqualTo(0.0);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> h.consumer.state() == FeedConsumer.State.FAILED);
        Receiver.Received gone = h.receiver.requests.stream().filter(r -> r.answered() == 410).findFirst()
                .orElseThrow();
        JsonNode data = gone.json().path("data");
        assertThat(h.consumer.health().shards().get(data.path("shard").asInt()).cursor().offset())
                .isEqualTo(data.path("firstOffset").asLong());
        int seen = h.receiver.requests.size();
        for (String k : Set.of("after1", "after2", "after3", "after4")) {
            h.redis().set(k, "v");
        }
        Thread.sleep(500);
        assertThat(h.receiver.requests).hasSize(seen);
        assertThat(h.receiver.requests.stream().filter(r -> r.answered() == 410)).hasSize(1);
        assertThat(dir.resolve("dead-letters.jsonl")).doesNotExist();
    }
}
