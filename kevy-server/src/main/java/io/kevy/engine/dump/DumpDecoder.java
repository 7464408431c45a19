package io.kevy.engine.dump;

import io.kevy.engine.config.EncodingLimits;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.engine.type.HashValue;
import io.kevy.engine.type.ListValue;
import io.kevy.engine.type.SetValue;
import io.kevy.engine.type.StreamGroup;
import io.kevy.engine.type.StreamId;
import io.kevy.engine.type.StreamValue;
import io.kevy.engine.type.ZSetValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a DUMP payload into a kevy value, as Redis 7.0's RESTORE does ({@code verifyDumpPayload},
 * {@code rdbLoadObjectType}, {@code rdbLoadObject}). Accepted object types: string (0); list as plain (1),
 * ziplist (10), quicklist of ziplists (14) and quicklist 2 of listpacks and plain nodes (18); set as members (2)
 * and intset (11); sorted set as members with text (3) or binary (5) scores, ziplist (12), listpack (17); hash as
 * pairs (4), ziplist (13), listpack (16); stream as listpacks (15, Redis 5-6.2) and listpacks 2 (19, Redis 7.0),
 * each node's listpack checked as {@code streamValidateListpackIntegrity} does in deep mode, and every pending
 * entry owned by a consumer of its group. Strings may be int8/16/32-encoded or LZF-compressed anywhere. Refused:
 * zipmap hashes (9, Redis 2.4) and modules (6, 7).
 *
 * <p>Hostile input: every declared length is checked against the bytes that remain before anything is allocated
 * (an LZF string's declared length against the most its compressed bytes can expand to, 88 times), nothing is
 * preallocated from a declared count, and every compact encoding is validated in full (Redis's deep sanitization:
 * sizes, terminators, ordering of intsets, duplicates in every type), so a corrupt payload raises
 * {@link DumpFormatException} and never another exception. Empty values are refused as Redis does.
 *
 * <p>Thread-safe: a pure function of its arguments.
 */
public final class DumpDecoder {
    /** Most bytes one LZF byte can stand for (a 3-byte back-reference of 264 bytes). */
    private static final int LZF_MAX_RATIO = 88;
    private static final int FOOTER = 10;

    private final byte[] in;
    private final EncodingLimits limits;
    private int pos;

    private DumpDecoder(byte[] in, EncodingLimits limits) {
        this.in = in;
        this.limits = limits;
    }

    /**
     * True when {@code payload} ends with an RDB version Redis 7.0 reads (at most 10) and a correct CRC64 of
     * everything before the checksum ({@code verifyDumpPayload}); RESTORE answers
     * {@code ERR DUMP payload version or checksum are wrong} otherwise.
     */
    public static boolean verify(byte[] payload) {
        int len = payload.length;
        if (len < FOOTER) {
            return false;
        }
        int version = (payload[len - 10] & 0xff) | (payload[len - 9] & 0xff) << 8;
        if (version > RdbType.VERSION) {
            return false;
        }
        long crc = Crc64.update(0, payload, 0, len - 8);
        return crc == Listpack.le(payload, len - 8, 8);
    }

    /**
     * The value {@code payload} holds (a {@code byte[]} string or a collection in the encoding {@code limits}
     * choose). Call {@link #verify} first: this reads the object only (the footer's bytes are readable, as in
     * Redis's buffer, and trailing bytes are ignored).
     *
     * @throws DumpFormatException when the object cannot be read; the message names what was wrong
     */
    public static Object decode(byte[] payload, EncodingLimits limits) {
        DumpDecoder d = new DumpDecoder(payload, limits);
        return d.object(d.u8());
    }

    /**
     * The library codes of a FUNCTION DUMP payload, in payload order ({@code functionRestoreCommand} with
     * {@code rdbFunctionLoad}): records are read while more than the 10 footer bytes remain; each is
     * {@code RDB_OPCODE_FUNCTION2} (245) and the code as an RDB string (verbatim, int-encoded or LZF), or Redis 7.0
     * rc1/rc2's {@code RDB_OPCODE_FUNCTION} (246: name, engine, a description flag and maybe a description, the
     * body), turned into {@code #!<engine> name=<name>\n<body>} as Redis does. Call {@link #verify} first.
     *
     * @throws DumpFormatException with Redis's reply text as its message: {@code given type is not a function},
     *                             {@code Failed loading library payload}, {@code Failed loading library name}, ...
     */
    public static List<byte[]> functions(byte[] payload) {
        DumpDecoder d = new DumpDecoder(payload, null);
        List<byte[]> codes = new java.util.ArrayList<>();
        while (d.remaining() > FOOTER) {
            int type = d.u8();
            if (type == RdbType.OPCODE_FUNCTION2) {
                codes.add(d.stringOr("Failed loading library payload"));
            } else if (type == RdbType.OPCODE_FUNCTION_PRE_GA) {
                byte[] name = d.stringOr("Failed loading library name");
                byte[] engine = d.stringOr("Failed loading engine name");
                long hasDesc;
                try {
                    hasDesc = d.len();
                } catch (DumpFormatException e) {
                    throw new DumpFormatException("Failed loading library description indicator");
                }
                if (hasDesc != 0) {
                    d.stringOr("Failed loading library description");
                }
                byte[] body = d.stringOr("Failed loading library blob");
                java.io.ByteArrayOutputStream code = new java.io.ByteArrayOutputStream();
                code.writeBytes("#!".getBytes(StandardCharsets.US_ASCII));
                code.writeBytes(engine);
                code.writeBytes(" name=".getBytes(StandardCharsets.US_ASCII));
                code.writeBytes(name);
                code.write('\n');
                code.writeBytes(body);
                codes.add(code.toByteArray());
            } else {
                throw new DumpFormatException("given type is not a function");
            }
        }
        return codes;
    }

    private byte[] stringOr(String error) {
        try {
            return string();
        } catch (DumpFormatException e) {
            throw new DumpFormatException(error);
        }
    }

    private Object object(int type) {
        return switch (type) {
            case RdbType.STRING -> string();
            case RdbType.LIST -> plainList();
            case RdbType.LIST_ZIPLIST -> listOf(nonEmpty(Ziplist.read(string())));
            case RdbType.LIST_QUICKLIST, RdbType.LIST_QUICKLIST_2 -> quicklist(type == RdbType.LIST_QUICKLIST_2);
            case RdbType.SET -> plainSet();
            case RdbType.SET_INTSET -> intset(string());
            case RdbType.ZSET, RdbType.ZSET_2 -> plainZset(type == RdbType.ZSET_2);
            case RdbType.ZSET_ZIPLIST -> zsetOf(Ziplist.read(string()));
            case RdbType.ZSET_LISTPACK -> zsetOf(Listpack.read(string()));
            case RdbType.HASH -> plainHash();
            case RdbType.HASH_ZIPLIST -> hashOf(Ziplist.read(string()));
            case RdbType.HASH_LISTPACK -> hashOf(Listpack.read(string()));
            case RdbType.HASH_ZIPMAP -> throw new DumpFormatException("zipmap hashes (Redis 2.4) are not supported");
            case 6, 7 -> throw new DumpFormatException("module values are not supported");
            case RdbType.STREAM_LISTPACKS, RdbType.STREAM_LISTPACKS_2 -> stream(type == RdbType.STREAM_LISTPACKS_2);
            default -> throw new DumpFormatException("unknown RDB object type " + type);
        };
    }

    private int u8() {
        if (pos >= in.length) {
            throw new DumpFormatException("payload ends early");
        }
        return in[pos++] & 0xff;
    }

    private long remaining() {
        return in.length - pos;
    }

    /** {@code rdbLoadLenByRef}; an encoded length (special string encoding) is returned as {@code -1 - enc}. */
    private long rawLen() {
        int b = u8();
        int kind = (b & 0xc0) >> 6;
        if (kind == 3) {
            return -1 - (b & 0x3f);
        }
        if (kind == 0) {
            return b & 0x3f;
        }
        if (kind == 1) {
            return ((b & 0x3f) << 8) | u8();
        }
        if (b == 0x80) {
            return beLen(4);
        }
        if (b == 0x81) {
            return beLen(8);
        }
        throw new DumpFormatException("unknown length encoding 0x" + Integer.toHexString(b));
    }

    private long beLen(int n) {
        long v = 0;
        for (int i = 0; i < n; i++) {
            v = (v << 8) | u8();
        }
        if (v < 0) {
            throw new DumpFormatException("length above 2^63");
        }
        return v;
    }

    /** A count or length (not a string encoding). */
    private long len() {
        long l = rawLen();
        if (l < 0) {
            throw new DumpFormatException("string encoding where a length was expected");
        }
        return l;
    }

    /** An unsigned 64-bit {@code rdbLoadLen} (stream ids and counters), as Java's two's-complement long. */
    private long ulen() {
        int b = u8();
        if (b == 0x81) {
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = (v << 8) | u8();
            }
            return v;
        }
        pos--;
        return len();
    }

    /** {@code rdbLoadMillisecondTime}: 8 bytes little-endian. */
    private long millis() {
        if (remaining() < 8) {
            throw new DumpFormatException("payload ends inside a millisecond time");
        }
        long v = Listpack.le(in, pos, 8);
        pos += 8;
        return v;
    }

    /** A raw 16-byte big-endian stream id ({@code streamDecodeID}). */
    private StreamId rawId() {
        if (remaining() < 16) {
            throw new DumpFormatException("payload ends inside a stream id");
        }
        StreamId id = decodeId(in, pos);
        pos += 16;
        return id;
    }

    private static StreamId decodeId(byte[] b, int at) {
        long ms = 0;
        long seq = 0;
        for (int i = 0; i < 8; i++) {
            ms = (ms << 8) | (b[at + i] & 0xff);
            seq = (seq << 8) | (b[at + 8 + i] & 0xff);
        }
        return new StreamId(ms, seq);
    }

    /**
     * A stream ({@code rdbLoadObject}'s RDB_TYPE_STREAM_LISTPACKS[_2]): nodes, counters, groups with their PELs
     * and consumers. {@code v2}: Redis 7.0's first id, max deleted id, entries added and entries read are
     * present (without them: entries added = length, entries read estimated, as Redis loads a 6.2 payload).
     */
    private StreamValue stream(boolean v2) {
        StreamValue s = new StreamValue();
        long nodes = len();
        long live = 0;
        while (nodes-- > 0) {
            byte[] key = string();
            if (key.length != 16) {
                throw new DumpFormatException("stream node key of " + key.length + " bytes, not a stream id");
            }
            StreamId master = decodeId(key, 0);
            byte[] lp = string();
            live += node(s, master, lp);
        }
        long length = ulen();
        StreamId last = new StreamId(ulen(), ulen());
        StreamId maxDeleted = StreamId.MIN;
        long added = length;
        if (v2) {
            ulen(); // first id: kevy derives it from the entries
            ulen();
            maxDeleted = new StreamId(ulen(), ulen());
            added = ulen();
        }
        if (length != live) {
            throw new DumpFormatException("stream length " + Long.toUnsignedString(length) + " differs from its "
                    + live + " live entries");
        }
        StreamId lastEntry = s.lastNodeEntry();
        if (lastEntry != null && last.compareTo(lastEntry) < 0) {
            throw new DumpFormatException("stream last id " + last + " below its entry " + lastEntry);
        }
        s.setId(last, added, maxDeleted);
        long groups = len();
        while (groups-- > 0) {
            byte[] name = string();
            StreamId groupLast = new StreamId(ulen(), ulen());
            long read = v2 ? ulen() : s.estimateEntriesRead(groupLast);
            if (s.group(name) != null) {
                throw new DumpFormatException("duplicate consumer group name");
            }
            StreamGroup g = new StreamGroup(groupLast, read);
            s.groups().put(name, g);
            java.util.TreeMap<StreamId, long[]> pel = new java.util.TreeMap<>();
            long pending = len();
            while (pending-- > 0) {
                StreamId id = rawId();
                long time = millis();
                long count = ulen();
                if (pel.put(id, new long[] {time, count}) != null) {
                    throw new DumpFormatException("duplicate entry " + id + " in a group's PEL");
                }
            }
            long consumers = len();
            while (consumers-- > 0) {
                byte[] cname = string();
                if (g.consumer(cname) != null) {
                    throw new DumpFormatException("duplicate consumer in a group");
                }
                StreamGroup.Consumer c = g.createConsumer(cname, millis());
                long own = len();
                while (own-- > 0) {
                    StreamId id = rawId();
                    long[] nack = pel.remove(id);
                    if (nack == null) {
                        throw new DumpFormatException("consumer entry " + id + " not in its group's PEL");
                    }
                    g.assign(id, c, nack[0], nack[1]);
                }
            }
            if (!pel.isEmpty()) {
                throw new DumpFormatException("pending entry " + pel.firstKey() + " has no consumer");
            }
        }
        return s;
    }

    /** One node's listpack, checked in full; returns its live entries. */
    private static int node(StreamValue s, StreamId master, byte[] lp) {
        List<byte[]> el = Listpack.read(lp);
        if (el.isEmpty()) {
            throw new DumpFormatException("empty listpack inside a stream");
        }
        int[] at = {0};
        long live = lpInt(el, at);
        long deleted = lpInt(el, at);
        long masterCount = lpInt(el, at);
        if (live < 0 || deleted < 0 || masterCount < 0 || masterCount > el.size()) {
            throw new DumpFormatException("stream node with invalid master entry counters");
        }
        byte[][] masterFields = new byte[(int) masterCount][];
        for (int i = 0; i < masterCount; i++) {
            masterFields[i] = lpElement(el, at);
        }
        if (lpInt(el, at) != 0) {
            throw new DumpFormatException("stream master entry without its zero terminator");
        }
        StreamId floor = s.lastNodeEntry();
        if (floor != null && master.compareTo(floor) <= 0) {
            throw new DumpFormatException("stream node " + master + " not after the previous node");
        }
        List<StreamValue.NodeEntry> entries = new ArrayList<>();
        int liveSeen = 0;
        StreamId prev = null;
        while (at[0] < el.size()) {
            long flags = lpInt(el, at);
            StreamId id = new StreamId(master.ms() + lpInt(el, at), master.seq() + lpInt(el, at));
            boolean same = (flags & StreamValue.FLAG_SAMEFIELDS) != 0;
            long pairs = same ? masterCount : lpInt(el, at);
            if (pairs < 1 || pairs > el.size()) {
                throw new DumpFormatException("stream entry with " + pairs + " fields");
            }
            byte[][] fields = new byte[(int) (2 * pairs)][];
            for (int i = 0; i < pairs; i++) {
                fields[2 * i] = same ? masterFields[i] : lpElement(el, at);
                fields[2 * i + 1] = lpElement(el, at);
            }
            if (lpInt(el, at) != pairs + 3 + (same ? 0 : pairs + 1)) {
                throw new DumpFormatException("stream entry with a wrong lp-count");
            }
            if (id.compareTo(master) < 0 || prev != null && id.compareTo(prev) <= 0) {
                throw new DumpFormatException("stream entry " + id + " out of order");
            }
            boolean dead = (flags & StreamValue.FLAG_DELETED) != 0;
            liveSeen += dead ? 0 : 1;
            entries.add(new StreamValue.NodeEntry(id, fields, dead));
            prev = id;
        }
        if (entries.isEmpty() || liveSeen != live || entries.size() - liveSeen != deleted) {
            throw new DumpFormatException("stream node counters differ from its entries");
        }
        s.restoreNode(master, masterFields, entries, lp.length);
        return liveSeen;
    }

    private static byte[] lpElement(List<byte[]> el, int[] at) {
        if (at[0] >= el.size()) {
            throw new DumpFormatException("stream listpack ends inside an entry");
        }
        return el.get(at[0]++);
    }

    private static long lpInt(List<byte[]> el, int[] at) {
        byte[] b = lpElement(el, at);
        long v = RedisNumbers.parseLongOr(b, Long.MIN_VALUE);
        if (v == Long.MIN_VALUE && !RedisNumbers.isLong(b)) {
            throw new DumpFormatException("stream listpack element is not an integer where one is expected");
        }
        return v;
    }

    /** A length no larger than the bytes left (each counted element takes at least one byte). */
    private int count() {
        long n = len();
        if (n > remaining()) {
            throw new DumpFormatException("count " + n + " larger than the " + remaining() + " bytes left");
        }
        return (int) n;
    }

    /** {@code rdbGenericLoadStringObject}: verbatim, int8/16/32 (as decimal text) or LZF. */
    private byte[] string() {
        long l = rawLen();
        if (l >= 0) {
            return bytes(l);
        }
        int enc = (int) (-1 - l);
        switch (enc) {
            case RdbType.ENC_INT8:
                return RedisNumbers.toBytes((byte) u8());
            case RdbType.ENC_INT16:
                return RedisNumbers.toBytes((short) (u8() | u8() << 8));
            case RdbType.ENC_INT32:
                return RedisNumbers.toBytes(u8() | u8() << 8 | u8() << 16 | u8() << 24);
            case RdbType.ENC_LZF: {
                long clen = len();
                long ulen = len();
                if (clen > remaining()) {
                    throw new DumpFormatException("LZF data of " + clen + " bytes, " + remaining() + " left");
                }
                if (ulen > clen * LZF_MAX_RATIO || ulen > Integer.MAX_VALUE - 8) {
                    throw new DumpFormatException("LZF string of " + ulen + " bytes cannot come from " + clen);
                }
                byte[] s = Lzf.decompress(in, pos, (int) clen, (int) ulen);
                if (s == null) {
                    throw new DumpFormatException("invalid LZF compressed string");
                }
                pos += (int) clen;
                return s;
            }
            default:
                throw new DumpFormatException("unknown string encoding " + enc);
        }
    }

    private byte[] bytes(long n) {
        if (n > remaining()) {
            throw new DumpFormatException("string of " + n + " bytes, " + remaining() + " left");
        }
        byte[] b = new byte[(int) n];
        System.arraycopy(in, pos, b, 0, (int) n);
        pos += (int) n;
        return b;
    }

    private static List<byte[]> nonEmpty(List<byte[]> elements) {
        if (elements.isEmpty()) {
            throw new DumpFormatException("empty value");
        }
        return elements;
    }

    private ListValue plainList() {
        int n = count();
        if (n == 0) {
            throw new DumpFormatException("empty list");
        }
        ListValue l = new ListValue();
        for (int i = 0; i < n; i++) {
            l.pushRight(string());
        }
        return l;
    }

    private static ListValue listOf(List<byte[]> elements) {
        ListValue l = new ListValue();
        elements.forEach(l::pushRight);
        return l;
    }

    private ListValue quicklist(boolean v2) {
        int nodes = count();
        ListValue l = new ListValue();
        for (int i = 0; i < nodes; i++) {
            long container = v2 ? len() : RdbType.CONTAINER_PACKED;
            if (container != RdbType.CONTAINER_PACKED && container != RdbType.CONTAINER_PLAIN) {
                throw new DumpFormatException("quicklist node container " + container);
            }
            byte[] data = string();
            if (data.length == 0) {
                throw new DumpFormatException("empty quicklist node");
            }
            if (container == RdbType.CONTAINER_PLAIN) {
                l.pushRight(data);
            } else {
                (v2 ? Listpack.read(data) : Ziplist.read(data)).forEach(l::pushRight);
            }
        }
        if (l.isEmpty()) {
            throw new DumpFormatException("empty list");
        }
        return l;
    }

    private SetValue plainSet() {
        int n = count();
        if (n == 0) {
            throw new DumpFormatException("empty set");
        }
        SetValue s = new SetValue(limits);
        for (int i = 0; i < n; i++) {
            if (!s.add(string())) {
                throw new DumpFormatException("duplicate set members");
            }
        }
        return s;
    }

    /** {@code intsetValidateIntegrity} (deep): width 2, 4 or 8, size = 8 + count * width, count > 0, ascending. */
    private SetValue intset(byte[] blob) {
        if (blob.length < 8) {
            throw new DumpFormatException("intset shorter than its header");
        }
        long width = Listpack.le(blob, 0, 4);
        if (width != 2 && width != 4 && width != 8) {
            throw new DumpFormatException("intset width " + width);
        }
        long n = Listpack.le(blob, 4, 4);
        if (8 + n * width != blob.length || n == 0) {
            throw new DumpFormatException("intset count " + n + " does not match its " + blob.length + " bytes");
        }
        SetValue s = new SetValue(limits);
        long prev = 0;
        for (int i = 0; i < n; i++) {
            int w = (int) width;
            long u = Listpack.le(blob, 8 + w * i, w);
            long v = (u << (64 - 8 * w)) >> (64 - 8 * w);
            if (i > 0 && v <= prev) {
                throw new DumpFormatException("intset members out of order or duplicated");
            }
            prev = v;
            s.add(RedisNumbers.toBytes(v));
        }
        return s;
    }

    private ZSetValue plainZset(boolean binary) {
        int n = count();
        if (n == 0) {
            throw new DumpFormatException("empty sorted set");
        }
        // Read all first: like Redis, choose the encoding from the whole set (a skiplist keeps -0 scores).
        // (Grown as read, not sized from the declared count.)
        List<byte[]> members = new java.util.ArrayList<>();
        List<Double> scores = new java.util.ArrayList<>();
        int longest = 0;
        for (int i = 0; i < n; i++) {
            byte[] m = string();
            members.add(m);
            scores.add(binary ? Double.longBitsToDouble(leLong()) : textDouble());
            longest = Math.max(longest, m.length);
        }
        ZSetValue z = new ZSetValue(ZSetValue.exceedsListpack(n, longest, limits), limits);
        for (int i = 0; i < n; i++) {
            add(z, members.get(i), scores.get(i));
        }
        return z;
    }

    private long leLong() {
        if (remaining() < 8) {
            throw new DumpFormatException("payload ends inside a double");
        }
        long v = Listpack.le(in, pos, 8);
        pos += 8;
        return v;
    }

    /** {@code rdbLoadDoubleValue}: a length byte (253 nan, 254 +inf, 255 -inf) and the decimal text. */
    private double textDouble() {
        int n = u8();
        return switch (n) {
            case 253 -> Double.NaN;
            case 254 -> Double.POSITIVE_INFINITY;
            case 255 -> Double.NEGATIVE_INFINITY;
            default -> parseScore(bytes(n));
        };
    }

    private static double parseScore(byte[] text) {
        double d = RedisNumbers.parseDoubleOrNaN(text);
        if (Double.isNaN(d)) {
            throw new DumpFormatException("score is not a number: " + new String(text, StandardCharsets.ISO_8859_1));
        }
        return d;
    }

    private static void add(ZSetValue z, byte[] member, double score) {
        if (Double.isNaN(score)) {
            throw new DumpFormatException("sorted set with a NaN score");
        }
        if (z.contains(member)) {
            throw new DumpFormatException("duplicate sorted set members");
        }
        z.insert(member, score);
    }

    private ZSetValue zsetOf(List<byte[]> pairs) {
        if (pairs.isEmpty() || pairs.size() % 2 != 0) {
            throw new DumpFormatException("sorted set encoding with " + pairs.size() + " elements");
        }
        ZSetValue z = new ZSetValue(limits);
        for (int i = 0; i < pairs.size(); i += 2) {
            add(z, pairs.get(i), parseScore(pairs.get(i + 1)));
        }
        return z;
    }

    private HashValue plainHash() {
        int n = count();
        if (n == 0) {
            throw new DumpFormatException("empty hash");
        }
        HashValue h = new HashValue();
        for (int i = 0; i < n; i++) {
            put(h, string(), string());
        }
        return h;
    }

    private void put(HashValue h, byte[] field, byte[] value) {
        if (h.put(field, value, limits) != null) {
            throw new DumpFormatException("duplicate hash fields");
        }
    }

    private HashValue hashOf(List<byte[]> pairs) {
        if (pairs.isEmpty() || pairs.size() % 2 != 0) {
            throw new DumpFormatException("hash encoding with " + pairs.size() + " elements");
        }
        HashValue h = new HashValue();
        for (int i = 0; i < pairs.size(); i += 2) {
            put(h, pairs.get(i), pairs.get(i + 1));
        }
        return h;
    }
}
