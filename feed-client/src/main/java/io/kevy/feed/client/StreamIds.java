package io.kevy.feed.client;

import java.nio.charset.StandardCharsets;

/**
 * Stream entry ids as frames carry them: {@code ms-seq} or {@code ms} (seq 0), both unsigned 64-bit decimals
 * (Redis's streamID). Compares them numerically and prints them in full. Stateless and thread-safe.
 */
final class StreamIds {
    private StreamIds() {
    }

    /** {ms, seq} of {@code id}; NumberFormatException when it is not a full or ms-only id. */
    static long[] parse(byte[] id) {
        String s = new String(id, StandardCharsets.US_ASCII);
        int dash = s.indexOf('-');
        if (dash < 0) {
            return new long[] {Long.parseUnsignedLong(s), 0};
        }
        return new long[] {Long.parseUnsignedLong(s.substring(0, dash)), Long.parseUnsignedLong(s.substring(dash + 1))};
    }

    /** Numeric order of two ids (unsigned). */
    static int compare(byte[] a, byte[] b) {
        long[] x = parse(a);
        long[] y = parse(b);
        int c = Long.compareUnsigned(x[0], y[0]);
        return c != 0 ? c : Long.compareUnsigned(x[1], y[1]);
    }

    /** The id in full {@code ms-seq} form, as XRANGE prints it. */
    static String text(byte[] id) {
        long[] x = parse(id);
        return Long.toUnsignedString(x[0]) + "-" + Long.toUnsignedString(x[1]);
    }
}
