package io.kevy.embedded;

import io.kevy.pubsub.Message;

/**
 * Receives the messages of a {@link Subscription}: PUBLISH/SPUBLISH messages and keyspace notifications, as
 * {@link Message}s ({@code message}, {@code pmessage} with the matching pattern, {@code smessage}).
 *
 * <p>Called on the subscription's own thread, one message at a time, in the order each publishing thread
 * published them; never on the publisher's thread. A listener that throws is logged and keeps receiving. A
 * listener that falls behind by more than {@code client-output-buffer-limit pubsub} (32 MB by default) of queued
 * messages is dropped: its subscription ends, as a slow connection's does on the server.
 */
@FunctionalInterface
public interface MessageListener {
    void onMessage(Message message);
}
