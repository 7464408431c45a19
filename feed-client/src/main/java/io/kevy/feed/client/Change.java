package io.kevy.feed.client;

import io.lettuce.core.KeyValue;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * One change delivered to a {@link Sink} or handler: a frame of the feed (its shard, generation, offset and
 * argv, decoded), or an entry of a rebuild ({@link Op#SNAPSHOT} with the key's whole value and TTL,
 * {@link Op#VANISHED} for a key the handler held that no longer exists).
 *
 * <p>What the accessors hold, by op (empty or null where the op has no such part):
 * <table>
 *   <caption>content per op</caption>
 *   <tr><th>op</th><th>content</th></tr>
 *   <tr><td>SET</td><td>{@link #value()} (PFADD / PFMERGE arrive as {@code SET k <HyperLogLog bytes> KEEPTTL}); {@link #expireAtMillis()} (PXAT/EXAT), {@link #ttlMillis()} (upstream
 *       EX/PX/SETEX), {@link #keepTtl()}; none of them = the TTL is cleared</td></tr>
 *   <tr><td>MSET</td><td>{@link #keys()}: every key set, in argv order; {@link #fields()}: the same keys
 *       paired with their values ({@link KeyValue#getKey()} the key, {@link KeyValue#getValue()} its value),
 *       both narrowed to the consumer's prefixes by the exact prefix filter; {@link #key()} is the first key.
 *       MSETNX (upstream) decodes the same with {@code exact() == false} (it may have set nothing)</td></tr>
 *   <tr><td>DEL</td><td>{@link #keys()}</td></tr>
 *   <tr><td>EXPIRE</td><td>{@link #expireAtMillis()} (ours, absolute) or {@link #ttlMillis()} (upstream)</td></tr>
 *   <tr><td>RENAME, LMOVE, SMOVE</td><td>{@link #keys()} = source, destination; SMOVE's member in
 *       {@link #elements()}</td></tr>
 *   <tr><td>HSET</td><td>{@link #fields()}: field → value</td></tr>
 *   <tr><td>HDEL, INCR of a hash</td><td>{@link #fieldNames()}</td></tr>
 *   <tr><td>LPUSH, RPUSH, SADD, SREM, ZREM</td><td>{@link #elements()} in argv order</td></tr>
 *   <tr><td>LPOP, RPOP</td><td>{@link #count()}: how many were popped</td></tr>
 *   <tr><td>LSET</td><td>{@link #count()} = index, {@link #value()} = element</td></tr>
 *   <tr><td>LREM</td><td>{@link #count()}, {@link #value()} = element</td></tr>
 *   <tr><td>LINSERT</td><td>{@link #value()} = inserted element; pivot and side in {@link #argv()}</td></tr>
 *   <tr><td>ZADD</td><td>{@link #scored()}: final scores (ours; GEOADD arrives as ZADD with the 52-bit geohash
 *       scores)</td></tr>
 *   <tr><td>XADD</td><td>{@link #streamIds()} = the assigned id (ours), {@link #fields()} = the entry's fields,
 *       {@link #count()} = length after a {@code MAXLEN} trim; upstream {@code XADD k * ...}: no id,
 *       {@code exact() == false}</td></tr>
 *   <tr><td>XTRIM</td><td>{@link #count()} = length after ({@code MAXLEN}), or {@link #streamIds()} = the
 *       {@code MINID} threshold</td></tr>
 *   <tr><td>XDEL</td><td>{@link #streamIds()}</td></tr>
 *   <tr><td>XSETID</td><td>{@link #streamLastId()}, {@link #streamEntriesAdded()},
 *       {@link #streamMaxDeletedId()}</td></tr>
 *   <tr><td>XGROUP</td><td>{@link #subcommand()}, {@link #streamGroup()}, {@link #streamIds()} (CREATE, SETID),
 *       {@link #streamConsumer()} (CREATECONSUMER, DELCONSUMER); key = argv[2]</td></tr>
 *   <tr><td>XCLAIM, XACK</td><td>{@link #streamGroup()}, {@link #streamConsumer()} (XCLAIM), {@link #streamIds()};
 *       upstream XREADGROUP / XAUTOCLAIM / XCLAIM as sent decode as XCLAIM with {@code exact() == false}</td></tr>
 *   <tr><td>SNAPSHOT</td><td>{@link #valueType()} and, by type: {@link #value()} (string, a HyperLogLog's
 *       bytes too), {@link #fields()} (hash), {@link #elements()} (list in order, set), {@link #scored()} (zset,
 *       ascending), {@link #streamEntries()} with {@link #streamLastId()} ... (stream);
 *       {@link #ttlMillis()} as PTTL read it and {@link #expireAtMillis()} as PEXPIRETIME read it (read time +
 *       TTL on a server without PEXPIRETIME)</td></tr>
 *   <tr><td>VANISHED</td><td>{@link #key()}</td></tr>
 * </table>
 *
 * <p>Keys, values and fields are decoded with the consumer's codec on each call (cache them if you call
 * repeatedly); {@link #bytes()} gives the same change with raw bytes; {@link #argv()} is always the frame as
 * read. Immutable and thread-safe (given a thread-safe codec). Equality: same id, op and content bytes.
 *
 * @param <K> the key type of the codec
 * @param <V> the value type of the codec
 */
public final class Change<K, V> {
    private final RedisCodec<K, V> codec;
    private final int shard;
    private final long generation;
    private final long offset;
    private final String suffix;
    private final byte[][] argv;
    private final RawChange raw;
    private final long observedAtMillis;

    Change(RedisCodec<K, V> codec, int shard, long generation, long offset, String suffix, byte[][] argv,
            RawChange raw, long observedAtMillis) {
        this.codec = Objects.requireNonNull(codec, "codec");
        this.shard = shard;
        this.generation = generation;
        this.offset = offset;
        this.suffix = suffix;
        this.argv = argv;
        this.raw = raw;
        this.observedAtMillis = observedAtMillis;
    }

    /**
     * Decodes a frame read from {@code shard} in {@code generation} (feed contract §7, ours and upstream's).
     *
     * @param observedAtMillis when the frame was read (ms since the epoch); frames carry no time of their own
     */
    public static <K, V> Change<K, V> of(RedisCodec<K, V> codec, int shard, long generation, Frame frame,
            long observedAtMillis) {
        return new Change<>(codec, shard, generation, frame.offset(), null, frame.argv(),
                FrameDecoder.decode(frame.argv()), observedAtMillis);
    }

    /**
     * A rebuild's entry for a key read at {@code readAtMillis}, resuming at {@code carried}: {@link Op#SNAPSHOT}
     * with the value and TTL of {@code snap}. {@code n} numbers the entries of one rebuild.
     */
    static <K, V> Change<K, V> snapshot(RedisCodec<K, V> codec, Cursor carried, long n, KeySnapshot snap,
            long readAtMillis) {
        RawChange.Parts p = RawChange.of(Op.SNAPSHOT, snap.key());
        p.valueType = snap.type();
        List<byte[]> v = snap.value();
        switch (snap.type()) {
            case STRING:
                p.value = v.isEmpty() ? new byte[0] : v.get(0);
                break;
            case LIST:
            case SET:
                p.elements = v.toArray(new byte[0][]);
                break;
            case HASH:
                p.pairs = v.toArray(new byte[0][]);
                break;
            case ZSET:
                p.elements = new byte[v.size() / 2][];
                p.scores = new double[v.size() / 2];
                for (int i = 0; i < p.elements.length; i++) {
                    p.elements[i] = v.get(2 * i);
                    p.scores[i] = FrameDecoder.score(v.get(2 * i + 1));
                }
                break;
            case STREAM:
                stream(p, v);
                break;
            default:
                p.exact = false;
                break;
        }
        if (snap.ttlMillis() >= 0) {
            p.ttl = snap.ttlMillis();
            p.expireAt = snap.expireAtMillis() >= 0 ? snap.expireAtMillis() : readAtMillis + snap.ttlMillis();
        }
        return new Change<>(codec, carried.shard(), carried.generation(), carried.offset(), "snapshot:" + n,
                RawChange.NONE, p.build(), readAtMillis);
    }

    /** A stream's flat {@link KeySnapshot} form as ids, entry fields and counters. */
    static void stream(RawChange.Parts p, List<byte[]> v) {
        p.streamMeta = new byte[][] {v.get(0), v.get(1), v.get(2)};
        List<byte[]> ids = new ArrayList<>();
        List<byte[][]> fields = new ArrayList<>();
        for (int i = 3; i < v.size(); ) {
            ids.add(v.get(i));
            int n = (int) FrameDecoder.num(v.get(i + 1));
            fields.add(v.subList(i + 2, i + 2 + n).toArray(new byte[0][]));
            i += 2 + n;
        }
        p.ids = ids.toArray(new byte[0][]);
        p.entryFields = fields.toArray(new byte[0][][]);
    }

    /** A rebuild's {@link Op#VANISHED} entry: {@code key} is gone from the server. */
    static <K, V> Change<K, V> vanished(RedisCodec<K, V> codec, Cursor carried, long n, byte[] key, long nowMillis) {
        return new Change<>(codec, carried.shard(), carried.generation(), carried.offset(), "vanished:" + n,
                RawChange.NONE, RawChange.of(Op.VANISHED, key).build(), nowMillis);
    }

    /** This change with {@code raw} as its content (the exact prefix filter narrows MSET and DEL). */
    Change<K, V> withContent(RawChange content) {
        return new Change<>(codec, shard, generation, offset, suffix, argv, content, observedAtMillis);
    }

    RawChange raw() {
        return raw;
    }

    /** The shard whose stream this change came from. */
    public int shard() {
        return shard;
    }

    /** The generation of the stream (for rebuild entries: the carried generation). */
    public long generation() {
        return generation;
    }

    /** The frame's offset (for rebuild entries: the carried tail, where reading resumes). */
    public long offset() {
        return offset;
    }

    /**
     * A stable id: {@code shard:generation:offset} for a frame (feed contract §5: it names the same frame
     * forever); rebuild entries add {@code :snapshot:n} or {@code :vanished:n}, n counting from 0 per rebuild.
     */
    public String id() {
        String base = shard + ":" + generation + ":" + offset;
        return suffix == null ? base : base + ":" + suffix;
    }

    /** True for a frame of the feed; false for a rebuild's SNAPSHOT or VANISHED entry. */
    public boolean fromFeed() {
        return suffix == null;
    }

    /** What happened. */
    public Op op() {
        return raw.op;
    }

    /**
     * True when the content fully determines the result (every frame of ours); false for upstream verbatim
     * commands whose outcome the frame cannot tell (INCR, relative TTLs, NX/XX, SPOP, EVAL ...).
     */
    public boolean exact() {
        return raw.exact;
    }

    /** The verb as in the frame, upper-cased; empty for rebuild entries. */
    public String verb() {
        return argv.length == 0 ? ""
                : new String(argv[0], java.nio.charset.StandardCharsets.ISO_8859_1)
                        .toUpperCase(java.util.Locale.ROOT);
    }

    /** The first key, or null when the change names none (FLUSH, EVAL without keys). */
    public K key() {
        return raw.keys.length == 0 ? null : codec.decodeKey(ByteBuffer.wrap(raw.keys[0]));
    }

    /** Every key the change touches, in frame order (after the exact prefix filter). */
    public List<K> keys() {
        List<K> out = new ArrayList<>(raw.keys.length);
        for (byte[] k : raw.keys) {
            out.add(codec.decodeKey(ByteBuffer.wrap(k)));
        }
        return out;
    }

    /**
     * The string value (SET: the new value; LSET: the element set; LREM: the element removed; LINSERT: the element
     * inserted; string SNAPSHOT: the whole value), or null for every other op.
     */
    public V value() {
        return raw.value == null ? null : codec.decodeValue(ByteBuffer.wrap(raw.value));
    }

    /**
     * Pairs in frame order, decoded with the codec: field → value for HSET (the fields set and their new values)
     * and a hash SNAPSHOT (every field of the hash); field → value of XADD's entry; key → value for MSET (each key set and its value, the same
     * keys as {@link #keys()}); empty for every other op. A new list on each call.
     */
    public List<KeyValue<K, V>> fields() {
        List<KeyValue<K, V>> out = new ArrayList<>(raw.pairs.length / 2);
        for (int i = 0; i + 1 < raw.pairs.length; i += 2) {
            out.add(KeyValue.just(codec.decodeKey(ByteBuffer.wrap(raw.pairs[i])),
                    codec.decodeValue(ByteBuffer.wrap(raw.pairs[i + 1]))));
        }
        return out;
    }

    /** Hash field names: HDEL's removed fields, upstream HINCRBY's field; empty for every other op. */
    public List<K> fieldNames() {
        List<K> out = new ArrayList<>(raw.names.length);
        for (byte[] n : raw.names) {
            out.add(codec.decodeKey(ByteBuffer.wrap(n)));
        }
        return out;
    }

    /**
     * Elements in frame order: LPUSH/RPUSH's pushed elements (argv order, so LPUSH's last one ends up at the head),
     * SADD/SREM's members, ZREM's members, SMOVE's member, a list SNAPSHOT's elements head to tail, a set
     * SNAPSHOT's members; a zset SNAPSHOT's members ascending (their scores in {@link #scored()}); empty otherwise.
     */
    public List<V> elements() {
        List<V> out = new ArrayList<>(raw.elements.length);
        for (byte[] e : raw.elements) {
            out.add(codec.decodeValue(ByteBuffer.wrap(e)));
        }
        return out;
    }

    /**
     * Members with their scores: ZADD's members with their scores after the command (ours: our frame carries
     * the final scores, INCR, GT and LT already applied), a zset SNAPSHOT's members ascending by score; empty for
     * every other op. Upstream ZADD's frame is the command itself: with NX, XX, GT, LT or INCR its scores are the
     * command's arguments and {@link #exact()} is false.
     */
    public List<ScoredValue<V>> scored() {
        if (raw.scores == null) {
            return Collections.emptyList();
        }
        List<ScoredValue<V>> out = new ArrayList<>(raw.elements.length);
        for (int i = 0; i < raw.elements.length; i++) {
            out.add(ScoredValue.just(raw.scores[i], codec.decodeValue(ByteBuffer.wrap(raw.elements[i]))));
        }
        return out;
    }

    /**
     * LPOP/RPOP: how many elements were popped; LSET: the index set (negative counts from the tail); LREM: the
     * count argument (0 all, positive from the head, negative from the tail); XTRIM / XADD {@code MAXLEN}: the
     * stream's length after the trim; empty for every other op.
     */
    public OptionalLong count() {
        return raw.count == RawChange.ABSENT ? OptionalLong.empty() : OptionalLong.of(raw.count);
    }

    /**
     * Stream entry ids, as {@code ms-seq} strings: XADD's assigned id (ours; empty for upstream's {@code *}),
     * XDEL's, XACK's and XCLAIM's ids, XSETID's last id, XTRIM MINID's threshold, XGROUP CREATE / SETID's group
     * id, a stream SNAPSHOT's entry ids ascending; empty for every other op.
     */
    public List<String> streamIds() {
        List<String> out = new ArrayList<>(raw.ids.length);
        for (byte[] id : raw.ids) {
            out.add(new String(id, java.nio.charset.StandardCharsets.US_ASCII));
        }
        return out;
    }

    /**
     * A stream SNAPSHOT's entries ascending by id ({@link StreamMessage#getStream()} the key, the body field →
     * value in entry order; a field repeated within one entry keeps its last value there, {@link #bytes()} and
     * the raw form keep both); empty for every other op (XADD's fields are {@link #fields()}).
     */
    public List<StreamMessage<K, V>> streamEntries() {
        if (raw.entryFields == null) {
            return Collections.emptyList();
        }
        K key = key();
        List<StreamMessage<K, V>> out = new ArrayList<>(raw.ids.length);
        for (int i = 0; i < raw.ids.length; i++) {
            Map<K, V> body = new LinkedHashMap<>();
            byte[][] f = raw.entryFields[i];
            for (int j = 0; j + 1 < f.length; j += 2) {
                body.put(codec.decodeKey(ByteBuffer.wrap(f[j])), codec.decodeValue(ByteBuffer.wrap(f[j + 1])));
            }
            out.add(new StreamMessage<>(key, new String(raw.ids[i], java.nio.charset.StandardCharsets.US_ASCII),
                    body));
        }
        return out;
    }

    /** The consumer group (XGROUP, XACK, XCLAIM, upstream XREADGROUP / XAUTOCLAIM), or null. */
    public K streamGroup() {
        return raw.group == null ? null : codec.decodeKey(ByteBuffer.wrap(raw.group));
    }

    /** The consumer (XGROUP CREATECONSUMER / DELCONSUMER, XCLAIM, upstream XREADGROUP / XAUTOCLAIM), or null. */
    public K streamConsumer() {
        return raw.consumer == null ? null : codec.decodeKey(ByteBuffer.wrap(raw.consumer));
    }

    /** XGROUP's subcommand upper-cased ({@code CREATE}, {@code SETID} ...); empty for every other op. */
    public String subcommand() {
        return raw.op != Op.XGROUP || argv.length < 2 ? ""
                : new String(argv[1], java.nio.charset.StandardCharsets.ISO_8859_1).toUpperCase(java.util.Locale.ROOT);
    }

    /** The stream's last-generated-id: XSETID's, a stream SNAPSHOT's; null for every other op. */
    public String streamLastId() {
        return metaString(0);
    }

    /**
     * The stream's entries-added counter: XSETID ENTRIESADDED's, a stream SNAPSHOT's (-1 from a plain read that
     * could not tell); empty otherwise.
     */
    public OptionalLong streamEntriesAdded() {
        String s = metaString(1);
        return s == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(s));
    }

    /** The stream's max-deleted-entry-id: XSETID MAXDELETEDID's, a stream SNAPSHOT's; null otherwise. */
    public String streamMaxDeletedId() {
        return metaString(2);
    }

    private String metaString(int i) {
        return raw.streamMeta == null || raw.streamMeta[i] == null ? null
                : new String(raw.streamMeta[i], java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** An absolute expiry time in ms since the epoch (SET PXAT, PEXPIREAT, SNAPSHOT with a TTL). */
    public OptionalLong expireAtMillis() {
        return raw.expireAt == RawChange.ABSENT ? OptionalLong.empty() : OptionalLong.of(raw.expireAt);
    }

    /** A relative TTL in ms (upstream EX/PX/EXPIRE/SETEX; SNAPSHOT: PTTL as read). */
    public OptionalLong ttlMillis() {
        return raw.ttl == RawChange.ABSENT ? OptionalLong.empty() : OptionalLong.of(raw.ttl);
    }

    /** True for {@code SET ... KEEPTTL}: the value changed, the TTL stays. */
    public boolean keepTtl() {
        return raw.keepTtl;
    }

    /**
     * The type of the key's value after the change, when the op implies one: {@link ValueType#STRING} for SET,
     * {@link ValueType#HASH} for HSET, HDEL and upstream HINCRBY, {@link ValueType#LIST} for LPUSH, RPUSH, LPOP
     * and RPOP, {@link ValueType#SET} for SADD and SREM, {@link ValueType#ZSET} for ZADD, ZREM and upstream
     * ZINCRBY, {@link ValueType#STREAM} for the stream ops (XADD ... XACK); for a SNAPSHOT the type the rebuild read ({@code TYPE}), which selects the accessor holding the
     * value (see the table above). Null for ops that name no single type (MSET, DEL, EXPIRE, PERSIST, RENAME,
     * LMOVE, SMOVE, LSET, LINSERT, LREM, LTRIM, STORE, FLUSH, EVAL, OTHER, VANISHED).
     */
    public ValueType valueType() {
        return raw.valueType;
    }

    /** When the consumer read the frame (or the rebuild read the key), ms since the epoch. */
    public long observedAtMillis() {
        return observedAtMillis;
    }

    /** The frame's argv as read, verb first (do not modify the arrays); empty for rebuild entries. */
    public List<byte[]> argv() {
        return Collections.unmodifiableList(Arrays.asList(argv));
    }

    /** The same change with raw bytes for keys and values. */
    public Change<byte[], byte[]> bytes() {
        return new Change<>(ByteArrayCodec.INSTANCE, shard, generation, offset, suffix, argv, raw, observedAtMillis);
    }

    /** The same change decoded with another codec. */
    public <K2, V2> Change<K2, V2> decodedWith(RedisCodec<K2, V2> other) {
        return new Change<>(other, shard, generation, offset, suffix, argv, raw, observedAtMillis);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Change<?, ?> c)) {
            return false;
        }
        return c.shard == shard && c.generation == generation && c.offset == offset && Objects.equals(c.suffix, suffix)
                && c.raw.op == raw.op && Arrays.deepEquals(c.argv, argv) && Arrays.deepEquals(c.raw.keys, raw.keys)
                && Arrays.equals(c.raw.value, raw.value) && Arrays.deepEquals(c.raw.pairs, raw.pairs)
                && Arrays.deepEquals(c.raw.elements, raw.elements) && Arrays.deepEquals(c.raw.ids, raw.ids)
                && Arrays.deepEquals(c.raw.entryFields, raw.entryFields);
    }

    @Override
    public int hashCode() {
        return id().hashCode() * 31 + raw.op.hashCode();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(id()).append(' ').append(raw.op);
        for (byte[] k : raw.keys) {
            sb.append(' ').append(new String(k, java.nio.charset.StandardCharsets.UTF_8));
        }
        return sb.toString();
    }
}
