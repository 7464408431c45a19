package io.kevy.pubsub;

import java.nio.charset.StandardCharsets;

/**
 * One message as a subscriber receives it: a {@code message} (channel subscription), a {@code pmessage}
 * (pattern subscription: {@link #pattern()} is the matching pattern) or an {@code smessage} (shard channel).
 * {@link #resp()} is its RESP2 push array, encoded once and shared by every subscriber that receives this
 * instance.
 *
 * <p>Immutable; thread-safe. The arrays are not copied: nobody may change them.
 */
public final class Message {
    /** The kind of a message, named as the first element of its push array. */
    public enum Kind {
        MESSAGE("message"), PMESSAGE("pmessage"), SMESSAGE("smessage");

        private final byte[] name;

        Kind(String name) {
            this.name = name.getBytes(StandardCharsets.US_ASCII);
        }

        /** The push array's first element, e.g. {@code message}. */
        public String redisName() {
            return new String(name, StandardCharsets.US_ASCII);
        }
    }

    private final Kind kind;
    private final byte[] pattern;
    private final byte[] channel;
    private final byte[] payload;
    /** True when {@link #payload} is already a RESP value (an invalidation's key array), written as is. */
    private final boolean payloadIsResp;
    /** Racy single-check cache: two threads may both encode; the results are equal. */
    private byte[] resp;

    public Message(Kind kind, byte[] pattern, byte[] channel, byte[] payload) {
        this(kind, pattern, channel, payload, false);
    }

    private Message(Kind kind, byte[] pattern, byte[] channel, byte[] payload, boolean payloadIsResp) {
        this.kind = kind;
        this.pattern = pattern;
        this.channel = channel;
        this.payload = payload;
        this.payloadIsResp = payloadIsResp;
    }

    /**
     * A {@code message} on {@code channel} whose payload is the RESP value {@code payloadResp}, written as is
     * instead of as a bulk string: Redis's {@code addReplyPubsubMessage(c, channel, NULL, ...)} followed by the
     * value, the shape of client tracking's RESP2 invalidations ({@code *3 message __redis__:invalidate *<n>
     * keys}, or {@code $-1} after a flush). {@link #payload()} returns those RESP bytes.
     */
    public static Message withRespPayload(byte[] channel, byte[] payloadResp) {
        return new Message(Kind.MESSAGE, null, channel, payloadResp, true);
    }

    public Kind kind() {
        return kind;
    }

    /** The pattern that matched, for {@link Kind#PMESSAGE}; null otherwise. */
    public byte[] pattern() {
        return pattern;
    }

    public byte[] channel() {
        return channel;
    }

    public byte[] payload() {
        return payload;
    }

    /**
     * The RESP2 push array: {@code *3 message <channel> <payload>}, {@code *4 pmessage <pattern> <channel>
     * <payload>} or {@code *3 smessage <channel> <payload>}, as Redis 7.0 writes them.
     */
    public byte[] resp() {
        byte[] r = resp;
        if (r == null) {
            r = encode();
            resp = r;
        }
        return r;
    }

    /** The size of {@link #resp()} in bytes, what a subscriber's output buffer is charged. */
    public int size() {
        return resp().length;
    }

    private byte[] encode() {
        if (payloadIsResp) {
            byte[] head = encodeArray(kind.name, channel);
            byte[] out = new byte[head.length + payload.length];
            System.arraycopy(head, 0, out, 0, head.length);
            out[1] = '3'; // *2 -> *3: the payload is the third element
            System.arraycopy(payload, 0, out, head.length, payload.length);
            return out;
        }
        byte[][] parts = pattern == null ? new byte[][] {kind.name, channel, payload}
                : new byte[][] {kind.name, pattern, channel, payload};
        return encodeArray(parts);
    }

    /** The RESP2 array of bulk strings {@code parts} (a null part is the null bulk string {@code $-1}). */
    static byte[] encodeArray(byte[]... parts) {
        int n = headerLength(parts.length);
        for (byte[] p : parts) {
            n += p == null ? 5 : headerLength(p.length) + p.length + 2;
        }
        byte[] out = new byte[n];
        int pos = header(out, 0, (byte) '*', parts.length);
        for (byte[] p : parts) {
            if (p == null) {
                out[pos++] = '$';
                out[pos++] = '-';
                out[pos++] = '1';
                out[pos++] = '\r';
                out[pos++] = '\n';
                continue;
            }
            pos = header(out, pos, (byte) '$', p.length);
            System.arraycopy(p, 0, out, pos, p.length);
            pos += p.length;
            out[pos++] = '\r';
            out[pos++] = '\n';
        }
        return out;
    }

    private static int headerLength(long n) {
        return 3 + Long.toString(n).length();
    }

    private static int header(byte[] out, int pos, byte type, long n) {
        out[pos++] = type;
        byte[] digits = Long.toString(n).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(digits, 0, out, pos, digits.length);
        pos += digits.length;
        out[pos++] = '\r';
        out[pos++] = '\n';
        return pos;
    }

    @Override
    public String toString() {
        return kind.redisName() + (pattern == null ? "" : " " + new String(pattern, StandardCharsets.UTF_8)) + " "
                + new String(channel, StandardCharsets.UTF_8);
    }
}
