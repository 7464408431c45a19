package io.kevy.feed.client;

import java.util.Locale;

/**
 * What a {@link Change} did. Our server's effect frames (feed contract §7) map to exactly one op each, with
 * the new content in the change ({@link Change#exact()} true). Upstream kevy sends commands verbatim: those
 * map to the op of their effect family, and where the frame cannot say the result (INCR, SPOP, ZADD INCR,
 * EVAL ...) {@link Change#exact()} is false and only the keys are reliable.
 */
public enum Op {
    /** A string value set ({@code SET k v [PXAT t | KEEPTTL]}; upstream also SETEX, SETNX, GETSET ...). */
    SET,
    /** Several strings set ({@code MSET k v ...}; a fail-open frame). */
    MSET,
    /** A counter changed without its new value in the frame (upstream INCR, HINCRBY, ZINCRBY ...). */
    INCR,
    /** Keys removed ({@code DEL k ...}; ours also for expiries, evictions and past-time expires). */
    DEL,
    /** A TTL set ({@code PEXPIREAT k t}; upstream also relative EXPIRE/PEXPIRE, GETEX). */
    EXPIRE,
    /** A TTL removed. */
    PERSIST,
    /** {@code RENAME src dst} (keys: src, dst). */
    RENAME,
    /** Hash fields set. */
    HSET,
    /** Hash fields removed. */
    HDEL,
    LPUSH, RPUSH,
    /** {@code LPOP k n}: n elements popped from the head. */
    LPOP,
    /** {@code RPOP k n}: n elements popped from the tail. */
    RPOP,
    LSET, LINSERT, LREM, LTRIM,
    /** Upstream list moves (LMOVE, RPOPLPUSH, BLMOVE, BRPOPLPUSH); ours split them into a pop and a push. */
    LMOVE,
    SADD, SREM,
    /** Upstream {@code SMOVE src dst m}; ours sends SREM + SADD. */
    SMOVE,
    ZADD, ZREM,
    /**
     * A stream entry added: ours {@code XADD k [MAXLEN = n] <assigned id> f v ...} ({@link Change#streamIds()}
     * the id, {@link Change#fields()} the fields, {@link Change#count()} the length after a trim); upstream's
     * {@code XADD k * ...} is the command as sent (no id, {@link Change#exact()} false).
     */
    XADD,
    /** Stream entries trimmed: ours {@code XTRIM k MAXLEN = <length after>} ({@link Change#count()}). */
    XTRIM,
    /** Stream entries deleted: {@code XDEL k id ...} ({@link Change#streamIds()}). */
    XDEL,
    /** A stream's last id and counters set: {@code XSETID k id [ENTRIESADDED n] [MAXDELETEDID id]}. */
    XSETID,
    /** A consumer-group change: {@code XGROUP CREATE|SETID|DESTROY|CREATECONSUMER|DELCONSUMER k g ...}. */
    XGROUP,
    /**
     * Pending entries delivered or claimed: ours {@code XCLAIM k g c 0 <id> TIME ms RETRYCOUNT n FORCE JUSTID};
     * upstream's XREADGROUP, XCLAIM and XAUTOCLAIM as sent ({@link Change#exact()} false).
     */
    XCLAIM,
    /** Pending entries acknowledged: {@code XACK k g id ...}. */
    XACK,
    /** Upstream {@code *STORE} commands, COPY, BITOP (key: the destination); ours send DEL + rebuild frames. */
    STORE,
    /** Upstream FLUSHALL/FLUSHDB (ours emit no frame: a FEEDRESYNC follows instead). */
    FLUSH,
    /** Upstream scripts and functions (EVAL, EVALSHA, FCALL); keys are the declared ones. */
    EVAL,
    /** A rebuild's entry: the key's whole value and TTL as read ({@link Change#valueType()} says its type). */
    SNAPSHOT,
    /** A rebuild's sweep: the key the handler held is gone from the server; delete it. */
    VANISHED,
    /** Any other frame; {@link Change#keys()} is argv[1] when present, by convention. */
    OTHER;

    /** The lower-case name used in envelopes ({@code io.kevy.change.set}). */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
