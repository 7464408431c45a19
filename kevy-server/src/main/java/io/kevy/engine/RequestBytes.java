package io.kevy.engine;

/**
 * The RESP bytes a client sent for the command being run, when they are exactly the canonical encoding of its
 * argv ({@link RespFrames#encode}: {@code *<argc>\r\n} then {@code $<len>\r\n<arg>\r\n} per argument, lengths
 * without sign or leading zero). A command whose effect frame is its own argv (a plain {@code SET k v}, most
 * writes) then has its frame's encoding already: the shard's first listener copies these bytes instead of
 * encoding the frame argument by argument ({@link Shard#emit(RequestBytes, byte[][])}, {@link EncodedEffect}),
 * a third of the feed's cost per write (JMH {@code EmitBench}, docs/benchmarks.md).
 *
 * <p>A transport provides one per connection and keeps it valid while the command runs: from the parse of the
 * command to the end of its dispatch, on the connection's thread. Inline commands, commands whose bytes are not
 * canonical (RESP lets a client put any byte where {@code \n} is due) and commands that arrived over several
 * reads have none. Not thread-safe.
 */
public interface RequestBytes {
    /** The arguments parsed from these bytes, verb first (the command's argv, compared by identity). */
    byte[][] argv();

    /** The number of bytes, {@link RespFrames#encodedSize} of {@link #argv()}. */
    int length();

    /**
     * Copies the bytes into {@code dst} at {@code pos}; the caller has made room for {@link #length()} bytes.
     *
     * @return the position after the last byte written
     */
    int copyTo(byte[] dst, int pos);

    /**
     * Whether {@code frame} encodes to exactly these bytes: it has the argv's length, the same verb bytes, and
     * the argv's own arrays as its other arguments (by identity: the frame passes the client's arguments on,
     * as a plain {@code SET k v} does; a copy or a rewritten argument does not qualify). Cheap enough for every
     * emit: no byte of a key or value is read.
     */
    static boolean encodes(RequestBytes request, byte[][] frame) {
        byte[][] argv = request.argv();
        if (argv == null || argv.length != frame.length) {
            return false;
        }
        for (int i = 1; i < frame.length; i++) {
            if (argv[i] != frame[i]) {
                return false;
            }
        }
        return java.util.Arrays.equals(argv[0], frame[0]); // the client's verb as sent; frames have it upper-case
    }
}
