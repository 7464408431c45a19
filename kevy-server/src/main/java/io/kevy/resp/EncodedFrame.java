package io.kevy.resp;

import io.kevy.feed.FeedBacklog;
import java.util.Arrays;

/**
 * Reads a frame back from the RESP encoding the backlog stores ({@code *<argc>\r\n} then
 * {@code $<len>\r\n<arg>\r\n} per argument, {@link FeedBacklog}'s storage): the argument count, the bounds of
 * argument {@code i}, and the decoded argv. The bytes were written by {@link FeedBacklog}, so nothing is
 * validated. Static methods only; thread-safe.
 */
public final class EncodedFrame {
    private EncodedFrame() {
    }

    /** Parses the decimal number at {@code p} up to its CR; returns it, and the position after the CRLF via {@code next[0]}. */
    private static long number(byte[] b, int p, int[] next) {
        long v = 0;
        while (b[p] != '\r') {
            v = v * 10 + (b[p++] - '0');
        }
        next[0] = p + 2;
        return v;
    }

    /** Decodes the frame at {@code p} into new arrays. */
    public static byte[][] argv(byte[] b, int p) {
        int[] next = new int[1];
        int argc = (int) number(b, p + 1, next);        // the digits after '*'
        byte[][] argv = new byte[argc][];
        int q = next[0];
        for (int i = 0; i < argc; i++) {
            int n = (int) number(b, q + 1, next);
            argv[i] = Arrays.copyOfRange(b, next[0], next[0] + n);
            q = next[0] + n + 2;
        }
        return argv;
    }

    /**
     * The single-key test of {@link FrameKeys#isSingleKey(KeyShape.Lookup, byte[], int, int, long)} on the frame
     * at {@code p}, by the shapes of {@code shapes}: when its shape is single-key, returns the bounds of its key
     * (argument 1) as {@code start << 32 | length}; otherwise -1 (DEL with 2+ keys, MSET, RENAME, an unknown verb,
     * or fewer than two arguments).
     */
    public static long singleKey(KeyShape.Lookup shapes, byte[] b, int p) {
        int[] next = new int[1];
        long argc = number(b, p + 1, next);        // the digits after '*'
        if (argc < 2) {
            return -1;
        }
        int verbLen = (int) number(b, next[0] + 1, next);
        int verb = next[0];
        if (!FrameKeys.isSingleKey(shapes, b, verb, verbLen, argc)) {
            return -1;
        }
        int keyLen = (int) number(b, verb + verbLen + 3, next);
        return (long) next[0] << 32 | keyLen;
    }
}
