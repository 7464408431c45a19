package io.kevy.embedded;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One frame of the embedded store's change stream (feed contract §1, §7): its offset and the applied effect
 * as a Redis command, upper-case verb first ({@code SET k v PXAT 1700000000000}, {@code DEL k}, ...).
 * Immutable to the store: {@link #argv()} is the caller's own copy.
 *
 * @param offset the frame's offset in the store's current generation
 * @param argv   the effect, verb first
 */
public record Change(long offset, byte[][] argv) {
    /** The verb, e.g. {@code "SET"}. */
    public String verb() {
        return new String(argv[0], StandardCharsets.US_ASCII);
    }

    /** The arguments decoded as UTF-8, verb first (for logs and tests). */
    public List<String> argvUtf8() {
        List<String> out = new ArrayList<>(argv.length);
        for (byte[] a : argv) {
            out.add(new String(a, StandardCharsets.UTF_8));
        }
        return out;
    }

    @Override
    public String toString() {
        return offset + " " + String.join(" ", argvUtf8());
    }
}
