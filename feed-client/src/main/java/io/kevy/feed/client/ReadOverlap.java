package io.kevy.feed.client;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The frames of one shard that overlap a rebuild's key reads (exact rebuilds, feed contract §11.3). Reading
 * resumes at the carried cursor, taken before the first key was read, so the frames between it and a key's
 * read are delivered although the key's SNAPSHOT already holds them. This class removes them, per key: a frame
 * at offset {@code f} is applied to key {@code k} only when {@code f >= at(k)}, {@code at(k)} being the offset
 * {@code k} was read at ({@link KeyRead#at()}; keys the rebuild did not read have no offset and get every
 * frame). So:
 * <ul>
 *   <li>a single-key frame is dropped when its key's read holds it;</li>
 *   <li>a {@code DEL k ...} or {@code MSET k v ...} keeps the keys whose reads do not hold it;</li>
 *   <li>any other frame of several keys (ours: a same-shard {@code RENAME src dst}, whose effect on dst is
 *       src's value, which the frame does not carry; upstream's verbatim moves, COPY and {@code *STORE}) is
 *       replaced by a fresh read of each key whose read does not hold it: a SNAPSHOT or VANISHED entry in the
 *       batch, and that read's offset becomes the key's.</li>
 * </ul>
 * The overlap ends at {@code end} (the shard's tail after the rebuild; raised by fresh reads): from there on
 * every frame passes unchanged. One per shard, used by that shard's worker only: not thread-safe.
 */
final class ReadOverlap {
    private final int shard;
    private final long generation;
    private final Map<ByteBuffer, Long> at;
    private long end;

    ReadOverlap(int shard, long generation, Map<ByteBuffer, Long> at, long end) {
        this.shard = shard;
        this.generation = generation;
        this.at = new HashMap<>(at);
        this.end = end;
    }

    int shard() {
        return shard;
    }

    /** True while frames from {@code cursor} on may overlap a read. */
    boolean activeAt(Cursor cursor) {
        return cursor.generation() == generation && cursor.offset() < end;
    }

    /** True when the read of {@code key} already holds the frame at {@code offset}. */
    boolean holds(byte[] key, long offset) {
        Long a = at.get(ByteBuffer.wrap(key));
        return a != null && offset < a;
    }

    /** Something that reads keys afresh (the consumer's source). */
    interface Reader {
        List<KeyRead> read(List<byte[]> keys);
    }

    /** Something that turns a fresh read into a SNAPSHOT or VANISHED change of the batch. */
    interface Entries<K, V> {
        Change<K, V> entry(KeyRead read, long frameOffset);
    }

    /** The changes of one batch (in order) as they apply after the rebuild. */
    <K, V> List<Change<K, V>> apply(List<Change<K, V>> changes, Reader reader, Entries<K, V> entries) {
        List<Change<K, V>> out = new ArrayList<>(changes.size());
        for (Change<K, V> c : changes) {
            RawChange raw = c.raw();
            long f = c.offset();
            if (!raw.keysKnown || raw.keys.length == 0) {
                out.add(c);
                continue;
            }
            if (raw.keys.length == 1 || raw.op == Op.DEL || raw.op == Op.MSET) {
                RawChange kept = raw.narrowed(k -> !holds(k, f));
                if (kept != null) {
                    out.add(kept == raw ? c : c.withContent(kept));
                }
                continue;
            }
            List<byte[]> stale = new ArrayList<>();
            for (byte[] k : raw.keys) {
                if (!holds(k, f) && stale.stream().noneMatch(s -> java.util.Arrays.equals(s, k))) {
                    stale.add(k);
                }
            }
            if (stale.isEmpty()) {
                continue;
            }
            for (KeyRead r : reader.read(stale)) {
                if (r.at().generation() == generation) {
                    at.put(ByteBuffer.wrap(r.key()), r.at().offset());
                    end = Math.max(end, r.at().offset());
                }
                out.add(entries.entry(r, f));
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return "ReadOverlap[shard " + shard + ", " + at.size() + " key(s), until " + end + "]";
    }
}
