package io.kevy.engine;

import io.kevy.engine.config.AccessPolicy;
import io.kevy.engine.error.CommandException;
import io.kevy.engine.error.Errors;
import io.kevy.engine.struct.Dict;
import io.kevy.engine.struct.InlineStringNode;
import io.kevy.engine.type.RedisValue;
import io.kevy.engine.type.ValueType;
import java.util.IdentityHashMap;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * The keys of one shard: a {@link Dict} from key to value, plus an index of the keys that have a TTL (for
 * active expiry sampling and for counting). Values are {@code byte[]} (strings; never mutated once stored),
 * or the collection types of {@code io.kevy.engine.type}.
 *
 * <p>The expiry time of a key is kept in its node's aux word in ms since the epoch; {@link #NO_EXPIRY} (0)
 * means no TTL (a stored expiry is always in the future, so 0 is never a real one).
 *
 * <p>Lookups expire lazily: a key whose time has passed is deleted on access and its owner {@link Shard}
 * emits {@code DEL key} (feed contract §7), so reads can produce frames.
 *
 * <p>A node's meta word holds, as Redis's {@code robj.lru} does, the access clock: seconds since the epoch
 * modulo 2^24 in its upper 24 bits, set when the key is stored and on every {@link #node} lookup (not on
 * {@link #peek}), for OBJECT IDLETIME. Its low 8 bits are the {@linkplain #encodingHint string encoding hint}.
 *
 * <p><b>Not thread-safe:</b> only used under the owning shard's lock.
 */
public final class Keyspace {
    /** The aux value of a key without TTL. */
    public static final long NO_EXPIRY = 0;

    private final Shard shard;
    private final AccessPolicy access;
    private final Dict<Object> dict = new Dict<>(InlineStringNode::new);
    private final Dict<Dict.Node<Object>> expires = new Dict<>();
    private final SplittableRandom random = new SplittableRandom();
    /** Collection values a snapshot in progress is reading; written only after a copy. Null when none. */
    private IdentityHashMap<Object, Boolean> captured;
    /** Captures in progress (a SAVE and a replica's full sync may overlap); {@link #captured} is their union. */
    private int captures;

    Keyspace(Shard shard) {
        this.shard = shard;
        this.access = shard.engine().accessPolicy();
    }

    /** Number of keys, including expired keys not yet reaped. */
    public int size() {
        return dict.size();
    }

    /** Number of keys with a TTL, including expired keys not yet reaped. */
    public int expiresSize() {
        return expires.size();
    }

    /**
     * Returns the live node of {@code key}, expiring it first when its time is {@code <= now}; or null. Updates
     * the key's access clock (Redis's lookupKey).
     */
    public Dict.Node<Object> node(byte[] key, long now) {
        Dict.Node<Object> n = peek(key, now);
        if (n != null) {
            int meta = n.meta();
            int clock = access.lfu() ? access.touch(meta >>> 8, now) << 8 : lruMeta(now);
            n.meta(clock | (meta & HINT_MASK));
        }
        return n;
    }

    /**
     * As {@link #node} without updating the access clock (Redis's {@code LOOKUP_NOTOUCH}: TYPE, TTL, OBJECT,
     * the type filter of SCAN).
     */
    public Dict.Node<Object> peek(byte[] key, long now) {
        Dict.Node<Object> n = dict.find(key);
        if (n != null && n.aux() != NO_EXPIRY && n.aux() <= now) {
            expire(n);
            return null;
        }
        return n;
    }

    /** Returns the live value of {@code key} or null (lazy expiry as {@link #node}). */
    public Object get(byte[] key, long now) {
        Dict.Node<Object> n = node(key, now);
        return n == null ? null : n.value();
    }

    /**
     * Returns the live value of {@code key} when it has type {@code type}, or null when absent.
     *
     * @throws CommandException {@link Errors#WRONGTYPE} when the key holds another type
     */
    public <T> T get(byte[] key, long now, Class<T> type) {
        Object v = get(key, now);
        if (v == null) {
            return null;
        }
        if (!type.isInstance(v)) {
            throw new CommandException(Errors.WRONGTYPE);
        }
        return type.cast(v);
    }

    /**
     * As {@link #get(byte[], long, Class)}, for a command that will change the value: when a snapshot in
     * progress captured it, the value is replaced in the keyspace by a {@link RedisValue#copy()} first (copy on
     * write), so the snapshot keeps reading the state of its cursor.
     */
    public <T> T valueForWrite(byte[] key, long now, Class<T> type) {
        Dict.Node<Object> n = node(key, now);
        if (n == null) {
            return null;
        }
        Object v = n.value();
        if (!type.isInstance(v)) {
            throw new CommandException(Errors.WRONGTYPE);
        }
        if (captured != null && captured.remove(v) != null) {
            v = ((RedisValue) v).copy();
            n.value(v);
        }
        return type.cast(v);
    }

    /** A consistent copy of the keyspace's entries at one instant, for a snapshot. */
    public record Capture(byte[][] keys, Object[] values, long[] expiries) {
    }

    /**
     * Captures every key, value reference and expiry time (live or not; loaders drop expired keys). Strings are
     * immutable; collection values are marked so that writes copy them first ({@link #valueForWrite}), until
     * every capture begun has ended ({@link #endCapture()}): captures may overlap (a SAVE and a replica's full
     * sync), the marks are their union. Cost: one pass over the keys under the shard lock (the snapshot's pause).
     * Callers hold the shard's lock.
     */
    public Capture beginCapture() {
        int n = dict.size();
        byte[][] keys = new byte[n][];
        Object[] values = new Object[n];
        long[] expiries = new long[n];
        IdentityHashMap<Object, Boolean> marks = captured != null ? captured : new IdentityHashMap<>();
        int[] i = {0};
        dict.forEach(node -> {
            int k = i[0]++;
            keys[k] = node.key();
            Object v = node.value();
            values[k] = v;
            expiries[k] = node.aux();
            if (!(v instanceof byte[])) {
                marks.put(v, Boolean.TRUE);
            }
        });
        captured = marks;
        captures++;
        return new Capture(keys, values, expiries);
    }

    /** Ends one capture: once none is left, values are written in place again. Callers hold the shard's lock. */
    public void endCapture() {
        if (--captures <= 0) {
            captures = 0;
            captured = null;
        }
    }

    /** True when {@code key} is stored, live or expired but not reaped yet (no lazy expiry, no access). */
    public boolean stored(byte[] key) {
        return dict.find(key) != null;
    }

    /**
     * True when {@code key} is stored but its TTL has passed at {@code now}: logically expired, not reaped yet
     * (Redis's {@code keyIsExpired}). Deletes nothing.
     */
    public boolean storedButExpired(byte[] key, long now) {
        Dict.Node<Object> n = dict.find(key);
        return n != null && n.aux() != NO_EXPIRY && n.aux() <= now;
    }

    /** True when {@code key} is live. */
    public boolean exists(byte[] key, long now) {
        return node(key, now) != null;
    }

    /**
     * Stores {@code value} under {@code key}, replacing any value. The TTL is cleared unless {@code keepTtl}
     * (SET semantics). Returns the node.
     */
    public Dict.Node<Object> put(byte[] key, Object value, boolean keepTtl) {
        return put(dict.findOrAdd(key), value, keepTtl);
    }

    /**
     * As {@link #put(byte[], Object, boolean)} for a key the caller has just looked up in this keyspace (under
     * the shard lock, nothing changed since): {@code live} is that lookup's live node ({@link #node} or
     * {@link #peek}), or null when the key is absent, so the write costs no second hash lookup.
     */
    public Dict.Node<Object> put(byte[] key, Dict.Node<Object> live, Object value, boolean keepTtl) {
        return put(live != null ? live : dict.addAbsent(key), value, keepTtl);
    }

    private Dict.Node<Object> put(Dict.Node<Object> n, Object value, boolean keepTtl) {
        byte[] key = n.key();
        boolean overwrite = n.value() != null;
        n.value(value);
        // Under LFU an overwrite keeps the key's counter (Redis's dbOverwrite); the hint is reset either way.
        n.meta(overwrite && access.lfu() ? n.meta() & ~HINT_MASK : newMeta(clockMillis()));
        if (!keepTtl && n.aux() != NO_EXPIRY) {
            n.aux(NO_EXPIRY);
            expires.remove(key);
        }
        return n;
    }

    /** Stores {@code value} under {@code key}, which the caller knows to be absent; no TTL. */
    public Dict.Node<Object> add(byte[] key, Object value) {
        Dict.Node<Object> n = dict.findOrAdd(key);
        n.value(value);
        n.meta(newMeta(clockMillis()));
        if (n.aux() != NO_EXPIRY) {
            n.aux(NO_EXPIRY);
            expires.remove(key);
        }
        return n;
    }

    /** Removes {@code key} (live or not); returns the removed value or null. Emits nothing. */
    public Object remove(byte[] key) {
        Dict.Node<Object> n = dict.remove(key);
        if (n == null) {
            return null;
        }
        if (n.aux() != NO_EXPIRY) {
            expires.remove(key);
        }
        return n.value();
    }

    /** Sets the absolute expiry time (ms) of an existing node; {@code when} must be positive. */
    public void setExpiry(Dict.Node<Object> n, long when) {
        if (n.aux() == NO_EXPIRY) {
            expires.put(n.key(), n);
        }
        n.aux(when);
    }

    /** Removes the TTL of {@code n}; returns true when it had one. */
    public boolean persist(Dict.Node<Object> n) {
        if (n.aux() == NO_EXPIRY) {
            return false;
        }
        n.aux(NO_EXPIRY);
        expires.remove(n.key());
        return true;
    }

    /** The absolute expiry time of {@code n} in ms, or {@link #NO_EXPIRY}. */
    public static long expiry(Dict.Node<Object> n) {
        return n.aux();
    }

    /** Removes every key. Emits nothing (FLUSHALL has no frame, feed contract §5). */
    public void clear() {
        dict.clear();
        expires.clear();
    }

    /** Deletes an expired node and lets the shard emit {@code DEL key}. */
    private void expire(Dict.Node<Object> n) {
        byte[] key = n.key();
        remove(key);
        shard.expired(key);
    }

    /**
     * One SCAN step over the raw table (expired keys included; callers filter with {@link #isLive}).
     *
     * @return the next cursor, 0 when done
     */
    public long scan(long cursor, Consumer<Dict.Node<Object>> action) {
        return dict.scan(cursor, action);
    }

    /** True when {@code n} has no TTL or its TTL is after {@code now}. */
    public static boolean isLive(Dict.Node<Object> n, long now) {
        return n.aux() == NO_EXPIRY || n.aux() > now;
    }

    /** Calls {@code action} for every node, live or not. The action must not add or remove keys. */
    public void forEach(Consumer<Dict.Node<Object>> action) {
        dict.forEach(action);
    }

    /**
     * A random live key, or null when there is none. Expired samples are deleted on the way (each emits
     * {@code DEL key}), as Redis's {@code dbRandomKey} does on a master, so the loop ends: every round either
     * returns a key or removes one.
     */
    public byte[] randomKey(long now) {
        while (dict.size() > 0) {
            Dict.Node<Object> n = dict.randomNode(random);
            if (isLive(n, now)) {
                return n.key();
            }
            expire(n);
        }
        return null;
    }

    /**
     * One active-expiry pass (Redis's activeExpireCycle): samples up to {@code sample} keys with a TTL and
     * deletes the expired ones; repeats while more than a quarter of a sample was expired and the deadline
     * (System.nanoTime) has not passed.
     *
     * @return number of keys expired
     */
    public int activeExpire(long now, int sample, long deadlineNanos) {
        int expired = 0;
        while (expires.size() > 0) {
            int hits = 0;
            int n = Math.min(sample, expires.size());
            for (int i = 0; i < n; i++) {
                Dict.Node<Dict.Node<Object>> e = expires.randomNode(random);
                if (e == null) {
                    break;
                }
                Dict.Node<Object> node = e.value();
                if (node.aux() != NO_EXPIRY && node.aux() <= now) {
                    expire(node);
                    hits++;
                }
            }
            expired += hits;
            if (hits * 4 <= n || System.nanoTime() >= deadlineNanos) {
                break;
            }
        }
        return expired;
    }

    /** Moves some buckets of ongoing rehashes (called from the shard's cron). */
    public void rehashSteps(int steps) {
        dict.rehashSteps(steps);
        expires.rehashSteps(steps);
    }

    /** Low bits of the meta word: the string encoding hint. */
    private static final int HINT_MASK = 0xff;
    /** Redis's LRU_CLOCK_MAX: the access clock wraps at 2^24 seconds. */
    private static final int LRU_CLOCK_MAX = (1 << 24) - 1;

    /**
     * The string encoding hint of {@code n}: 0 (the default, set whenever a value is stored) means "as the bytes
     * say", other values are owned by the string commands (a string Redis keeps {@code raw} after APPEND, ...).
     */
    public static int encodingHint(Dict.Node<Object> n) {
        return n.meta() & HINT_MASK;
    }

    /** Sets the string encoding hint (0..255) of {@code n}; see {@link #encodingHint}. */
    public static void encodingHint(Dict.Node<Object> n, int hint) {
        n.meta((n.meta() & ~HINT_MASK) | (hint & HINT_MASK));
    }

    /**
     * Milliseconds since {@code n} was last stored or looked up, at one-second resolution, as Redis's
     * {@code estimateObjectIdleTime} (the 24-bit clock wraps after 194 days).
     */
    public static long idleMillis(Dict.Node<Object> n, long now) {
        int clock = lruClock(now);
        int lru = n.meta() >>> 8;
        long secs = clock >= lru ? clock - lru : clock + (LRU_CLOCK_MAX - lru);
        return secs * 1000;
    }

    /**
     * Sets the access clock of {@code n} to {@code idleSeconds} before {@code now} (RESTORE ... IDLETIME, as
     * Redis's {@code objectSetLRUOrLFU}: clamped to the clock's range).
     */
    public static void idleFor(Dict.Node<Object> n, long now, long idleSeconds) {
        long clock = lruClock(now);
        long idle = Math.min(idleSeconds, LRU_CLOCK_MAX);
        long lru = clock >= idle ? clock - idle : LRU_CLOCK_MAX - (idle - clock);
        n.meta(((int) lru << 8) | (n.meta() & HINT_MASK));
    }

    /** Copies the access clock and the encoding hint of {@code from} to {@code to} (RENAME moves the object). */
    public static void copyMeta(Dict.Node<Object> from, Dict.Node<Object> to) {
        to.meta(from.meta());
    }

    private static int lruClock(long nowMillis) {
        return (int) ((nowMillis / 1000) & LRU_CLOCK_MAX);
    }

    /** The access word of a key stored now: the LRU clock, or under LFU a fresh counter. */
    private int newMeta(long nowMillis) {
        return access.lfu() ? AccessPolicy.lfuInit(nowMillis) << 8 : lruMeta(nowMillis);
    }

    /** The LFU counter of {@code n} decayed to {@code now} (OBJECT FREQ under an LFU policy). */
    public int lfuCounter(Dict.Node<Object> n, long now) {
        return access.counter(n.meta() >>> 8, now);
    }

    /** Sets the LFU counter of {@code n} (RESTORE ... FREQ under an LFU policy). */
    public static void lfuCounter(Dict.Node<Object> n, long now, int counter) {
        n.meta(AccessPolicy.lfuWord(now, counter) << 8 | (n.meta() & HINT_MASK));
    }

    private static int lruMeta(long nowMillis) {
        return lruClock(nowMillis) << 8;
    }

    private long clockMillis() {
        return shard.engine().clock().millis();
    }

    /** The TYPE of a stored value. */
    public static ValueType typeOf(Object value) {
        if (value instanceof byte[]) {
            return ValueType.STRING;
        }
        if (value instanceof io.kevy.engine.type.RedisValue rv) {
            return rv.type();
        }
        throw new IllegalStateException("unknown value class " + value.getClass());
    }
}
