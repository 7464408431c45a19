package io.kevy.pubsub;

import io.kevy.engine.EffectListener;
import io.kevy.engine.Engine;
import io.kevy.engine.config.RedisConfigCatalog;
import io.kevy.engine.config.RuntimeConfig;
import io.kevy.engine.Shard;
import java.nio.charset.StandardCharsets;

/**
 * Keyspace notifications ({@code notify-keyspace-events}, Redis 7.0's {@code notify.c}), derived from the
 * effect frames the feed and the AOF get, so the three cannot disagree: an {@link EffectListener} on every
 * shard while notifications are on, removed while they are off (a write then pays nothing for them).
 *
 * <p>The event of a frame is named by {@link EventNames} from the frame and the command that produced it
 * ({@link Shard#originCommand()}), which each emit records only while this listener is attached. Messages are
 * published under the shard lock, which {@link PubSub#publish} allows: it only queues them for the subscribers'
 * own threads.
 *
 * <p>Thread-safe: {@link #configure} is synchronized; the listener runs under each shard's lock.
 */
public final class KeyspaceNotifier implements EffectListener {
    private static final byte[] KEYSPACE_PREFIX = "__keyspace@0__:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KEYEVENT_PREFIX = "__keyevent@0__:".getBytes(StandardCharsets.US_ASCII);

    private final Engine engine;
    private final PubSub pubsub;
    private volatile int flags;
    private volatile String value = "";
    private boolean attached;

    private KeyspaceNotifier(Engine engine, PubSub pubsub) {
        this.engine = engine;
        this.pubsub = pubsub;
    }

    /**
     * Registers {@code notify-keyspace-events} in {@code engine}'s runtime config (CONFIG SET/GET, and the
     * server's TOML option through it) with Redis's default, off; events are published on {@code pubsub}.
     */
    public static KeyspaceNotifier register(Engine engine, PubSub pubsub) {
        KeyspaceNotifier n = new KeyspaceNotifier(engine, pubsub);
        RuntimeConfig rc = engine.runtimeConfig();
        rc.parsed("notify-keyspace-events", n::value, RedisConfigCatalog::normalizeKeyspaceEvents,
                n::configure);
        return n;
    }

    /** The canonical value CONFIG GET prints ({@code ""} when off). */
    public String value() {
        return value;
    }

    /** Applies a canonical value: attaches to the shards when it publishes anything, detaches when not. */
    public synchronized void configure(String canonical) {
        int f = KeyspaceEvents.parse(canonical);
        value = canonical;
        flags = f;
        boolean on = KeyspaceEvents.active(f);
        if (on == attached) {
            return;
        }
        attached = on;
        // no shard lock: the listener lists are copy-on-write, and CONFIG SET's caller may hold the config's
        // monitor, which a command under a shard lock could want too. A frame emitted meanwhile is named from
        // the frame alone (no origin yet), or not notified: the switch is not atomic with writes, as in Redis.
        for (int i = 0; i < engine.shardCount(); i++) {
            Shard s = engine.shard(i);
            if (on) {
                s.tracksOrigin(true);
                s.addListener(this);
            } else {
                s.removeListener(this);
                s.tracksOrigin(false);
            }
        }
    }

    @Override
    public void onEffect(Shard shard, long offset, byte[][] frame) {
        if (pubsub.idle()) {
            return; // nobody subscribed to anything: no event can reach anyone
        }
        int f = flags;
        EventNames.derive(shard, frame, (type, event, key) -> {
            if ((f & type) != 0) {
                notify(pubsub, f, event, key);
            }
        });
    }

    /** Redis's {@code notifyKeyspaceEvent} once the class is known to be on. */
    private static void notify(PubSub pubsub, int f, String event, byte[] key) {
        byte[] ev = event.getBytes(StandardCharsets.US_ASCII);
        if ((f & KeyspaceEvents.KEYSPACE) != 0) {
            pubsub.publish(concat(KEYSPACE_PREFIX, key), ev);
        }
        if ((f & KeyspaceEvents.KEYEVENT) != 0) {
            pubsub.publish(concat(KEYEVENT_PREFIX, ev), key);
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
