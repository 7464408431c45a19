package io.kevy.engine.session;

import io.kevy.engine.error.CommandException;
import io.kevy.engine.error.ErrorReply;
import io.kevy.resp.ReplySink;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
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
 * <p>Life cycle: a handler calls {@code Call.block(waiter, timeoutMs)}, registers the waiter where the awaited
 * event is signalled, and returns; the dispatcher then {@linkplain #arm arms} the timeout and reports
 * {@code Outcome.BLOCKED}, so the transport stops processing the session's commands. The block then ends in
 * exactly one of these ways, whichever first {@linkplain #claim claims} it (a CAS on the state):
 * <ul>
 *   <li>another thread serves it under a shard lock (a push to a key BLPOP waits on): it claims, changes the
 *       data, and {@linkplain #complete completes} with the reply;</li>
 *   <li>{@link #wake()} (any thread, also under a shard lock) posts one {@link Waiter#attempt attempt} to the
 *       session's thread through {@link ClientChannel#execute}; wakes are coalesced; an attempt that replies
 *       claims first (a waiter that changes data claims before changing it);</li>
 *   <li>the timeout claims on the session's thread and replies {@link Waiter#timedOut};</li>
 *   <li>{@link #cancel()} (disconnect, CLIENT KILL, embedded interrupt or close) ends it without a reply.</li>
 * </ul>
 * A reply goes out through {@link ClientChannel#sendAsync}, which also resumes the session's command loop;
 * {@link Waiter#release} runs once, on the session's thread (or the cancelling one), with no shard lock held.
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
    /** The thread running an attempt right now, so a claim made by that attempt is recognised. */
    private volatile Thread attemptThread;
    /** Set by a claim made inside the running attempt; confined to the session's thread. */
    private boolean claimedByAttempt;
    /** Set by the running attempt when its reply follows a change ({@link #markWrote}); session's thread. */
    private boolean attemptWrote;

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

    /** True until the block has ended (claimed to reply, timed out or cancelled). */
    public boolean waiting() {
        return state.get() == WAITING;
    }

    /**
     * Marks the session blocked and starts the timeout on {@code timer} (the engine's). Called by the dispatcher once
     * the handler returned and its locks are released.
     */
    public void arm(ScheduledExecutorService timer) {
        session.blockedClient(this);
        if (timeoutMs > 0 && waiting()) {
            try {
                this.timer = timer.schedule(this::postTimeout, timeoutMs, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                cancel(); // the engine is closing
            }
        }
        if (!waiting()) {
            // served, or cancelled while being armed (the connection closed): undo
            session.clearBlockedClient(this);
            cancelTimer();
        }
    }

    /**
     * Takes the right to end the block with a reply: true for exactly one caller, the first; false once the
     * block was claimed, timed out or cancelled. Whoever changes data for the waiter claims first, and on true
     * must then {@link #complete}. Safe from any thread, also under a shard lock; cancels the timeout.
     */
    public boolean claim() {
        if (!state.compareAndSet(WAITING, DONE)) {
            return false;
        }
        cancelTimer();
        if (Thread.currentThread() == attemptThread) {
            claimedByAttempt = true;
        }
        return true;
    }

    /**
     * Ends a block {@linkplain #claim claimed} by the caller: sends {@code out} (produced with the channel's
     * {@link ClientChannel#newAsyncReply}) and has {@link Waiter#release} run on the session's thread. Safe from
     * any thread, also under a shard lock: it only enqueues.
     *
     * @param wrote true when the reply follows a change made for the session (held under appendfsync always)
     */
    public void complete(ReplySink out, boolean wrote) {
        try {
            session.channel().execute(this::end);
            session.channel().sendAsync(out, wrote);
        } catch (RejectedExecutionException e) {
            // the transport is shutting down: nobody to reply to; the registries drop the ended waiter
            out.discard();
        }
    }

    /** Records, during an {@link Waiter#attempt attempt}, that its reply follows a change (see {@link #complete}). */
    public void markWrote() {
        attemptWrote = true;
    }

    /**
     * Signals that the awaited event may have happened: schedules one attempt on the session's thread. Safe from
     * any thread, also while holding a shard lock; cheap and never blocking.
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

    /** Ends the block without a reply (the connection is gone). Idempotent; safe from any thread holding no lock. */
    public void cancel() {
        if (state.compareAndSet(WAITING, DONE)) {
            cancelTimer();
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
        claimedByAttempt = false;
        attemptWrote = false;
        attemptThread = Thread.currentThread();
        try {
            done = waiter.attempt(this, out);
        } catch (CommandException e) {
            out.error(e.reply());
            done = true;
        } catch (RuntimeException e) {
            log.error("blocked command of client {} failed", session.id(), e);
            out.error(ErrorReply.err("internal error in a blocked command: " + e));
            done = true;
        } finally {
            attemptThread = null;
        }
        if (done && (claimedByAttempt || claim())) {
            complete(out, attemptWrote);
        } else {
            out.discard(); // not replied, or the block ended meanwhile (its reply, if any, is someone else's)
        }
    }

    private void runTimeout() {
        if (!claim()) {
            return;
        }
        ReplySink out = session.channel().newAsyncReply();
        waiter.timedOut(out);
        complete(out, false);
    }

    private void end() {
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
