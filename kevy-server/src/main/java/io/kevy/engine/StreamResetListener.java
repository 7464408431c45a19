package io.kevy.engine;

/**
 * Told when a shard starts a new stream: FLUSHALL/FLUSHDB or boot (feed contract §5), under the shard's lock,
 * after the shard's {@link EffectListener}s. It receives no frames, so unlike an effect listener it adds
 * nothing to a write (the persistence layer records each new generation this way).
 */
@FunctionalInterface
public interface StreamResetListener {
    /**
     * @param shard      the shard (locked by the calling thread)
     * @param generation the new stream's generation
     * @param nextOffset the offset its first frame will get
     */
    void onStreamReset(Shard shard, long generation, long nextOffset);
}
