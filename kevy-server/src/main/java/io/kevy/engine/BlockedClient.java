package io.kevy.engine;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A session parked on a blocking command: the general "park a waiter" mechanism of the dispatcher
 * (architecture: blocking commands register a waiter and are completed on the connection's own event loop;
 * they never park a Netty thread).
 *
 * <p>Life cycle: a handler calls {@code Call.block(waiter, timeoutMs)}, registers {@link #wake()} where the
 * awaited event is signalled, and returns; the dispatcher then {@linkplain #arm arms} the timeout and reports
 * {@code Outcome.BLOCKED}, so the transport stops processing the session's commands. From then on:
 * <ul>
 *   <li>{@link #wake()} (any thread, also under a shard lock) posts one {@link Waiter#attempt attempt} to the
 *       session's thread through {@link ClientChannel#execute}; wakes are coalesced;</li>
 *   <li>the timeout posts {@link Waiter#timedOut} the same way;</li>
 *   <li>{@link #cancel()} (disconnect, CLIENT KILL, embedded interrupt or close) ends it without a reply.</li>
 * </ul>
 * The first of "attempt replied", "timed out" and "cancelled" wins (a CAS on the state); the reply then goes
 * out through {@link ClientChannel#sendAsync}, which also resumes the session's command loop.
 *
 * <p>Thread-safe.
 */
public final class BlockedClient {
    private static final Logger log = LoggerFactory.getLogger(BlockedClient.class);
    private static final int WAITING = 0;
    private static final int DONE = 1;

    private final Session session;
    private final Waiter waiter;
    private final long timeoutMs;
    private final AtomicInteger state = new AtomicInteger(WAITING);
    private final AtomicBoolean attemptPosted = new AtomicBoolean();
    private volatile ScheduledFuture<?> timer;

    /**
     * @param timeoutMs how long to wait, in ms; 0 means no limit
     */
    public BlockedClient(Session session, Waiter waiter, long timeoutMs) {
        if (timeoutMs < 0) {
            throw new IllegalArgumentException("timeout must not be negative: " + timeoutMs);
        }
        this.session = session;
        this.waiter = waiter;
        this.timeoutMs = timeoutMs;
    }

    public Session session() {
        return session;
    }

    /** The timeout in ms, 0 for none. */
    public long timeoutMs() {
        return timeoutMs;
    }

    /** True until the block has ended (replied, timed out or cancelled). */
    public boolean waiting() {
        return state.get() == WAITING;
    }

    /**
     * Marks the session blocked and starts the timeout on {@code engine}'s timer. Called by the dispatcher once
     * the handler returned and its locks are released.
     */
    public void arm(Engine engine) {
        session.blockedClient(this);
        if (timeoutMs > 0 && waiting()) {
            try {
                timer = engine.timer().schedule(this::postTimeout, timeoutMs, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                cancel(); // the engine is closing
            }
        }
        if (!waiting()) {
            // cancelled while being armed (the connection closed): undo
            session.clearBlockedClient(this);
            cancelTimer();
        }
    }

    /**
     * Signals that the awaited event may have happened: schedules one attempt on the session's thread. Safe
     * from any thread, also while holding a shard lock; cheap and never blocking.
     */
    public void wake() {
        if (waiting() && attemptPosted.compareAndSet(false, true)) {
            try {
                session.channel().execute(this::runAttempt);
            } catch (RejectedExecutionException e) {
                // the transport is shutting down; the caller may hold a shard lock, so no release here
                if (state.compareAndSet(WAITING, DONE)) {
                    cancelTimer();
                    session.clearBlockedClient(this);
                }
            }
        }
    }

    /** Ends the block without a reply (the connection is gone). Idempotent; safe from any thread. */
    public void cancel() {
        if (state.compareAndSet(WAITING, DONE)) {
            end();
        }
    }

    /** Posts the timeout to the session's thread (from the timer thread, which holds no lock). */
    private void postTimeout() {
        try {
            session.channel().execute(this::runTimeout);
        } catch (RejectedExecutionException e) {
            cancel(); // the transport is shutting down
        }
    }

    private void runAttempt() {
        attemptPosted.set(false);
        if (!waiting()) {
            return;
        }
        ReplySink out = session.channel().newAsyncReply();
        boolean done;
        try {
            done = waiter.attempt(this, out);
        } catch (CommandException e) {
            out.error(e.reply());
            done = true;
        } catch (RuntimeException e) {
            log.error("blocked command of client {} failed", session.id(), e);
            out.error(ErrorReply.err("internal error in a blocked command: " + e));
            done = true;
        }
        if (done) {
            finish(out);
        }
    }

    private void runTimeout() {
        if (!waiting()) {
            return;
        }
        ReplySink out = session.channel().newAsyncReply();
        waiter.timedOut(out);
        finish(out);
    }

    private void finish(ReplySink out) {
        if (state.compareAndSet(WAITING, DONE)) {
            end();
        }
        // after a cancellation the channel is closing and only releases the reply's buffers
        session.channel().sendAsync(out);
    }

    private void end() {
        cancelTimer();
        waiter.release();
        session.clearBlockedClient(this);
    }

    private void cancelTimer() {
        ScheduledFuture<?> t = timer;
        if (t != null) {
            t.cancel(false);
        }
    }
}
