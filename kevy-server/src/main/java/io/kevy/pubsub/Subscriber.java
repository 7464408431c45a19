package io.kevy.pubsub;

/**
 * Where a subscription's messages go: a client connection ({@link BufferedSubscriber}) or an embedded
 * listener ({@link ListenerSubscriber}).
 *
 * <p>Implementations must be thread-safe: {@link #deliver} is called by every publisher's thread, also while it
 * holds a shard lock (keyspace notifications), so it must only enqueue and never block or write to a socket.
 */
public interface Subscriber {
    /**
     * Queues {@code message} for delivery on the subscriber's own thread, in the order of the calls from one
     * publisher thread. A subscriber past its output limit drops the message and disconnects itself.
     */
    void deliver(Message message);

    /** A short description for log lines, e.g. {@code id=7 addr=127.0.0.1:52144}. */
    String describe();
}
