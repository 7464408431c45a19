package io.kevy.feed.client;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One frame as a {@link FeedSource} read it (feed contract §4): its offset and its argv, verb first. Ours are
 * effects with upper-case verbs; upstream's are the commands as sent (contract §7). The arrays are owned by the
 * frame: do not modify them. Immutable; equality compares the bytes.
 *
 * @param offset the frame's offset in its shard's generation
 * @param argv   the command, verb first; at least one element
 */
public record Frame(long offset, byte[][] argv) {
    public Frame {
        if (argv.length == 0) {
            throw new IllegalArgumentException("a frame has at least a verb");
        }
    }

    /** The verb upper-cased (ASCII), e.g. {@code SET}. */
    public String verb() {
        return new String(argv[0], StandardCharsets.ISO_8859_1).toUpperCase(java.util.Locale.ROOT);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Frame f && f.offset == offset && Arrays.deepEquals(f.argv, argv);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(offset) * 31 + Arrays.deepHashCode(argv);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder().append(offset);
        for (byte[] a : argv) {
            sb.append(' ').append(new String(a, StandardCharsets.UTF_8));
        }
        return sb.toString();
    }
}
