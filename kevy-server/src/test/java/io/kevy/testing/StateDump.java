package io.kevy.testing;

import io.kevy.engine.Engine;
import io.kevy.engine.Keyspace;
import io.kevy.engine.Shard;
import io.kevy.engine.type.HashValue;
import io.kevy.engine.type.ListValue;
import io.kevy.engine.type.SetValue;
import io.kevy.engine.type.ZSetValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A comparable picture of an engine's whole state: key → type, value (lists in order; sets, hashes and sorted
 * sets sorted) and expiry time. Two engines with equal dumps hold the same data (the completeness invariant of feed
 * contract §7 is checked by replaying one's frames into the other and comparing dumps).
 */
public final class StateDump {
    private StateDump() {
    }

    /** Every live-or-not key of every shard, locking each shard while it is read. */
    public static Map<String, String> of(Engine engine) {
        return of(engine, Long.MIN_VALUE);
    }

    /**
     * Every key of every shard that is live at {@code nowMs} (ms since the epoch), locking each shard while it is
     * read: two engines compared at the same instant agree on which keys have expired, whatever either has
     * reaped already.
     */
    public static Map<String, String> live(Engine engine, long nowMs) {
        return of(engine, nowMs);
    }

    private static Map<String, String> of(Engine engine, long nowMs) {
        Map<String, String> out = new TreeMap<>();
        for (int i = 0; i < engine.shardCount(); i++) {
            Shard s = engine.shard(i);
            s.lock().lock();
            try {
                s.keyspace().forEach(n -> {
                    if (nowMs == Long.MIN_VALUE || Keyspace.isLive(n, nowMs)) {
                        out.put(str(n.key()), describe(n.value())
                                + (Keyspace.expiry(n) == Keyspace.NO_EXPIRY ? "" : " PXAT " + Keyspace.expiry(n)));
                    }
                });
            } finally {
                s.lock().unlock();
            }
        }
        return out;
    }

    /** The OBJECT ENCODING of {@code key}'s value, or null when absent. */
    public static String encoding(Engine engine, String key) {
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        Shard s = engine.shardFor(k);
        s.lock().lock();
        try {
            Object v = s.keyspace().get(k, engine.clock().millis());
            if (v == null) {
                return null;
            }
            return v instanceof io.kevy.engine.type.RedisValue rv ? rv.encoding() : "string";
        } finally {
            s.lock().unlock();
        }
    }

    /** The first key named {@code prefix<n>} (n = 0, 1, ...) that lives on {@code shard}. */
    public static String keyOnShard(Engine engine, String prefix, int shard) {
        for (int i = 0; ; i++) {
            String k = prefix + i;
            if (engine.shardIndex(k.getBytes(StandardCharsets.UTF_8)) == shard) {
                return k;
            }
        }
    }

    private static String describe(Object v) {
        if (v instanceof byte[] b) {
            return "string " + str(b);
        }
        if (v instanceof ListValue l) {
            List<String> e = new ArrayList<>();
            l.forEach(b -> e.add(str(b)));
            return "list " + e;
        }
        if (v instanceof SetValue set) {
            List<String> e = new ArrayList<>();
            set.forEach(b -> e.add(str(b)));
            e.sort(null);
            return "set " + e;
        }
        if (v instanceof HashValue h) {
            Map<String, String> e = new TreeMap<>();
            h.forEach((f, val) -> e.put(str(f), str(val)));
            return "hash " + e;
        }
        if (v instanceof ZSetValue z) {
            Map<String, String> e = new TreeMap<>();
            z.rebuild(new byte[0], frame -> {
                for (int i = 2; i + 1 < frame.length; i += 2) {
                    e.put(str(frame[i + 1]), str(frame[i]));
                }
            });
            return "zset " + e;
        }
        return v.getClass().getSimpleName() + " " + v;
    }

    private static String str(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }
}
