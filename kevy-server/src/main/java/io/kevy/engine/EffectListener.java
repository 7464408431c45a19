package io.kevy.engine;

import io.kevy.resp.EncodedEffect;

/**
 * Receives every effect frame a shard emits (feed contract §7), in offset order, while the shard's lock is
 * held: the feed backlog and the AOF writer are listeners, so state, feed and AOF cannot disagree.
 *
 * <p>Implementations must be fast and must not block or take other shards' locks. The frame and its byte
 * arrays are immutable and may be retained. A listener that writes the frame's RESP encoding publishes it with
 * {@code shard.encoded().publish}, and one that needs it copies {@code shard.encoded()} when present instead
 * of encoding again ({@link EncodedEffect}).
 */
@FunctionalInterface
public interface EffectListener {
    /**
     * @param shard  the emitting shard (locked by the calling thread)
     * @param offset the frame's offset in the shard's current generation
     * @param frame  the effect as a Redis command, upper-case verb first
     */
    void onEffect(Shard shard, long offset, byte[][] frame);

    /**
     * The shard started a new stream (FLUSHALL/FLUSHDB or boot): frames before it belong to an older
     * generation. Called under the shard's lock.
     */
    default void onStreamReset(Shard shard, long generation, long nextOffset) {
    }

    /**
     * The shard's stream goes on under {@code newGeneration} from {@code nextOffset} ({@link Shard#continueStream}):
     * generation {@code oldGeneration} ended at {@code nextOffset}, and its frames before that stay valid. By
     * default a listener treats it as a new stream ({@link #onStreamReset}). Called under the shard's lock.
     */
    default void onGenerationContinued(Shard shard, long oldGeneration, long newGeneration, long nextOffset) {
        onStreamReset(shard, newGeneration, nextOffset);
    }

    /**
     * A frame read back from disk at boot (the AOF tail of a clean restart), already applied to the state:
     * the feed backlog refills from these (feed contract §5, ours). Called in offset order, under the lock.
     */
    default void onReplay(Shard shard, long offset, byte[][] frame) {
    }
}
