package io.kevy.bridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kevy.feed.client.Batch;
import io.kevy.feed.client.Change;
import io.kevy.feed.client.Cursor;
import io.kevy.feed.client.Frame;
import io.kevy.feed.client.RebuildReason;
import io.kevy.feed.client.RebuildResult;
import io.kevy.feed.client.RebuildScope;
import io.kevy.feed.client.envelope.ChangeEnvelopes;
import io.lettuce.core.codec.StringCodec;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How batches become requests: limits, whole frames, ids, and the payload's shape. */
class PayloadsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-05T10:00:00Z"), ZoneOffset.UTC);
    private static final long GEN = 8812;

    private static Payloads payloads(int maxBatch, long maxBytes, boolean perKey) {
        WebhookSettings s = WebhookSettings.builder(URI.create("http://127.0.0.1/hook"))
                .secrets(SpecVerifier.newSecret(32)).maxBatch(maxBatch).maxBytes(maxBytes).perKey(perKey).build();
        return new Payloads(ChangeEnvelopes.forSource("127.0.0.1:6004", CLOCK), s, CLOCK);
    }

    private static Change<String, String> change(int shard, long offset, String... argv) {
        byte[][] a = new byte[argv.length][];
        for (int i = 0; i < a.length; i++) {
            a[i] = argv[i].getBytes(StandardCharsets.UTF_8);
        }
        return Change.of(StringCodec.UTF8, shard, GEN, new Frame(offset, a), 1_767_607_200_000L + offset);
    }

    private static Batch<String, String> batch(int shard, List<Change<String, String>> changes) {
        long first = changes.get(0).offset();
        long last = changes.get(changes.size() - 1).offset();
        return Batch.ofChanges("webhook", new Cursor(shard, GEN, first), new Cursor(shard, GEN, last + 1), changes);
    }

    private static JsonNode json(WebhookRequest r) throws IOException {
        return JSON.readTree(r.body());
    }

    @Test
    void maxBatchCutsRequestsWithIdsOfTheirOffsets() throws IOException {
        List<Change<String, String>> cs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            cs.add(change(2, 40 + i, "SET", "k" + i, "v" + i));
        }
        List<WebhookRequest> rs = payloads(4, 1 << 20, true).of(batch(2, cs));
        assertThat(rs).extracting(WebhookRequest::id).containsExactly("2:8812:40-43", "2:8812:44-47", "2:8812:48-49");
        assertThat(rs).extracting(WebhookRequest::events).containsExactly(4, 4, 2);
        JsonNode first = json(rs.get(0));
        assertThat(first.path("type").asText()).isEqualTo("io.kevy.changes");
        assertThat(first.path("timestamp").asText()).isEqualTo("2026-01-05T10:00:00.040Z");
        JsonNode data = first.path("data");
        assertThat(data.path("shard").asInt()).isEqualTo(2);
        assertThat(data.path("generation").asLong()).isEqualTo(GEN);
        assertThat(data.path("firstOffset").asLong()).isEqualTo(40);
        assertThat(data.path("lastOffset").asLong()).isEqualTo(43);
        assertThat(data.path("count").asInt()).isEqualTo(4);
        assertThat(data.path("events").get(0).path("id").asText()).isEqualTo("2:8812:40");
        assertThat(data.path("events").get(3).path("subject").asText()).isEqualTo("k3");
        assertThat(rs).allSatisfy(r -> assertThat(r.id()).doesNotContain("."));
    }

    @Test
    void aFramesEnvelopesStayTogether() throws IOException {
        List<Change<String, String>> cs = List.of(change(0, 1, "SET", "a", "1"), change(0, 2, "SET", "b", "2"),
                change(0, 3, "MSET", "c", "3", "d", "4", "e", "5", "f", "6", "g", "7", "h", "8"),
                change(0, 4, "DEL", "a"));
        List<WebhookRequest> rs = payloads(4, 1 << 20, true).of(batch(0, cs));
        assertThat(rs).extracting(WebhookRequest::id).containsExactly("0:8812:1-2", "0:8812:3-3", "0:8812:4-4");
        assertThat(rs).extracting(WebhookRequest::events).containsExactly(2, 6, 1);
        JsonNode events = json(rs.get(1)).path("data").path("events");
        assertThat(events.get(0).path("id").asText()).isEqualTo("0:8812:3:0");
        assertThat(events.get(5).path("data").path("value").asText()).isEqualTo("8");
        List<WebhookRequest> whole = payloads(4, 1 << 20, false).of(batch(0, cs));
        assertThat(whole).extracting(WebhookRequest::events).containsExactly(4);
    }

    @Test
    void maxBytesBoundsTheBodyAndABigChangeTravelsAlone() {
        List<Change<String, String>> cs = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            cs.add(change(1, i, "SET", "key" + i, "x".repeat(i == 7 ? 5000 : 300)));
        }
        List<WebhookRequest> rs = payloads(500, 2048, true).of(batch(1, cs));
        int events = 0;
        for (WebhookRequest r : rs) {
            events += r.events();
            if (r.id().equals("1:8812:7-7")) {
                assertThat(r.body().length).isGreaterThan(5000);
            } else {
                assertThat(r.body().length).isLessThanOrEqualTo(2048);
            }
        }
        assertThat(events).isEqualTo(20);
        assertThat(rs).extracting(WebhookRequest::id).contains("1:8812:7-7");
    }

    @Test
    void markersCarryOneEventPerShardAndStableIds() throws IOException {
        Payloads p = payloads(500, 1 << 20, true);
        RebuildScope scope = new RebuildScope(3, RebuildReason.RESYNC,
                Map.of(0, new Cursor(0, 7, 100), 1, new Cursor(1, 9, 5)), 2, List.of());
        WebhookRequest begin = p.begin(scope);
        WebhookRequest end = p.end(scope, new RebuildResult(42, 1, Duration.ofMillis(1500)));
        assertThat(begin.type()).isEqualTo(ChangeEnvelopes.RESYNC_BEGIN);
        assertThat(begin.id()).startsWith("resync-begin-2-").doesNotContain(".");
        assertThat(end.id()).startsWith("resync-end-2-");
        JsonNode b = json(begin);
        assertThat(b.path("data").path("shards").toString()).isEqualTo("[0,1]");
        assertThat(b.path("data").path("events")).hasSize(2);
        assertThat(b.path("data").path("events").get(1).path("type").asText()).isEqualTo("io.kevy.resync.begin");
        JsonNode e = json(end).path("data");
        assertThat(e.path("keys").asLong()).isEqualTo(42);
        assertThat(e.path("durationMs").asLong()).isEqualTo(1500);
        RebuildScope again = new RebuildScope(1, RebuildReason.START, scope.carried(), 2, List.of());
        assertThat(p.begin(again).id()).isEqualTo(begin.id());
        RebuildScope other = new RebuildScope(3, RebuildReason.RESYNC,
                Map.of(0, new Cursor(0, 7, 101), 1, new Cursor(1, 9, 5)), 2, List.of());
        assertThat(p.begin(other).id()).isNotEqualTo(begin.id());
    }
}
