package io.kevy.feed.client.cli;

import io.kevy.feed.client.Batch;
import io.kevy.feed.client.Change;
import io.kevy.feed.client.FeedConsumer;
import io.kevy.feed.client.FeedSource;
import io.kevy.feed.client.KevyException;
import io.kevy.feed.client.StartFrom;
import io.kevy.feed.client.envelope.ChangeEnvelopes;
import io.lettuce.core.codec.ByteArrayCodec;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code kevy tail}: follows a kevy server's change feed like {@code tail -f} and prints each change, as JSON
 * lines (one change envelope per line, {@code docs/schema/change-envelope.schema.json}: keys and values are
 * JSON strings when they are valid UTF-8, else {@code {"base64": "..."}}) or as RESP commands that replay the
 * feed ({@code --format resp | redis-cli --pipe}). Ctrl-C stops it cleanly: the consumer closes, the output is
 * flushed. Exit status: 0 after a stop, 1 when the consumer fails, 2 for bad arguments.
 */
@Command(name = "kevy tail", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Print the change feed of a kevy server as it happens.")
public final class TailCommand implements Callable<Integer> {
    /** How changes are printed. */
    enum Format { json, resp }

    @Option(names = "--uri", defaultValue = "redis://127.0.0.1:6004",
            description = "Server URI: redis://[:password@]host:port[?timeout=5s], rediss:// (TLS) or "
                    + "redis-sentinel://host:port,host:port?sentinelMasterId=name (follows failovers; default: "
                    + "${DEFAULT-VALUE}).")
    String uri;

    @Option(names = "--prefix", paramLabel = "P",
            description = "Only keys starting with P (repeatable; default: every key).")
    List<String> prefixes = new ArrayList<>();

    @Option(names = "--from", defaultValue = "tail", paramLabel = "tail|0|rebuild",
            description = "tail: only new changes (default); 0: from the oldest retained change; rebuild: every "
                    + "current key first (op snapshot), then new changes.")
    String from;

    @Option(names = "--format", defaultValue = "json", paramLabel = "json|resp",
            description = "json: one CloudEvents change envelope per line (default); resp: RESP commands.")
    Format format;

    @Option(names = "--verbose",
            description = "Also log the consumer's warnings and the stack trace of a failure (default: one line).")
    boolean verbose;

    private PrintStream out = System.out;
    private PrintStream err = System.err;
    private CompletableFuture<Void> stop = new CompletableFuture<>();

    /** Runs the command with arguments and streams; returns when {@code stop} completes or the consumer fails. */
    public static int run(String[] args, PrintStream out, PrintStream err, CompletableFuture<Void> stop) {
        TailCommand cmd = new TailCommand();
        cmd.out = out;
        cmd.err = err;
        cmd.stop = stop;
        return new CommandLine(cmd).setOut(new java.io.PrintWriter(out, true))
                .setErr(new java.io.PrintWriter(err, true)).execute(args);
    }

    public static void main(String[] args) {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        io.kevy.feed.sidecar.LogDefaults.quietLettuceTransports();
        if (!List.of(args).contains("--verbose")) {
            // the failure is printed as one line by call(); the consumer's log would add its stack trace
            System.setProperty("org.slf4j.simpleLogger.log." + FeedConsumer.class.getName(), "off");
        }
        CompletableFuture<Void> stop = new CompletableFuture<>();
        CompletableFuture<Integer> exit = new CompletableFuture<>();
        Thread hook = new Thread(() -> {
            stop.complete(null);
            try {
                exit.get();
            } catch (Exception e) {
                // exiting anyway
            }
        }, "kevy-tail-stop");
        java.lang.Runtime.getRuntime().addShutdownHook(hook);
        int code = run(args, new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false),
                System.err, stop);
        exit.complete(code);
        System.exit(code);
    }

    @Override
    public Integer call() throws Exception {
        StartFrom start;
        switch (from) {
            case "tail":
                start = StartFrom.TAIL;
                break;
            case "0":
                start = StartFrom.EARLIEST;
                break;
            case "rebuild":
                start = StartFrom.REBUILD;
                break;
            default:
                err.println("kevy tail: --from must be tail, 0 or rebuild, got '" + from + "'");
                return 2;
        }
        FeedSource source;
        try {
            source = FeedSource.connect(uri);
        } catch (KevyException e) {
            err.println("kevy tail: " + withHint(e.getMessage()));
            return 2;
        }
        ChangeEnvelopes envelopes = ChangeEnvelopes.forSource(source.authority());
        FeedConsumer<byte[], byte[]> consumer = FeedConsumer.builder(ByteArrayCodec.INSTANCE).source(source)
                .name("kevy-tail").prefixes(prefixes.toArray(new String[0])).startFrom(start)
                .handler(batch -> print(batch, envelopes)).build();
        try {
            consumer.start();
            CompletableFuture.anyOf(stop, consumer.terminated().toCompletableFuture()).get();
        } finally {
            consumer.close();
            source.close();
            out.flush();
        }
        if (consumer.failure().isPresent()) {
            err.println("kevy tail: " + withHint(consumer.failure().get().getMessage()));
            return 1;
        }
        return 0;
    }

    /**
     * {@code message} with what to do when the server has no feed: a kevy-server with the feed off replies
     * {@code ERR feed disabled (set [feed] enabled = true)} (feed contract), plain Redis knows no FEED.* command.
     */
    static String withHint(String message) {
        if (message == null) {
            return "failed";
        }
        if (message.contains("feed disabled")) {
            return message + "; start kevy-server with --feed, or set [feed] enabled = true";
        }
        if (message.contains("unknown command 'FEED.")) {
            return message.strip() + " (is this a kevy-server? Redis has no change feed)";
        }
        return message;
    }

    private void print(Batch<byte[], byte[]> batch, ChangeEnvelopes envelopes) throws IOException {
        synchronized (out) {
            for (Change<byte[], byte[]> c : batch) {
                if (format == Format.json) {
                    out.write(ChangeEnvelopes.toBytes(envelopes.envelope(c)));
                    out.write('\n');
                } else {
                    for (List<byte[]> cmd : ChangeCommands.of(c)) {
                        out.write(ChangeCommands.resp(cmd));
                    }
                }
            }
            out.flush();
            if (out.checkError()) {
                throw new IOException("output closed");
            }
        }
    }
}
