package io.kevy.server;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The server-wide budget for what clients make the server buffer ({@code maxmemory-clients}): the input of
 * partial commands (unparsed bytes plus the arguments already parsed, with their per-argument heap overhead) and
 * unsent replies, summed over every connection. A connection charges its figure here after every read and every
 * flush ({@link ClientBuffers}); a charge that would take the total over the budget is refused and the
 * connection is closed, so the total charged never exceeds the budget.
 *
 * <p>Also keeps Redis's {@code client_recent_max_input_buffer} and {@code client_recent_max_output_buffer}: the
 * largest figures of one client over the last 8 seconds (Redis's {@code CLIENTS_PEAK_MEM_USAGE_SLOTS}).
 *
 * <p>Thread-safe (the event loops charge concurrently; the fast path of a connection that buffers nothing does
 * not touch this object at all).
 */
final class ClientMemory {
    private final AtomicLong used = new AtomicLong();
    private final RecentMax recentInput = new RecentMax();
    private final RecentMax recentOutput = new RecentMax();
    private volatile long budget;

    /** @param budget bytes; 0 means no budget (Redis's {@code maxmemory-clients 0}) */
    ClientMemory(long budget) {
        this.budget = budget;
    }

    /** The budget, bytes; 0 when there is none. */
    long budget() {
        return budget;
    }

    void budget(long bytes) {
        this.budget = bytes;
    }

    /** Bytes charged now by every connection together. */
    long used() {
        return used.get();
    }

    /**
     * Adds {@code delta} bytes (negative releases). A positive delta that would take the total over the budget is
     * not charged.
     *
     * @return false when refused
     */
    boolean charge(long delta) {
        if (delta <= 0) {
            used.addAndGet(delta);
            return true;
        }
        while (true) {
            long cur = used.get();
            long b = budget;
            if (b > 0 && cur + delta > b) {
                return false;
            }
            if (used.compareAndSet(cur, cur + delta)) {
                return true;
            }
        }
    }

    void recordInput(long bytes) {
        recentInput.record(bytes);
    }

    void recordOutput(long bytes) {
        recentOutput.record(bytes);
    }

    long recentMaxInput() {
        return recentInput.get();
    }

    long recentMaxOutput() {
        return recentOutput.get();
    }

    /**
     * The largest value recorded in the last 8 one-second slots. Thread-safe; a race between two records in a
     * new second may lose the smaller one, which only lowers a statistic.
     */
    static final class RecentMax {
        private static final int SLOTS = 8;
        private final long[] second = new long[SLOTS];
        private final long[] max = new long[SLOTS];

        synchronized void record(long v) {
            long now = System.nanoTime() / 1_000_000_000L;
            int i = (int) (now % SLOTS);
            if (second[i] != now) {
                second[i] = now;
                max[i] = 0;
            }
            if (v > max[i]) {
                max[i] = v;
            }
        }

        synchronized long get() {
            long now = System.nanoTime() / 1_000_000_000L;
            long m = 0;
            for (int i = 0; i < SLOTS; i++) {
                if (now - second[i] < SLOTS) {
                    m = Math.max(m, max[i]);
                }
            }
            return m;
        }
    }
}
