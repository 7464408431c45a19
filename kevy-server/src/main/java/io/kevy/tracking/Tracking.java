package io.kevy.tracking;

import io.kevy.engine.EffectListener;
import io.kevy.engine.Engine;
import io.kevy.engine.KeyTracking;
import io.kevy.engine.Shard;
import io.kevy.engine.session.Session;
import io.kevy.engine.session.Sessions;
import io.kevy.engine.session.TrackingState;
import io.kevy.engine.text.Bytes;
import io.kevy.resp.FrameKeys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Client-side caching's server side (Redis 7.0's {@code tracking.c}), driven by the effect frames: an
 * {@link EffectListener} on every shard while some client tracks, so a key is invalidated exactly when the feed and the AOF see it
 * change (a write, an expiry's {@code DEL}, a FLUSHALL's new stream), and by no second write path.
 * <ul>
 *   <li><b>Default mode.</b> The dispatcher reports the keys of each read-only command a tracking client runs
 *       ({@link #remember}, under the key's shard lock); the next frame naming such a key sends each client that
 *       read it one invalidation {@code [key]} and forgets the key. NOLOOP: not to the client whose command
 *       wrote it.</li>
 *   <li><b>BCAST.</b> Every frame's keys that start with a registered prefix go, as one message per prefix and
 *       frame (keys distinct, in byte order), to that prefix's clients; NOLOOP ones skip their own writes.
 *       Redis gathers a prefix's keys over one event-loop cycle instead, so several pipelined writes may be one
 *       Redis message and several kevy messages.</li>
 *   <li><b>Flush.</b> FLUSHALL/FLUSHDB: every tracking client gets one null invalidation ("every key"), and the
 *       table is emptied.</li>
 *   <li><b>{@code tracking-table-max-keys}</b> (default 1000000, 0 = no limit): after a read makes the table
 *       larger than the limit, the oldest keys of that shard are evicted, each sending its clients an
 *       invalidation as if it had changed (Redis evicts random keys, before the next command).</li>
 * </ul>
 * Invalidations are delivered through {@link InvalidationTargets} (RESP2: the redirect client's Pub/Sub queue),
 * never written under the lock; one for the connection whose own command caused it follows that command's reply
 * ({@link PushInvalidation}), as in Redis.
 *
 * <p>Thread-safe: each shard's table is used under that shard's lock; modes change under this object's monitor.
 */
public final class Tracking implements KeyTracking, EffectListener {
    private final Sessions sessions;
    private final TrackingTable[] tables;
    private final PrefixRegistry prefixes = new PrefixRegistry();
    private final AtomicInteger clients = new AtomicInteger();
    private final AtomicLong totalKeys = new AtomicLong();
    private final AtomicLong totalItems = new AtomicLong();
    private volatile long maxKeys = 1_000_000;
    private final Engine engine;

    private Tracking(Engine engine) {
        this.engine = engine;
        this.sessions = engine.sessions();
        this.tables = new TrackingTable[engine.shardCount()];
        for (int i = 0; i < tables.length; i++) {
            tables[i] = new TrackingTable(totalKeys, totalItems);
        }
    }

    /**
     * Creates the tracking of {@code engine}: registers {@code tracking-table-max-keys} in its runtime config,
     * listens to closed sessions, and attaches to the engine ({@link Engine#tracking()}). It listens to the
     * shards' frames only while some client tracks (as keyspace notifications do while on), so a write pays
     * nothing for it otherwise; a flush meanwhile still empties the tables (a reset listener, which costs
     * writes nothing).
     */
    public static Tracking attach(Engine engine) {
        Tracking t = new Tracking(engine);
        engine.runtimeConfig().integer("tracking-table-max-keys", 0, Long.MAX_VALUE, () -> t.maxKeys,
                v -> t.maxKeys = v);
        engine.sessions().onClose(t::disable);
        for (int i = 0; i < engine.shardCount(); i++) {
            engine.shard(i).addResetListener(t::flushedWhileIdle);
        }
        engine.tracking(t);
        return t;
    }

    @Override
    public synchronized void enable(Session session, TrackingState state) {
        if (sessions.byId(session.id()) != session) {
            return; // closed meanwhile (CLIENT KILL): nothing to track for
        }
        TrackingState old = session.tracking();
        if (old == null && clients.getAndIncrement() == 0) {
            listen(true);
        } else if (old != null && old.bcast()) {
            prefixes.remove(session, old.prefixes());
        }
        if (state.bcast()) {
            prefixes.add(session, state.prefixes());
        }
        session.tracking(state);
    }

    @Override
    public synchronized void disable(Session session) {
        TrackingState old = session.tracking();
        if (old == null) {
            return;
        }
        if (old.bcast()) {
            prefixes.remove(session, old.prefixes());
        }
        session.tracking(null);
        if (clients.decrementAndGet() == 0) {
            listen(false);
        }
    }

    /**
     * Adds this listener to every shard or removes it, without their locks (the lists are copy-on-write; the
     * caller may run inside EXEC holding some shard locks). A client's reads are remembered only after its
     * CLIENT TRACKING ON returned, so after the listener is in place.
     */
    private void listen(boolean on) {
        for (int i = 0; i < engine.shardCount(); i++) {
            if (on) {
                engine.shard(i).addListener(this);
            } else {
                engine.shard(i).removeListener(this);
            }
        }
    }

    @Override
    public void remember(Session session, Shard shard, byte[] key) {
        // held by the command that read it; taken here (reentrantly) for a command that locks nothing itself
        shard.lock().lock();
        try {
            TrackingTable table = tables[shard.index()];
            table.add(key, session.id());
            long max = maxKeys;
            if (max == 0 || totalKeys.get() <= max) {
                return;
            }
            @SuppressWarnings("unchecked")
            Map.Entry<Bytes, Set<Long>>[] evicted = new Map.Entry[1];
            while (totalKeys.get() > max && table.removeOldest(evicted)) {
                invalidate(evicted[0].getValue(), evicted[0].getKey().array(), session);
            }
        } finally {
            shard.lock().unlock();
        }
    }

    @Override
    public void onEffect(Shard shard, long offset, byte[][] frame) {
        if (clients.get() == 0) {
            return;
        }
        TrackingTable table = tables[shard.index()];
        PrefixRegistry.Prefix[] bcast = prefixes.snapshot();
        if (table.isEmpty() && bcast.length == 0) {
            return;
        }
        Session writer = shard.writer();
        List<byte[]> keys = new ArrayList<>(2);
        FrameKeys.forEach(frame, keys::add);
        for (byte[] key : keys) {
            Set<Long> ids = table.remove(key);
            if (ids != null) {
                invalidate(ids, key, writer);
            }
        }
        if (bcast.length > 0) {
            broadcast(bcast, keys, writer);
        }
    }

    /** Sends {@code [key]} to each client of {@code ids} still tracking in default mode, but not a NOLOOP writer. */
    private void invalidate(Set<Long> ids, byte[] key, Session writer) {
        List<byte[]> one = List.of(key);
        for (long id : ids) {
            Session s = sessions.byId(id);
            TrackingState t = s == null ? null : s.tracking();
            if (t == null || t.bcast() || (t.noloop() && s == writer)) {
                continue; // gone, off, switched to BCAST since it read the key, or its own write under NOLOOP
            }
            send(s, t, one, false);
        }
    }

    /** BCAST: for each prefix some of {@code keys} match, one message of those keys to each of its clients. */
    private void broadcast(PrefixRegistry.Prefix[] bcast, List<byte[]> keys, Session writer) {
        for (PrefixRegistry.Prefix p : bcast) {
            List<byte[]> matching = null;
            for (byte[] key : keys) {
                if (p.matches(key)) {
                    if (matching == null) {
                        matching = new ArrayList<>(keys.size());
                    }
                    matching.add(key);
                }
            }
            if (matching == null) {
                continue;
            }
            List<byte[]> distinct = distinctSorted(matching);
            for (Session s : p.clients()) {
                TrackingState t = s.tracking();
                if (t == null || (t.noloop() && s == writer)) {
                    continue;
                }
                send(s, t, distinct, true);
            }
        }
    }

    /** The keys in byte order without repeats (Redis collects them in a rax). */
    private static List<byte[]> distinctSorted(List<byte[]> keys) {
        if (keys.size() == 1) {
            return keys;
        }
        keys.sort(Arrays::compareUnsigned);
        List<byte[]> out = new ArrayList<>(keys.size());
        for (byte[] k : keys) {
            if (out.isEmpty() || !Arrays.equals(out.get(out.size() - 1), k)) {
                out.add(k);
            }
        }
        return out;
    }

    private void send(Session client, TrackingState state, List<byte[]> keys, boolean broadcast) {
        InvalidationTarget target = InvalidationTargets.of(sessions, client, state);
        if (target == null) {
            return;
        }
        if (broadcast) {
            target.deliverBroadcast(keys);
        } else {
            target.deliver(keys);
        }
    }

    /** FLUSHALL/FLUSHDB (every shard starts a new stream, shard 0 first): one null invalidation per client. */
    @Override
    public void onStreamReset(Shard shard, long generation, long nextOffset) {
        tables[shard.index()].clear();
        if (shard.index() != 0 || clients.get() == 0) {
            return;
        }
        for (Session s : sessions.list()) {
            TrackingState t = s.tracking();
            if (t != null) {
                send(s, t, null, false);
            }
        }
    }

    /** A flush while no client tracks (the effect listener is detached): nobody to tell, the table is emptied. */
    private void flushedWhileIdle(Shard shard, long generation, long nextOffset) {
        if (clients.get() == 0) {
            tables[shard.index()].clear();
        }
    }

    /** A promotion or a followed failover keeps the data: nothing is invalid. */
    @Override
    public void onGenerationContinued(Shard shard, long oldGeneration, long newGeneration, long nextOffset) {
    }

    @Override
    public int clients() {
        return clients.get();
    }

    @Override
    public long keys() {
        return totalKeys.get();
    }

    @Override
    public long items() {
        return totalItems.get();
    }

    @Override
    public long prefixes() {
        return prefixes.size();
    }
}
