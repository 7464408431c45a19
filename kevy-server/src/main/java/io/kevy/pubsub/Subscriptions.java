package io.kevy.pubsub;

import io.kevy.engine.session.SubscriptionState;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What one subscriber (a client connection, or an embedded listener) is subscribed to: its channels, patterns
 * and shard channels, each in subscription order (Redis's {@code c->pubsub_channels}, {@code pubsub_patterns},
 * {@code pubsubshard_channels}), kept in step with the engine-wide {@link PubSub} registries.
 *
 * <p>Thread-safe: mutations are synchronized (a connection mutates from its event loop, an embedded
 * subscription from any thread); the counts are readable from any thread (CLIENT LIST).
 */
public final class Subscriptions implements SubscriptionState {
    /** Which of the three subscription kinds. */
    public enum Type {
        CHANNEL, PATTERN, SHARD
    }

    private final PubSub pubsub;
    private final Subscriber subscriber;
    private final Set<ChannelName> channels = new LinkedHashSet<>();
    private final Set<ChannelName> patterns = new LinkedHashSet<>();
    private final Set<ChannelName> shardChannels = new LinkedHashSet<>();
    private volatile int channelCount;
    private volatile int patternCount;
    private volatile int shardCount;
    private boolean closed;

    Subscriptions(PubSub pubsub, Subscriber subscriber) {
        this.pubsub = pubsub;
        this.subscriber = subscriber;
    }

    public Subscriber subscriber() {
        return subscriber;
    }

    /**
     * Subscribes to {@code name}; false when already subscribed (Redis then answers the same confirmation and
     * changes nothing) or when these subscriptions are closed.
     */
    public synchronized boolean add(Type type, byte[] name) {
        if (closed) {
            return false;
        }
        ChannelName n = new ChannelName(name);
        if (!set(type).add(n)) {
            return false;
        }
        pubsub.registry(type).add(n, subscriber);
        updateCounts();
        return true;
    }

    /** Unsubscribes from {@code name}; false when not subscribed. */
    public synchronized boolean remove(Type type, byte[] name) {
        ChannelName n = new ChannelName(name);
        if (!set(type).remove(n)) {
            return false;
        }
        pubsub.registry(type).remove(n, subscriber);
        updateCounts();
        return true;
    }

    /** The names subscribed to as {@code type}, in subscription order (a copy). */
    public synchronized List<byte[]> names(Type type) {
        List<byte[]> out = new ArrayList<>(set(type).size());
        for (ChannelName n : set(type)) {
            out.add(n.bytes());
        }
        return out;
    }

    /** Channel subscriptions (CLIENT LIST's {@code sub}). */
    @Override
    public int channelCount() {
        return channelCount;
    }

    /** Pattern subscriptions (CLIENT LIST's {@code psub}). */
    @Override
    public int patternCount() {
        return patternCount;
    }

    /** Shard channel subscriptions (CLIENT LIST's {@code ssub}). */
    @Override
    public int shardCount() {
        return shardCount;
    }

    /**
     * The count SUBSCRIBE, UNSUBSCRIBE, PSUBSCRIBE and PUNSUBSCRIBE confirm: channels plus patterns (Redis
     * 7.0's {@code clientSubscriptionsCount}); the shard commands confirm {@link #shardCount()}.
     */
    public int count() {
        return channelCount + patternCount;
    }

    /** True while subscribed to anything, shard channels included: the RESP2 subscribed mode (flag {@code P}). */
    @Override
    public boolean active() {
        return channelCount + patternCount + shardCount > 0;
    }

    /** Drops every subscription of every type (RESET, disconnect); later {@link #add}s are refused. */
    @Override
    public synchronized void close() {
        closed = true;
        for (Type t : Type.values()) {
            for (ChannelName n : set(t)) {
                pubsub.registry(t).remove(n, subscriber);
            }
            set(t).clear();
        }
        updateCounts();
    }

    private Set<ChannelName> set(Type type) {
        return switch (type) {
            case CHANNEL -> channels;
            case PATTERN -> patterns;
            case SHARD -> shardChannels;
        };
    }

    private void updateCounts() {
        channelCount = channels.size();
        patternCount = patterns.size();
        shardCount = shardChannels.size();
    }
}
