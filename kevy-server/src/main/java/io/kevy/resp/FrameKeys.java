package io.kevy.resp;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The keys an effect frame touches. {@link #forEach} knows the four key layouts of the engine's own frames
 * ({@code DEL k1 k2 ...} all arguments, {@code MSET k1 v1 k2 v2 ...} every other argument, {@code RENAME src dst}
 * both, every other frame its first argument but {@code XGROUP <sub> k}'s, and {@code FUNCTION ...} frames none;
 * feed contract §7) without a table, as the shards signal the keys
 * of every frame they emit; {@link #isSingleKey} (the PREFIX filter's test, §8) reads the verb's shape from the
 * command table ({@link KeyShape.Lookup}).
 */
public final class FrameKeys {
    private FrameKeys() {
    }

    /** Calls {@code action} for each key of {@code frame}, in argument order. */
    public static void forEach(byte[][] frame, Consumer<byte[]> action) {
        if (frame.length < 2) {
            return;
        }
        byte[] verb = frame[0];
        if (Arrays.equals(verb, FUNCTION)) {
            return; // the server-wide frames of FUNCTION libraries touch no key
        }
        if (Arrays.equals(verb, Verbs.DEL)) {
            for (int i = 1; i < frame.length; i++) {
                action.accept(frame[i]);
            }
        } else if (Arrays.equals(verb, Verbs.MSET)) {
            for (int i = 1; i < frame.length; i += 2) {
                action.accept(frame[i]);
            }
        } else if (Arrays.equals(verb, Verbs.RENAME)) {
            action.accept(frame[1]);
            if (frame.length > 2) {
                action.accept(frame[2]);
            }
        } else {
            action.accept(key(frame));
        }
    }

    private static final byte[] FUNCTION = "FUNCTION".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] XGROUP = "XGROUP".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /**
     * The key of a single-key frame: its first argument, except {@code XGROUP <sub> k ...} (the stream frames of
     * consumer groups), whose key is the second; for the multi-key layouts, the first key.
     */
    public static byte[] key(byte[][] frame) {
        return frame.length > 2 && Arrays.equals(frame[0], XGROUP) ? frame[2] : frame[1];
    }

    /**
     * True when {@code frame} has the single-key shape of feed contract §8 by the key shape {@code shapes} gives
     * its verb ({@link KeyShape#singleKey}), so a PREFIX filter may drop it; false for fail-open frames (DEL with 2+
     * keys, MSET, RENAME) and for a verb {@code shapes} does not know.
     */
    public static boolean isSingleKey(KeyShape.Lookup shapes, byte[][] frame) {
        return frame.length >= 2 && isSingleKey(shapes, frame[0], 0, frame[0].length, frame.length);
    }

    /**
     * {@link #isSingleKey(KeyShape.Lookup, byte[][])} for a frame whose verb is {@code buf[verbFrom, verbFrom +
     * verbLength)} and which has {@code argc} arguments (the verb included), so a reader of encoded frames applies
     * the same rule.
     */
    public static boolean isSingleKey(KeyShape.Lookup shapes, byte[] buf, int verbFrom, int verbLength, long argc) {
        if (argc < 2) {
            return false;
        }
        KeyShape shape = shapes.of(buf, verbFrom, verbLength);
        return shape != null && shape.singleKey(argc);
    }
}
