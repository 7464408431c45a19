package io.kevy.feed;

import io.kevy.resp.EncodedFrame;

/**
 * One frame of a shard's stream (feed contract §1): its offset and the applied effect as a Redis command,
 * upper-case verb first (§7), held as the RESP encoding of the argv ({@code *<argc>} then {@code $<len> <arg>}
 * per argument; FEED.READ sends it after {@code *2 :<offset>}, §4), a slice of the bytes a read copied out of
 * the backlog.
 *
 * <p>Immutable and thread-safe (the slice is never written after the read that made it).
 */
public final class FeedFrame {
    private final long offset;
    private final byte[] data;
    private final int start;
    private final int end;

    FeedFrame(long offset, byte[] data, int start, int end) {
        this.offset = offset;
        this.data = data;
        this.start = start;
        this.end = end;
    }

    /** The frame's offset in its generation. */
    public long offset() {
        return offset;
    }

    /** The effect, verb first: decoded on each call into new arrays the caller owns. */
    public byte[][] argv() {
        return EncodedFrame.argv(data, start);
    }

    /** The bytes holding the argv's RESP encoding (shared: do not modify), from {@link #start()} to {@link #end()}. */
    byte[] data() {
        return data;
    }

    int start() {
        return start;
    }

    int end() {
        return end;
    }

    @Override
    public String toString() {
        return "FeedFrame[" + offset + ", " + (end - start) + " bytes]";
    }
}
