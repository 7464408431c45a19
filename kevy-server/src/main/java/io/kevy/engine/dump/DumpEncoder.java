package io.kevy.engine.dump;

import io.kevy.engine.config.EncodingLimits;
import io.kevy.engine.struct.SkipList;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.engine.type.HashValue;
import io.kevy.engine.type.ListValue;
import io.kevy.engine.type.SetValue;
import io.kevy.engine.type.StreamGroup;
import io.kevy.engine.type.StreamId;
import io.kevy.engine.type.StreamValue;
import io.kevy.engine.type.ZSetValue;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes a value as Redis 7.0's DUMP does ({@code createDumpPayload}: {@code rdbSaveObjectType},
 * {@code rdbSaveObject}, then the RDB version 10 as u16 LE and the {@link Crc64} of everything before as u64 LE).
 *
 * <p>Encodings follow Redis's choices: strings as {@code rdbSaveRawString} (an int8/16/32 for a canonical integer
 * of at most 11 bytes, LZF when longer than 20 bytes, {@code rdbcompression} is on and it saves 4 bytes or more,
 * else verbatim); lists as quicklist 2, cut into listpack nodes as Redis's tail pushes cut them under
 * {@code list-max-listpack-size} (inner nodes LZF-compressed under {@code list-compress-depth}); sets as an intset
 * (width of the widest member) or a member list; sorted sets as a listpack (member, score: an integer when it is
 * one, else {@code %.17g}) or, for the skiplist, members from the highest score down with binary doubles; hashes as
 * a listpack in field order or a field/value list. Small values thus come out byte-identical to Redis's; lists
 * built other than by tail pushes, and hashtable encodings (whose order depends on Redis's seeded hash), carry the
 * same value in a different but equally valid layout.
 *
 * <p>Thread-safe: a pure function of its arguments (the caller holds the value's shard lock).
 */
public final class DumpEncoder {
    /** Redis's quicklist node size limits for {@code list-max-listpack-size} -1..-5 ({@code optimization_level}). */
    private static final int[] NODE_BYTES = {4096, 8192, 16384, 32768, 65536};
    /** {@code SIZE_SAFETY_LIMIT} and {@code SIZE_ESTIMATE_OVERHEAD} of quicklist.c. */
    private static final int SAFETY_LIMIT = 8192;
    private static final int ESTIMATE_OVERHEAD = 8;
    /** quicklist.c's {@code MIN_COMPRESS_BYTES} and {@code MIN_COMPRESS_IMPROVE}. */
    private static final int MIN_COMPRESS_BYTES = 48;
    private static final int MIN_COMPRESS_IMPROVE = 8;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final boolean compression;

    private DumpEncoder(boolean compression) {
        this.compression = compression;
    }

    /**
     * The DUMP payload of {@code value} (a {@code byte[]} string or a collection).
     *
     * @param compression Redis's {@code rdbcompression}
     */
    public static byte[] dump(Object value, EncodingLimits limits, boolean compression) {
        DumpEncoder e = new DumpEncoder(compression);
        if (value instanceof byte[] s) {
            e.out.write(RdbType.STRING);
            e.string(s);
        } else if (value instanceof ListValue l) {
            e.out.write(RdbType.LIST_QUICKLIST_2);
            e.list(l, limits);
        } else if (value instanceof SetValue s) {
            e.set(s);
        } else if (value instanceof ZSetValue z) {
            e.zset(z);
        } else if (value instanceof HashValue h) {
            e.hash(h);
        } else if (value instanceof StreamValue st) {
            e.out.write(RdbType.STREAM_LISTPACKS_2);
            e.stream(st);
        } else {
            throw new IllegalArgumentException("no DUMP encoding for " + value.getClass().getSimpleName());
        }
        return e.footer();
    }

    /**
     * FUNCTION DUMP's payload ({@code functionDumpCommand}, {@code rdbSaveFunctions}): for each library, in the
     * given order, the opcode {@code RDB_OPCODE_FUNCTION2} (245) and its code (shebang included) as
     * {@code rdbSaveRawString} writes it; then the RDB version and the CRC64, as for a value.
     *
     * @param compression Redis's {@code rdbcompression}
     */
    public static byte[] functions(List<byte[]> libraryCodes, boolean compression) {
        DumpEncoder e = new DumpEncoder(compression);
        for (byte[] code : libraryCodes) {
            e.out.write(RdbType.OPCODE_FUNCTION2);
            e.string(code);
        }
        return e.footer();
    }

    private byte[] footer() {
        out.write(RdbType.VERSION & 0xff);
        out.write(RdbType.VERSION >>> 8);
        byte[] body = out.toByteArray();
        long crc = Crc64.update(0, body, 0, body.length);
        byte[] p = new byte[body.length + 8];
        System.arraycopy(body, 0, p, 0, body.length);
        for (int i = 0; i < 8; i++) {
            p[body.length + i] = (byte) (crc >>> (8 * i));
        }
        return p;
    }

    /** {@code rdbSaveLen} of an unsigned 64-bit value: 6-bit, 14-bit, 32-bit BE or 64-bit BE length. */
    private void len(long len) {
        if (Long.compareUnsigned(len, 1 << 6) < 0) {
            out.write((int) len);
        } else if (Long.compareUnsigned(len, 1 << 14) < 0) {
            out.write((int) (len >> 8) | 0x40);
            out.write((int) len & 0xff);
        } else if (Long.compareUnsigned(len, 0xffffffffL) <= 0) {
            out.write(0x80);
            for (int i = 3; i >= 0; i--) {
                out.write((int) (len >>> (8 * i)) & 0xff);
            }
        } else {
            out.write(0x81);
            for (int i = 7; i >= 0; i--) {
                out.write((int) (len >>> (8 * i)) & 0xff);
            }
        }
    }

    /** {@code rdbSaveRawString}. */
    private void string(byte[] s) {
        if (s.length <= 11) {
            long v = RedisNumbers.parseLongOr(s, Long.MIN_VALUE);
            if ((v != Long.MIN_VALUE || RedisNumbers.isLong(s)) && v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
                if (v >= -(1 << 7) && v <= (1 << 7) - 1) {
                    out.write(0xc0 | RdbType.ENC_INT8);
                    out.write((int) v & 0xff);
                } else if (v >= -(1 << 15) && v <= (1 << 15) - 1) {
                    out.write(0xc0 | RdbType.ENC_INT16);
                    out.write((int) v & 0xff);
                    out.write((int) (v >> 8) & 0xff);
                } else {
                    out.write(0xc0 | RdbType.ENC_INT32);
                    for (int i = 0; i < 4; i++) {
                        out.write((int) (v >> (8 * i)) & 0xff);
                    }
                }
                return;
            }
        }
        if (compression && s.length > 20) {
            byte[] c = Lzf.compress(s, s.length - 4);
            if (c != null) {
                lzfBlob(c, s.length);
                return;
            }
        }
        len(s.length);
        out.writeBytes(s);
    }

    private void lzfBlob(byte[] compressed, int originalLength) {
        out.write(0xc0 | RdbType.ENC_LZF);
        len(compressed.length);
        len(originalLength);
        out.writeBytes(compressed);
    }

    private void list(ListValue l, EncodingLimits limits) {
        int fill = Math.max(-5, Math.min(1 << 15, limits.listMaxListpackSize()));
        List<Listpack.Builder> nodes = new ArrayList<>();
        Listpack.Builder[] cur = {null};
        l.forEach(e -> {
            Listpack.Builder n = cur[0];
            if (n == null || !allowInsert(n.bytes(), n.count(), fill, e.length)) {
                n = new Listpack.Builder();
                nodes.add(n);
                cur[0] = n;
            }
            n.add(e);
        });
        int depth = limits.listCompressDepth();
        len(nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
            len(RdbType.CONTAINER_PACKED);
            byte[] lp = nodes.get(i).build();
            boolean inner = depth > 0 && nodes.size() >= 2 * depth && i >= depth && i < nodes.size() - depth;
            if (inner && lp.length >= MIN_COMPRESS_BYTES) {
                byte[] c = Lzf.compress(lp, lp.length);
                if (c != null && c.length + MIN_COMPRESS_IMPROVE < lp.length) {
                    lzfBlob(c, lp.length);
                    continue;
                }
            }
            string(lp);
        }
    }

    /** quicklist.c's {@code _quicklistNodeAllowInsert} for a packed node of {@code nodeBytes}. */
    private static boolean allowInsert(int nodeBytes, int count, int fill, int sz) {
        long newSz = (long) nodeBytes + sz + ESTIMATE_OVERHEAD;
        if (fill < 0 && newSz <= NODE_BYTES[-fill - 1]) {
            return true;
        }
        return newSz <= SAFETY_LIMIT && count < fill;
    }

    private void set(SetValue s) {
        if (s.isIntset()) {
            out.write(RdbType.SET_INTSET);
            List<byte[]> members = s.members();
            long[] v = new long[members.size()];
            int width = 2;
            for (int i = 0; i < v.length; i++) {
                v[i] = RedisNumbers.parseLongOr(members.get(i), Long.MIN_VALUE);
                if (v[i] < Short.MIN_VALUE || v[i] > Short.MAX_VALUE) {
                    width = Math.max(width, v[i] < Integer.MIN_VALUE || v[i] > Integer.MAX_VALUE ? 8 : 4);
                }
            }
            byte[] blob = new byte[8 + width * v.length];
            putLe(blob, 0, width, 4);
            putLe(blob, 4, v.length, 4);
            for (int i = 0; i < v.length; i++) {
                putLe(blob, 8 + width * i, v[i], width);
            }
            string(blob);
        } else {
            out.write(RdbType.SET);
            len(s.size());
            s.forEach(this::string);
        }
    }

    private void zset(ZSetValue z) {
        SkipList list = z.list();
        if (!z.encoding().equals("skiplist")) {
            out.write(RdbType.ZSET_LISTPACK);
            Listpack.Builder lp = new Listpack.Builder();
            for (SkipList.Node n = list.first(); n != null; n = n.next()) {
                lp.add(n.member());
                double d = n.score();
                if (isLong(d)) {
                    lp.addInteger((long) d);
                } else {
                    lp.add(RedisNumbers.formatDouble(d).getBytes(StandardCharsets.US_ASCII));
                }
            }
            string(lp.build());
        } else {
            out.write(RdbType.ZSET_2);
            len(list.length());
            for (SkipList.Node n = list.last(); n != null; n = n.prev()) {
                string(n.member());
                long bits = Double.doubleToRawLongBits(n.score());
                for (int i = 0; i < 8; i++) {
                    out.write((int) (bits >>> (8 * i)) & 0xff);
                }
            }
        }
    }

    /** Redis's {@code double2ll}: an integral double within +-2^62 is written as an integer. */
    private static boolean isLong(double d) {
        return d >= -(double) (Long.MAX_VALUE / 2) && d <= (double) (Long.MAX_VALUE / 2) && (long) d == d;
    }

    private void hash(HashValue h) {
        if (h.isListpack()) {
            out.write(RdbType.HASH_LISTPACK);
            Listpack.Builder lp = new Listpack.Builder();
            h.forEach((f, v) -> lp.add(f).add(v));
            string(lp.build());
        } else {
            out.write(RdbType.HASH);
            len(h.size());
            h.forEach((f, v) -> {
                string(f);
                string(v);
            });
        }
    }

    /**
     * RDB_TYPE_STREAM_LISTPACKS_2 ({@code rdbSaveObject}): the nodes (16-byte big-endian master id, listpack),
     * length, last id, first id, max deleted id, entries added, then per group its name, last id, entries read,
     * global PEL (raw id, delivery time as 8-byte little-endian ms, delivery count) and consumers (name, seen
     * time, own PEL of raw ids).
     */
    private void stream(StreamValue s) {
        len(s.nodeCount());
        s.forEachNode((master, masterFields, live, deleted, entries) -> {
            string(rawId(master));
            string(nodeListpack(master, masterFields, live, deleted, entries));
        });
        len(s.length());
        id(s.lastId());
        id(s.firstId());
        id(s.maxDeletedId());
        len(s.entriesAdded());
        len(s.groups().size());
        for (Map.Entry<byte[], StreamGroup> ge : s.groups().entrySet()) {
            StreamGroup g = ge.getValue();
            string(ge.getKey());
            id(g.lastId);
            len(g.entriesRead);
            len(g.pel.size());
            for (Map.Entry<StreamId, StreamGroup.Pending> pe : g.pel.entrySet()) {
                out.writeBytes(rawId(pe.getKey()));
                millis(pe.getValue().deliveryTime);
                len(pe.getValue().deliveryCount);
            }
            len(g.consumers.size());
            for (StreamGroup.Consumer c : g.consumers.values()) {
                string(c.name);
                millis(c.seenTime);
                len(c.pel.size());
                for (StreamId id : c.pel.keySet()) {
                    out.writeBytes(rawId(id));
                }
            }
        }
    }

    /** A node's listpack as {@code streamAppendItem} builds it, with XDEL's deleted flags and counters. */
    private static byte[] nodeListpack(StreamId master, byte[][] masterFields, int live, int deleted,
            List<StreamValue.NodeEntry> entries) {
        Listpack.Builder b = new Listpack.Builder();
        b.addInteger(live).addInteger(deleted).addInteger(masterFields.length);
        for (byte[] f : masterFields) {
            b.add(f);
        }
        b.addInteger(0);
        for (StreamValue.NodeEntry e : entries) {
            byte[][] fields = e.fields();
            boolean same = StreamValue.sameFields(masterFields, fields);
            int pairs = fields.length / 2;
            b.addInteger((same ? StreamValue.FLAG_SAMEFIELDS : 0) | (e.deleted() ? StreamValue.FLAG_DELETED : 0));
            b.addInteger(e.id().ms() - master.ms()).addInteger(e.id().seq() - master.seq());
            if (!same) {
                b.addInteger(pairs);
            }
            for (int i = 0; i < fields.length; i += 2) {
                if (!same) {
                    b.add(fields[i]);
                }
                b.add(fields[i + 1]);
            }
            b.addInteger(pairs + 3L + (same ? 0 : pairs + 1L));
        }
        return b.build();
    }

    /** A stream id as two {@code rdbSaveLen}s. */
    private void id(StreamId id) {
        len(id.ms());
        len(id.seq());
    }

    /** {@code rdbSaveMillisecondTime}: 8 bytes little-endian. */
    private void millis(long ms) {
        for (int i = 0; i < 8; i++) {
            out.write((int) (ms >>> (8 * i)) & 0xff);
        }
    }

    /** {@code streamEncodeID}: ms and seq as big-endian 64-bit numbers (the rax key). */
    static byte[] rawId(StreamId id) {
        byte[] b = new byte[16];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (id.ms() >>> (56 - 8 * i));
            b[8 + i] = (byte) (id.seq() >>> (56 - 8 * i));
        }
        return b;
    }

    private static void putLe(byte[] b, int at, long v, int n) {
        for (int i = 0; i < n; i++) {
            b[at + i] = (byte) (v >>> (8 * i));
        }
    }
}
