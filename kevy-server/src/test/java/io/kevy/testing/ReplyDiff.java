package io.kevy.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

/**
 * Sends the same commands to kevy and to a real Redis and asserts the raw reply bytes are equal. Use it for
 * every reply shape and error text a test wants to pin to Redis 7.0.
 *
 * <pre>{@code
 * try (TestServer kevy = TestServer.start(); RedisOracle redis = RedisOracle.start();
 *      ReplyDiff diff = new ReplyDiff(kevy.raw(), redis.raw())) {
 *     diff.same("SET", "k", "v");
 *     diff.same("GET", "k");
 * }
 * }</pre>
 */
public final class ReplyDiff implements AutoCloseable {
    private final RawClient kevy;
    private final RawClient redis;

    public ReplyDiff(RawClient kevy, RawClient redis) {
        this.kevy = kevy;
        this.redis = redis;
    }

    /** Runs {@code args} on both and asserts equal replies; returns the reply. */
    public String same(String... args) {
        String expected = redis.call(args);
        String actual = kevy.call(args);
        assertThat(actual).as("reply to %s", String.join(" ", args)).isEqualTo(expected);
        return actual;
    }

    /** Sends raw bytes to both and asserts equal replies. */
    public String sameRaw(String raw) {
        String expected = redis.send(raw).readReply();
        String actual = kevy.send(raw).readReply();
        assertThat(actual).as("reply to %s", raw).isEqualTo(expected);
        return actual;
    }

    /**
     * Runs a command whose arguments are bytes, one char = one byte (ISO-8859-1: {@code "\u00ff"} is the byte
     * 0xff), on both and asserts equal replies; returns the reply.
     */
    public String sameBytes(String... args) {
        StringBuilder sb = new StringBuilder("*").append(args.length).append("\r\n");
        for (String a : args) {
            sb.append('$').append(a.getBytes(StandardCharsets.ISO_8859_1).length).append("\r\n").append(a)
                    .append("\r\n");
        }
        return sameRaw(sb.toString());
    }

    /**
     * Sends {@code args} to both without reading the replies (a command that blocks); read them later with
     * {@link #sameReply}.
     */
    public void send(String... args) {
        kevy.command(args);
        redis.command(args);
    }

    /** Reads one reply from each and asserts they are equal; returns it. */
    public String sameReply(String what) {
        String expected = redis.readReply();
        String actual = kevy.readReply();
        assertThat(actual).as("reply to %s", what).isEqualTo(expected);
        return actual;
    }

    public RawClient kevy() {
        return kevy;
    }

    public RawClient redis() {
        return redis;
    }

    @Override
    public void close() {
        kevy.close();
        redis.close();
    }
}
