package io.kevy.examples.search;

import io.kevy.examples.support.StoppableCommand;
import io.kevy.feed.client.FeedSource;
import io.kevy.feed.sidecar.Secrets;
import io.kevy.feed.client.StartFrom;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code java -jar kevy-search-index.jar load|follow|query}: loads the Debian package catalog into kevy, keeps
 * a Lucene index of the {@code pkg:*} hashes current from the change feed, and searches it. Exit status: 0 on
 * success (and after Ctrl-C for {@code follow}), 1 on a failure, 2 for bad arguments.
 */
@Command(name = "kevy-search-index", mixinStandardHelpOptions = true,
        description = "A Lucene index of kevy hashes kept current from the change feed.",
        subcommands = {SearchIndexMain.Load.class, SearchIndexMain.Follow.class, SearchIndexMain.Search.class})
public final class SearchIndexMain {
    static final String DEFAULT_URI = "redis://127.0.0.1:6004";

    public static void main(String[] args) {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.exit(new CommandLine(new SearchIndexMain()).execute(args));
    }

    @Command(name = "load", mixinStandardHelpOptions = true,
            description = "Write the Debian package catalog into kevy as pkg:<name> hashes.")
    static final class Load implements Callable<Integer> {
        @Option(names = "--uri", defaultValue = DEFAULT_URI, description = "kevy server (default: ${DEFAULT-VALUE}).")
        String uri;

        @Option(names = "--file", description = "A dpkg status or Packages file, plain or gzip (default: "
                + "/var/lib/dpkg/status, or the bundled sample where it is missing).")
        Path file;

        @Option(names = "--sample", description = "Load the bundled sample of Debian 12 (3,172 packages).")
        boolean sample;

        @Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            List<DebianPackage> packages;
            String from;
            if (sample || (file == null && !Files.isReadable(DebianPackages.DPKG_STATUS))) {
                packages = DebianPackages.sample();
                from = "the bundled sample";
            } else {
                Path f = file == null ? DebianPackages.DPKG_STATUS : file;
                packages = DebianPackages.read(f);
                from = f.toString();
            }
            RedisClient client = RedisClient.create(uri);
            try (StatefulRedisConnection<String, String> conn = client.connect()) {
                int n = PackageLoader.load(conn, packages);
                spec.commandLine().getOut().printf("wrote %d packages from %s as pkg:<name> hashes%n", n, from);
            } finally {
                client.shutdown();
            }
            return 0;
        }
    }

    @Command(name = "follow", mixinStandardHelpOptions = true,
            description = "Keep a Lucene index of the pkg:* hashes current from the feed, until Ctrl-C.")
    static final class Follow extends StoppableCommand {
        @Option(names = "--uri", defaultValue = DEFAULT_URI, description = "kevy server, started with --feed "
                + "(default: ${DEFAULT-VALUE}).")
        String uri;

        @Option(names = "--index", required = true, description = "The index directory (created if missing).")
        Path dir;

        @Option(names = "--prefix", defaultValue = "pkg:", description = "Key prefix (default: ${DEFAULT-VALUE}).")
        String prefix;

        @Override
        protected int run(PrintWriter out) throws Exception {
            try (HashIndex index = HashIndex.open(dir);
                 IndexCursorStore cursors = new IndexCursorStore(index, IndexCursorStore.DEFAULT_INTERVAL);
                 FeedSource source = FeedSource.connect(uri);
                 IndexUpdater updater = new IndexUpdater(index, source, "search-index", prefix, cursors,
                         b -> b.startFrom(StartFrom.REBUILD))) {
                updater.start();
                out.printf("indexing %s* of %s into %s: %d documents (Ctrl-C stops)%n", prefix, Secrets.maskUri(uri), dir,
                        index.count());
                out.flush();
                while (!stop.await(1, TimeUnit.SECONDS)) {
                    if (updater.consumer().failure().isPresent()) {
                        spec.commandLine().getErr().println(updater.consumer().failure().get().getMessage());
                        return 1;
                    }
                }
                out.printf("stopped: %d documents%n", index.count());
            }
            return 0;
        }
    }

    @Command(name = "query", mixinStandardHelpOptions = true,
            description = "Search the index (its last commit; a running 'follow' commits every second).")
    static final class Search implements Callable<Integer> {
        @Option(names = "--index", required = true, description = "The index directory.")
        Path dir;

        @Option(names = "--top", defaultValue = "10", description = "Hits to show (default: ${DEFAULT-VALUE}).")
        int top;

        @Parameters(arity = "1..*", paramLabel = "QUERY",
                description = "Lucene query syntax: compression library, section:python AND yaml, name:lib*")
        List<String> query;

        @Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            String q = String.join(" ", query);
            List<HashIndex.Hit> hits = HashIndex.searchCommitted(dir, q, top);
            out.printf("%d hit(s) for %s%n", hits.size(), q);
            for (HashIndex.Hit h : hits) {
                out.println(Hits.line(h));
            }
            return 0;
        }
    }
}
