package io.kevy.engine;

/**
 * The RESP encoding ({@link RespFrames#encode}) of the frame a shard is emitting, once it exists: the bytes the
 * client sent, when the frame is its command as sent ({@link RequestBytes}), or those a listener has written
 * (the feed backlog into its ring). The listeners copy them instead of encoding the frame argument by argument:
 * the backlog copies the request's bytes, the AOF writer then copies from the ring; with both on, each frame is
 * encoded at most once, and a plain {@code SET} not at all (see {@code EmitBench}). Valid only during the
 * {@link Shard#emit} or {@link Shard#replayed} that published it, which clear it when their last listener
 * returns.
 *
 * <p>Not thread-safe: one per shard, used under the shard's lock.
 */
public final class EncodedEffect {
    private byte[] array;
    private int start;
    private int end;
    private RequestBytes request;

    EncodedEffect() {
    }

    /**
     * Publishes the encoding a listener has just written: {@code array[start, end)}. The bytes must stay as
     * they are until the emit returns.
     */
    public void publish(byte[] array, int start, int end) {
        this.array = array;
        this.start = start;
        this.end = end;
        this.request = null;
    }

    /** Publishes the request's bytes, which the emitting command has checked to encode its frame. */
    void publish(RequestBytes request) {
        this.array = null;
        this.request = request;
    }

    /** Whether the frame's encoding is available during this emit. */
    public boolean present() {
        return array != null || request != null;
    }

    /** The encoding's length in bytes; only when {@link #present()}. */
    public int length() {
        return array != null ? end - start : request.length();
    }

    /**
     * Copies the encoding into {@code dst} at {@code pos}, where the caller has made room for {@link #length()}
     * bytes; only when {@link #present()}.
     *
     * @return the position after the last byte written
     */
    public int copyTo(byte[] dst, int pos) {
        if (array != null) {
            int n = end - start;
            System.arraycopy(array, start, dst, pos, n);
            return pos + n;
        }
        return request.copyTo(dst, pos);
    }

    void clear() {
        array = null;
        request = null;
    }
}
