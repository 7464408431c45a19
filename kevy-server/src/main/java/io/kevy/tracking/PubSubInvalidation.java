package io.kevy.tracking;

import io.kevy.pubsub.Message;
import io.kevy.pubsub.Subscriber;
import io.kevy.resp.RespFrames;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The RESP2 redirect: invalidations as Pub/Sub messages to the redirect client, which must be in Pub/Sub mode
 * (Redis 7.0's {@code sendTrackingMessage}: {@code *3 $7 message $20 __redis__:invalidate} then the keys as an
 * array of bulk strings, or after a flush the null of the tracking client's protocol: {@code $-1}, or {@code _}
 * for a RESP3 client redirecting here, as Redis writes {@code shared.null[c->resp]} of the tracking client). They
 * travel the subscriber's queue, so the Pub/Sub output limit applies to them as to any message.
 *
 * <p>Thread-safe.
 */
final class PubSubInvalidation implements InvalidationTarget {
    /** The channel RESP2 invalidations are published on. */
    static final byte[] CHANNEL = "__redis__:invalidate".getBytes(StandardCharsets.US_ASCII);

    private final Subscriber subscriber;
    private final byte[] flushNull;

    /** @param flushNull the null sent after a flush: the tracking client's ({@link InvalidationTargets#flushNull}) */
    PubSubInvalidation(Subscriber subscriber, byte[] flushNull) {
        this.subscriber = subscriber;
        this.flushNull = flushNull;
    }

    @Override
    public void deliver(List<byte[]> keys) {
        subscriber.deliver(Message.withRespPayload(CHANNEL, keys == null ? flushNull : keyArray(keys)));
    }

    /** {@code *<n>} and each key as a bulk string. */
    static byte[] keyArray(List<byte[]> keys) {
        byte[][] argv = keys.toArray(new byte[0][]);
        byte[] out = new byte[(int) RespFrames.encodedSize(argv)];
        RespFrames.encode(out, 0, argv);
        return out;
    }
}
