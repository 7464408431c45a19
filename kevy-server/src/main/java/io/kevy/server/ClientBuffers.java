package io.kevy.server;

import io.kevy.config.Sizes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one connection makes the server buffer, checked against its own limits and charged to the server-wide
 * {@link ClientMemory} budget:
 * <ul>
 *   <li>input: the bytes received and not yet parsed plus the heap of the arguments of the partial command
 *       already parsed ({@link io.kevy.resp.RespParser#heldBytes()}), as Redis counts {@code querybuf}
 *       plus {@code argv_len_sum}; limited by {@code client-query-buffer-limit};</li>
 *   <li>output: reply bytes handed to the socket and not yet sent, plus replies held for an fsync; limited by
 *       {@code client-output-buffer-limit normal}'s hard limit (0: none, Redis's default).</li>
 * </ul>
 * A figure is set after every read (input) and every flush (output); a connection over a limit, or whose growth
 * the budget refuses, is to be closed by the caller without a reply, as Redis does. A connection that buffers
 * nothing between reads (every command complete) costs two comparisons per read.
 *
 * <p>Not thread-safe: used on the connection's event loop only.
 */
final class ClientBuffers {
    private static final Logger log = LoggerFactory.getLogger(ClientBuffers.class);

    private final ClientMemory memory;
    private long input;
    private long output;
    private boolean released;

    ClientBuffers(ClientMemory memory) {
        this.memory = memory;
    }

    /** Bytes of input charged now. */
    long input() {
        return input;
    }

    /** Bytes of output charged now. */
    long output() {
        return output;
    }

    /**
     * Sets the connection's input figure.
     *
     * @param bytes unparsed input plus parsed arguments of the partial command, bytes
     * @param limit {@code client-query-buffer-limit}, bytes
     * @param who the client's description for the log line (called only when closing)
     * @return false when the connection must be closed (logged here)
     */
    boolean input(long bytes, long limit, java.util.function.Supplier<String> who) {
        if (bytes == input || released) {
            return true;
        }
        if (bytes > limit) {
            log.warn("Closing client that reached max query buffer length: {} qbuf={} (client-query-buffer-limit "
                    + "{})", who.get(), bytes, Sizes.format(limit));
            refuse();
            return false;
        }
        if (!memory.charge(bytes - input)) {
            log.warn("Closing client that reached max query buffer length: {} qbuf={} (maxmemory-clients {}: "
                    + "all clients buffer {} bytes)", who.get(), bytes, Sizes.format(memory.budget()), memory.used());
            refuse();
            return false;
        }
        input = bytes;
        memory.recordInput(bytes);
        return true;
    }

    /**
     * Sets the connection's output figure.
     *
     * @param bytes unsent reply bytes, bytes
     * @param hardLimit the hard limit of the connection's {@code client-output-buffer-limit} class, bytes; 0 for none
     * @param limitClass that class's name as Redis prints it ({@code normal}, or {@code pubsub} while subscribed)
     * @return false when the connection must be closed (logged here)
     */
    boolean output(long bytes, long hardLimit, String limitClass, java.util.function.Supplier<String> who) {
        if (bytes == output || released) {
            return true;
        }
        if ((hardLimit > 0 && bytes > hardLimit) || !memory.charge(bytes - output)) {
            log.warn("Client {} scheduled to be closed ASAP for overcoming of output buffer limits. omem={} "
                    + "(client-output-buffer-limit {} {}, maxmemory-clients {}: all clients buffer {} bytes)",
                    who.get(), bytes, limitClass, hardLimit, Sizes.format(memory.budget()), memory.used());
            refuse();
            return false;
        }
        output = bytes;
        memory.recordOutput(bytes);
        return true;
    }

    /**
     * Gives back at once what a refused connection had charged, and ignores its later figures (it is being
     * closed, and is logged once): its close completes later (channelInactive), and until then its charge would
     * make other connections' growth refused too.
     */
    private void refuse() {
        release();
    }

    /** Releases everything charged; later figures are ignored (the connection is gone). Idempotent. */
    void release() {
        if (!released) {
            released = true;
            memory.charge(-(input + output));
            input = 0;
            output = 0;
        }
    }
}
