package io.kevy.tracking;

import io.kevy.pubsub.Message;
import io.kevy.pubsub.Subscriber;
import io.kevy.resp.RespFrames;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The RESP2 redirect: invalidations as Pub/Sub messages to the redirect client, which must be in Pub/Sub mode
 * (Redis 7.0's {@code sendTrackingMessage}: {@code *3 $7 message $20 __redis__:invalidate} then the keys as an
 * array of bulk strings, or {@code $-1} after a flush). They travel the subscriber's queue, so the Pub/Sub
 * output limit applies to them as to any message.
 *
 * <p>Thread-safe.
 */
final class PubSubInvalidation implements InvalidationTarget {
    /** The channel RESP2 invalidations are published on. */
    static final byte[] CHANNEL = "__redis__:invalidate".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL_BULK = "$-1\r\n".getBytes(StandardCharsets.US_ASCII);

    private final Subscriber subscriber;

    PubSubInvalidation(Subscriber subscriber) {
        this.subscriber = subscriber;
    }

    @Override
    public void deliver(List<byte[]> keys) {
        subscriber.deliver(Message.withRespPayload(CHANNEL, keys == null ? NULL_BULK : keyArray(keys)));
    }

    /** {@code *<n>} and each key as a bulk string. */
    static byte[] keyArray(List<byte[]> keys) {
        byte[][] argv = keys.toArray(new byte[0][]);
        byte[] out = new byte[(int) RespFrames.encodedSize(argv)];
        RespFrames.encode(out, 0, argv);
        return out;
    }
}
