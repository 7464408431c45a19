package io.kevy.tracking;

import io.kevy.engine.session.ClientChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;

/**
 * The RESP3 way: invalidations as pushes on the receiver's own connection (Redis 7.0's {@code sendTrackingMessage}
 * with {@code c->resp > 2}): {@code >2 $10 invalidate} then the keys as an array of bulk strings, or after a flush
 * the null of the tracking client's protocol ({@code _}, or {@code $-1} for a RESP2 client redirecting here, as
 * Redis writes {@code shared.null[c->resp]} of the tracking client); and
 * {@code >2 $21 tracking-redir-broken :<id>} to a RESP3 tracking client whose redirect client went away, in place
 * of each invalidation it would have received. Each push is queued for the connection's event loop
 * ({@link ClientChannel#execute}), never written under the shard lock; a closed connection drops it.
 *
 * <p>Thread-safe.
 */
final class PushInvalidation implements InvalidationTarget {
    private static final byte[] INVALIDATE = "\u003e2\r\n$10\r\ninvalidate\r\n".getBytes(StandardCharsets.US_ASCII);

    private final ClientChannel channel;
    private final byte[] flushNull;

    /** @param flushNull the null sent after a flush: the tracking client's ({@link InvalidationTargets#flushNull}) */
    PushInvalidation(ClientChannel channel, byte[] flushNull) {
        this.channel = channel;
        this.flushNull = flushNull;
    }

    @Override
    public void deliver(List<byte[]> keys) {
        byte[] body = keys == null ? flushNull : PubSubInvalidation.keyArray(keys);
        byte[] frame = new byte[INVALIDATE.length + body.length];
        System.arraycopy(INVALIDATE, 0, frame, 0, INVALIDATE.length);
        System.arraycopy(body, 0, frame, INVALIDATE.length, body.length);
        push(channel, frame);
    }

    /** {@code >2 tracking-redir-broken <redirect>} to a RESP3 tracking client. */
    static void redirectBroken(ClientChannel channel, long redirect) {
        push(channel, ("\u003e2\r\n$21\r\ntracking-redir-broken\r\n:" + redirect + "\r\n")
                .getBytes(StandardCharsets.US_ASCII));
    }

    private static void push(ClientChannel channel, byte[] frame) {
        if (channel == null || !channel.supportsPush()) {
            return;
        }
        try {
            channel.execute(() -> {
                channel.push(frame);
                channel.flushPushes();
            });
        } catch (RejectedExecutionException closed) {
            // the connection is gone: nobody to tell
        }
    }
}
