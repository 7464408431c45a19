package io.kevy.feed.client;

/**
 * Maps an error reply to its exception, as lettuce's {@code ExceptionFactory} does: {@code FEEDRESYNC g t} →
 * {@link FeedResyncException}, {@code ERR feed cursor ahead of stream} → {@link CursorAheadException}, anything
 * else → {@link KevyServerException}. Stateless and thread-safe.
 */
public final class ServerErrors {
    private static final String AHEAD = "ERR feed cursor ahead of stream";

    private ServerErrors() {
    }

    /**
     * The exception for {@code reply}, an error reply with or without its leading {@code -} and trailing CRLF.
     *
     * @throws KevyProtocolException when a FEEDRESYNC reply does not carry two unsigned integers
     */
    public static KevyServerException fromReply(String reply) {
        String m = reply;
        if (m.startsWith("-")) {
            m = m.substring(1);
        }
        if (m.endsWith("\r\n")) {
            m = m.substring(0, m.length() - 2);
        }
        if (m.startsWith("FEEDRESYNC ")) {
            String[] parts = m.split(" ");
            try {
                if (parts.length == 3) {
                    return new FeedResyncException(Long.parseUnsignedLong(parts[1]), Long.parseUnsignedLong(parts[2]));
                }
            } catch (NumberFormatException e) {
                // falls through to the protocol error
            }
            throw new KevyProtocolException("malformed FEEDRESYNC reply: " + m);
        }
        if (m.equals(AHEAD)) {
            return new CursorAheadException(m);
        }
        return new KevyServerException(m);
    }
}
