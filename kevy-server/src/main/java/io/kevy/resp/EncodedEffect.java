package io.kevy.resp;

import io.kevy.engine.Shard;

/**
 * The RESP encoding ({@link RespFrames#encode}) of the frame a shard is emitting, once it exists: the bytes the
 * client sent, when the frame is its command as sent ({@link RequestBytes}), or those a listener has written
 * (the feed backlog into its ring). The listeners copy them instead of encoding the frame argument by argument:
 * the backlog copies the request's bytes, the AOF writer then copies from the ring; with both on, each frame is
 * encoded at most once, and a plain {@code SET} not at all (see {@code EmitBench}). Valid only during the
 * {@link Shard#emit} or {@link Shard#replayed} that published it, which clear it when their last listener
 * returns.
 *
 * <p>What is published is a {@code kind}; the two references are stored only when they change and not cleared
 * after the emit: a reference stored into this long-lived object costs a G1 post-write barrier with a
 * {@code StoreLoad} fence, which was about 3 ns of a 27 ns append with the feed on and a third of a plain
 * {@code SET}'s 8 ns emit with it off ({@code EmitBench}, docs/benchmarks.md). So this object keeps the last
 * ring chunk and the last request view reachable until the next publish; it never reads them once cleared.
 *
 * <p>Not thread-safe: one per shard, used under the shard's lock.
 */
public final class EncodedEffect {
    private static final int NONE = 0;
    private static final int ARRAY = 1;
    private static final int REQUEST = 2;

    /** What is published: {@link #NONE}, {@link #ARRAY} or {@link #REQUEST}; the references outlive it. */
    private int kind;
    private byte[] array;
    private int start;
    private int end;
    private RequestBytes request;

    public EncodedEffect() {
    }

    /**
     * Publishes the encoding a listener has just written: {@code array[start, end)}. The bytes must stay as
     * they are until the emit returns.
     */
    public void publish(byte[] array, int start, int end) {
        if (this.array != array) {
            this.array = array;
        }
        this.start = start;
        this.end = end;
        this.kind = ARRAY;
    }

    /** Publishes the request's bytes, which the emitting command has checked to encode its frame. */
    public void publish(RequestBytes request) {
        if (this.request != request) {
            this.request = request;
        }
        this.kind = REQUEST;
    }

    /** Whether the frame's encoding is available during this emit. */
    public boolean present() {
        return kind != NONE;
    }

    /** The encoding's length in bytes; only when {@link #present()}. */
    public int length() {
        return kind == ARRAY ? end - start : request.length();
    }

    /**
     * Copies the encoding into {@code dst} at {@code pos}, where the caller has made room for {@link #length()}
     * bytes; only when {@link #present()}.
     *
     * @return the position after the last byte written
     */
    public int copyTo(byte[] dst, int pos) {
        if (kind == ARRAY) {
            int n = end - start;
            System.arraycopy(array, start, dst, pos, n);
            return pos + n;
        }
        return request.copyTo(dst, pos);
    }

    public void clear() {
        kind = NONE;
    }
}
