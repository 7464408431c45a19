package io.kevy.feed.sidecar;

import io.kevy.config.ConfigException;
import io.kevy.feed.client.KevyConfigException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code kevy bridge --config bridge.toml}: runs a sidecar ({@link Sidecar}) with the sink its config names,
 * until SIGTERM, SIGINT or SIGHUP (graceful: drain, flush, commit, exit 0 within
 * {@code consumer.shutdown_timeout_ms}, else 1) or until the consumer fails (exit 1 with
 * {@code consumer.exit_on_failure}). Also {@code --check} (validate and print the settings, secrets masked),
 * {@code --sample-config TYPE} (a commented sample generated from the option tables) and the {@code cursor}
 * subcommands ({@link CursorCommand}).
 *
 * <p>Exit status: 0 stopped cleanly (or printed what was asked), 1 the consumer failed or did not drain in time,
 * 2 bad arguments or configuration (the message names file, line, key and reason).
 */
@Command(name = "kevy bridge", mixinStandardHelpOptions = true, sortOptions = false,
        subcommands = CursorCommand.class,
        description = "Forward a kevy change feed to a sink (kafka, webhook, file) as configured in a TOML file.")
public final class SidecarMain implements Callable<Integer> {
    @Option(names = "--config", paramLabel = "FILE", description = "The bridge's TOML config.")
    Path config;

    @Option(names = "--check", description = "Validate the config, print every setting (secrets masked), exit.")
    boolean check;

    @Option(names = "--sample-config", paramLabel = "TYPE",
            description = "Print a commented sample config for sink TYPE (generated from the option tables), exit.")
    String sampleType;

    @Option(names = "--options-markdown", paramLabel = "TYPE", hidden = true,
            description = "Print the Markdown key table for sink TYPE (docs/bridges.md), exit.")
    String markdownType;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        logDefaults();
        System.exit(commandLine().execute(args));
    }

    /** The picocli command line (for tests: {@code commandLine().execute(args)} runs without exiting). */
    public static CommandLine commandLine() {
        return new CommandLine(new SidecarMain());
    }

    /** slf4j-simple defaults for a service: INFO with times on stderr, client libraries at WARN. */
    static void logDefaults() {
        setDefault("org.slf4j.simpleLogger.defaultLogLevel", "info");
        setDefault("org.slf4j.simpleLogger.showDateTime", "true");
        setDefault("org.slf4j.simpleLogger.dateTimeFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX");
        setDefault("org.slf4j.simpleLogger.logFile", "System.err");
        setDefault("org.slf4j.simpleLogger.log.org.apache.kafka", "warn");
        setDefault("org.slf4j.simpleLogger.log.io.lettuce", "warn");
        setDefault("org.slf4j.simpleLogger.log.io.netty", "warn");
        LogDefaults.quietLettuceTransports();
    }

    private static void setDefault(String key, String value) {
        LogDefaults.setDefault(key, value);
    }

    /** Stops the sidecar gracefully and flushes stdout/stderr; returns the exit status: 0 clean, 1 not. */
    private static int stop(Sidecar sidecar) {
        boolean clean = sidecar.stop();
        System.out.flush();
        System.err.flush();
        return clean ? 0 : 1;
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (sampleType != null || markdownType != null) {
            String type = sampleType != null ? sampleType : markdownType;
            SinkProvider p = SinkProvider.installed().stream().filter(x -> x.type().equals(type)).findFirst()
                    .orElse(null);
            if (p == null) {
                err.println("kevy bridge: no sink type '" + type + "' in this jar (it has: " + String.join(", ",
                        SinkProvider.installed().stream().map(SinkProvider::type).toList()) + ")");
                return 2;
            }
            out.print(sampleType != null ? ConfigDocs.sample(p) : ConfigDocs.markdown(p.options()));
            out.flush();
            return 0;
        }
        if (config == null) {
            err.println("kevy bridge: --config FILE is required (kevy bridge --sample-config kafka prints a sample)");
            return 2;
        }
        SidecarConfig cfg;
        try {
            cfg = SidecarConfig.load(config, System.getenv());
        } catch (KevyConfigException | ConfigException e) {
            err.println("kevy bridge: " + e.getMessage());
            return 2;
        }
        if (check) {
            out.println("kevy bridge: " + config + " is valid (sink " + cfg.sinkType() + "):");
            Sidecar.describe(cfg, true).forEach(l -> out.println("  " + l));
            out.flush();
            return 0;
        }
        return run(cfg, err);
    }

    private static int run(SidecarConfig cfg, PrintWriter err) {
        Sidecar sidecar;
        try {
            sidecar = Sidecar.start(cfg);
        } catch (KevyConfigException | ConfigException e) {
            err.println("kevy bridge: " + e.getMessage());
            err.flush();
            return 2;
        } catch (RuntimeException e) {
            err.println("kevy bridge: could not start: " + e);
            e.printStackTrace(err);
            err.flush();
            return 1;
        }
        AtomicBoolean signalled = new AtomicBoolean();
        // SIGTERM, SIGINT and SIGHUP stop the bridge from a handler, which then exits with the stop's status; the
        // JVM's shutdown runs in full (a halt skips the files deleted on exit, such as lz4's extracted native library)
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (signalled.compareAndSet(false, true)) { // another shutdown (System.exit elsewhere, -Xrs)
                Runtime.getRuntime().halt(stop(sidecar));
            }
        }, "kevy-bridge-shutdown"));
        StopSignals.install(() -> {
            if (signalled.compareAndSet(false, true)) {
                System.exit(stop(sidecar));
            } else {
                err.println("kevy bridge: already stopping; exits when the drain ends (at most "
                        + "consumer.shutdown_timeout_ms)");
                err.flush();
            }
        });
        try {
            sidecar.terminated().toCompletableFuture().join();
        } catch (RuntimeException ignored) {
            // terminated never fails; a failure is reported by the consumer's state
        }
        if (cfg.get(SidecarOptions.CONSUMER_EXIT_ON_FAILURE) && signalled.compareAndSet(false, true)) {
            // not stopped by a signal: the consumer failed; a signal from now on finds the stop claimed
            String why = sidecar.consumer().failure().map(Throwable::getMessage).orElse("stopped");
            err.println("kevy bridge: the consumer stopped: " + why);
            err.flush();
            sidecar.stop();
            return 1;
        }
        // keep serving /healthz and /readyz (exit_on_failure = false) or let the signal's stop exit
        try {
            new CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 1;
    }
}
