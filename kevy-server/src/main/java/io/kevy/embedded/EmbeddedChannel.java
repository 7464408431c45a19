package io.kevy.embedded;

import io.kevy.engine.session.ClientChannel;
import io.kevy.engine.session.Session;
import io.kevy.resp.ReplySink;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The "connection" of one embedded {@link Store#execute} call. When the command blocks, the calling thread
 * parks in {@link #awaitReply} and becomes the session's own thread: wake-ups and timeouts of the blocked
 * command arrive as tasks in the inbox and run there, and the reply arrives the same way.
 *
 * <p>Thread-safe: the {@link ClientChannel} methods only enqueue.
 */
final class EmbeddedChannel implements ClientChannel {
    private static final Object CLOSED = new Object();

    private final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();

    @Override
    public ReplySink newAsyncReply() {
        return new ReplyTree();
    }

    @Override
    public void sendAsync(ReplySink reply, boolean wrote) {
        inbox.add(reply);
    }

    @Override
    public void execute(Runnable task) {
        inbox.add(task);
    }

    @Override
    public void close() {
        inbox.add(CLOSED);
    }

    @Override
    public String remoteAddress() {
        return "";
    }

    @Override
    public String localAddress() {
        return "";
    }

    /**
     * Runs the blocked command's tasks on the calling thread until its reply arrives.
     *
     * @throws CancellationException when the thread is interrupted (the interrupt status is kept) or the store
     *                               is closed; the blocked command is cancelled first
     */
    Reply awaitReply(Session session) {
        while (true) {
            Object o;
            try {
                o = inbox.take();
            } catch (InterruptedException e) {
                session.cancelBlocked();
                Thread.currentThread().interrupt();
                throw new CancellationException("interrupted while blocked");
            }
            if (o instanceof Runnable task) {
                task.run();
            } else if (o instanceof ReplyTree tree) {
                Reply r = tree.result();
                if (r != null) {
                    return r;
                }
            } else if (o == CLOSED) {
                session.cancelBlocked();
                throw new CancellationException("store closed");
            }
        }
    }
}
