package io.kevy.engine.command;

import io.kevy.engine.Engine;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds one frame per shard for a multi-key command (feed contract §7): {@code DEL <keys deleted>} for DEL and
 * UNLINK, {@code MSET <pairs>} for MSET and MSETNX. Arguments keep their command-line order within each shard;
 * shards without arguments get no frame.
 *
 * <p>Not thread-safe: one instance per command, used under the command's shard locks.
 */
final class ShardFrames {
    private final Engine engine;
    private final byte[] verb;
    private final List<List<byte[]>> perShard;
    private int count;

    ShardFrames(Engine engine, byte[] verb) {
        this.engine = engine;
        this.verb = verb;
        this.perShard = new ArrayList<>(engine.shardCount());
        for (int i = 0; i < engine.shardCount(); i++) {
            perShard.add(null);
        }
    }

    /** Adds {@code args} (a key, or a key and its value) to the frame of {@code key}'s shard. */
    void add(byte[] key, byte[]... args) {
        int s = engine.shardIndex(key);
        List<byte[]> l = perShard.get(s);
        if (l == null) {
            l = new ArrayList<>();
            l.add(verb);
            perShard.set(s, l);
        }
        for (byte[] a : args) {
            l.add(a);
        }
        count++;
    }

    /** Number of {@link #add} calls. */
    int count() {
        return count;
    }

    /** Emits each shard's frame on its shard, in shard order. */
    void emit() {
        for (int s = 0; s < perShard.size(); s++) {
            List<byte[]> l = perShard.get(s);
            if (l != null) {
                engine.shard(s).emit(l.toArray(new byte[0][]));
            }
        }
    }
}
