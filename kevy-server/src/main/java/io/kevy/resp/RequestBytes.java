package io.kevy.resp;

import io.kevy.engine.Shard;

/**
 * The RESP bytes a client sent for the command being run, passed with its argv, when they are exactly the
 * canonical encoding of that argv ({@link RespFrames#encode}: {@code *<argc>\r\n} then
 * {@code $<len>\r\n<arg>\r\n} per argument; RESP parsers accept other bytes where {@code \r\n} is due and skip
 * them unread, so the transport checks those). A command whose effect frame is its own argv (a plain
 * {@code SET k v}, most writes) then has its frame's encoding already: the shard's first listener copies these
 * bytes instead of encoding the frame argument by argument ({@link Shard#emit(RequestBytes, byte[][])},
 * {@link EncodedEffect}), about 15 of the feed's 35 ns per write (JMH {@code EmitBench}, docs/benchmarks.md).
 *
 * <p>A transport provides one per connection and keeps it valid while the command runs: from the parse of the
 * command to the end of its dispatch, on the connection's thread. Inline commands, commands with other bytes
 * where {@code \r\n} is due and commands that arrived over several reads have none. It holds no reference to
 * the argv (a long-lived object that stores a young reference per command costs the parser a GC barrier); the
 * dispatcher passes the two together. Not thread-safe.
 */
public interface RequestBytes {
    /** The number of bytes; {@link RespFrames#encodedSize} of the argv, as the lengths are canonical. */
    int length();

    /**
     * Copies the bytes into {@code dst} at {@code pos}, where the caller has made room for {@link #length()}
     * bytes.
     *
     * @return the position after the last byte written
     */
    int copyTo(byte[] dst, int pos);

    /**
     * Whether {@code frame} is {@code argv} as the request's bytes encode it: the same number of arguments, the
     * same verb bytes (frames spell verbs upper-case, clients need not), and the argv's own arrays as its other
     * arguments, by identity (the frame passes the client's arguments on, as a plain {@code SET k v} does; a
     * rewritten argument, even an equal one, does not qualify). Reads no byte of a key or value.
     */
    static boolean isFrame(byte[][] argv, byte[][] frame) {
        if (argv.length != frame.length) {
            return false;
        }
        for (int i = 1; i < frame.length; i++) {
            if (argv[i] != frame[i]) {
                return false;
            }
        }
        return java.util.Arrays.equals(argv[0], frame[0]);
    }
}
