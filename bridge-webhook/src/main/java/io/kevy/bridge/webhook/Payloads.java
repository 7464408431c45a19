package io.kevy.bridge.webhook;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kevy.feed.client.Batch;
import io.kevy.feed.client.Change;
import io.kevy.feed.client.Cursor;
import io.kevy.feed.client.RebuildResult;
import io.kevy.feed.client.RebuildScope;
import io.kevy.feed.client.envelope.ChangeEnvelopes;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * Cuts batches into requests and writes their bodies: a Standard Webhooks payload ({@code type},
 * {@code timestamp}, {@code data}) whose {@code data.events} holds the batch's change envelopes
 * ({@link ChangeEnvelopes}) in order.
 *
 * <pre>{@code
 * {"type":"io.kevy.changes","timestamp":"2026-01-05T10:00:00.123Z",
 *  "data":{"shard":2,"generation":8812,"firstOffset":41,"lastOffset":57,"count":20,"events":[{...},...]}}
 * }</pre>
 *
 * A request holds whole frames: it is closed before a frame whose envelopes would pass {@code maxBatch} envelopes
 * or {@code maxBytes} bytes, unless it is empty (a frame larger than the limits travels alone). Thread-safe.
 */
final class Payloads {
    static final String CHANGES = "io.kevy.changes";
    static final String SNAPSHOT = "io.kevy.snapshot";
    /** Room kept in {@code maxBytes} for the payload around the events. */
    static final int WRAPPER_BYTES = 512;
    private static final byte[] COMMA = {','};
    private static final byte[] TAIL = "]}}".getBytes(StandardCharsets.US_ASCII);

    private final ChangeEnvelopes envelopes;
    private final int maxBatch;
    private final long maxBytes;
    private final boolean perKey;
    private final Clock clock;

    Payloads(ChangeEnvelopes envelopes, WebhookSettings s, Clock clock) {
        this.envelopes = envelopes;
        this.maxBatch = s.maxBatch();
        this.maxBytes = s.maxBytes();
        this.perKey = s.perKey();
        this.clock = clock;
    }

    /** The requests of {@code batch}, in order; none for an empty batch. */
    List<WebhookRequest> of(Batch<?, ?> batch) {
        List<WebhookRequest> out = new ArrayList<>();
        List<Change<?, ?>> chunk = new ArrayList<>();
        List<byte[]> events = new ArrayList<>();
        long bytes = 0;
        for (Change<?, ?> c : batch) {
            List<byte[]> encoded = encode(c);
            long size = 0;
            for (byte[] e : encoded) {
                size += e.length + 1;
            }
            if (!chunk.isEmpty() && (events.size() + encoded.size() > maxBatch
                    || bytes + size > maxBytes - WRAPPER_BYTES)) {
                out.add(request(batch, chunk, events));
                chunk = new ArrayList<>();
                events = new ArrayList<>();
                bytes = 0;
            }
            chunk.add(c);
            events.addAll(encoded);
            bytes += size;
        }
        if (!chunk.isEmpty()) {
            out.add(request(batch, chunk, events));
        }
        return out;
    }

    private List<byte[]> encode(Change<?, ?> c) {
        if (!perKey) {
            return List.of(ChangeEnvelopes.toBytes(envelopes.envelope(c)));
        }
        List<ObjectNode> nodes = envelopes.perKey(c);
        List<byte[]> out = new ArrayList<>(nodes.size());
        for (ObjectNode n : nodes) {
            out.add(ChangeEnvelopes.toBytes(n));
        }
        return out;
    }

    private WebhookRequest request(Batch<?, ?> batch, List<Change<?, ?>> chunk, List<byte[]> events) {
        Change<?, ?> first = chunk.get(0);
        Change<?, ?> last = chunk.get(chunk.size() - 1);
        long oldest = Long.MAX_VALUE;
        for (Change<?, ?> c : chunk) {
            oldest = Math.min(oldest, c.observedAtMillis());
        }
        StringBuilder data = new StringBuilder(128);
        String id;
        String type;
        if (batch.kind() == Batch.Kind.CHANGES) {
            type = CHANGES;
            id = first.shard() + ":" + first.generation() + ":" + first.offset() + "-" + last.offset();
            data.append("\"shard\":").append(first.shard()).append(",\"generation\":").append(first.generation())
                    .append(",\"firstOffset\":").append(first.offset())
                    .append(",\"lastOffset\":").append(last.offset());
        } else {
            type = SNAPSHOT;
            id = first.id() + "-" + last.id();
            RebuildScope scope = batch.rebuild();
            data.append("\"rebuild\":").append(scope.sequence()).append(",\"reason\":")
                    .append(quote(scope.reason().name().toLowerCase(Locale.ROOT)));
        }
        data.append(",\"count\":").append(events.size());
        return new WebhookRequest(id, type, body(type, Instant.ofEpochMilli(oldest), data, events), events.size(),
                oldest);
    }

    /** The {@code io.kevy.resync.begin} request of {@code scope}: one marker envelope per rebuilt shard. */
    WebhookRequest begin(RebuildScope scope) {
        return marker(ChangeEnvelopes.RESYNC_BEGIN, scope, null);
    }

    /** The {@code io.kevy.resync.end} request of {@code scope}. */
    WebhookRequest end(RebuildScope scope, RebuildResult result) {
        return marker(ChangeEnvelopes.RESYNC_END, scope, result);
    }

    private WebhookRequest marker(String type, RebuildScope scope, RebuildResult result) {
        List<byte[]> events = new ArrayList<>();
        StringBuilder carried = new StringBuilder();
        StringBuilder shards = new StringBuilder();
        for (Cursor c : scope.carried().values()) {
            events.add(ChangeEnvelopes.toBytes(result == null ? envelopes.rebuildBegin(scope, c.shard())
                    : envelopes.rebuildEnd(scope, c.shard(), result)));
            carried.append(c).append(',');
            shards.append(shards.length() == 0 ? "" : ",").append(c.shard());
        }
        String phase = result == null ? "begin" : "end";
        // the carried cursors name the rebuild across restarts (its sequence restarts at 1 in every process)
        String id = "resync-" + phase + "-" + scope.carried().size() + "-" + digest(carried.toString());
        StringBuilder data = new StringBuilder(128);
        data.append("\"rebuild\":").append(scope.sequence()).append(",\"reason\":")
                .append(quote(scope.reason().name().toLowerCase(Locale.ROOT))).append(",\"shards\":[")
                .append(shards).append(']');
        if (result != null) {
            data.append(",\"keys\":").append(result.keys()).append(",\"vanished\":").append(result.vanished())
                    .append(",\"durationMs\":").append(result.duration().toMillis());
        }
        data.append(",\"count\":").append(events.size());
        long now = clock.millis();
        return new WebhookRequest(id, type, body(type, Instant.ofEpochMilli(now), data, events), events.size(), now);
    }

    private static byte[] body(String type, Instant timestamp, CharSequence data, List<byte[]> events) {
        String head = "{\"type\":" + quote(type) + ",\"timestamp\":" + quote(timestamp.toString()) + ",\"data\":{"
                + data + ",\"events\":[";
        ByteArrayOutputStream out = new ByteArrayOutputStream(head.length() + 64 * events.size() + 8);
        out.writeBytes(head.getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < events.size(); i++) {
            if (i > 0) {
                out.writeBytes(COMMA);
            }
            out.writeBytes(events.get(i));
        }
        out.writeBytes(TAIL);
        return out.toByteArray();
    }

    /** {@code s} as a JSON string literal. */
    static String quote(String s) {
        return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(s)) + "\"";
    }

    private static String digest(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
