package io.kevy.engine.type;

import java.nio.charset.StandardCharsets;

/**
 * A stream entry id: two unsigned 64-bit numbers, milliseconds and sequence, ordered by ms then seq (Redis's
 * {@code streamID}). Printed as {@code <ms>-<seq>} in unsigned decimal, e.g. {@code 18446744073709551615-0}.
 * Immutable and thread-safe.
 */
public record StreamId(long ms, long seq) implements Comparable<StreamId> {
    /** {@code 0-0}: the smallest id, which no entry may have; also "none" for the first id of an empty stream. */
    public static final StreamId MIN = new StreamId(0, 0);
    /** {@code 18446744073709551615-18446744073709551615}: the largest id. */
    public static final StreamId MAX = new StreamId(-1L, -1L);

    @Override
    public int compareTo(StreamId o) {
        int c = Long.compareUnsigned(ms, o.ms);
        return c != 0 ? c : Long.compareUnsigned(seq, o.seq);
    }

    public boolean isZero() {
        return ms == 0 && seq == 0;
    }

    /** The next id, or null when this is {@link #MAX} (Redis's {@code streamIncrID} failing). */
    public StreamId next() {
        if (seq != -1L) {
            return new StreamId(ms, seq + 1);
        }
        return ms == -1L ? null : new StreamId(ms + 1, 0);
    }

    /** The previous id, or null when this is {@link #MIN} (Redis's {@code streamDecrID} failing). */
    public StreamId previous() {
        if (seq != 0) {
            return new StreamId(ms, seq - 1);
        }
        return ms == 0 ? null : new StreamId(ms - 1, -1L);
    }

    /** {@code <ms>-<seq>} as ASCII bytes. */
    public byte[] toBytes() {
        return toString().getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public String toString() {
        return Long.toUnsignedString(ms) + "-" + Long.toUnsignedString(seq);
    }
}
