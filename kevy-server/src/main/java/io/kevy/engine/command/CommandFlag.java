package io.kevy.engine.command;

import java.util.Locale;

/**
 * Command flags, named as Redis 7.0's COMMAND reply names them, plus kevy's locking flags (not reported).
 */
public enum CommandFlag {
    WRITE, READONLY, DENYOOM, ADMIN, PUBSUB, NOSCRIPT, BLOCKING, LOADING, STALE, SKIP_MONITOR, SKIP_SLOWLOG,
    FAST, NO_AUTH, MAY_REPLICATE, NO_MANDATORY_KEYS, NO_MULTI, MOVABLEKEYS, ALLOW_BUSY,

    /** kevy: run with every shard locked (FLUSHALL, EXEC, commands whose keys cannot be known up front). */
    ALL_SHARDS,
    /** kevy: run without any shard lock; the handler locks what it needs itself (SCAN, DBSIZE, INFO, ...). */
    NO_LOCK,
    /** kevy: runs a Lua script (EVAL, EVALSHA): on the engine's script thread, off the event loop. */
    RUNS_SCRIPT;

    /** The name COMMAND prints, e.g. {@code "denyoom"}; null for kevy-internal flags. */
    public String redisName() {
        if (this == ALL_SHARDS || this == NO_LOCK || this == RUNS_SCRIPT) {
            return null;
        }
        return name().toLowerCase(Locale.ROOT);
    }
}
