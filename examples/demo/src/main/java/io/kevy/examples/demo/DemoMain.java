package io.kevy.examples.demo;

import io.kevy.persist.FileErrors;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bin/kevy demo} ({@code java -jar examples/demo/target/kevy-demo.jar}): the end-to-end demo
 * ({@link Demo}). Exit status: 0 when the consistency check passed, 1 when it did not or a step failed, 2 for
 * bad arguments.
 */
@Command(name = "kevy demo", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"kevy-server, a Lucene search index, a Caffeine cache and a JSON-lines bridge, fed by one "
                + "change feed: loads the Debian package catalog, changes it, forces a resync of the index, and "
                + "checks that every sink agrees with the server."})
public final class DemoMain implements Callable<Integer> {
    @Option(names = "--data", paramLabel = "FILE",
            description = "A dpkg status or Packages file, plain or gzip (default: /var/lib/dpkg/status, or the "
                    + "bundled sample where it is missing).")
    Path data;

    @Option(names = "--sample", description = "Use the bundled sample (3,172 packages of Debian 12) whatever else "
            + "exists.")
    boolean sample;

    @Option(names = "--limit", paramLabel = "N",
            description = "Load at most N packages, at least " + MIN_LIMIT + " (default: all).")
    Integer limit;

    @Option(names = "--changes", paramLabel = "N",
            description = "Steps of the change stream, at least 1 (default: 1,000 + half the packages, at most "
                    + "3,000).")
    Integer changes;

    @Option(names = "--seed", defaultValue = "1",
            description = "Seed of the change stream (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--kafka", paramLabel = "BOOTSTRAP",
            description = "Also run a Kafka bridge (bridge-kafka) to these brokers, topic kevy.demo.")
    String kafka;

    @Option(names = "--webhook", paramLabel = "URL",
            description = "Also run a webhook bridge (bridge-webhook) POSTing signed batches to URL.")
    String webhook;

    @Option(names = "--webhook-secret", paramLabel = "whsec_...",
            description = "The webhook's signing secret (default: a new one, printed).")
    String webhookSecret;

    @Option(names = "--keep", paramLabel = "DIR",
            description = "Keep the data dir, the index and the JSON lines in DIR (default: a temporary directory, "
                    + "deleted at the end).")
    Path keep;

    /**
     * The fewest packages {@code --limit} takes: the resync step (5/6) must overflow a 256 KiB backlog on both
     * shards within {@link ResyncBurst#MAX_ROUNDS} bursts, so each shard needs packages of its own. Measured on
     * the sample: 10 packages never overflow it, 20 take 435 of the 500 bursts, 50 take 156, which leaves room for
     * the packages the change stream removes.
     */
    static final int MIN_LIMIT = 50;

    @Spec
    CommandSpec spec;

    private PrintStream out = System.out;
    private PrintStream err = System.err;
    private boolean tty = System.console() != null;
    /** The demo while it runs, for the shutdown hook; null before and after. */
    private volatile Demo running;
    private volatile boolean interrupted;

    /** Runs the demo with {@code args}, printing to {@code out} (plain lines); returns the exit status. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        return run(new DemoMain(), args, out, err);
    }

    /** {@link #run(String[], PrintStream, PrintStream)} with a given command, for a test to interrupt. */
    static int run(DemoMain cmd, String[] args, PrintStream out, PrintStream err) {
        cmd.out = out;
        cmd.err = err;
        cmd.tty = false;
        return commandLine(cmd).setOut(new java.io.PrintWriter(out, true))
                .setErr(new java.io.PrintWriter(err, true)).execute(args);
    }

    private static CommandLine commandLine(DemoMain cmd) {
        CommandLine cl = new CommandLine(cmd);
        cl.setExecutionExceptionHandler((e, line, parsed) -> {
            if (!cmd.interrupted) {
                line.getErr().println("kevy demo failed: " + message(e));
            }
            return 1;
        });
        return cl;
    }

    /** A failure as one line, without a Java class name where the message says it all. */
    static String message(Throwable e) {
        if (e instanceof java.io.UncheckedIOException u && u.getCause() != null) {
            e = u.getCause();
        }
        if (e instanceof java.io.IOException io) {
            return FileErrors.readFailure(io);
        }
        if ((e instanceof IllegalArgumentException || e instanceof IllegalStateException) && e.getMessage() != null) {
            return e.getMessage();
        }
        return String.valueOf(e);
    }

    @Override
    public Integer call() throws Exception {
        if (limit != null && limit < MIN_LIMIT) {
            throw new ParameterException(spec.commandLine(), "--limit must be at least " + MIN_LIMIT
                    + " (the resync step needs enough packages), not " + limit);
        }
        if (changes != null && changes < 1) {
            throw new ParameterException(spec.commandLine(), "--changes must be at least 1, not " + changes);
        }
        Catalog catalog;
        try {
            catalog = Catalog.choose(data, sample, limit == null ? 0 : limit);
        } catch (java.io.UncheckedIOException | IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), message(e), e);
        }
        if (webhook != null && webhookSecret == null) {
            byte[] random = new byte[32];
            new java.security.SecureRandom().nextBytes(random);
            webhookSecret = "whsec_" + java.util.Base64.getEncoder().encodeToString(random);
            out.println("webhook signing secret: " + webhookSecret);
        }
        out.println("kevy demo: one change feed, three sinks (search index, cache, JSON-lines bridge)"
                + (kafka != null ? " + a Kafka bridge" : "") + (webhook != null ? " + a webhook bridge" : ""));
        try (Demo demo = new Demo(new Demo.Options(catalog, changes == null ? 0 : changes, seed, keep,
                keep != null, kafka, webhook, webhookSecret), out, tty)) {
            running = demo;
            DemoReport report;
            try {
                report = demo.run();
            } finally {
                running = null;
            }
            report.print(out);
            if (keep != null) {
                out.println("Kept in " + demo.work() + " (kevy/ data dir, index/, changes.jsonl, bridge-file.toml)");
            }
            return exitStatus(report);
        }
    }

    /** 0 when everything was consistent, else 1. */
    static int exitStatus(DemoReport report) {
        return report.consistent() ? 0 : 1;
    }

    /**
     * What the shutdown hook does (Ctrl-C, SIGTERM): while the demo runs, stops its sinks and server, deletes its
     * temporary directory (not a {@code --keep} one) and prints one line saying so. Nothing once it has ended.
     */
    /** The demo while it runs, else null. */
    Demo running() {
        return running;
    }

    void interrupt() {
        Demo demo = running;
        if (demo == null) {
            return;
        }
        interrupted = true;
        demo.close();
        Path work = demo.work();
        err.println(work == null ? "interrupted" : keep != null ? "interrupted; kept " + work
                : "interrupted; removed " + work);
    }

    public static void main(String[] args) {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        io.kevy.feed.sidecar.LogDefaults.quietLettuceTransports();
        DemoMain cmd = new DemoMain();
        // on SIGINT the JVM exits with 130 after its hooks have run
        Runtime.getRuntime().addShutdownHook(new Thread(cmd::interrupt, "kevy-demo-interrupted"));
        System.exit(commandLine(cmd).execute(args));
    }
}
