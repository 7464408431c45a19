package io.kevy.resp;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The keys an effect frame touches, by the key layout of its verb: {@code DEL k1 k2 ...} all arguments,
 * {@code MSET k1 v1 k2 v2 ...} every other argument, {@code RENAME src dst} both, every other frame its
 * first argument (feed contract §7 and §8). Frames come only from the engine's own handlers, so these four
 * layouts are all there are.
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
            action.accept(frame[1]);
        }
    }

    /**
     * True when {@code frame} has the single-key shape of feed contract §8 (its only key is argument 1), so a
     * PREFIX filter may drop it; false for fail-open frames (DEL with 2+ keys, MSET, RENAME).
     */
    public static boolean isSingleKey(byte[][] frame) {
        return frame.length >= 2 && isSingleKey(frame[0], 0, frame[0].length, frame.length);
    }

    /**
     * {@link #isSingleKey(byte[][])} for a frame whose verb is {@code buf[verbFrom, verbFrom + verbLength)} and
     * which has {@code argc} arguments (the verb included), so a reader of encoded frames applies the same rule.
     */
    public static boolean isSingleKey(byte[] buf, int verbFrom, int verbLength, long argc) {
        if (argc < 2) {
            return false;
        }
        if (is(buf, verbFrom, verbLength, Verbs.DEL)) {
            return argc == 2;
        }
        return !is(buf, verbFrom, verbLength, Verbs.MSET) && !is(buf, verbFrom, verbLength, Verbs.RENAME);
    }

    private static boolean is(byte[] buf, int from, int length, byte[] word) {
        return Arrays.equals(buf, from, from + length, word, 0, word.length);
    }
}
