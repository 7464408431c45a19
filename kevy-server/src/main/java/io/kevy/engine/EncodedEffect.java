package io.kevy.engine;

/**
 * The RESP encoding ({@link RespFrames#encode}) of the frame a shard is emitting, once one of its
 * {@link EffectListener}s has written it somewhere: the next listeners copy those bytes instead of encoding
 * the frame again (the feed backlog encodes into its ring, the AOF writer then copies from there: with both on, that
 * halves what the feed adds to a write, see {@code EmitBench}). Valid only during the {@link Shard#emit} or
 * {@link Shard#replayed} that published it, which clear it when their last listener returns.
 *
 * <p>Not thread-safe: one per shard, used under the shard's lock.
 */
public final class EncodedEffect {
    private byte[] array;
    private int start;
    private int end;

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
    }

    /** Whether a listener has published the frame's encoding during this emit. */
    public boolean present() {
        return array != null;
    }

    /** The array holding the encoding; null when none was published. */
    public byte[] array() {
        return array;
    }

    /** Where the encoding starts in {@link #array()}. */
    public int start() {
        return start;
    }

    /** The encoding's length in bytes. */
    public int length() {
        return end - start;
    }

    void clear() {
        array = null;
    }
}
