package io.kevy.engine;

import io.kevy.engine.error.CommandException;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Where scripts meet the event loops: the one thread scripts run on, the busy state of the running script
 * ({@code busy-reply-threshold}), and the lock waits of other commands, which must never park an event loop
 * behind a script for good.
 *
 * <p><b>The script thread.</b> A script locks every shard and may run for as long as it likes (an endless loop
 * until SCRIPT KILL), so the transport hands EVAL, EVALSHA and an EXEC that queues one to {@link #execute}: one
 * thread, because scripts serialize on the shard locks anyway. The event loop pauses that connection (as for a
 * blocked client) and goes on serving the others.
 *
 * <p><b>Other commands while a script runs.</b> {@link #lock} takes a shard lock for a command: at once when it
 * is free; otherwise it waits in slices of {@link #SLICE_MS} ms and, once the script is past its threshold,
 * gives up with {@code -BUSY} (Redis answers BUSY from then on, and before it serves nobody: waiting until the
 * threshold is what a Redis client sees too). {@link #await} does the same for a command that takes its locks
 * itself later (SCAN, INFO, DBSIZE): it waits while a script runs and is not busy yet.
 *
 * <p>Thread-safe.
 */
public final class ScriptGate {
    /** How often a command waiting for a lock re-checks whether the script turned busy, ms. */
    static final long SLICE_MS = 10;

    /** When the running script turns busy (System.nanoTime), or 0 when no script runs. */
    private volatile long busyAtNanos;
    private final Object monitor = new Object();
    private ExecutorService executor;
    private volatile Thread scriptThread;
    /** Stops the running script even after writes (engine close), or null. */
    private volatile Runnable abort;
    private volatile ErrorReply busyReply = Errors.BUSY;
    private boolean closed;

    /**
     * Records that a script started (its locks held): it turns busy {@code thresholdMs} after {@code startNanos}
     * (never when {@code thresholdMs <= 0}: it then does not count as running for {@link #await}, as before
     * busy-reply-threshold existed); {@code abort} stops it at {@link #close}.
     */
    public void started(long startNanos, long thresholdMs, Runnable abort, ErrorReply busyReply) {
        this.abort = abort;
        this.busyReply = busyReply;
        if (thresholdMs > 0) {
            long at = startNanos + thresholdMs * 1_000_000L;
            this.busyAtNanos = at == 0 ? 1 : at;
        }
    }

    /** The {@code -BUSY} reply of the running script (EVAL's or FCALL's, Redis's slowevalerr / slowscripterr). */
    public ErrorReply busyReply() {
        return busyReply;
    }

    /** Records the end of the running script and wakes the commands {@link #await}ing it. */
    public void ended() {
        abort = null;
        busyAtNanos = 0;
        synchronized (monitor) {
            monitor.notifyAll();
        }
    }

    /** True while a script runs (busy or not). */
    public boolean running() {
        return busyAtNanos != 0;
    }

    /** True while a script has run past its busy threshold. One volatile read when no script runs. */
    public boolean busy() {
        long at = busyAtNanos;
        return at != 0 && System.nanoTime() - at >= 0;
    }

    /** True on the script thread (its commands are the script's own: never BUSY, never gated). */
    public boolean onScriptThread() {
        return Thread.currentThread() == scriptThread;
    }

    /**
     * Runs {@code task} on the script thread, after the tasks given before it.
     *
     * @throws java.util.concurrent.RejectedExecutionException after {@link #close}
     */
    public void execute(Runnable task) {
        ExecutorService e;
        synchronized (this) {
            if (closed) {
                throw new java.util.concurrent.RejectedExecutionException("engine closed");
            }
            if (executor == null) {
                executor = Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "kevy-script");
                    t.setDaemon(true);
                    scriptThread = t;
                    return t;
                });
            }
            e = executor;
        }
        e.execute(task);
    }

    /**
     * Waits while a script runs and is not busy yet; then throws {@code -BUSY} when it is busy. For a command
     * that locks shards itself (its spec takes none); returns at once when no script runs or on the script
     * thread.
     *
     * @throws CommandException {@code -BUSY} once the script is past its threshold
     */
    public void await() {
        while (running() && !onScriptThread()) {
            long left = busyAtNanos - System.nanoTime();
            if (busyAtNanos == 0) {
                return;
            }
            if (left <= 0) {
                throw new CommandException(busyReply);
            }
            synchronized (monitor) {
                if (running()) {
                    try {
                        monitor.wait(Math.max(1, Math.min(SLICE_MS, left / 1_000_000L)));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        }
    }

    /**
     * Locks {@code lock} for a command: as {@link ShardLock#lock} when it is free or soon free; while it stays
     * taken, waits in slices and throws {@code -BUSY} once a running script is past its threshold (the holder is
     * the script, or waits for it). Nothing is held when it throws.
     *
     * @throws CommandException {@code -BUSY}
     */
    public void lock(java.util.concurrent.locks.ReentrantLock lock) {
        boolean got = lock instanceof ShardLock sl ? sl.spinLock() : lock.tryLock();
        if (got || onScriptThread()) {
            if (!lock.isHeldByCurrentThread()) {
                lock.lock();
            }
            return;
        }
        try {
            while (!lock.tryLock(SLICE_MS, TimeUnit.MILLISECONDS)) {
                if (busy()) {
                    throw new CommandException(busyReply);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            lock.lock();
        }
    }

    /**
     * Stops the script thread, aborting the running script if any (at its next hook check, as SCRIPT KILL but
     * after writes too): an endless script would otherwise spin on, holding every shard lock, in a process
     * that embeds the engine.
     */
    public synchronized void close() {
        closed = true;
        Runnable a = abort;
        if (a != null) {
            a.run();
        }
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
    }
}
