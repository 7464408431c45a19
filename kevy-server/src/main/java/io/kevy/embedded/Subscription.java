package io.kevy.embedded;

import io.kevy.pubsub.ListenerSubscriber;
import io.kevy.pubsub.PubSub;
import io.kevy.pubsub.Subscriptions;
import java.nio.charset.StandardCharsets;

/**
 * An embedded Pub/Sub subscription ({@link Store#subscribe}): the channels, patterns and shard channels one
 * {@link MessageListener} receives, changed at any time from any thread. The same registry as the server's
 * SUBSCRIBE, so PUBLISH from {@link Store#publish} or {@link Store#execute} and keyspace notifications reach it.
 *
 * <p>Thread-safe. Close it to unsubscribe from everything and stop its thread; {@link Store#close} closes it
 * too. Subscribing on a closed subscription does nothing.
 */
public final class Subscription implements AutoCloseable {
    private final Subscriptions subscriptions;
    private final ListenerSubscriber subscriber;
    private final Runnable onClose;

    Subscription(PubSub pubsub, MessageListener listener, Runnable onClose) {
        this.onClose = onClose;
        Subscriptions[] self = new Subscriptions[1];
        this.subscriber = new ListenerSubscriber(pubsub, listener::onMessage, () -> {
            self[0].close();
            onClose.run();
        });
        this.subscriptions = pubsub.open(subscriber);
        self[0] = subscriptions;
    }

    /** SUBSCRIBE: also receive the messages of these channels (UTF-8 names). */
    public Subscription subscribe(String... channels) {
        return add(Subscriptions.Type.CHANNEL, channels);
    }

    /** SUBSCRIBE with binary channel names. */
    public Subscription subscribe(byte[]... channels) {
        return add(Subscriptions.Type.CHANNEL, channels);
    }

    /** PSUBSCRIBE: also receive the messages of channels matching these glob patterns (Redis's rules). */
    public Subscription psubscribe(String... patterns) {
        return add(Subscriptions.Type.PATTERN, patterns);
    }

    /** SSUBSCRIBE: also receive the messages SPUBLISHed to these shard channels. */
    public Subscription ssubscribe(String... shardChannels) {
        return add(Subscriptions.Type.SHARD, shardChannels);
    }

    /** UNSUBSCRIBE from these channels. */
    public Subscription unsubscribe(String... channels) {
        return remove(Subscriptions.Type.CHANNEL, channels);
    }

    /** PUNSUBSCRIBE from these patterns. */
    public Subscription punsubscribe(String... patterns) {
        return remove(Subscriptions.Type.PATTERN, patterns);
    }

    /** SUNSUBSCRIBE from these shard channels. */
    public Subscription sunsubscribe(String... shardChannels) {
        return remove(Subscriptions.Type.SHARD, shardChannels);
    }

    /** Channels plus patterns subscribed to (what SUBSCRIBE's confirmation counts). */
    public int count() {
        return subscriptions.count();
    }

    /** Unsubscribes from everything and stops the listener's thread (queued messages are dropped). Idempotent. */
    @Override
    public void close() {
        subscriptions.close();
        subscriber.close();
        onClose.run();
    }

    private Subscription add(Subscriptions.Type type, String... names) {
        for (String n : names) {
            subscriptions.add(type, n.getBytes(StandardCharsets.UTF_8));
        }
        return this;
    }

    private Subscription add(Subscriptions.Type type, byte[]... names) {
        for (byte[] n : names) {
            subscriptions.add(type, n.clone());
        }
        return this;
    }

    private Subscription remove(Subscriptions.Type type, String... names) {
        for (String n : names) {
            subscriptions.remove(type, n.getBytes(StandardCharsets.UTF_8));
        }
        return this;
    }
}
