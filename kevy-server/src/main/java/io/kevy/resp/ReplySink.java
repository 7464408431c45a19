package io.kevy.resp;

import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.text.Bytes;
import io.kevy.engine.text.RedisNumbers;

/**
 * Where a command writes its reply. The core methods are RESP2's terms; the RESP3 types Redis 7.0 adds (map, set,
 * double, boolean, big number, verbatim string, push, and the pair grouping of {@code WITHSCORES}-like replies)
 * are default methods whose bodies are exactly what Redis 7.0 sends a RESP2 client for them ({@code networking.c}:
 * a map of {@code n} pairs is {@code *<2n>}, a set {@code *<n>}, a double a bulk string in {@code %.17g}, a
 * boolean {@code :1}/{@code :0}, ...). A sink that stays on RESP2 (the embedded store's tree, the appliers, a Lua
 * script on {@code redis.setresp(2)}) therefore needs nothing for them; {@link RespWriter} overrides them and writes
 * the RESP3 types while its connection is on protocol 3 ({@link #protocol(int)}). A command chooses the type as
 * Redis's does (its {@code addReplyMapLen}, {@code addReplySetLen}, {@code addReplyDouble}, ...), so one handler
 * serves both protocols. An array header announces exactly {@code n} elements that follow; a map header {@code n}
 * key-value pairs ({@code 2n} replies).
 *
 * <p>Not thread-safe: one sink belongs to one connection (or one call) at a time.
 */
public interface ReplySink {
    /** {@code +OK}. */
    void ok();

    /** A simple string {@code +<s>}; {@code s} must not contain CR or LF. */
    void simple(String s);

    /** An error reply {@code -<message>}. */
    void error(ErrorReply error);

    /** An integer {@code :<v>}. */
    void integer(long v);

    /** A bulk string {@code $<len>} with the bytes of {@code b}. */
    void bulk(byte[] b);

    /** A bulk string of {@code b[off..off+len)}. */
    void bulk(byte[] b, int off, int len);

    /** The null bulk string {@code $-1}; RESP3's null {@code _}. */
    void nullBulk();

    /** The null array {@code *-1}; RESP3's null {@code _}. */
    void nullArray();

    /** An array header {@code *<n>}; exactly {@code n} replies must follow. */
    void array(int n);

    /**
     * The protocol the following replies are written in: 2 (RESP2, the default) or 3 (RESP3), as HELLO and RESET
     * choose it for the connection. A sink that only speaks RESP2 ignores it.
     */
    default void protocol(int version) {
    }

    /** The protocol the sink writes: 2 unless {@link #protocol(int)} chose 3 and the sink speaks it. */
    default int protocol() {
        return 2;
    }

    /**
     * A map header of {@code n} key-value pairs ({@code 2n} replies follow); RESP2 {@code *<2n>}, RESP3
     * {@code %<n>}.
     */
    default void map(int n) {
        array(2 * n);
    }

    /** A set header of {@code n} elements; RESP2 {@code *<n>}, RESP3 {@code ~<n>}. */
    default void set(int n) {
        array(n);
    }

    /** A push header of {@code n} elements (Pub/Sub messages); RESP2 {@code *<n>}, RESP3 {@code ><n>}. */
    default void push(int n) {
        array(n);
    }

    /**
     * Appends a push frame already encoded ({@code >...}) after what was written so far: a message a command
     * caused to its own connection (a client tracking invalidation), written after that command's reply as
     * Redis 7.0 does. A sink of a transport without pushes drops it.
     */
    default void pushFrame(byte[] frame) {
    }

    /**
     * The header of an array of {@code n} pairs ({@code WITHSCORES}, {@code WITHVALUES}): RESP2 flattens them,
     * {@code *<2n>}; RESP3 nests them, {@code *<n>} with each pair opened by {@link #pair()}.
     */
    default void pairs(int n) {
        array(2 * n);
    }

    /** Opens one pair of a {@link #pairs} array: nothing in RESP2, {@code *2} in RESP3. */
    default void pair() {
    }

    /**
     * The header of a map of {@code n} entries that RESP2 writes as an array of {@code [key, value]} arrays
     * (XREAD and XREADGROUP's streams): RESP2 {@code *<n>}, RESP3 {@code %<n>}; each entry is opened by
     * {@link #keyedEntry()}.
     */
    default void keyedMap(int n) {
        array(n);
    }

    /** Opens one entry of a {@link #keyedMap}: {@code *2} in RESP2, nothing in RESP3. */
    default void keyedEntry() {
        array(2);
    }

    /** A double (Redis's {@code addReplyDouble}): RESP2 a bulk string in Redis 7.0's format, RESP3 {@code ,<d>}. */
    default void doubleValue(double d) {
        bulkDouble(d);
    }

    /**
     * A double already formatted ({@code addReplyHumanLongDouble}: GEOPOS coordinates, INCRBYFLOAT-like text):
     * RESP2 the bulk string {@code text}, RESP3 {@code ,<text>}.
     */
    default void doubleText(byte[] text) {
        bulk(text);
    }

    /** A boolean: RESP2 {@code :1} or {@code :0}, RESP3 {@code #t} or {@code #f}. */
    default void bool(boolean v) {
        integer(v ? 1 : 0);
    }

    /** A big number given as its decimal digits: RESP2 a bulk string, RESP3 {@code (<digits>}. */
    default void bigNumber(byte[] digits) {
        bulk(digits);
    }

    /**
     * A verbatim string of the three-letter {@code format} ({@code txt}, {@code mkd}): RESP2 the bulk string
     * {@code text}, RESP3 {@code =<len>} with {@code <format>:<text>}.
     */
    default void verbatim(byte[] text, String format) {
        bulk(text);
    }

    /**
     * A RESP3 attribute header of {@code n} key-value pairs, followed by the reply it annotates; only for a sink
     * on protocol 3 (Redis writes attributes to RESP3 clients only).
     *
     * @throws UnsupportedOperationException on a sink that does not speak RESP3
     */
    default void attribute(int n) {
        throw new UnsupportedOperationException("attributes are RESP3 only");
    }

    /** Drops whatever was written and frees its resources (a reply that will not be sent). */
    default void discard() {
    }

    /**
     * The reply bytes written to this sink and not yet handed to its transport, for the output limit of a reply
     * whose length the client chooses ({@code Call#replyOverLimit}); -1 for a sink that builds a tree rather than
     * bytes (a script's {@code redis.call}, the embedded store), which has no output buffer.
     */
    default long bufferedBytes() {
        return -1;
    }

    /** A bulk string holding the UTF-8 bytes of {@code s}. */
    default void bulk(String s) {
        bulk(Bytes.utf8(s));
    }

    /** A bulk string holding the decimal form of {@code v}. */
    default void bulkLong(long v) {
        bulk(RedisNumbers.toBytes(v));
    }

    /** A bulk string holding {@code d} as Redis 7.0 prints doubles ({@link RedisNumbers#formatDouble}). */
    default void bulkDouble(double d) {
        bulk(RedisNumbers.formatDouble(d));
    }

    /** A bulk string, or the null bulk string when {@code b} is null. */
    default void bulkOrNull(byte[] b) {
        if (b == null) {
            nullBulk();
        } else {
            bulk(b);
        }
    }

    /**
     * One complete reply already encoded as RESP2, made only of array headers {@code *<n>}, integers
     * {@code :<v>} and bulk strings {@code $<len>} (the feed backlog's frames): {@code b[off..off+len)}.
     * The default decodes it into {@link #array}, {@link #integer} and {@link #bulk(byte[], int, int)} calls;
     * a sink that writes RESP2 copies the bytes as they are.
     */
    default void encoded(byte[] b, int off, int len) {
        int p = off;
        int end = off + len;
        while (p < end) {
            byte type = b[p++];
            boolean negative = b[p] == '-';
            if (negative) {
                p++;
            }
            long v = 0;
            while (b[p] != '\r') {
                v = v * 10 + (b[p++] - '0');
            }
            p += 2;
            if (negative) {
                v = -v;
            }
            switch (type) {
                case '*' -> array((int) v);
                case ':' -> integer(v);
                case '$' -> {
                    bulk(b, p, (int) v);
                    p += (int) v + 2;
                }
                default -> throw new IllegalArgumentException("not an array, integer or bulk string: " + (char) type);
            }
        }
    }
}
