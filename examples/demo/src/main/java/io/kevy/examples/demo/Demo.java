package io.kevy.examples.demo;

import io.kevy.examples.cache.CacheInvalidator;
import io.kevy.examples.cache.HashCache;
import io.kevy.examples.cache.HashService;
import io.kevy.examples.search.DebianPackage;
import io.kevy.examples.search.HashIndex;
import io.kevy.examples.search.IndexCursorStore;
import io.kevy.examples.search.IndexUpdater;
import io.kevy.examples.search.PackageLoader;
import io.kevy.examples.support.HoldBack;
import io.kevy.feed.client.FeedConsumer;
import io.kevy.feed.client.FeedSource;
import io.kevy.feed.client.StartFrom;
import io.kevy.feed.client.metrics.FeedConsumerMetrics;
import io.kevy.feed.sidecar.Sidecar;
import io.kevy.feed.sidecar.SidecarConfig;
import io.kevy.server.KevyServer;
import io.kevy.server.config.ServerConfig;
import io.kevy.server.config.ServerOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

/**
 * The end-to-end demo ({@code bin/kevy demo}), in six steps:
 * <ol>
 *   <li>kevy-server in-process: feed on, 2 shards, a temporary data dir, a small backlog (256 KiB per shard);</li>
 *   <li>the search-index updater (Lucene, {@code pkg:*}), the cache invalidator behind its HTTP service
 *       ({@code GET /packages/{name}}), and a bridge (the sidecar runtime) with the JSON-lines file sink;</li>
 *   <li>the Debian package catalog loaded as {@code HSET pkg:<name> ...};</li>
 *   <li>a change stream ({@link ChangeStream}): version bumps, maintainer changes, removals, re-adds, and users
 *       viewing packages through the cache, which leaves TTL'd {@code viewed:*} keys;</li>
 *   <li>the indexer held while bursts overflow its backlog ({@link ResyncBurst}): released, it gets FEEDRESYNC
 *       and rebuilds, sweeping the documents of packages deleted meanwhile;</li>
 *   <li>the summary ({@link DemoReport}): writes, frames, per-sink deliveries, resyncs and latency, the
 *       consistency check ({@link Consistency}: index = PREFIX.STATS = JSON-lines final state, fields and cache
 *       included) and three sample queries.</li>
 * </ol>
 * Between steps (and every few hundred writes) the demo waits until every consumer that is not held has caught
 * up ({@link FeedConsumer#awaitCaughtUp}), so only the held indexer ever falls out of its backlog. Not
 * thread-safe; run once.
 */
final class Demo implements AutoCloseable {
    static final String PREFIX = "pkg:";
    static final int SHARDS = 2;
    static final long BACKLOG_BYTES = 256 * 1024;
    static final List<String> QUERIES = List.of("compression library", "python", "xml");
    private static final Duration CATCH_UP = Duration.ofSeconds(60);
    private static final int PACE_EVERY = 250;

    /**
     * What to run.
     *
     * @param catalog the packages and where they came from
     * @param changes steps of the change stream (0 = 1,000 + half the catalog, at most 3,000)
     * @param seed    the change stream's seed
     * @param workDir where the data dir, the index and the JSON lines go (a new temporary directory when null,
     *                deleted at the end unless {@code keep})
     * @param kafka   Kafka bootstrap servers for a Kafka bridge too (topic {@code kevy.demo}), or null
     * @param webhook an endpoint for a webhook bridge too, or null
     * @param webhookSecret its signing secret ({@code whsec_...}); null with a webhook: a new one, printed
     */
    record Options(Catalog catalog, int changes, long seed, Path workDir, boolean keep, String kafka,
            String webhook, String webhookSecret) {
    }

    private final Options options;
    private final Progress progress;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private final Latencies latencies = new Latencies();
    private final Writes writes = new Writes();
    private HoldBack hold;
    private final MeterRegistry registry = new SimpleMeterRegistry();
    private volatile Path work;
    private volatile boolean tempWork;
    private boolean closed;

    Demo(Options options, PrintStream out, boolean tty) {
        this.options = options;
        this.progress = new Progress(out, tty);
    }

    private synchronized <T extends AutoCloseable> T keep(T resource) throws Exception {
        if (closed) {
            // the shutdown hook closed the demo meanwhile: nothing may outlive it
            resource.close();
            throw new IllegalStateException("interrupted");
        }
        resources.add(resource);
        return resource;
    }

    /** Runs the six steps; the report says whether everything was consistent. */
    DemoReport run() throws Exception {
        long t0 = System.nanoTime();
        work = options.workDir() != null ? Files.createDirectories(options.workDir())
                : Files.createTempDirectory("kevy-demo");
        tempWork = options.workDir() == null && !options.keep();

        progress.phase("1/6 server");
        KevyServer server = KevyServer.start(ServerConfig.defaults().with(ServerOptions.PORT, 0)
                .with(ServerOptions.SHARDS, SHARDS).with(ServerOptions.FEED_ENABLED, true)
                .with(ServerOptions.FEED_BUFFER_SIZE, BACKLOG_BYTES).with(ServerOptions.SAVE, "")
                .with(ServerOptions.DIR, work.resolve("kevy").toString()));
        keep(server::close);
        String uri = "redis://127.0.0.1:" + server.port();
        progress.done(String.format(Locale.ROOT, "kevy-server on 127.0.0.1:%d: %d shards, feed on, backlog %d KiB "
                + "per shard, data in %s", server.port(), SHARDS, BACKLOG_BYTES / 1024, work.resolve("kevy")));

        progress.phase("2/6 sinks");
        RedisClient client = RedisClient.create(RedisURI.create(uri));
        keep(client::shutdown);
        StatefulRedisConnection<String, String> conn = keep(client.connect());
        StatefulRedisConnection<String, String> cacheConn = keep(client.connect());
        // one source per consumer: a source's long-poll reads share one connection per shard, so two consumers
        // on one source would queue their reads behind each other's parked long polls
        FeedSource source = keep(FeedSource.connect(uri));
        FeedSource cacheSource = keep(FeedSource.connect(uri));
        HashIndex index = keep(HashIndex.open(work.resolve("index")));
        IndexCursorStore cursors = keep(new IndexCursorStore(index, IndexCursorStore.DEFAULT_INTERVAL));
        IndexUpdater indexer = keep(new IndexUpdater(index, source, "search-index", PREFIX, cursors,
                b -> b.startFrom(StartFrom.REBUILD).meterRegistry(registry)));
        hold = new HoldBack(source, SHARDS, indexer.consumer().settings().batchSize());
        indexer.afterBatch(batch -> {
            latencies.handled("search index", batch);
            hold.hook(batch);
        }).start();
        HashCache cache = new HashCache(cacheConn, PREFIX, HashCache.DEFAULT_MAX_SIZE);
        CacheInvalidator invalidator = keep(new CacheInvalidator(cache, cacheSource, "cache",
                b -> b.meterRegistry(registry))
                .afterBatch(batch -> latencies.handled("cache", batch)).start());
        HashService service = keep(HashService.start(new InetSocketAddress("127.0.0.1", 0), "/packages/", cache,
                () -> HashService.health(invalidator, cache)));
        Path jsonl = work.resolve("changes.jsonl");
        Sidecar bridge = keep(Sidecar.start(SidecarConfig.load(bridgeConfig(uri, "file",
                "path = " + toml(jsonl.toString()) + "\nfsync = false"), Map.of())));
        Map<String, Sidecar> extra = new java.util.LinkedHashMap<>();
        if (options.kafka() != null) {
            extra.put("kafka", keep(Sidecar.start(SidecarConfig.load(bridgeConfig(uri, "kafka",
                    "bootstrap_servers = " + toml(options.kafka()) + "\ntopic = \"kevy.demo\""), Map.of()))));
        }
        if (options.webhook() != null) {
            extra.put("webhook", keep(Sidecar.start(SidecarConfig.load(bridgeConfig(uri, "webhook",
                    "url = " + toml(options.webhook()) + "\nsecrets = [" + toml(options.webhookSecret()) + "]"
                            + "\ndead_letter_path = " + toml(work.resolve("webhook-dead-letters.jsonl").toString())),
                    Map.of()))));
        }
        List<FeedConsumer<?, ?>> notHeld = new ArrayList<>(List.of(invalidator.consumer(), bridge.consumer()));
        extra.values().forEach(b -> notHeld.add(b.consumer()));
        List<FeedConsumer<?, ?>> following = new ArrayList<>(notHeld);
        following.add(0, indexer.consumer());
        awaitCaughtUp(following);
        String packagesUrl = "http://127.0.0.1:" + service.port() + "/packages/";
        progress.done("search index (Lucene) in " + work.resolve("index") + "; cache at " + packagesUrl
                + "{name}; bridge -> " + jsonl + (options.kafka() == null ? "" : "; bridge -> Kafka "
                + options.kafka() + " topic kevy.demo") + (options.webhook() == null ? "" : "; bridge -> "
                + options.webhook()));

        progress.phase("3/6 load");
        List<DebianPackage> packages = options.catalog().packages();
        long tLoad = System.nanoTime();
        for (int i = 0; i < packages.size(); i += PackageLoader.CHUNK) {
            List<DebianPackage> chunk = packages.subList(i, Math.min(packages.size(), i + PackageLoader.CHUNK));
            PackageLoader.load(conn, chunk);
            chunk.forEach(p -> writes.wrote(p.key()));
            awaitCaughtUp(following);
            progress.update(String.format(Locale.ROOT, "%,d/%,d packages", i + chunk.size(), packages.size()));
        }
        progress.done(String.format(Locale.ROOT, "%,d packages from %s as pkg:<name> hashes in %.1f s",
                packages.size(), options.catalog().source(), seconds(tLoad)));

        progress.phase("4/6 changes");
        List<DebianPackage> live = new ArrayList<>(packages);
        ChangeStream stream = new ChangeStream(conn.sync(), packagesUrl, live, new Random(options.seed()), latencies,
                writes);
        int steps = options.changes() > 0 ? options.changes() : Math.min(3000, 1000 + packages.size() / 2);
        long tChanges = System.nanoTime();
        for (int i = 0; i < steps; i++) {
            stream.step(i);
            if ((i + 1) % PACE_EVERY == 0) {
                awaitCaughtUp(following);
            }
            progress.update(String.format(Locale.ROOT, "%,d/%,d: %s", i + 1, steps, describe(stream)));
        }
        awaitCaughtUp(following);
        progress.done(String.format(Locale.ROOT, "%,d changes in %.1f s: %s", steps, seconds(tChanges),
                describe(stream)));

        progress.phase("5/6 resync");
        long resyncsBefore = count(FeedConsumerMetrics.RESYNCS, "search-index");
        ResyncBurst burst = new ResyncBurst(conn.async(), writes);
        hold.on();
        try {
            burst.run(live, hold, () -> awaitCaughtUp(notHeld), () -> progress.update(String.format(
                    Locale.ROOT, "indexer held; burst %d: %,d writes", burst.rounds, burst.commands)));
        } finally {
            hold.off();
        }
        long tRebuild = System.nanoTime();
        awaitCaughtUp(following);
        long resyncs = count(FeedConsumerMetrics.RESYNCS, "search-index") - resyncsBefore;
        if (resyncs == 0) {
            throw new IllegalStateException("the indexer did not get FEEDRESYNC after the burst");
        }
        progress.done(String.format(Locale.ROOT, "indexer held while %d bursts (%,d writes, %d packages dropped) "
                + "overflowed its backlog; released: FEEDRESYNC on %d shard(s), rebuilt in %.1f s", burst.rounds,
                burst.commands, burst.deleted, resyncs, seconds(tRebuild)));

        progress.phase("6/6 check");
        int warmed = stream.warmAndBump(Math.min(200, live.size()), 50);
        awaitCaughtUp(following);
        progress.update(warmed + " packages viewed, then 50 of them bumped");
        Map<String, Map<String, String>> indexState = index.all();
        Consistency check;
        try (JsonLinesReplay replay = new JsonLinesReplay(SHARDS)) {
            // the bridge's count before and after reading its file: the viewed:* keys (PX 0.3-3 s) keep expiring,
            // and each expiry is a DEL frame the bridge may deliver while the file is read
            long bridgeBefore = sum(bridge.registry(), FeedConsumerMetrics.FRAMES, "bridge-file");
            replay.replay(jsonl, e -> bridgeLatency(e));
            long bridgeAfter = sum(bridge.registry(), FeedConsumerMetrics.FRAMES, "bridge-file");
            check = Consistency.check(conn.sync(), PREFIX, indexState, replay.hashes(PREFIX), replay.keys(PREFIX),
                    cache.entries());
            List<DemoReport.SinkRow> sinks = new ArrayList<>(List.of(
                    row("search index", "Lucene index of pkg:* in " + work.resolve("index") + ", " + index.count()
                            + " documents", registry, "search-index"),
                    row("cache", "Caffeine cache behind " + packagesUrl + "{name}: " + stream.views + " views ("
                            + stream.notFound + " of removed packages: 404), " + cache.loads() + " loads from kevy, "
                            + cache.invalidations() + " invalidations",
                            registry, "cache"),
                    new DemoReport.SinkRow("bridge (file)", "sidecar runtime, [sink.file] " + jsonl + ": "
                            + replay.breakdown() + fileLag(bridgeBefore, bridgeAfter, replay.frames), bridgeAfter,
                            rebuilt(bridge.registry(), "bridge-file"),
                            sum(bridge.registry(), FeedConsumerMetrics.RESYNCS, "bridge-file"),
                            latencies.of("bridge (file)"))));
            for (Map.Entry<String, Sidecar> b : extra.entrySet()) {
                sinks.add(row("bridge (" + b.getKey() + ")", "sidecar runtime, [sink." + b.getKey() + "] "
                        + (b.getKey().equals("kafka") ? options.kafka() + ", topic kevy.demo" : options.webhook())
                        + ", ready: " + b.getValue().readiness().ready(), b.getValue().registry(),
                        "bridge-" + b.getKey()));
            }
            long[] frames = new long[SHARDS];
            for (int i = 0; i < SHARDS; i++) {
                frames[i] = source.tail(i).toCompletableFuture().get().offset();
            }
            List<DemoReport.Query> queries = new ArrayList<>();
            for (String q : QUERIES) {
                queries.add(new DemoReport.Query(q, index.countHits(q), index.search(q, 3)));
            }
            progress.done(check.consistent() ? "consistent" : "NOT consistent");
            return new DemoReport(options.catalog().source(), packages.size(), writes.commands(), writes.keys(),
                    frames, sinks, check, queries, seconds(t0));
        }
    }

    private void bridgeLatency(com.fasterxml.jackson.databind.JsonNode e) {
        if (e.path("type").asText().equals("io.kevy.change.hset")) {
            for (var f : e.path("data").path("fields")) {
                if (f.path("name").asText().equals("version")) {
                    latencies.handledAt("bridge (file)", f.path("value").asText(), JsonLinesReplay.time(e));
                }
            }
        }
    }

    private DemoReport.SinkRow row(String name, String what, MeterRegistry reg, String consumer) {
        return new DemoReport.SinkRow(name, what, sum(reg, FeedConsumerMetrics.FRAMES, consumer),
                rebuilt(reg, consumer), sum(reg, FeedConsumerMetrics.RESYNCS, consumer), latencies.of(name));
    }

    private static long rebuilt(MeterRegistry reg, String consumer) {
        return sum(reg, FeedConsumerMetrics.REBUILD_KEYS, consumer)
                + sum(reg, FeedConsumerMetrics.REBUILD_VANISHED, consumer);
    }

    /**
     * Why the bridge's delivered count (read when the summary is printed) can differ from the changes its file
     * held when it was read: empty when they are equal, else the reason with the numbers.
     */
    static String fileLag(long deliveredBefore, long deliveredAfter, long inFile) {
        if (deliveredBefore == inFile && deliveredAfter == inFile) {
            return "; the file holds every change the bridge delivered";
        }
        return String.format(Locale.ROOT, "; the bridge delivered %,d changes before the file was read and %,d after "
                + "(keys expiring meanwhile: each expiry is a DEL frame), the file held %,d", deliveredBefore,
                deliveredAfter, inFile);
    }

    private long count(String meter, String consumer) {
        return sum(registry, meter, consumer);
    }

    private static long sum(MeterRegistry reg, String meter, String consumer) {
        return (long) Search.in(reg).name(meter).tag("consumer", consumer).counters().stream()
                .mapToDouble(c -> c.count()).sum();
    }

    private static String describe(ChangeStream s) {
        return String.format(Locale.ROOT, "%d version bumps, %d maintainer changes, %d removals, %d re-adds, "
                + "%d views", s.bumps, s.maintainers, s.removals, s.readds, s.views);
    }

    private static double seconds(long sinceNanos) {
        return (System.nanoTime() - sinceNanos) / 1e9;
    }

    /** Waits until each consumer has every change the server had applied; fails after a minute. */
    private static void awaitCaughtUp(List<FeedConsumer<?, ?>> consumers) {
        for (FeedConsumer<?, ?> c : consumers) {
            if (!c.awaitCaughtUp(CATCH_UP)) {
                throw new IllegalStateException("consumer " + c.name() + " did not catch up within "
                        + CATCH_UP.toSeconds() + " s: " + c.health());
            }
        }
    }

    /** A bridge's TOML: the whole feed to {@code [sink.<type>]}, cursors in memory, HTTP on a free port. */
    private Path bridgeConfig(String uri, String type, String sinkSection) throws IOException {
        Path toml = work.resolve("bridge-" + type + ".toml");
        Files.writeString(toml, String.join("\n",
                "# a bridge of the demo: every change of every key",
                "[source]",
                "uri = " + toml(uri),
                "[consumer]",
                "name = \"bridge-" + type + "\"",
                "start_from = \"rebuild\"",
                "[cursor]",
                "store = \"memory\"",
                "[http]",
                "port = 0",
                "[sink." + type + "]",
                sinkSection,
                ""), StandardCharsets.UTF_8);
        return toml;
    }

    /** {@code s} as a TOML basic string. */
    private static String toml(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /**
     * Stops every sink and the server, and deletes a temporary work directory. Idempotent; callable from the
     * shutdown hook while {@link #run} is still running on another thread.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (hold != null) {
            hold.off();
        }
        for (int i = resources.size() - 1; i >= 0; i--) {
            try {
                resources.get(i).close();
            } catch (Exception e) {
                progress.line("closing: " + e);
            }
        }
        resources.clear();
        if (tempWork && work != null) {
            try (Stream<Path> files = Files.walk(work)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** Where the work directory is (kept when asked). */
    Path work() {
        return work;
    }
}
