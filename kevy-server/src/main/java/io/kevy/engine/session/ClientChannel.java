package io.kevy.engine.session;

import io.kevy.resp.ReplySink;

/**
 * The engine's view of the transport a {@link Session} talks over (a TCP connection, or the embedded caller).
 * Used for work that happens outside the session's own command loop: a blocked command served by another
 * client's write, or CLIENT KILL.
 *
 * <p>Implementations must be thread-safe.
 */
public interface ClientChannel {
    /** A reply sink for a reply produced on another thread, later passed to {@link #sendAsync}. */
    ReplySink newAsyncReply();

    /**
     * Delivers a reply produced with {@link #newAsyncReply()} and resumes the session's command loop (it was
     * parked on a blocking command). When the transport is closing, the reply is only released. Safe from any
     * thread, also under a shard lock (it only enqueues).
     *
     * @param wrote true when the reply follows a change made for this session (a served BLPOP): under
     *              {@code appendfsync always} it is held until that change is durable, like any write's reply
     */
    void sendAsync(ReplySink reply, boolean wrote);

    /**
     * Runs {@code task} on the session's own thread: the connection's event loop, or the embedded caller's
     * thread parked on a blocking command. Tasks run in submission order. Safe from any thread (also under a
     * shard lock: it only enqueues).
     *
     * @throws java.util.concurrent.RejectedExecutionException when the transport has shut down
     */
    void execute(Runnable task);

    /** Closes the transport (CLIENT KILL). Safe from any thread; idempotent. */
    void close();

    /** The peer address as {@code ip:port}, or {@code ""}. */
    String remoteAddress();

    /** The local address as {@code ip:port}, or {@code ""}. */
    String localAddress();

    /**
     * True when this transport's commands run on a thread that serves other sessions too (a Netty event loop):
     * the dispatcher then runs a script on the engine's script thread and delivers its reply through
     * {@link #sendAsync}, the session paused meanwhile as for a blocked command. False (the embedded store): the
     * script runs on the caller's thread.
     */
    default boolean runsScriptsElsewhere() {
        return false;
    }

    /** Whether this transport carries Pub/Sub messages ({@link #push}); the embedded store's does not. */
    default boolean supportsPush() {
        return false;
    }

    /**
     * Appends a Pub/Sub message already encoded as RESP2 after the replies written so far; sent at the next
     * {@link #flushPushes()}. Only on the session's own thread (a task given to {@link #execute}).
     *
     * @throws UnsupportedOperationException when {@link #supportsPush()} is false
     */
    default void push(byte[] resp) {
        throw new UnsupportedOperationException("this transport carries no Pub/Sub messages");
    }

    /**
     * True when the calling thread is the session's own thread (its connection's event loop), where {@link #push}
     * may be called at once; false elsewhere and for transports without pushes.
     */
    default boolean onOwnThread() {
        return false;
    }

    /** Sends what {@link #push} appended. Only on the session's own thread. */
    default void flushPushes() {
    }

    /**
     * Queues one push frame ({@code >...}) for the session's own thread, which appends it after the replies
     * written by then ({@link #push}) and sends it ({@link #flushPushes}). Safe from any thread, also under a
     * shard lock (it only enqueues); dropped when the transport carries no pushes or has shut down.
     */
    default void sendPush(byte[] frame) {
        if (!supportsPush()) {
            return;
        }
        try {
            execute(() -> {
                push(frame);
                flushPushes();
            });
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            // the connection is gone: nobody to tell
        }
    }

    /** Bytes handed to the transport and not yet sent to the peer (a racy read from any thread), in bytes. */
    default long pendingOutputBytes() {
        return 0;
    }

    /**
     * How many more reply bytes the session's reply sink may hold before the connection is over its output
     * limits: the hard limit of its {@code client-output-buffer-limit} class and {@code maxmemory-clients}, less
     * what it already buffers, and at most the largest reply the server builds in one buffer (where Redis, without
     * limits, would run out of memory). Read when a reply whose length the client chooses begins
     * ({@code Call#replyOverLimit}); {@link Long#MAX_VALUE} for a transport without such limits.
     */
    default long outputRoom() {
        return Long.MAX_VALUE;
    }

    /**
     * Closes the connection at once, without sending the replies not yet sent and without running the commands
     * pipelined behind the current one: Redis's {@code CLIENT_CLOSE_ASAP} for a client over its output limit.
     * Safe from any thread; idempotent.
     */
    default void closeAsap() {
        close();
    }
}
