package io.kevy.engine.type;

import io.kevy.engine.struct.ListpackSizes;
import io.kevy.engine.text.RedisNumbers;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A stream (Redis 7.0's {@code stream}): entries ordered by {@link StreamId}, each a list of field-value pairs,
 * with the counters Redis 7.0 keeps: the last id ever generated ({@code last-generated-id}, which XDEL and
 * trimming leave alone), the entries ever added, the largest id deleted by XDEL ({@code max-deleted-entry-id}),
 * and the consumer groups by name.
 *
 * <p><b>Structure.</b> Entries live in a {@link TreeMap} keyed by id (a red-black tree: O(log n) lookup, insert,
 * delete and range seek, O(1) per entry of a range scan; trimming from the head is O(log n) per entry). Beside it
 * a second, small tree models Redis's listpack nodes ({@code t_stream.c}'s rax of listpacks): per node the master
 * entry's fields, its live and deleted-flagged entry counts, the id of its last entry and the listpack's bytes as
 * Redis would have them ({@link ListpackSizes}). A node closes as Redis's {@code streamAppendItem} closes it (at
 * {@code stream-node-max-bytes} or {@code stream-node-max-entries}, deleted entries counting until the node goes),
 * XDEL and exact trimming flag entries deleted inside their node (kept, as in the listpack, until the node goes;
 * a node goes when XDEL takes its last live entry or trimming takes it whole), and approximate trimming
 * ({@code ~}) removes whole nodes only: so {@code ~} removes the entries Redis would, XINFO reports Redis's node
 * counts, and DUMP writes Redis's listpacks. A stream may be empty (XDEL of every entry, XTRIM MAXLEN 0, XGROUP
 * CREATE MKSTREAM): it stays a key, as in Redis.
 *
 * <p>Not thread-safe: used under the owning shard's lock.
 */
public final class StreamValue implements RedisValue {
    /** Redis's {@code STREAM_LISTPACK_MAX_SIZE}: the most bytes of one node, whatever the config says. */
    public static final long LISTPACK_MAX_SIZE = 1L << 30;
    /** Entry flag: deleted ({@code STREAM_ITEM_FLAG_DELETED}). */
    public static final int FLAG_DELETED = 1;
    /** Entry flag: same fields as the master entry, names omitted ({@code STREAM_ITEM_FLAG_SAMEFIELDS}). */
    public static final int FLAG_SAMEFIELDS = 2;

    /**
     * A listpack node: the master entry's fields, its live and deleted-flagged entry counts, the id of its last
     * entry (deleted or not) and the listpack's bytes ({@code lpBytes}).
     */
    private static final class Node {
        final byte[][] masterFields;
        StreamId last;
        int live;
        int deleted;
        long bytes;

        Node(byte[][] masterFields, StreamId last, int live, int deleted, long bytes) {
            this.masterFields = masterFields;
            this.last = last;
            this.live = live;
            this.deleted = deleted;
            this.bytes = bytes;
        }

        /** Changes the master entry's counters, and the bytes their integers take. */
        void count(int liveDelta, int deletedDelta) {
            bytes += ListpackSizes.integer(live + liveDelta) - ListpackSizes.integer(live)
                    + ListpackSizes.integer(deleted + deletedDelta) - ListpackSizes.integer(deleted);
            live += liveDelta;
            deleted += deletedDelta;
        }
    }

    /** One entry of a node as DUMP writes it: id, fields (flat) and whether it is flagged deleted. */
    public record NodeEntry(StreamId id, byte[][] fields, boolean deleted) {
    }

    /** Receives the nodes in id order ({@link #forEachNode}). */
    @FunctionalInterface
    public interface NodeVisitor {
        /** A node keyed {@code master}; {@code entries} are its live and deleted-flagged ones in id order. */
        void node(StreamId master, byte[][] masterFields, int live, int deleted, List<NodeEntry> entries);
    }

    private final TreeMap<StreamId, byte[][]> entries = new TreeMap<>();
    /** Entries XDEL or exact trimming flagged deleted, kept while their node lives (Redis's listpacks keep them). */
    private final TreeMap<StreamId, byte[][]> tombstones = new TreeMap<>();
    private final TreeMap<StreamId, Node> nodes = new TreeMap<>();
    private final TreeMap<byte[], StreamGroup> groups = new TreeMap<>(Arrays::compareUnsigned);
    private StreamId lastId = StreamId.MIN;
    private long entriesAdded;
    private StreamId maxDeletedId = StreamId.MIN;
    private long fieldBytes;
    /** This stream's identity for blocked readers: copies (copy-on-write, COPY) keep it, a new stream has its own. */
    private Object readyToken = new Object();
    /** Changes that signal blocked readers so far ({@link #signalReaders}). */
    private long readySignals;

    @Override
    public ValueType type() {
        return ValueType.STREAM;
    }

    @Override
    public String encoding() {
        return "stream";
    }

    @Override
    public int size() {
        return entries.size();
    }

    public long length() {
        return entries.size();
    }

    public StreamId lastId() {
        return lastId;
    }

    public long entriesAdded() {
        return entriesAdded;
    }

    public StreamId maxDeletedId() {
        return maxDeletedId;
    }

    /** The first live entry's id, {@code 0-0} when empty (Redis's {@code first_id}). */
    public StreamId firstId() {
        return entries.isEmpty() ? StreamId.MIN : entries.firstKey();
    }

    /** The last live entry's id, {@code 0-0} when empty (Redis's {@code streamLastValidID}). */
    public StreamId lastEntryId() {
        return entries.isEmpty() ? StreamId.MIN : entries.lastKey();
    }

    /**
     * Records a change after which blocked XREAD and XREADGROUP clients look at this stream again: Redis 7.0
     * signals a stream key ready (serves its blocked readers) only when an entry is added (XADD: {@link #append}
     * calls this), a group is destroyed, or the key is created, overwritten or deleted (a different
     * {@link #readyToken}, or none). Other writes (XGROUP SETID, XDEL, XTRIM, XCLAIM, ...) leave them waiting even
     * when a group is now behind the stream's last id; the next signal serves them from there.
     */
    public void signalReaders() {
        readySignals++;
    }

    /** This stream's identity for blocked readers ({@link #signalReaders}). */
    public Object readyToken() {
        return readyToken;
    }

    /** How many changes signalled blocked readers so far ({@link #signalReaders}). */
    public long readySignals() {
        return readySignals;
    }

    /** The first or last entry, or null when empty. */
    public Map.Entry<StreamId, byte[][]> edge(boolean first) {
        return first ? entries.firstEntry() : entries.lastEntry();
    }

    /** The fields and values of entry {@code id} (flat: f1, v1, f2, ...), or null. */
    public byte[][] get(StreamId id) {
        return entries.get(id);
    }

    public boolean contains(StreamId id) {
        return entries.containsKey(id);
    }

    /**
     * The id XADD {@code *} generates at {@code nowMs} (Redis's {@code streamNextID}): now with seq 0 when later
     * than the last id, else the last id's successor; null when the last id is the maximum.
     */
    public StreamId nextId(long nowMs) {
        if (Long.compareUnsigned(nowMs, lastId.ms()) > 0) {
            return new StreamId(nowMs, 0);
        }
        return lastId.next();
    }

    /**
     * Appends an entry as Redis's {@code streamAppendItem}; {@code id} must be greater than {@link #lastId()}.
     * {@code fields} is flat (f1, v1, ...) and kept: its arrays must not change. The tail node takes it unless the
     * node's bytes plus the entry's field and value bytes reach {@code nodeMaxBytes} ({@code stream-node-max-bytes};
     * 0 or above {@link #LISTPACK_MAX_SIZE}: that size) or the node holds {@code nodeMaxEntries} entries, deleted
     * ones included ({@code stream-node-max-entries}; 0: no count limit); then a new node starts with this entry's
     * fields as its master fields.
     */
    public void append(StreamId id, byte[][] fields, long nodeMaxBytes, long nodeMaxEntries) {
        assert id.compareTo(lastId) > 0 : id + " <= " + lastId;
        readySignals++;
        entries.put(id, fields);
        Map.Entry<StreamId, Node> tail = nodes.lastEntry();
        Node n = tail == null ? null : tail.getValue();
        if (n != null) {
            long max = nodeMaxBytes == 0 || nodeMaxBytes > LISTPACK_MAX_SIZE ? LISTPACK_MAX_SIZE : nodeMaxBytes;
            long dataBytes = 0;
            for (byte[] b : fields) {
                dataBytes += b.length;
            }
            if (n.bytes + dataBytes >= max || nodeMaxEntries != 0 && (long) n.live + n.deleted >= nodeMaxEntries) {
                n = null;
            }
        }
        StreamId master;
        boolean same;
        if (n == null) {
            byte[][] names = new byte[fields.length / 2][];
            long bytes = ListpackSizes.EMPTY + ListpackSizes.integer(1) + ListpackSizes.integer(0)
                    + ListpackSizes.integer(names.length) + ListpackSizes.integer(0);
            for (int i = 0; i < names.length; i++) {
                names[i] = fields[2 * i];
                bytes += ListpackSizes.element(names[i]);
            }
            n = new Node(names, id, 1, 0, bytes);
            nodes.put(id, n);
            master = id;
            same = true;
        } else {
            master = tail.getKey();
            n.count(1, 0);
            n.last = id;
            same = sameFields(n.masterFields, fields);
        }
        n.bytes += entryBytes(id, master, fields, same);
        lastId = id;
        entriesAdded++;
        fieldBytes += bytesOf(fields);
    }

    /** Whether {@code fields} (flat) has exactly the names {@code master}, in order (the SAMEFIELDS flag). */
    public static boolean sameFields(byte[][] master, byte[][] fields) {
        if (master.length * 2 != fields.length) {
            return false;
        }
        for (int i = 0; i < master.length; i++) {
            if (!Arrays.equals(master[i], fields[2 * i])) {
                return false;
            }
        }
        return true;
    }

    /** The listpack bytes of an entry: flags, id deltas, [num-fields, names,] values, lp-count. */
    private static long entryBytes(StreamId id, StreamId master, byte[][] fields, boolean same) {
        int pairs = fields.length / 2;
        long b = ListpackSizes.integer(same ? FLAG_SAMEFIELDS : 0) + ListpackSizes.integer(id.ms() - master.ms())
                + ListpackSizes.integer(id.seq() - master.seq());
        if (!same) {
            b += ListpackSizes.integer(pairs);
        }
        for (int i = 0; i < fields.length; i += 2) {
            if (!same) {
                b += ListpackSizes.element(fields[i]);
            }
            b += ListpackSizes.element(fields[i + 1]);
        }
        return b + ListpackSizes.integer(pairs + 3L + (same ? 0 : pairs + 1L));
    }

    /** Deletes entry {@code id} (XDEL): true when it existed; raises {@link #maxDeletedId()} to it. */
    public boolean delete(StreamId id) {
        if (!removeEntry(id)) {
            return false;
        }
        if (id.compareTo(maxDeletedId) > 0) {
            maxDeletedId = id;
        }
        return true;
    }

    /** XDEL's {@code streamIteratorRemoveEntry}: flags the entry deleted, or drops its node with its last entry. */
    private boolean removeEntry(StreamId id) {
        byte[][] f = entries.remove(id);
        if (f == null) {
            return false;
        }
        Map.Entry<StreamId, Node> e = nodes.floorEntry(id);
        Node n = e.getValue();
        if (n.live == 1) {
            fieldBytes -= bytesOf(f);
            dropNode(e.getKey(), n);
        } else {
            n.count(-1, 1);
            tombstones.put(id, f);
        }
        return true;
    }

    /** Removes node {@code key} with its live and deleted-flagged entries; returns how many were live. */
    private int dropNode(StreamId key, Node n) {
        int live = 0;
        NavigableMap<StreamId, byte[][]> part = entries.subMap(key, true, n.last, true);
        for (byte[][] f : part.values()) {
            fieldBytes -= bytesOf(f);
            live++;
        }
        part.clear();
        NavigableMap<StreamId, byte[][]> dead = tombstones.subMap(key, true, n.last, true);
        for (byte[][] f : dead.values()) {
            fieldBytes -= bytesOf(f);
        }
        dead.clear();
        nodes.remove(key);
        return live;
    }

    /**
     * Trims from the head as Redis's {@code streamTrim}: down to {@code maxlen} entries, or ({@code minid} not
     * null) below {@code minid}. With {@code approx}, only whole nodes go, and at most {@code limit} entries (0 =
     * no limit); exact trimming ignores {@code limit}. Does not change {@link #maxDeletedId()}.
     *
     * @return the number of entries removed
     */
    public long trim(long maxlen, StreamId minid, boolean approx, long limit) {
        long deleted = 0;
        Map.Entry<StreamId, Node> head = nodes.firstEntry();
        while (head != null) {
            if (minid == null && entries.size() <= maxlen) {
                break;
            }
            Node n = head.getValue();
            if (limit > 0 && deleted + n.live > limit) {
                break;
            }
            boolean whole = minid == null ? entries.size() - n.live >= maxlen : n.last.compareTo(minid) < 0;
            if (whole) {
                deleted += dropNode(head.getKey(), n);
                head = nodes.higherEntry(head.getKey());
                continue;
            }
            if (approx) {
                break;
            }
            // inside the node: flag entries deleted up to the threshold (the node stays, even with none live)
            int marked = 0;
            var it = entries.subMap(head.getKey(), true, n.last, true).entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<StreamId, byte[][]> x = it.next();
                if (minid == null ? entries.size() <= maxlen : x.getKey().compareTo(minid) >= 0) {
                    break;
                }
                tombstones.put(x.getKey(), x.getValue());
                it.remove();
                marked++;
            }
            n.count(-marked, marked);
            deleted += marked;
            break;
        }
        return deleted;
    }

    /** The nodes in id order, for DUMP. */
    public void forEachNode(NodeVisitor v) {
        for (Map.Entry<StreamId, Node> e : nodes.entrySet()) {
            Node n = e.getValue();
            List<NodeEntry> list = new ArrayList<>(n.live + n.deleted);
            var live = entries.subMap(e.getKey(), true, n.last, true).entrySet().iterator();
            var dead = tombstones.subMap(e.getKey(), true, n.last, true).entrySet().iterator();
            Map.Entry<StreamId, byte[][]> a = live.hasNext() ? live.next() : null;
            Map.Entry<StreamId, byte[][]> d = dead.hasNext() ? dead.next() : null;
            while (a != null || d != null) {
                if (d == null || a != null && a.getKey().compareTo(d.getKey()) < 0) {
                    list.add(new NodeEntry(a.getKey(), a.getValue(), false));
                    a = live.hasNext() ? live.next() : null;
                } else {
                    list.add(new NodeEntry(d.getKey(), d.getValue(), true));
                    d = dead.hasNext() ? dead.next() : null;
                }
            }
            v.node(e.getKey(), n.masterFields, n.live, n.deleted, list);
        }
    }

    /**
     * Adds a node read from a DUMP payload (RESTORE): keyed {@code master}, with its master fields, its entries
     * (live and deleted-flagged, ascending, all at or above {@code master} and above the previous node's) and its
     * listpack's {@code bytes}. Counters ({@link #setId}) are set separately.
     */
    public void restoreNode(StreamId master, byte[][] masterFields, List<NodeEntry> nodeEntries, long bytes) {
        int live = 0;
        for (NodeEntry x : nodeEntries) {
            (x.deleted() ? tombstones : entries).put(x.id(), x.fields());
            fieldBytes += bytesOf(x.fields());
            live += x.deleted() ? 0 : 1;
        }
        nodes.put(master, new Node(masterFields, nodeEntries.get(nodeEntries.size() - 1).id(), live,
                nodeEntries.size() - live, bytes));
    }

    /** The last node's last entry id (deleted or not), or null without nodes (RESTORE checks node order). */
    public StreamId lastNodeEntry() {
        return nodes.isEmpty() ? null : nodes.lastEntry().getValue().last;
    }

    /**
     * The entries with {@code start <= id <= end}, ascending or ({@code rev}) descending, at most {@code count}
     * (0 = all).
     */
    public List<Map.Entry<StreamId, byte[][]>> range(StreamId start, StreamId end, long count, boolean rev) {
        List<Map.Entry<StreamId, byte[][]>> out = new ArrayList<>();
        if (start.compareTo(end) > 0) {
            return out;
        }
        NavigableMap<StreamId, byte[][]> sub = entries.subMap(start, true, end, true);
        for (Map.Entry<StreamId, byte[][]> e : (rev ? sub.descendingMap() : sub).entrySet()) {
            if (count > 0 && out.size() >= count) {
                break;
            }
            out.add(e);
        }
        return out;
    }

    /** Sets the last id and, when not -1 / null, entries-added and max-deleted-id (XSETID; checked by the caller). */
    public void setId(StreamId id, long added, StreamId maxDeleted) {
        lastId = id;
        if (added != -1) {
            entriesAdded = added;
        }
        if (maxDeleted != null && !maxDeleted.isZero()) {
            maxDeletedId = maxDeleted;
        }
    }

    /** Modelled listpack nodes (XINFO STREAM's {@code radix-tree-keys}). */
    public int nodeCount() {
        return nodes.size();
    }

    /** The bytes of all the listpack nodes as Redis's would be ({@code lpBytes} summed): about DUMP's size. */
    public long listpackBytes() {
        long n = 0;
        for (Node node : nodes.values()) {
            n += node.bytes;
        }
        return n;
    }

    /**
     * The nodes Redis's rax would have for the node keys (XINFO STREAM's {@code radix-tree-nodes}): keys are the
     * 16-byte big-endian node ids; a rax has one compressed node per run of bytes no key branches in, one node
     * per branching point, and one leaf per key (an empty rax is its root alone).
     */
    public long radixTreeNodes() {
        if (nodes.isEmpty()) {
            return 1;
        }
        byte[][] keys = new byte[nodes.size()][];
        int i = 0;
        for (StreamId id : nodes.keySet()) {
            keys[i++] = java.nio.ByteBuffer.allocate(16).putLong(id.ms()).putLong(id.seq()).array();
        }
        return raxNodes(keys, 0, keys.length, 0);
    }

    private static long raxNodes(byte[][] keys, int from, int to, int depth) {
        int lcp = depth;
        while (lcp < 16 && keys[from][lcp] == keys[to - 1][lcp]) {
            lcp++; // keys are sorted: the first and last share what all share
        }
        long n = lcp > depth ? 1 : 0;
        if (lcp == 16) {
            return n + 1; // a single key: its leaf
        }
        n++; // the branching node at lcp
        int start = from;
        for (int j = from + 1; j <= to; j++) {
            if (j == to || keys[j][lcp] != keys[start][lcp]) {
                n += raxNodes(keys, start, j, lcp + 1);
                start = j;
            }
        }
        return n;
    }

    /** The consumer groups by name (byte order); changes write through. */
    public TreeMap<byte[], StreamGroup> groups() {
        return groups;
    }

    public StreamGroup group(byte[] name) {
        return groups.get(name);
    }

    /**
     * Whether the entries from {@code start} to {@code end} may hold a deleted one (Redis's
     * {@code streamRangeHasTombstones}).
     */
    public boolean rangeHasTombstones(StreamId start, StreamId end) {
        if (entries.isEmpty() || maxDeletedId.isZero()) {
            return false;
        }
        if (firstId().compareTo(maxDeletedId) > 0) {
            return false;
        }
        return start.compareTo(maxDeletedId) <= 0 && maxDeletedId.compareTo(end) <= 0;
    }

    /**
     * The entries-read counter a group at {@code id} would have, or -1 when it cannot be known (Redis's
     * {@code streamEstimateDistanceFromFirstEverEntry}).
     */
    public long estimateEntriesRead(StreamId id) {
        if (entriesAdded == 0) {
            return 0;
        }
        if (entries.isEmpty() && id.compareTo(lastId) < 1) {
            return entriesAdded;
        }
        int cmpLast = id.compareTo(lastId);
        if (cmpLast == 0) {
            return entriesAdded;
        } else if (cmpLast > 0) {
            return -1;
        }
        int cmpXdelFirst = maxDeletedId.compareTo(firstId());
        if (maxDeletedId.isZero() || cmpXdelFirst < 0) {
            int cmpIdFirst = id.compareTo(firstId());
            if (cmpIdFirst < 0) {
                return entriesAdded - entries.size();
            } else if (cmpIdFirst == 0) {
                return entriesAdded - entries.size() + 1;
            }
        }
        return -1;
    }

    /** The consumer-group lag (Redis 7.0's {@code streamReplyWithCGLag}), or -1 for the null reply. */
    public long lag(StreamGroup g) {
        if (entriesAdded == 0) {
            return 0;
        }
        if (g.entriesRead != -1 && !rangeHasTombstones(g.lastId, StreamId.MAX)) {
            return entriesAdded - g.entriesRead;
        }
        long read = estimateEntriesRead(g.lastId);
        return read == -1 ? -1 : entriesAdded - read;
    }

    @Override
    public StreamValue copy() {
        StreamValue s = new StreamValue();
        s.entries.putAll(entries);
        s.tombstones.putAll(tombstones);
        nodes.forEach((k, n) -> s.nodes.put(k, new Node(n.masterFields, n.last, n.live, n.deleted, n.bytes)));
        groups.forEach((k, g) -> s.groups.put(k, g.copy()));
        s.lastId = lastId;
        s.entriesAdded = entriesAdded;
        s.maxDeletedId = maxDeletedId;
        s.fieldBytes = fieldBytes;
        s.readyToken = readyToken;
        s.readySignals = readySignals;
        return s;
    }

    private static final byte[] XADD = ascii("XADD");
    private static final byte[] XSETID = ascii("XSETID");
    private static final byte[] XGROUP = ascii("XGROUP");
    private static final byte[] XCLAIM = ascii("XCLAIM");

    /**
     * Emits the commands that rebuild this stream exactly (Redis's AOF rewrite of a stream, plus the pending entries
     * whose stream entry is gone, which Redis's rewrite loses): {@code XADD k id f v ...} per entry, and a
     * placeholder {@code XADD k id x y} per such "ghost" id (an empty stream without any: {@code XADD k MAXLEN 0 0-1
     * x y}); per group {@code XGROUP CREATE k g last ENTRIESREAD n}, {@code XGROUP CREATECONSUMER k g c} per
     * consumer and {@code XCLAIM k g c 0 id TIME t RETRYCOUNT n FORCE JUSTID} per pending entry; then the ghosts
     * go again ({@code XTRIM k MINID <first entry>} for those before the first entry, or {@code MAXLEN 0} when no
     * entry is left, and {@code XDEL} for the others) and {@code XSETID k last ENTRIESADDED n MAXDELETEDID id}
     * restores the counters. Not rebuilt: consumers' seen times, the node boundaries and the deleted-flagged
     * entries (a replay builds its nodes under the replaying server's {@code stream-node-max-*}).
     */
    @Override
    public void rebuild(byte[] key, Consumer<byte[][]> frames) {
        java.util.TreeSet<StreamId> ghosts = new java.util.TreeSet<>();
        for (StreamGroup g : groups.values()) {
            for (StreamId id : g.pel.keySet()) {
                if (!entries.containsKey(id)) {
                    ghosts.add(id);
                }
            }
        }
        if (entries.isEmpty() && ghosts.isEmpty()) {
            frames.accept(new byte[][] {XADD, key, ascii("MAXLEN"), ascii("0"), ascii("0-1"), ascii("x"),
                    ascii("y")});
        }
        java.util.TreeSet<StreamId> ids = new java.util.TreeSet<>(entries.keySet());
        ids.addAll(ghosts);
        for (StreamId id : ids) {
            byte[][] fields = entries.get(id);
            if (fields == null) {
                fields = new byte[][] {ascii("x"), ascii("y")};
            }
            byte[][] f = new byte[3 + fields.length][];
            f[0] = XADD;
            f[1] = key;
            f[2] = id.toBytes();
            System.arraycopy(fields, 0, f, 3, fields.length);
            frames.accept(f);
        }
        for (Map.Entry<byte[], StreamGroup> ge : groups.entrySet()) {
            StreamGroup g = ge.getValue();
            frames.accept(new byte[][] {XGROUP, ascii("CREATE"), key, ge.getKey(), g.lastId.toBytes(),
                    ascii("ENTRIESREAD"), RedisNumbers.toBytes(g.entriesRead)});
            for (StreamGroup.Consumer c : g.consumers.values()) {
                frames.accept(new byte[][] {XGROUP, ascii("CREATECONSUMER"), key, ge.getKey(), c.name});
            }
            for (Map.Entry<StreamId, StreamGroup.Pending> pe : g.pel.entrySet()) {
                frames.accept(claimFrame(key, ge.getKey(), pe.getValue(), pe.getKey(), null));
            }
        }
        if (!ghosts.isEmpty()) {
            if (entries.isEmpty()) {
                frames.accept(new byte[][] {ascii("XTRIM"), key, ascii("MAXLEN"), ascii("0")});
            } else {
                StreamId first = entries.firstKey();
                if (ghosts.first().compareTo(first) < 0) {
                    frames.accept(new byte[][] {ascii("XTRIM"), key, ascii("MINID"), first.toBytes()});
                }
                List<byte[]> del = new ArrayList<>(List.of(ascii("XDEL"), key));
                for (StreamId id : ghosts.tailSet(first, false)) {
                    del.add(id.toBytes());
                }
                if (del.size() > 2) {
                    frames.accept(del.toArray(new byte[0][]));
                }
            }
        }
        frames.accept(new byte[][] {XSETID, key, lastId.toBytes(), ascii("ENTRIESADDED"),
                RedisNumbers.toBytes(entriesAdded), ascii("MAXDELETEDID"), maxDeletedId.toBytes()});
    }

    /**
     * {@code XCLAIM k g <owner> 0 <id> TIME <t> RETRYCOUNT <n> FORCE JUSTID [LASTID <lastId>]}: the frame that
     * makes {@code id} pending exactly as {@code p} (Redis's {@code streamPropagateXCLAIM}).
     */
    public static byte[][] claimFrame(byte[] key, byte[] group, StreamGroup.Pending p, StreamId id, StreamId last) {
        List<byte[]> f = new ArrayList<>(List.of(XCLAIM, key, group, p.consumer.name, ascii("0"), id.toBytes(),
                ascii("TIME"), RedisNumbers.toBytes(p.deliveryTime), ascii("RETRYCOUNT"),
                RedisNumbers.toBytes(p.deliveryCount), ascii("FORCE"), ascii("JUSTID")));
        if (last != null) {
            f.add(ascii("LASTID"));
            f.add(last.toBytes());
        }
        return f.toArray(new byte[0][]);
    }

    @Override
    public long memoryUsage() {
        long groupBytes = 0;
        for (StreamGroup g : groups.values()) {
            groupBytes += 64 + 48L * g.pel.size() + 64L * g.consumers.size();
        }
        return 96 + fieldBytes + 40L * (entries.size() + tombstones.size()) + 48L * nodes.size() + groupBytes;
    }

    private static long bytesOf(byte[][] fields) {
        long n = 0;
        for (byte[] b : fields) {
            n += b.length + 2;
        }
        return n;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** A readable picture of the whole state, without times that depend on when it was read (tests compare it). */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("stream last=").append(lastId).append(" added=").append(entriesAdded)
                .append(" maxdel=").append(maxDeletedId).append(" [");
        entries.forEach((id, f) -> {
            sb.append(id).append('{');
            for (byte[] b : f) {
                sb.append(new String(b, StandardCharsets.ISO_8859_1)).append(',');
            }
            sb.append('}');
        });
        sb.append(']');
        groups.forEach((name, g) -> {
            sb.append(" group ").append(new String(name, StandardCharsets.ISO_8859_1)).append(" last=")
                    .append(g.lastId).append(" read=").append(g.entriesRead).append(" consumers=");
            g.consumers.values().forEach(c -> sb.append(new String(c.name, StandardCharsets.ISO_8859_1)).append(','));
            sb.append(" pel=");
            g.pel.forEach((id, p) -> sb.append(id).append(':').append(new String(p.consumer.name,
                    StandardCharsets.ISO_8859_1)).append('@').append(p.deliveryTime).append('#')
                    .append(p.deliveryCount).append(','));
        });
        return sb.toString();
    }
}
