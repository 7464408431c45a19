package io.kevy.engine.command;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The per-engine statistics of every command of a {@link CommandTable} (INFO commandstats: calls, microseconds,
 * rejected and failed calls). Kept per engine, not in the shared {@link CommandSpec}s, so that several engines in
 * one JVM (a server and an embedded store, or tests) do not mix their figures.
 *
 * <p>Thread-safe: the map is filled at construction and never changes; counters are {@link LongAdder}s.
 */
public final class CommandStats {
    /** One command's counters. */
    public static final class Counters {
        private final LongAdder calls = new LongAdder();
        private final LongAdder micros = new LongAdder();
        private final LongAdder rejected = new LongAdder();
        private final LongAdder failed = new LongAdder();

        public long calls() {
            return calls.sum();
        }

        /** Total execution time, microseconds. */
        public long micros() {
            return micros.sum();
        }

        /** Calls refused before execution (arity, authentication). */
        public long rejected() {
            return rejected.sum();
        }

        /** Executions that replied an error. */
        public long failed() {
            return failed.sum();
        }

        void reset() {
            calls.reset();
            micros.reset();
            rejected.reset();
            failed.reset();
        }
    }

    private final Map<CommandSpec, Counters> counters = new IdentityHashMap<>();

    /** Counters for every command and subcommand of {@code table}. */
    public CommandStats(CommandTable table) {
        for (CommandSpec s : table.all()) {
            counters.put(s, new Counters());
            for (CommandSpec sub : s.subcommands().values()) {
                counters.put(sub, new Counters());
            }
        }
    }

    /** The counters of {@code spec} (a command of the table this was built from). */
    public Counters of(CommandSpec spec) {
        return counters.get(spec);
    }

    /** Records one execution of {@code spec} that took {@code micros}. */
    void called(CommandSpec spec, long micros, boolean failedCall) {
        Counters c = counters.get(spec);
        c.calls.increment();
        c.micros.add(micros);
        if (failedCall) {
            c.failed.increment();
        }
    }

    /** Records a call of {@code spec} rejected before execution (arity, authentication, ...). */
    void rejected(CommandSpec spec) {
        counters.get(spec).rejected.increment();
    }

    /** Executions of every command since start or the last {@link #reset}. */
    public long totalCalls() {
        long n = 0;
        for (Counters c : counters.values()) {
            n += c.calls();
        }
        return n;
    }

    /** CONFIG RESETSTAT. */
    public void reset() {
        counters.values().forEach(Counters::reset);
    }
}
