package io.kevy.tracking;

import io.kevy.engine.session.ClientChannel;
import io.kevy.engine.session.Session;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The RESP3 way: invalidations as pushes on the receiver's own connection (Redis 7.0's {@code sendTrackingMessage}
 * with {@code c->resp > 2}): {@code >2 $10 invalidate} then the keys as an array of bulk strings, or after a flush
 * the null of the tracking client's protocol ({@code _}, or {@code $-1} for a RESP2 client redirecting here, as
 * Redis writes {@code shared.null[c->resp]} of the tracking client); and
 * {@code >2 $21 tracking-redir-broken :<id>} to a RESP3 tracking client whose redirect client went away, in place
 * of each invalidation it would have received.
 *
 * <p>A push is never written under the shard lock. One the receiver's own running command caused (its write, its
 * FLUSHALL, also inside MULTI/EXEC or a script) is held by the session and follows that command's reply, as Redis
 * holds the current client's invalidations until {@code afterCommand}; a BCAST one follows the replies of the
 * commands already read, as Redis sends those in {@code beforeSleep} ({@link Session#holdPush}). Any other is
 * queued for the connection's event loop ({@link ClientChannel#sendPush}); a closed connection drops it.
 *
 * <p>Thread-safe.
 */
final class PushInvalidation implements InvalidationTarget {
    private static final byte[] INVALIDATE = "\u003e2\r\n$10\r\ninvalidate\r\n".getBytes(StandardCharsets.US_ASCII);

    private final Session receiver;
    private final byte[] flushNull;

    /** @param flushNull the null sent after a flush: the tracking client's ({@link InvalidationTargets#flushNull}) */
    PushInvalidation(Session receiver, byte[] flushNull) {
        this.receiver = receiver;
        this.flushNull = flushNull;
    }

    @Override
    public void deliver(List<byte[]> keys) {
        push(receiver, frame(keys), false);
    }

    @Override
    public void deliverBroadcast(List<byte[]> keys) {
        push(receiver, frame(keys), true);
    }

    private byte[] frame(List<byte[]> keys) {
        byte[] body = keys == null ? flushNull : PubSubInvalidation.keyArray(keys);
        byte[] frame = new byte[INVALIDATE.length + body.length];
        System.arraycopy(INVALIDATE, 0, frame, 0, INVALIDATE.length);
        System.arraycopy(body, 0, frame, INVALIDATE.length, body.length);
        return frame;
    }

    /** {@code >2 tracking-redir-broken <redirect>} to a RESP3 tracking client. */
    static void redirectBroken(Session client, long redirect) {
        push(client, ("\u003e2\r\n$21\r\ntracking-redir-broken\r\n:" + redirect + "\r\n")
                .getBytes(StandardCharsets.US_ASCII), false);
    }

    private static void push(Session receiver, byte[] frame, boolean broadcast) {
        ClientChannel channel = receiver.channel();
        if (channel == null || !channel.supportsPush() || receiver.holdPush(frame, broadcast)) {
            return;
        }
        channel.sendPush(frame);
    }
}
