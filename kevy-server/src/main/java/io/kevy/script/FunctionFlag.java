package io.kevy.script;

import java.util.Locale;

/**
 * The flags a library function may declare in {@code redis.register_function{..., flags={...}}}, in Redis 7.0's
 * order ({@code scripts_flags_def}, which FUNCTION LIST follows), matched case-insensitively.
 *
 * <p>What kevy does with them: {@link #NO_WRITES} makes the function read-only (its write calls fail, and only
 * such functions may run from FCALL_RO); a function without it is refused on a read-only replica and while the
 * disk fails, as Redis's {@code scriptPrepareForRun}. {@link #ALLOW_OOM}, {@link #ALLOW_STALE},
 * {@link #NO_CLUSTER} and {@link #ALLOW_CROSS_SLOT_KEYS} are kept and listed (kevy has no maxmemory refusal,
 * stale replica mode or cluster mode for them to change).
 */
enum FunctionFlag {
    NO_WRITES("no-writes"),
    ALLOW_OOM("allow-oom"),
    ALLOW_STALE("allow-stale"),
    NO_CLUSTER("no-cluster"),
    ALLOW_CROSS_SLOT_KEYS("allow-cross-slot-keys");

    private final String redisName;

    FunctionFlag(String redisName) {
        this.redisName = redisName;
    }

    /** The name Redis reads and FUNCTION LIST prints, e.g. {@code no-writes}. */
    String redisName() {
        return redisName;
    }

    /** The flag named {@code name} (any case), or null. */
    static FunctionFlag of(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        for (FunctionFlag f : values()) {
            if (f.redisName.equals(n)) {
                return f;
            }
        }
        return null;
    }
}
