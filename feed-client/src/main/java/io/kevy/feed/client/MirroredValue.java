package io.kevy.feed.client;

import io.lettuce.core.KeyValue;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.codec.RedisCodec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * One key's value as a {@link FeedMirror} holds it: its type and content, and its absolute expiry. Immutable
 * (every change makes a new one) and thread-safe; the accessors decode with the mirror's codec on each call.
 * Equality compares type, bytes and expiry (a set and a hash compare as sets and maps, a zset by member →
 * score).
 *
 * <p>Content by {@link #type()}: {@link #string()} (STRING), {@link #list()} (LIST, head first), {@link #set()}
 * (SET, no order), {@link #hash()} (HASH, field → value, no order), {@link #zset()} (ZSET, ascending by score
 * then member bytes, as ZRANGE), {@link #stream()} (STREAM, entries ascending by id, as XRANGE - +, with
 * {@link #streamLastId()}, {@link #streamEntriesAdded()}, {@link #streamMaxDeletedId()}; consumer groups are not
 * mirrored). The accessors of the other types answer null. A HyperLogLog is a string (its bytes).
 *
 * @param <V> value type of the codec
 */
public final class MirroredValue<V> {
    private final RedisCodec<?, V> codec;
    private final ValueType type;
    /** STRING: one element; LIST: elements in order. */
    private final List<byte[]> items;
    /** SET members. */
    private final Set<ByteBuffer> members;
    /** HASH field → value, ZSET member → score bytes are not kept: scores as doubles. */
    private final Map<ByteBuffer, byte[]> fields;
    private final Map<ByteBuffer, Double> scores;
    private final long expireAt;
    /** STREAM: entries ascending by id and the counters. */
    private final StreamContent stream;

    /**
     * A stream's content: entry ids ascending with their field, value ... arrays, last-generated-id, entries-added
     * (-1 unknown: a plain read) and max-deleted-entry-id. Consumer groups are not mirrored.
     */
    record StreamContent(List<byte[]> ids, List<byte[][]> fields, String lastId, long entriesAdded,
            String maxDeletedId) {
        StreamContent {
            ids = Collections.unmodifiableList(new ArrayList<>(ids));
            fields = Collections.unmodifiableList(new ArrayList<>(fields));
        }

        /** An empty stream (XGROUP CREATE ... MKSTREAM, or the first XADD). */
        static StreamContent empty() {
            return new StreamContent(List.of(), List.of(), "0-0", 0, "0-0");
        }

        boolean sameAs(StreamContent o) {
            if (ids.size() != o.ids.size() || !lastId.equals(o.lastId) || entriesAdded != o.entriesAdded
                    || !maxDeletedId.equals(o.maxDeletedId)) {
                return false;
            }
            for (int i = 0; i < ids.size(); i++) {
                if (!Arrays.equals(ids.get(i), o.ids.get(i)) || !Arrays.deepEquals(fields.get(i), o.fields.get(i))) {
                    return false;
                }
            }
            return true;
        }
    }

    private MirroredValue(RedisCodec<?, V> codec, ValueType type, List<byte[]> items, Set<ByteBuffer> members,
            Map<ByteBuffer, byte[]> fields, Map<ByteBuffer, Double> scores, long expireAt) {
        this(codec, type, items, members, fields, scores, expireAt, null);
    }

    private MirroredValue(RedisCodec<?, V> codec, ValueType type, List<byte[]> items, Set<ByteBuffer> members,
            Map<ByteBuffer, byte[]> fields, Map<ByteBuffer, Double> scores, long expireAt, StreamContent stream) {
        this.stream = stream;
        this.codec = codec;
        this.type = type;
        this.items = items;
        this.members = members;
        this.fields = fields;
        this.scores = scores;
        this.expireAt = expireAt;
    }

    static <V> MirroredValue<V> ofString(RedisCodec<?, V> codec, byte[] value, long expireAt) {
        return new MirroredValue<>(codec, ValueType.STRING, List.of(value), null, null, null, expireAt);
    }

    static <V> MirroredValue<V> ofList(RedisCodec<?, V> codec, List<byte[]> elements, long expireAt) {
        return elements.isEmpty() ? null : new MirroredValue<>(codec, ValueType.LIST,
                Collections.unmodifiableList(new ArrayList<>(elements)), null, null, null, expireAt);
    }

    static <V> MirroredValue<V> ofSet(RedisCodec<?, V> codec, Set<ByteBuffer> members, long expireAt) {
        return members.isEmpty() ? null : new MirroredValue<>(codec, ValueType.SET, null,
                Collections.unmodifiableSet(new LinkedHashSet<>(members)), null, null, expireAt);
    }

    static <V> MirroredValue<V> ofHash(RedisCodec<?, V> codec, Map<ByteBuffer, byte[]> fields, long expireAt) {
        return fields.isEmpty() ? null : new MirroredValue<>(codec, ValueType.HASH, null, null,
                Collections.unmodifiableMap(new LinkedHashMap<>(fields)), null, expireAt);
    }

    static <V> MirroredValue<V> ofZSet(RedisCodec<?, V> codec, Map<ByteBuffer, Double> scores, long expireAt) {
        return scores.isEmpty() ? null : new MirroredValue<>(codec, ValueType.ZSET, null, null, null,
                Collections.unmodifiableMap(new LinkedHashMap<>(scores)), expireAt);
    }

    /** A stream (possibly empty: a stream key exists without entries). */
    static <V> MirroredValue<V> ofStream(RedisCodec<?, V> codec, StreamContent content, long expireAt) {
        return new MirroredValue<>(codec, ValueType.STREAM, null, null, null, null, expireAt, content);
    }

    /** The same content with another expiry (-1: none). */
    MirroredValue<V> withExpireAt(long at) {
        return new MirroredValue<>(codec, type, items, members, fields, scores, at, stream);
    }

    StreamContent rawStream() {
        return stream;
    }

    List<byte[]> rawItems() {
        return items;
    }

    Set<ByteBuffer> rawMembers() {
        return members;
    }

    Map<ByteBuffer, byte[]> rawFields() {
        return fields;
    }

    Map<ByteBuffer, Double> rawScores() {
        return scores;
    }

    long rawExpireAt() {
        return expireAt;
    }

    /** The type. */
    public ValueType type() {
        return type;
    }

    /** The absolute expiry in ms since the epoch, empty when the key has no TTL. */
    public OptionalLong expireAtMillis() {
        return expireAt < 0 ? OptionalLong.empty() : OptionalLong.of(expireAt);
    }

    /** True when the expiry has passed at {@code nowMillis} (the server deletes it at the latest then). */
    public boolean expiredAt(long nowMillis) {
        return expireAt >= 0 && expireAt <= nowMillis;
    }

    private V decode(byte[] b) {
        return codec.decodeValue(ByteBuffer.wrap(b));
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    /** STRING: the value; else null. */
    public V string() {
        return type == ValueType.STRING ? decode(items.get(0)) : null;
    }

    /** LIST: the elements, head first; else null. */
    public List<V> list() {
        if (type != ValueType.LIST) {
            return null;
        }
        List<V> out = new ArrayList<>(items.size());
        for (byte[] b : items) {
            out.add(decode(b));
        }
        return out;
    }

    /** SET: the members; else null. */
    public List<V> set() {
        if (type != ValueType.SET) {
            return null;
        }
        List<V> out = new ArrayList<>(members.size());
        for (ByteBuffer b : members) {
            out.add(decode(bytes(b)));
        }
        return out;
    }

    /** HASH: field → value pairs; else null. */
    public List<KeyValue<V, V>> hash() {
        if (type != ValueType.HASH) {
            return null;
        }
        List<KeyValue<V, V>> out = new ArrayList<>(fields.size());
        for (Map.Entry<ByteBuffer, byte[]> e : fields.entrySet()) {
            out.add(KeyValue.just(decode(bytes(e.getKey())), decode(e.getValue())));
        }
        return out;
    }

    /** ZSET: members with scores, ascending by score then member bytes (as ZRANGE); else null. */
    public List<ScoredValue<V>> zset() {
        if (type != ValueType.ZSET) {
            return null;
        }
        List<Map.Entry<ByteBuffer, Double>> sorted = new ArrayList<>(scores.entrySet());
        sorted.sort((a, b) -> {
            int c = Double.compare(a.getValue(), b.getValue());
            return c != 0 ? c : Arrays.compareUnsigned(bytes(a.getKey()), bytes(b.getKey()));
        });
        List<ScoredValue<V>> out = new ArrayList<>(sorted.size());
        for (Map.Entry<ByteBuffer, Double> e : sorted) {
            out.add(ScoredValue.just(e.getValue(), decode(bytes(e.getKey()))));
        }
        return out;
    }

    /**
     * STREAM: the entries ascending by id, as XRANGE - + answers them ({@link StreamMessage#getStream()} null; a
     * field repeated within an entry keeps its last value in the body map); else null.
     */
    public List<StreamMessage<V, V>> stream() {
        if (type != ValueType.STREAM) {
            return null;
        }
        List<StreamMessage<V, V>> out = new ArrayList<>(stream.ids().size());
        for (int i = 0; i < stream.ids().size(); i++) {
            Map<V, V> body = new LinkedHashMap<>();
            byte[][] f = stream.fields().get(i);
            for (int j = 0; j + 1 < f.length; j += 2) {
                body.put(decode(f[j]), decode(f[j + 1]));
            }
            out.add(new StreamMessage<>(null, new String(stream.ids().get(i), StandardCharsets.US_ASCII), body));
        }
        return out;
    }

    /** STREAM: the last-generated-id (XINFO STREAM's; XDEL and trims leave it); else null. */
    public String streamLastId() {
        return type == ValueType.STREAM ? stream.lastId() : null;
    }

    /** STREAM: entries-added (XINFO STREAM's; -1 when a plain read against upstream could not tell); else -1. */
    public long streamEntriesAdded() {
        return type == ValueType.STREAM ? stream.entriesAdded() : -1;
    }

    /** STREAM: max-deleted-entry-id (XINFO STREAM's); else null. */
    public String streamMaxDeletedId() {
        return type == ValueType.STREAM ? stream.maxDeletedId() : null;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof MirroredValue<?> v) || v.type != type || v.expireAt != expireAt) {
            return false;
        }
        switch (type) {
            case STRING:
            case LIST:
                if (v.items.size() != items.size()) {
                    return false;
                }
                for (int i = 0; i < items.size(); i++) {
                    if (!Arrays.equals(items.get(i), v.items.get(i))) {
                        return false;
                    }
                }
                return true;
            case SET:
                return members.equals(v.members);
            case HASH:
                if (!fields.keySet().equals(v.fields.keySet())) {
                    return false;
                }
                for (Map.Entry<ByteBuffer, byte[]> e : fields.entrySet()) {
                    if (!Arrays.equals(e.getValue(), v.fields.get(e.getKey()))) {
                        return false;
                    }
                }
                return true;
            case ZSET:
                return scores.equals(v.scores);
            case STREAM:
                return stream.sameAs(v.stream);
            default:
                return false;
        }
    }

    @Override
    public int hashCode() {
        return type.hashCode() * 31 + Long.hashCode(expireAt);
    }

    @Override
    public String toString() {
        String content = switch (type) {
            case STRING -> String.valueOf(string());
            case LIST -> String.valueOf(list());
            case SET -> String.valueOf(set());
            case HASH -> String.valueOf(hash());
            case ZSET -> String.valueOf(zset());
            case STREAM -> stream() + " last " + stream.lastId() + " added " + stream.entriesAdded() + " maxdel "
                    + stream.maxDeletedId();
            default -> "?";
        };
        return type.word() + " " + content + (expireAt >= 0 ? " pxat " + expireAt : "");
    }
}
