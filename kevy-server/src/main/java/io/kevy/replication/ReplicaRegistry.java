package io.kevy.replication;

import io.kevy.engine.Engine;
import io.kevy.engine.Shard;
import io.kevy.engine.session.BlockedClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A primary's view of its replicas: each replica (named by the address it announces, {@code ip:port}) with the
 * cursor it acknowledged per shard ({@code REPLCONF FEED-ACK}) and when; the WAIT commands parked until enough
 * replicas acknowledged. A replica follows each shard over its own connection; it is connected while one of
 * those sessions lives (checked when read, so no disconnect hook is needed).
 *
 * <p>Thread-safe: acknowledgements arrive on any event loop.
 */
final class ReplicaRegistry {
    /** One replica. {@code gens}/{@code offsets} per primary shard, guarded by the object's monitor. */
    static final class Replica {
        final String ip;
        final int port;
        final Set<Long> sessions = ConcurrentHashMap.newKeySet();
        private final long[] gens;
        private final long[] offsets;
        private volatile long lastAckMs;

        Replica(String ip, int port, int shards) {
            this.ip = ip;
            this.port = port;
            this.gens = new long[shards];
            this.offsets = new long[shards];
        }

        synchronized void ack(int shard, long gen, long offset, long nowMs) {
            gens[shard] = gen;
            offsets[shard] = offset;
            lastAckMs = nowMs;
        }

        /** The sum of the acknowledged offsets: INFO's {@code offset=}. */
        synchronized long offset() {
            long sum = 0;
            for (long o : offsets) {
                sum += o;
            }
            return sum;
        }

        /** True when every shard's acknowledged cursor is in {@code target}'s generation and at or past it. */
        synchronized boolean covers(long[] targetGens, long[] targetOffsets) {
            for (int i = 0; i < gens.length; i++) {
                if (targetOffsets[i] == 0) {
                    continue; // nothing written in this generation yet: nothing to acknowledge
                }
                if (gens[i] != targetGens[i] || offsets[i] < targetOffsets[i]) {
                    return false;
                }
            }
            return true;
        }

        long lastAckMs() {
            return lastAckMs;
        }
    }

    private final Engine engine;
    private final Map<String, Replica> replicas = new ConcurrentHashMap<>();
    private final Map<Long, Replica> bySession = new ConcurrentHashMap<>();
    private final Set<BlockedClient> waits = ConcurrentHashMap.newKeySet();

    ReplicaRegistry(Engine engine) {
        this.engine = engine;
    }

    /** {@code REPLCONF listening-port}: session {@code sessionId} is a link of the replica {@code ip:port}. */
    void register(long sessionId, String ip, int port) {
        Replica r = replicas.computeIfAbsent(ip + ":" + port, k -> new Replica(ip, port, engine.shardCount()));
        r.sessions.add(sessionId);
        bySession.put(sessionId, r);
    }

    /** {@code REPLCONF FEED-ACK}; returns false when the session announced no replica. Wakes WAITs. */
    boolean ack(long sessionId, int shard, long gen, long offset) {
        Replica r = bySession.get(sessionId);
        if (r == null) {
            return false;
        }
        r.ack(shard, gen, offset, engine.clock().millis());
        for (BlockedClient b : waits) {
            b.wake();
        }
        return true;
    }

    /** The connected replicas, in the order they first connected (forgets those with no live session). */
    List<Replica> connected() {
        List<Replica> out = new ArrayList<>();
        for (Map.Entry<String, Replica> e : replicas.entrySet()) {
            Replica r = e.getValue();
            r.sessions.removeIf(id -> {
                if (engine.sessions().byId(id) == null) {
                    bySession.remove(id);
                    return true;
                }
                return false;
            });
            if (r.sessions.isEmpty()) {
                replicas.remove(e.getKey(), r);
            } else {
                out.add(r);
            }
        }
        return out;
    }

    /** The primary's current cursor of every shard, each read under its lock: what WAIT waits for. */
    long[][] currentCursors() {
        int n = engine.shardCount();
        long[] gens = new long[n];
        long[] offsets = new long[n];
        for (int i = 0; i < n; i++) {
            Shard s = engine.shard(i);
            s.lock().lock();
            try {
                gens[i] = s.generation();
                offsets[i] = s.nextOffset();
            } finally {
                s.lock().unlock();
            }
        }
        return new long[][] {gens, offsets};
    }

    /**
     * WAIT's target for a session whose last writes left the cursors {@code writes} ({@link
     * io.kevy.engine.session.Session#writeCursors}, null when it never wrote: nothing to wait for, as Redis's
     * {@code c->woff} of 0). A shard whose generation changed since is translated through its generation
     * history (a cursor up to where the old generation ended is the same position in the current one); one whose
     * old generation is gone (FLUSHALL) holds none of those writes any more and needs nothing.
     */
    long[][] target(long[][] writes) {
        int n = engine.shardCount();
        long[] gens = new long[n];
        long[] offsets = new long[n];
        if (writes == null) {
            return new long[][] {gens, offsets};
        }
        for (int i = 0; i < n; i++) {
            if (writes[1][i] == 0) {
                continue;
            }
            Shard s = engine.shard(i);
            s.lock().lock();
            try {
                long g = writes[0][i];
                if (g == s.generation()) {
                    gens[i] = g;
                    offsets[i] = writes[1][i];
                } else {
                    Long end = s.generationEnd(g);
                    if (end != null && Long.compareUnsigned(writes[1][i], end) <= 0) {
                        gens[i] = s.generation();
                        offsets[i] = writes[1][i];
                    }
                }
            } finally {
                s.lock().unlock();
            }
        }
        return new long[][] {gens, offsets};
    }

    /** How many connected replicas acknowledged everything up to {@code target}. */
    int covering(long[][] target) {
        int n = 0;
        for (Replica r : connected()) {
            if (r.covers(target[0], target[1])) {
                n++;
            }
        }
        return n;
    }

    void addWait(BlockedClient b) {
        waits.add(b);
    }

    void removeWait(BlockedClient b) {
        waits.remove(b);
    }
}
