package io.kevy.engine;

import io.kevy.engine.session.Session;
import io.kevy.resp.EncodedEffect;
import io.kevy.resp.RequestBytes;
import io.kevy.resp.Verbs;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One shard: a keyspace, the lock that guards it, and the shard's stream of effect frames.
 *
 * <p><b>Design note.</b>
 * <ul>
 *   <li><i>Locking.</i> Every access to the keyspace happens with {@link #lock()} held, taken by the dispatcher
 *       on the thread that runs the command (a Netty event loop or an embedded caller). Commands that touch
 *       several shards take their locks in ascending index order, so there is no lock-order cycle.</li>
 *   <li><i>Effects.</i> A command handler changes the keyspace and calls {@link #emit} for the effect in the
 *       same critical section. {@code emit} assigns the next offset and hands the frame to every
 *       {@link EffectListener} (feed backlog, AOF) before the lock is released, so the order of frames is the
 *       order of changes, and a reader who sees a frame under the lock sees the state after it. The frame is
 *       encoded at most once: a command whose frame is its request as the client sent it passes those bytes
 *       ({@link RequestBytes}), the first listener that writes the RESP bytes publishes them ({@link #encoded}),
 *       and the next copy them (the backlog copies or encodes into its ring, the AOF writer copies from
 *       there).</li>
 *   <li><i>Stream position.</i> {@code (generation, nextOffset)} names the shard's stream (feed contract §5);
 *       offsets advance with every frame whether or not the feed is enabled, so the AOF and the feed agree.</li>
 *   <li><i>Failure.</i> A listener that throws is a bug; the exception propagates to the dispatcher, which
 *       reports it to the client as an internal error and logs it.</li>
 * </ul>
 */
public final class Shard {
    private final int index;
    private final Engine engine;
    private final ShardLock lock = new ShardLock();
    private final Keyspace keyspace;
    private final CopyOnWriteArrayList<EffectListener> listeners = new CopyOnWriteArrayList<>();
    private final CopyOnWriteArrayList<StreamResetListener> resetListeners = new CopyOnWriteArrayList<>();
    private final KeySignals signals;
    private final EncodedEffect encoded = new EncodedEffect();

    private long generation;
    private long nextOffset;
    /**
     * The generation history (ours, "cursors that survive failover"): each generation this stream continued
     * from → the offset it ended at ({@link #continueStream}), oldest first. Emptied by a new stream.
     */
    private final java.util.LinkedHashMap<Long, Long> ended = new java.util.LinkedHashMap<>();
    private boolean loading;
    private volatile boolean mirror;
    private long dirty;
    private long expiredKeys;
    private long keyspaceHits;
    private long keyspaceMisses;
    /** The command whose effect is being emitted, for listeners that name events (keyspace notifications). */
    private volatile boolean tracksOrigin;
    private String originCommand;
    private byte[][] originArgv;
    /** The session whose command produces the frame being emitted (NOLOOP tracking), null for expiry. */
    private Session writer;

    Shard(Engine engine, int index, long generation) {
        this.engine = engine;
        this.index = index;
        this.generation = generation;
        this.keyspace = new Keyspace(this);
        this.signals = new KeySignals(this);
    }

    public int index() {
        return index;
    }

    public Engine engine() {
        return engine;
    }

    /** The lock guarding this shard's keyspace and stream. */
    public ReentrantLock lock() {
        return lock;
    }

    /** The keyspace; callers must hold {@link #lock()}. */
    public Keyspace keyspace() {
        assert lock.isHeldByCurrentThread() : "shard " + index + " not locked";
        return keyspace;
    }

    /** WATCH and blocked-client registrations of this shard; callers must hold {@link #lock()}. */
    public KeySignals signals() {
        return signals;
    }

    /** The current generation (feed contract §5); callers must hold {@link #lock()}. */
    public long generation() {
        return generation;
    }

    /** The offset the next frame will get; callers must hold {@link #lock()}. */
    public long nextOffset() {
        return nextOffset;
    }

    /** Writes since the last successful save (INFO's {@code rdb_changes_since_last_save}). */
    public long dirty() {
        return dirty;
    }

    /** Forgets {@code saved} writes after a snapshot that covered them succeeded (never below 0). */
    public void subtractDirty(long saved) {
        dirty = Math.max(0, dirty - saved);
    }

    /** Keys removed by expiry since start or CONFIG RESETSTAT (INFO's {@code expired_keys}). */
    public long expiredKeys() {
        return expiredKeys;
    }

    /**
     * Counts a read lookup of a key of this shard for INFO's keyspace_hits / keyspace_misses: a plain counter
     * under the shard lock, cheaper on the hot path than a shared adder. Callers must hold {@link #lock()}.
     */
    public void countLookup(boolean hit) {
        if (hit) {
            keyspaceHits++;
        } else {
            keyspaceMisses++;
        }
    }

    /** Read lookups of this shard's keys that found a live key (a racy read for INFO, any thread). */
    public long keyspaceHits() {
        return keyspaceHits;
    }

    /** Read lookups of this shard's keys that found no live key (a racy read for INFO, any thread). */
    public long keyspaceMisses() {
        return keyspaceMisses;
    }

    /** CONFIG RESETSTAT: clears the statistics counters. Callers must hold {@link #lock()}. */
    public void resetStats() {
        expiredKeys = 0;
        keyspaceHits = 0;
        keyspaceMisses = 0;
    }

    /**
     * Starts a new stream: {@code generation} with offset {@code nextOffset}. Used by FLUSHALL/FLUSHDB and at
     * boot (feed contract §5). Callers must hold {@link #lock()}.
     */
    public void resetStream(long generation, long nextOffset) {
        assert lock.isHeldByCurrentThread();
        this.generation = generation;
        this.nextOffset = nextOffset;
        ended.clear();
        for (EffectListener l : listeners) {
            l.onStreamReset(this, generation, nextOffset);
        }
        for (StreamResetListener l : resetListeners) {
            l.onStreamReset(this, generation, nextOffset);
        }
    }

    /** Adds a listener that receives every frame emitted from now on. */
    public void addListener(EffectListener listener) {
        listeners.add(listener);
    }

    /**
     * Adds a listener told of every new stream from now on, after the effect listeners; it gets no frames, so
     * it costs writes nothing (each effect listener is one more call per frame, and a third kind of listener
     * makes that call site megamorphic for the JIT).
     */
    public void addResetListener(StreamResetListener listener) {
        resetListeners.add(listener);
    }

    public void removeListener(EffectListener listener) {
        listeners.remove(listener);
    }

    /**
     * Records one effect frame (feed contract §7): signals WATCH and blocked clients for its keys, assigns the
     * next offset and passes it to the listeners. Callers must hold {@link #lock()} and must have applied the
     * change already. The frame and its arrays must not be mutated afterwards.
     */
    public void emit(byte[]... frame) {
        emit(null, frame);
    }

    /**
     * As {@link #emit(byte[]...)}, for a frame that is the command whose bytes {@code request} holds (the caller
     * has checked {@link RequestBytes#isFrame}), or null: the first listener then copies those bytes instead of
     * encoding the frame ({@link #encoded}).
     */
    public void emit(RequestBytes request, byte[][] frame) {
        assert lock.isHeldByCurrentThread() : "emit on unlocked shard " + index;
        if (loading) {
            writer = null;
            return; // boot replay: the frame being applied is already on disk with its own offset
        }
        dirty++;
        signals.touched(frame);
        long offset = nextOffset++;
        if (request != null) {
            encoded.publish(request);
        }
        try {
            for (EffectListener l : listeners) {
                l.onEffect(this, offset, frame);
            }
        } finally {
            encoded.clear(); // valid for this frame only
            writer = null;
            if (originCommand != null) {
                originCommand = null; // valid for this frame only
                originArgv = null;
            }
        }
    }

    /**
     * Whether a listener reads {@link #originCommand()}: only then do commands record it ({@code Call.emit}), so
     * without keyspace notifications an emit stores nothing more. Set by that listener; any thread.
     */
    public boolean tracksOrigin() {
        return tracksOrigin;
    }

    public void tracksOrigin(boolean on) {
        this.tracksOrigin = on;
    }

    /**
     * Records which command produces the next frame (its name as in the command table, and its arguments), or
     * {@link #EXPIRED} for an expiry: the event kind a frame does not carry itself ({@code SET k v KEEPTTL} is an
     * INCR's {@code incrby} or a SETRANGE's {@code setrange}; {@code DEL k} an expiry's {@code expired}). Valid for
     * the next {@link #emit} only. Callers must hold {@link #lock()}.
     */
    public void origin(String command, byte[][] argv) {
        this.originCommand = command;
        this.originArgv = argv;
    }

    /**
     * Records the session whose command produces the next frame (client tracking's NOLOOP: a client is not told
     * of its own writes). Valid for the next {@link #emit} only. Callers must hold {@link #lock()}.
     */
    public void writer(Session session) {
        this.writer = session;
    }

    /** The session of the frame being emitted ({@link #writer(Session)}), or null. */
    public Session writer() {
        return writer;
    }

    /** The origin of the frame being emitted (see {@link #origin}); null when not recorded. Under the lock. */
    public String originCommand() {
        return originCommand;
    }

    /** The arguments of {@link #originCommand()}'s command, or null. Under the lock. */
    public byte[][] originArgv() {
        return originArgv;
    }

    /** The {@link #originCommand()} of the {@code DEL} that removes an expired key. */
    public static final String EXPIRED = "(expired)";

    /**
     * The frame being passed to the listeners as RESP bytes, when the command passed its request's bytes or a
     * listener before the caller has written and published them ({@link EncodedEffect}: the feed backlog does,
     * the AOF writer copies them); empty outside
     * {@link EffectListener#onEffect} and {@link EffectListener#onReplay}. Under the lock.
     */
    public EncodedEffect encoded() {
        return encoded;
    }

    /**
     * Enters or leaves loading mode (boot): while loading, frames produced by applying stored data are
     * dropped, not appended or counted; the loader sets the position with {@link #restoreStream} and hands the
     * stored frames to listeners with {@link #replayed}. Callers must hold {@link #lock()}.
     */
    public void loading(boolean loading) {
        this.loading = loading;
    }

    /** Sets the stream position without telling listeners (boot). Callers must hold {@link #lock()}. */
    public void restoreStream(long generation, long nextOffset) {
        this.generation = generation;
        this.nextOffset = nextOffset;
    }

    /** Passes a frame read back from disk to the listeners ({@link EffectListener#onReplay}). Under the lock. */
    public void replayed(long offset, byte[][] frame) {
        try {
            for (EffectListener l : listeners) {
                l.onReplay(this, offset, frame);
            }
        } finally {
            encoded.clear();
        }
    }

    /**
     * Whether this shard mirrors a primary's stream (a replica with the primary's shard count): its frames are
     * the primary's, at the primary's offsets, so an expiry here deletes the key without a frame of its own (the
     * primary's {@code DEL} follows), as a Redis replica leaves expiry to its master. Any thread.
     */
    public boolean mirror() {
        return mirror;
    }

    public void mirror(boolean mirror) {
        this.mirror = mirror;
    }

    /**
     * Continues the stream under a new generation without starting the offsets again: a promoted replica
     * (feed contract, "cursors that survive failover") or a replica following a promoted primary. Frames before
     * {@link #nextOffset()} stay valid: listeners get {@link EffectListener#onGenerationContinued} (the feed
     * backlog keeps its frames and records that {@code generation()} ended here), reset listeners a new stream at
     * the same offset. Callers must hold {@link #lock()}.
     */
    public void continueStream(long newGeneration) {
        assert lock.isHeldByCurrentThread();
        long old = generation;
        this.generation = newGeneration;
        ended.remove(newGeneration); // a generation is an identity: it never comes back, but keep the map honest
        ended.put(old, nextOffset);
        while (ended.size() > MAX_HISTORY) {
            ended.remove(ended.keySet().iterator().next());
        }
        for (EffectListener l : listeners) {
            l.onGenerationContinued(this, old, newGeneration, nextOffset);
        }
        for (StreamResetListener l : resetListeners) {
            l.onStreamReset(this, newGeneration, nextOffset);
        }
    }

    /** The most generations the history keeps (one per promotion followed); the oldest are forgotten. */
    public static final int MAX_HISTORY = 1000;

    /**
     * Where generation {@code g} ended in this stream's history ({@link #continueStream}), or null when
     * {@code g} is not in it. A cursor {@code (g, o)} with {@code o <= end} names a prefix of the current
     * stream. Callers must hold {@link #lock()}.
     */
    public Long generationEnd(long g) {
        return ended.get(g);
    }

    /** The generation history, oldest first: each entry {@code [generation, end offset]}. Under the lock. */
    public java.util.List<long[]> generationHistory() {
        java.util.List<long[]> out = new java.util.ArrayList<>(ended.size());
        ended.forEach((g, e) -> out.add(new long[] {g, e}));
        return out;
    }

    /**
     * Restores a generation history read back from disk (a clean restart, after {@link #restoreStream}), oldest
     * first, without telling listeners; entries ending past the stream's next offset or naming the current
     * generation are dropped (they cannot describe this stream). Callers must hold {@link #lock()}.
     */
    public void restoreHistory(java.util.List<long[]> history) {
        ended.clear();
        for (long[] h : history) {
            if (h[0] != generation && Long.compareUnsigned(h[1], nextOffset) <= 0) {
                ended.put(h[0], h[1]);
            }
        }
        while (ended.size() > MAX_HISTORY) {
            ended.remove(ended.keySet().iterator().next());
        }
    }

    /** Called by the keyspace after it deleted an expired key: emits {@code DEL key}. */
    void expired(byte[] key) {
        expiredKeys++;
        if (mirror) {
            return;
        }
        if (tracksOrigin) {
            origin(EXPIRED, null);
        }
        emit(Verbs.DEL, key);
    }
}
