package io.kevy.examples.demo;

import java.io.PrintStream;

/**
 * The demo's progress: one line per phase. On a terminal the line updates in place (carriage return) as the
 * phase goes on; elsewhere (a pipe, a log, a test) each phase prints its final line only, plus a plain line at
 * most every {@link #PLAIN_INTERVAL_NANOS} for long phases. Not thread-safe: one phase at a time, from one thread.
 */
final class Progress {
    static final long PLAIN_INTERVAL_NANOS = 5_000_000_000L;
    private static final long TTY_INTERVAL_NANOS = 50_000_000L;

    private final PrintStream out;
    private final boolean tty;
    private String label = "";
    private long lastPrint;
    private int lastWidth;

    Progress(PrintStream out, boolean tty) {
        this.out = out;
        this.tty = tty;
    }

    /** Starts a phase: {@code label} heads its line (e.g. {@code "3/6 load"}). */
    void phase(String label) {
        this.label = String.format("%-12s", label);
        this.lastPrint = System.nanoTime();
        if (tty) {
            show(label + " ...");
        }
    }

    /** The phase's current state; printed when enough time passed since the last print. */
    void update(String text) {
        long now = System.nanoTime();
        long interval = tty ? TTY_INTERVAL_NANOS : PLAIN_INTERVAL_NANOS;
        if (now - lastPrint < interval) {
            return;
        }
        lastPrint = now;
        if (tty) {
            show(label + text);
        } else {
            out.println(label + text);
        }
    }

    /** Ends the phase with its final line. */
    void done(String text) {
        if (tty) {
            show(label + text);
            out.println();
            lastWidth = 0;
        } else {
            out.println(label + text);
        }
        out.flush();
    }

    /** A line outside the phases. */
    void line(String text) {
        out.println(text);
    }

    private void show(String text) {
        StringBuilder sb = new StringBuilder("\r").append(text);
        for (int i = text.length(); i < lastWidth; i++) {
            sb.append(' ');
        }
        lastWidth = text.length();
        out.print(sb);
        out.flush();
    }
}
