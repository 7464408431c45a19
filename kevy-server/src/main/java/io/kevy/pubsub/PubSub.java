package io.kevy.pubsub;

import io.kevy.engine.ChannelCounts;
import io.kevy.engine.config.RuntimeConfig;
import io.kevy.engine.text.Glob;
import java.util.List;

/**
 * The engine's Pub/Sub: who is subscribed to which channel, pattern or shard channel, and publishing to them
 * (Redis's {@code pubsub.c}). One per engine. Keyspace notifications ({@link KeyspaceNotifier}) publish here
 * too, so a subscriber cannot tell them from PUBLISH.
 *
 * <p>Delivery order: each {@link Subscriber} receives the messages of one publishing thread in publish order
 * (it queues them and writes them on its own thread). Publishing never blocks and never writes to a socket,
 * so it is safe under a shard lock. A subscriber that does not read is bounded by {@link #outputLimit()} and
 * disconnected past it.
 *
 * <p>Sharded Pub/Sub (SPUBLISH/SSUBSCRIBE) uses a registry of its own, as Redis 7.0 does: kevy is a single
 * node owning every slot, so a shard channel behaves as a channel in a separate namespace.
 *
 * <p>Thread-safe.
 */
public final class PubSub implements ChannelCounts {
    private final ChannelRegistry channels = new ChannelRegistry();
    private final ChannelRegistry patterns = new ChannelRegistry();
    private final ChannelRegistry shardChannels = new ChannelRegistry();
    private volatile OutputLimit outputLimit = OutputLimit.DEFAULT;
    private volatile String outputLimits = io.kevy.engine.config.RedisConfigCatalog.DEFAULT_OUTPUT_BUFFER_LIMITS;

    /**
     * Registers {@code client-output-buffer-limit} in {@code rc} so that CONFIG SET of its pubsub class applies
     * to this registry's subscribers (the embedded store's listeners); the network server registers its own over
     * it, which also sets {@link #outputLimit(OutputLimit)}.
     */
    public void registerConfig(RuntimeConfig rc) {
        rc.parsed("client-output-buffer-limit", () -> outputLimits,
                v -> io.kevy.engine.config.RedisConfigCatalog.mergeOutputBufferLimits(outputLimits, v), v -> {
                    outputLimits = v;
                    outputLimit(OutputLimit.fromConfig(v));
                });
    }

    /** A new, empty set of subscriptions delivering to {@code subscriber}. */
    public Subscriptions open(Subscriber subscriber) {
        return new Subscriptions(this, subscriber);
    }

    ChannelRegistry registry(Subscriptions.Type type) {
        return switch (type) {
            case CHANNEL -> channels;
            case PATTERN -> patterns;
            case SHARD -> shardChannels;
        };
    }

    /**
     * PUBLISH: delivers {@code payload} to the subscribers of {@code channel} and to those of every pattern
     * that matches it (one {@code pmessage} per matching pattern and subscriber).
     *
     * @return the number of deliveries (PUBLISH's reply)
     */
    public long publish(byte[] channel, byte[] payload) {
        long n = 0;
        if (!channels.isEmpty()) {
            Subscriber[] subs = channels.subscribers(new ChannelName(channel));
            if (subs.length > 0) {
                Message m = new Message(Message.Kind.MESSAGE, null, channel, payload);
                for (Subscriber s : subs) {
                    s.deliver(m);
                }
                n += subs.length;
            }
        }
        if (!patterns.isEmpty()) {
            long[] count = {0};
            patterns.forEach((pattern, subs) -> {
                if (Glob.matches(pattern.bytes(), channel, false)) {
                    Message m = new Message(Message.Kind.PMESSAGE, pattern.bytes(), channel, payload);
                    for (Subscriber s : subs) {
                        s.deliver(m);
                    }
                    count[0] += subs.length;
                }
            });
            n += count[0];
        }
        return n;
    }

    /** SPUBLISH: delivers to the subscribers of the shard channel {@code channel}; returns their number. */
    public long spublish(byte[] channel, byte[] payload) {
        if (shardChannels.isEmpty()) {
            return 0;
        }
        Subscriber[] subs = shardChannels.subscribers(new ChannelName(channel));
        if (subs.length > 0) {
            Message m = new Message(Message.Kind.SMESSAGE, null, channel, payload);
            for (Subscriber s : subs) {
                s.deliver(m);
            }
        }
        return subs.length;
    }

    /** True when nobody is subscribed to any channel or pattern (a publish would reach nobody). */
    public boolean idle() {
        return channels.isEmpty() && patterns.isEmpty();
    }

    /** PUBSUB CHANNELS / SHARDCHANNELS: the active channels matching {@code pattern} (all when null). */
    public List<byte[]> channels(Subscriptions.Type type, byte[] pattern) {
        return registry(type).names(pattern);
    }

    /** PUBSUB NUMSUB / SHARDNUMSUB: the subscribers of one channel (patterns not counted). */
    public int numsub(Subscriptions.Type type, byte[] channel) {
        return registry(type).subscribers(new ChannelName(channel)).length;
    }

    /** INFO's {@code pubsub_channels}: channels with at least one subscriber. */
    @Override
    public int channelCount() {
        return channels.size();
    }

    /** INFO's {@code pubsub_patterns} and PUBSUB NUMPAT: distinct patterns with at least one subscriber. */
    @Override
    public int patternCount() {
        return patterns.size();
    }

    /** INFO's {@code pubsubshard_channels}. */
    @Override
    public int shardChannelCount() {
        return shardChannels.size();
    }

    /** The output limit of subscribers ({@code client-output-buffer-limit pubsub}). */
    public OutputLimit outputLimit() {
        return outputLimit;
    }

    public void outputLimit(OutputLimit limit) {
        this.outputLimit = limit;
    }
}
