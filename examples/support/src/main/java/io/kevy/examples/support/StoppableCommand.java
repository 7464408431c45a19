package io.kevy.examples.support;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Spec;

/**
 * Base of the examples' long-running picocli commands (a service that runs until Ctrl-C): {@link #call()} runs
 * {@link #run(PrintWriter)} through {@link Shutdown#runUntilStopped}, with picocli's standard output. The service
 * must return once {@link #stop} reaches zero, which the shutdown hook or a test does. Subclasses add their
 * {@code @Command} and {@code @Option}s; picocli injects the inherited {@link #spec}.
 */
public abstract class StoppableCommand implements Callable<Integer> {
    /** The command's picocli model (its output and error writers). */
    @Spec
    protected CommandLine.Model.CommandSpec spec;

    /** Counted down by Ctrl-C (the shutdown hook), or by a test. */
    public final CountDownLatch stop = new CountDownLatch(1);

    @Override
    public final Integer call() throws Exception {
        return Shutdown.runUntilStopped(stop, () -> run(spec.commandLine().getOut()));
    }

    /**
     * The service: runs until {@link #stop} reaches zero, printing to {@code out}.
     *
     * @return the exit status
     */
    protected abstract int run(PrintWriter out) throws Exception;
}
