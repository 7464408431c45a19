package io.kevy.embedded;

import io.kevy.feed.FeedConfig;
import io.kevy.persist.PersistenceConfig;
import java.nio.file.Path;

/**
 * How an embedded {@link Store} is opened. Immutable; start from {@link #defaults()} and use the
 * {@code with*} methods.
 *
 * @param feedEnabled     whether the change feed is kept ({@link Store#changesSince})
 * @param feedBufferBytes the feed backlog budget in bytes (feed contract §3, §6), in [1, 1 GiB]
 * @param hz              active-expiry cycles per second, 1..500 (Redis's {@code hz})
 * @param persistence     where and how the store persists (AOF, snapshots, generation files, exactly as the
 *                        server: feed contract §9), or null for an in-memory store
 */
public record Config(boolean feedEnabled, long feedBufferBytes, int hz, PersistenceConfig persistence) {
    /** Default {@code hz}, as Redis. */
    public static final int DEFAULT_HZ = 10;

    public Config {
        if (feedBufferBytes < 1 || feedBufferBytes > FeedConfig.MAX_BUFFER) {
            throw new IllegalArgumentException("feedBufferBytes must be in [1, " + FeedConfig.MAX_BUFFER + "], got "
                    + feedBufferBytes);
        }
        if (hz < 1 || hz > 500) {
            throw new IllegalArgumentException("hz must be in [1, 500], got " + hz);
        }
    }

    /** The feed off, hz 10, in memory. */
    public static Config defaults() {
        return new Config(false, FeedConfig.DEFAULT_BUFFER, DEFAULT_HZ, null);
    }

    /**
     * The feed on with a backlog of {@code bytes} (feed contract §3): 0 means the 64 MiB default; values above
     * 1 GiB are capped at 1 GiB.
     *
     * @throws IllegalArgumentException when {@code bytes} is negative
     */
    public Config withFeed(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("feed buffer size must not be negative, got " + bytes);
        }
        long b = bytes == 0 ? FeedConfig.DEFAULT_BUFFER : Math.min(bytes, FeedConfig.MAX_BUFFER);
        return new Config(true, b, hz, persistence);
    }

    /** The feed off. */
    public Config withoutFeed() {
        return new Config(false, feedBufferBytes, hz, persistence);
    }

    public Config withHz(int hz) {
        return new Config(feedEnabled, feedBufferBytes, hz, persistence);
    }

    /**
     * Persists to {@code dir} with the server's defaults: AOF with appendfsync everysec, Redis's save rules
     * ({@code aof-0.aof}, {@code dump-0.rdb}, {@code feed-0.gen}, {@code feed-0.meta}). A clean
     * {@link Store#close()} keeps the feed generation for the next open; a crash starts a new one.
     */
    public Config withDataDir(Path dir) {
        return withPersistence(PersistenceConfig.defaults(dir));
    }

    /** Persists as {@code persistence} says; null for an in-memory store. */
    public Config withPersistence(PersistenceConfig persistence) {
        return new Config(feedEnabled, feedBufferBytes, hz, persistence);
    }

    FeedConfig feedConfig() {
        return feedEnabled ? FeedConfig.enabled(feedBufferBytes) : new FeedConfig(false, feedBufferBytes);
    }
}
