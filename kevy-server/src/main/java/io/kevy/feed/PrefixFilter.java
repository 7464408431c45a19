package io.kevy.feed;

import io.kevy.engine.command.CommandTable;
import io.kevy.engine.text.Bytes;
import io.kevy.resp.EncodedFrame;
import io.kevy.resp.FrameKeys;
import io.kevy.resp.KeyShape;
import java.util.Arrays;
import java.util.List;

/**
 * The PREFIX filter of FEED.READ and {@code changesSince} (feed contract §8): a frame of single-key shape
 * ({@link KeyShape#singleKey}, by its verb's key spec in the command table: its only key is argv[1]) is delivered when its key starts with any of the
 * prefixes (byte comparison; the empty prefix matches everything). Every other frame (DEL with 2+ keys,
 * MSET, RENAME) is always delivered: fail-open, the consumer checks its keys itself. No prefix at all means
 * no filter.
 *
 * <p>Immutable and thread-safe.
 */
public final class PrefixFilter {
    /** The filter that delivers every frame. */
    public static final PrefixFilter ALL = new PrefixFilter(new byte[0][], null);

    private final byte[][] prefixes;
    private final KeyShape.Lookup shapes;

    private PrefixFilter(byte[][] prefixes, KeyShape.Lookup shapes) {
        this.prefixes = prefixes;
        this.shapes = shapes;
    }

    /**
     * A filter for {@code prefixes} (OR), which reads a frame's key shape from the engine's command table
     * ({@link CommandTable#standard()}: every verb a frame can have); {@link #ALL} when the list is empty or
     * contains an empty prefix.
     */
    public static PrefixFilter of(List<byte[]> prefixes) {
        return of(prefixes, CommandTable.standard()::keyShape);
    }

    /** {@link #of(List)} with the key shapes of {@code shapes}. */
    public static PrefixFilter of(List<byte[]> prefixes, KeyShape.Lookup shapes) {
        if (prefixes.isEmpty()) {
            return ALL;
        }
        byte[][] p = new byte[prefixes.size()][];
        for (int i = 0; i < p.length; i++) {
            byte[] b = prefixes.get(i);
            if (b.length == 0) {
                return ALL;
            }
            p[i] = b.clone();
        }
        return new PrefixFilter(p, shapes);
    }

    /** True when this filter delivers every frame. */
    public boolean isAll() {
        return prefixes.length == 0;
    }

    /** True when {@code frame} is delivered (contract §8). */
    public boolean accepts(byte[][] frame) {
        if (prefixes.length == 0 || !FrameKeys.isSingleKey(shapes, frame)) {
            return true;
        }
        byte[] key = frame[1];
        for (byte[] p : prefixes) {
            if (Bytes.startsWith(key, p)) {
                return true;
            }
        }
        return false;
    }

    /** As {@link #accepts(byte[][])} for the frame encoded at {@code data[start..]} (the backlog's form). */
    boolean accepts(byte[] data, int start) {
        if (prefixes.length == 0) {
            return true;
        }
        long key = EncodedFrame.singleKey(shapes, data, start);
        if (key < 0) {
            return true;
        }
        int from = (int) (key >>> 32);
        int len = (int) key;
        for (byte[] p : prefixes) {
            if (p.length <= len && Arrays.equals(data, from, from + p.length, p, 0, p.length)) {
                return true;
            }
        }
        return false;
    }
}
