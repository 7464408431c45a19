package io.kevy.examples.demo;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

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

    @Option(names = "--limit", paramLabel = "N", defaultValue = "0",
            description = "Load at most N packages (default: all).")
    int limit;

    @Option(names = "--changes", paramLabel = "N", defaultValue = "0",
            description = "Steps of the change stream (default: 1,000 + half the packages, at most 3,000).")
    int changes;

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

    private PrintStream out = System.out;
    private boolean tty = System.console() != null;

    /** Runs the demo with {@code args}, printing to {@code out} (plain lines); returns the exit status. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        DemoMain cmd = new DemoMain();
        cmd.out = out;
        cmd.tty = false;
        return new CommandLine(cmd).setOut(new java.io.PrintWriter(out, true))
                .setErr(new java.io.PrintWriter(err, true)).execute(args);
    }

    @Override
    public Integer call() throws Exception {
        Catalog catalog = Catalog.choose(data, sample, limit);
        if (webhook != null && webhookSecret == null) {
            byte[] random = new byte[32];
            new java.security.SecureRandom().nextBytes(random);
            webhookSecret = "whsec_" + java.util.Base64.getEncoder().encodeToString(random);
            out.println("webhook signing secret: " + webhookSecret);
        }
        out.println("kevy demo: one change feed, three sinks (search index, cache, JSON-lines bridge)"
                + (kafka != null ? " + a Kafka bridge" : "") + (webhook != null ? " + a webhook bridge" : ""));
        try (Demo demo = new Demo(new Demo.Options(catalog, changes, seed, keep, keep != null, kafka, webhook,
                webhookSecret), out, tty)) {
            DemoReport report = demo.run();
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

    public static void main(String[] args) {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        CommandLine cl = new CommandLine(new DemoMain());
        cl.setExecutionExceptionHandler((e, line, parsed) -> {
            line.getErr().println("kevy demo failed: " + e);
            return 1;
        });
        System.exit(cl.execute(args));
    }
}
