package io.kevy.feed;

import io.kevy.engine.DurableBound;
import io.kevy.engine.Engine;
import io.kevy.engine.Keyspace;
import io.kevy.engine.Shard;
import io.kevy.engine.text.Bytes;

/**
 * An engine's change feed (feed contract §3-§8): whether it is on, one {@link FeedBacklog} per shard when it
 * is, and the operations FEED.TAIL, FEED.READ and PREFIX.STATS share with the embedded store.
 *
 * <p>Thread-safe. The backlogs are attached when the engine is built, before any frame is emitted, so every
 * frame of the current generations goes through them.
 */
public final class Feed {
    /** The default FEED.READ COUNT and the smallest and largest allowed (§4). */
    public static final int DEFAULT_COUNT = 256;
    public static final int MIN_COUNT = 1;
    public static final int MAX_COUNT = 4096;

    private final Engine engine;
    private final FeedConfig config;
    private final FeedBacklog[] backlogs;

    /** Builds the feed of {@code engine}; when enabled, attaches a backlog to every shard. */
    public Feed(Engine engine, FeedConfig config) {
        this.engine = engine;
        this.config = config;
        if (config.enabled()) {
            backlogs = new FeedBacklog[engine.shardCount()];
            for (int i = 0; i < backlogs.length; i++) {
                Shard s = engine.shard(i);
                backlogs[i] = new FeedBacklog(s, config.bufferBytes());
                s.addListener(backlogs[i]);
            }
        } else {
            backlogs = null;
        }
    }

    public FeedConfig config() {
        return config;
    }

    public boolean enabled() {
        return backlogs != null;
    }

    /** The number of shards (streams): FEED.SHARDS. */
    public int shards() {
        return engine.shardCount();
    }

    /**
     * The backlog of shard {@code index}.
     *
     * @throws IllegalStateException when the feed is disabled
     */
    public FeedBacklog backlog(int index) {
        if (backlogs == null) {
            throw new IllegalStateException("feed disabled");
        }
        return backlogs[index];
    }

    /** Clamps a requested COUNT / limit to [{@value #MIN_COUNT}, {@value #MAX_COUNT}] (§4, §9). */
    public static int clampCount(long requested) {
        if (requested < MIN_COUNT) {
            return MIN_COUNT;
        }
        return (int) Math.min(requested, MAX_COUNT);
    }

    /**
     * The cursor a fresh consumer of shard {@code index} starts from: the current generation and next offset
     * (FEED.TAIL). Works with the feed disabled too; callers check {@link #enabled()} where the contract says.
     */
    public FeedCursor tail(int index) {
        Shard s = engine.shard(index);
        s.lock().lock();
        try {
            return new FeedCursor(s.generation(), s.nextOffset());
        } finally {
            s.lock().unlock();
        }
    }

    /**
     * Starts a read of shard {@code index} from {@code (generation, offset)} scanning at most {@code count}
     * frames (already clamped) through {@code filter}.
     *
     * @throws IllegalStateException when the feed is disabled
     */
    public FeedRead open(int index, long generation, long offset, int count, PrefixFilter filter) {
        return open(index, generation, offset, count, filter, null);
    }

    /**
     * As above; with {@code durable} non-null (FEED.READ DURABLE) only frames below its bound are served.
     *
     * @throws IllegalStateException when the feed is disabled
     */
    public FeedRead open(int index, long generation, long offset, int count, PrefixFilter filter,
                         DurableBound durable) {
        return new FeedRead(backlog(index), generation, offset, count, filter, durable);
    }

    /**
     * Live keys starting with {@code prefix} across all shards, and how many of them have a TTL
     * (PREFIX.STATS, §4): expired keys not yet reaped are not counted. Locks one shard at a time; O(keys).
     */
    public PrefixStats prefixStats(byte[] prefix) {
        long now = engine.clock().millis();
        long keys = 0;
        long expires = 0;
        for (int i = 0; i < engine.shardCount(); i++) {
            Shard s = engine.shard(i);
            long[] counts = new long[2];
            s.lock().lock();
            try {
                s.keyspace().forEach(n -> {
                    if (Keyspace.isLive(n, now) && Bytes.startsWith(n.key(), prefix)) {
                        counts[0]++;
                        if (Keyspace.expiry(n) != Keyspace.NO_EXPIRY) {
                            counts[1]++;
                        }
                    }
                });
            } finally {
                s.lock().unlock();
            }
            keys += counts[0];
            expires += counts[1];
        }
        return new PrefixStats(keys, expires);
    }

    /**
     * PREFIX.STATS figures.
     *
     * @param keys    live keys under the prefix
     * @param expires how many of them have a TTL
     */
    public record PrefixStats(long keys, long expires) {
    }

    /**
     * Writes INFO's {@code feed} section: {@code feed_enabled}, {@code feed_buffer_size} and, when enabled,
     * one {@code feed_shard<i>:generation=..,next_offset=..,oldest_offset=..,backlog_frames=..,backlog_bytes=..,
     * budget=..,frames_evicted=..,readers_blocked=..} line per shard (each shard locked in turn).
     */
    public void writeInfo(StringBuilder out) {
        out.append("feed_enabled:").append(enabled() ? 1 : 0).append("\r\n");
        out.append("feed_buffer_size:").append(config.bufferBytes()).append("\r\n");
        out.append("feed_shards:").append(shards()).append("\r\n");
        if (backlogs == null) {
            return;
        }
        for (int i = 0; i < backlogs.length; i++) {
            FeedBacklog.Stats st = backlogs[i].stats();
            out.append("feed_shard").append(i).append(":generation=").append(st.generation())
                    .append(",next_offset=").append(st.nextOffset())
                    .append(",oldest_offset=").append(st.oldestOffset())
                    .append(",backlog_frames=").append(st.frames())
                    .append(",backlog_bytes=").append(st.bytes())
                    .append(",budget=").append(st.budget())
                    .append(",frames_evicted=").append(st.framesEvicted())
                    .append(",readers_blocked=").append(st.readersBlocked())
                    .append("\r\n");
        }
    }
}
