package io.kevy.engine;

/**
 * What an {@link Engine} is built with. Immutable; use the {@code with*} methods.
 *
 * @param shards   number of shards, at least 1 (feed contract §2)
 * @param clock    the wall clock for TTLs and time replies
 * @param hz       active-expiry and rehash cycles per second (Redis's {@code hz}), 1..500
 */
public record EngineConfig(int shards, Clock clock, int hz) {
    /** Default {@code hz}, as Redis. */
    public static final int DEFAULT_HZ = 10;

    public EngineConfig {
        if (shards < 1 || shards > 1024) {
            throw new IllegalArgumentException("shards must be in [1, 1024], got " + shards);
        }
        if (clock == null) {
            throw new IllegalArgumentException("clock must not be null");
        }
        if (hz < 1 || hz > 500) {
            throw new IllegalArgumentException("hz must be in [1, 500], got " + hz);
        }
    }

    /** One shard per available processor, the system clock, hz 10. */
    public static EngineConfig defaults() {
        return new EngineConfig(Runtime.getRuntime().availableProcessors(), Clock.system(), DEFAULT_HZ);
    }

    public EngineConfig withShards(int shards) {
        return new EngineConfig(shards, clock, hz);
    }

    public EngineConfig withClock(Clock clock) {
        return new EngineConfig(shards, clock, hz);
    }

    public EngineConfig withHz(int hz) {
        return new EngineConfig(shards, clock, hz);
    }
}
