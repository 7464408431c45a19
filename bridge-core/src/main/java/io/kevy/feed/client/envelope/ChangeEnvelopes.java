package io.kevy.feed.client.envelope;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.kevy.feed.client.Change;
import io.kevy.feed.client.Cursor;
import io.kevy.feed.client.Op;
import io.kevy.feed.client.RebuildResult;
import io.kevy.feed.client.RebuildScope;
import io.lettuce.core.KeyValue;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.StreamMessage;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The JSON change envelope every sink uses: a CloudEvents 1.0 event in structured mode
 * ({@code docs/schema/change-envelope.schema.json} is its JSON Schema; {@code docs/consumer.md} describes it).
 *
 * <pre>{@code
 * {"specversion":"1.0", "id":"2:8812:41", "source":"kevy://127.0.0.1:6004/shard/2",
 *  "type":"io.kevy.change.set", "subject":"user:1", "time":"2026-01-05T10:00:00.123Z",
 *  "datacontenttype":"application/json", "kevyshard":2, "kevygeneration":"8812", "kevyoffset":"41",
 *  "data":{"op":"set", "key":"user:1", "value":"ada", "exact":true, "shard":2, "generation":8812,
 *          "offset":41, "argv":["SET","user:1","ada"]}}
 * }</pre>
 *
 * <ul>
 *   <li>{@code id}: {@link Change#id()} ({@code shard:generation:offset}); when one frame is split per key
 *       ({@link #perKey}), {@code :i} is appended, i counting the frame's keys from 0.</li>
 *   <li>{@code type}: {@code io.kevy.change.<op>} with {@link Op#wireName()}; rebuild markers are
 *       {@code io.kevy.resync.begin} and {@code io.kevy.resync.end}.</li>
 *   <li>{@code subject}: the key as text when it is valid UTF-8, else {@code base64:} and its Base64.
 *       {@code data.key} is authoritative.</li>
 *   <li>{@code time}: when the consumer read the frame (frames carry no time of their own).</li>
 *   <li>Binary safety: every key, value, field and argv element is a JSON string when its bytes are valid
 *       UTF-8, else an object {@code {"base64": "<standard Base64>"}} ({@link #bytes(byte[])},
 *       {@link #decodeBytes(JsonNode)}).</li>
 * </ul>
 *
 * <p>Immutable and thread-safe.
 */
public final class ChangeEnvelopes {
    public static final String SPEC_VERSION = "1.0";
    public static final String TYPE_PREFIX = "io.kevy.change.";
    public static final String RESYNC_BEGIN = "io.kevy.resync.begin";
    public static final String RESYNC_END = "io.kevy.resync.end";
    public static final String CONTENT_TYPE = "application/json";
    /** The marker field of a binary (not UTF-8) byte string. */
    public static final String BASE64 = "base64";

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final String authority;
    private final Clock clock;

    private ChangeEnvelopes(String authority, Clock clock) {
        this.authority = Objects.requireNonNull(authority, "authority");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Envelopes whose {@code source} is {@code kevy://<authority>/shard/N}.
     *
     * @param authority {@code host:port} of the server ({@link io.kevy.feed.client.FeedSource#authority()})
     */
    public static ChangeEnvelopes forSource(String authority) {
        return new ChangeEnvelopes(authority, Clock.systemUTC());
    }

    /** As {@link #forSource(String)}, with the clock used for the rebuild markers' {@code time}. */
    public static ChangeEnvelopes forSource(String authority, Clock clock) {
        return new ChangeEnvelopes(authority, clock);
    }

    /** The mapper used to write envelopes (shared, thread-safe; do not reconfigure it). */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** {@code kevy://authority/shard/N}. */
    public String source(int shard) {
        return "kevy://" + authority + "/shard/" + shard;
    }

    /** One envelope for the whole change; {@code data.keys} lists every key when there are several. */
    public ObjectNode envelope(Change<?, ?> change) {
        Change<byte[], byte[]> c = change.bytes();
        List<byte[]> keys = c.keys();
        ObjectNode data = data(c, c.key());
        if (keys.size() > 1) {
            data.set("keys", array(keys));
        }
        content(c, data);
        return wrap(c, change.id(), c.op().wireName(), c.key(), data);
    }

    /**
     * One envelope per key, in frame order: an MSET pair becomes a {@code set} of that key and value, a
     * multi-key DEL a {@code del} per key, a RENAME a {@code rename} of the source (with {@code to}) and one of
     * the destination (with {@code from}). A change with at most one key gives one envelope, as
     * {@link #envelope}, with the plain id.
     */
    public List<ObjectNode> perKey(Change<?, ?> change) {
        Change<byte[], byte[]> c = change.bytes();
        List<byte[]> keys = c.keys();
        if (keys.size() <= 1 || !(c.op() == Op.MSET || c.op() == Op.DEL || c.op() == Op.RENAME)) {
            return List.of(envelope(change));
        }
        List<ObjectNode> out = new ArrayList<>(keys.size());
        List<KeyValue<byte[], byte[]>> pairs = c.fields();
        for (int i = 0; i < keys.size(); i++) {
            byte[] key = keys.get(i);
            ObjectNode data = data(c, key);
            String op = c.op().wireName();
            if (c.op() == Op.MSET) {
                op = Op.SET.wireName();
                data.put("op", op);
                data.set("value", bytes(pairs.get(i).getValue()));
            } else if (c.op() == Op.RENAME) {
                data.set(i == 0 ? "to" : "from", bytes(keys.get(1 - i)));
            }
            data.put("exact", c.exact());
            data.set("argv", array(c.argv()));
            out.add(wrap(c, change.id() + ":" + i, op, key, data));
        }
        return out;
    }

    /** The {@code io.kevy.resync.begin} marker of {@code scope} for one of its shards. */
    public ObjectNode rebuildBegin(RebuildScope scope, int shard) {
        return marker(RESYNC_BEGIN, scope, shard, null);
    }

    /** The {@code io.kevy.resync.end} marker of {@code scope} for one of its shards. */
    public ObjectNode rebuildEnd(RebuildScope scope, int shard, RebuildResult result) {
        return marker(RESYNC_END, scope, shard, result);
    }

    /** The UTF-8 JSON bytes of {@code node}. */
    public static byte[] toBytes(JsonNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A byte string as JSON: a string when valid UTF-8, else {@code {"base64": "..."}}; null → JSON null. */
    public static JsonNode bytes(byte[] b) {
        if (b == null) {
            return F.nullNode();
        }
        String s = utf8(b);
        if (s != null) {
            return TextNode.valueOf(s);
        }
        ObjectNode o = F.objectNode();
        o.put(BASE64, Base64.getEncoder().encodeToString(b));
        return o;
    }

    /**
     * The bytes of a JSON byte string written by {@link #bytes(byte[])}.
     *
     * @throws IllegalArgumentException when the node is neither a string nor a {@code base64} object
     */
    public static byte[] decodeBytes(JsonNode node) {
        if (node.isTextual()) {
            return node.textValue().getBytes(StandardCharsets.UTF_8);
        }
        if (node.isObject() && node.size() == 1 && node.path(BASE64).isTextual()) {
            return Base64.getDecoder().decode(node.get(BASE64).textValue());
        }
        throw new IllegalArgumentException("not an envelope byte string: " + node);
    }

    /** The text of {@code b} when it is valid UTF-8, else null. */
    static String utf8(byte[] b) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static ObjectNode data(Change<byte[], byte[]> c, byte[] key) {
        ObjectNode data = F.objectNode();
        data.put("op", c.op().wireName());
        data.set("key", bytes(key));
        data.put("shard", c.shard());
        data.put("generation", c.generation());
        data.put("offset", c.offset());
        return data;
    }

    private static void content(Change<byte[], byte[]> c, ObjectNode data) {
        if (c.value() != null) {
            data.set("value", bytes(c.value()));
        }
        List<KeyValue<byte[], byte[]>> fields = c.fields();
        if (!fields.isEmpty()) {
            ArrayNode a = data.putArray("fields");
            for (KeyValue<byte[], byte[]> kv : fields) {
                ObjectNode f = a.addObject();
                f.set("name", bytes(kv.getKey()));
                f.set("value", bytes(kv.getValue()));
            }
        }
        if (!c.fieldNames().isEmpty()) {
            data.set("fieldNames", array(c.fieldNames()));
        }
        List<ScoredValue<byte[]>> scored = c.scored();
        if (!scored.isEmpty()) {
            ArrayNode a = data.putArray("scored");
            for (ScoredValue<byte[]> sv : scored) {
                ObjectNode m = a.addObject();
                m.set("member", bytes(sv.getValue()));
                double s = sv.getScore();
                if (Double.isInfinite(s)) {
                    m.put("score", s > 0 ? "inf" : "-inf");
                } else {
                    m.put("score", s);
                }
            }
        } else if (!c.elements().isEmpty()) {
            data.set("elements", array(c.elements()));
        }
        stream(c, data);
        c.count().ifPresent(n -> data.put("count", n));
        c.ttlMillis().ifPresent(t -> data.put("ttlMs", t));
        c.expireAtMillis().ifPresent(t -> data.put("expireAtMs", t));
        if (c.keepTtl()) {
            data.put("keepTtl", true);
        }
        if (c.valueType() != null) {
            data.put("valueType", c.valueType().word());
        }
        data.put("exact", c.exact());
        if (c.fromFeed()) {
            data.set("argv", array(c.argv()));
        }
    }

    /**
     * The stream content of a change: {@code entries} (a stream SNAPSHOT: id and fields per entry, ascending) or
     * {@code ids} (XADD's assigned id, XDEL / XACK / XCLAIM ids, XSETID's, XTRIM MINID's, XGROUP CREATE / SETID's),
     * {@code group}, {@code consumer}, XGROUP's {@code subcommand}, and the counters {@code lastId},
     * {@code entriesAdded}, {@code maxDeletedId} (XSETID, a stream SNAPSHOT).
     */
    private static void stream(Change<byte[], byte[]> c, ObjectNode data) {
        List<StreamMessage<byte[], byte[]>> entries = c.streamEntries();
        if (!entries.isEmpty()) {
            ArrayNode a = data.putArray("entries");
            for (StreamMessage<byte[], byte[]> m : entries) {
                ObjectNode entry = a.addObject();
                entry.put("id", m.getId());
                ArrayNode f = entry.putArray("fields");
                for (Map.Entry<byte[], byte[]> kv : m.getBody().entrySet()) {
                    ObjectNode pair = f.addObject();
                    pair.set("name", bytes(kv.getKey()));
                    pair.set("value", bytes(kv.getValue()));
                }
            }
        } else if (!c.streamIds().isEmpty()) {
            ArrayNode a = data.putArray("ids");
            c.streamIds().forEach(a::add);
        }
        if (c.streamGroup() != null) {
            data.set("group", bytes(c.streamGroup()));
        }
        if (c.streamConsumer() != null) {
            data.set("consumer", bytes(c.streamConsumer()));
        }
        if (!c.subcommand().isEmpty()) {
            data.put("subcommand", c.subcommand());
        }
        if (c.streamLastId() != null) {
            data.put("lastId", c.streamLastId());
        }
        c.streamEntriesAdded().ifPresent(n -> data.put("entriesAdded", n));
        if (c.streamMaxDeletedId() != null) {
            data.put("maxDeletedId", c.streamMaxDeletedId());
        }
    }

    private ObjectNode wrap(Change<byte[], byte[]> c, String id, String op, byte[] subject, ObjectNode data) {
        ObjectNode e = head(id, TYPE_PREFIX + op, c.shard(), Instant.ofEpochMilli(c.observedAtMillis()));
        if (subject != null) {
            String s = utf8(subject);
            e.put("subject", s != null ? s : "base64:" + Base64.getEncoder().encodeToString(subject));
        }
        e.put("kevygeneration", Long.toString(c.generation()));
        e.put("kevyoffset", Long.toString(c.offset()));
        e.set("data", data);
        return e;
    }

    private ObjectNode head(String id, String type, int shard, Instant time) {
        ObjectNode e = F.objectNode();
        e.put("specversion", SPEC_VERSION);
        e.put("id", id);
        e.put("source", source(shard));
        e.put("type", type);
        e.put("time", time.toString());
        e.put("datacontenttype", CONTENT_TYPE);
        e.put("kevyshard", shard);
        return e;
    }

    private ObjectNode marker(String type, RebuildScope scope, int shard, RebuildResult result) {
        Cursor carried = scope.carried().get(shard);
        if (carried == null) {
            throw new IllegalArgumentException("shard " + shard + " is not rebuilt by " + scope);
        }
        String phase = type.equals(RESYNC_BEGIN) ? "begin" : "end";
        ObjectNode e = head(carried + ":rebuild:" + scope.sequence() + ":" + phase, type, shard, clock.instant());
        e.put("kevygeneration", Long.toString(carried.generation()));
        e.put("kevyoffset", Long.toString(carried.offset()));
        ObjectNode data = e.putObject("data");
        data.put("op", "resync." + phase);
        data.put("rebuild", scope.sequence());
        data.put("reason", scope.reason().name().toLowerCase(java.util.Locale.ROOT));
        data.put("shard", shard);
        data.put("generation", carried.generation());
        data.put("tail", carried.offset());
        data.set("prefixes", array(scope.prefixes()));
        if (result != null) {
            data.put("keys", result.keys());
            data.put("vanished", result.vanished());
            data.put("durationMs", result.duration().toMillis());
        }
        return e;
    }

    private static ArrayNode array(List<byte[]> items) {
        ArrayNode a = F.arrayNode(items.size());
        for (byte[] b : items) {
            a.add(bytes(b));
        }
        return a;
    }
}
