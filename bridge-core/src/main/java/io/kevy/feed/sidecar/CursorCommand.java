package io.kevy.feed.sidecar;

import io.kevy.config.ConfigException;
import io.kevy.feed.client.Cursor;
import io.kevy.feed.client.CursorStore;
import io.kevy.feed.client.FeedSource;
import io.kevy.feed.client.KevyConfigException;
import io.kevy.feed.client.KevyException;
import io.kevy.feed.client.StoredCursors;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kevy cursor show|set|reset --config bridge.toml [--dry-run]}: the stored cursors of the bridge the config
 * describes, in the store it uses ({@code [cursor]}, or the sink's own, e.g. Kafka's {@code kevy.cursors} topic
 * with {@code transactional = true}). Stop the bridge before changing its cursors: a running bridge overwrites
 * them with its next commit.
 *
 * <ul>
 *   <li>{@code show}: each shard's stored cursor, the server's tail and the frames in between ({@code --json}:
 *       the stored record as is).</li>
 *   <li>{@code set --to tail|earliest} or {@code set SHARD:GENERATION:OFFSET ...}: writes new cursors (the
 *       given shards replace the stored ones; without a stored record every shard must be given).</li>
 *   <li>{@code reset}: removes the stored cursors; the next start follows {@code consumer.start_from}.</li>
 * </ul>
 * Exit status: 0 done, 1 the store or server failed, 2 bad arguments or config.
 */
@Command(name = "cursor", mixinStandardHelpOptions = true, description = "Show, set or reset a bridge's cursors.",
        subcommands = {CursorCommand.Show.class, CursorCommand.Set.class, CursorCommand.Reset.class})
public final class CursorCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    /** What every subcommand shares: the config, its store and its source. */
    abstract static class Base implements Callable<Integer> {
        @Option(names = "--config", paramLabel = "FILE", required = true, description = "The bridge's TOML config.")
        Path config;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        SidecarConfig cfg;
        FeedSource source;
        CursorStore store;
        String name;

        @Override
        public final Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            try {
                cfg = SidecarConfig.load(config, System.getenv());
                name = cfg.get(SidecarOptions.CONSUMER_NAME);
                source = FeedSource.connect(Sidecar.redisUri(cfg.values()));
                SinkContext ctx = new SinkContext(cfg.values(), name, cfg.get(SidecarOptions.CONSUMER_PREFIXES),
                        source, new SimpleMeterRegistry(), Clock.systemUTC());
                Optional<CursorStore> own = cfg.provider().adminCursorStore(ctx);
                store = own.isPresent() ? own.get() : Sidecar.configuredStore(cfg.values(), source, name);
                return run(out);
            } catch (KevyConfigException | ConfigException | IllegalArgumentException e) {
                err.println("kevy cursor: " + e.getMessage());
                return 2;
            } catch (KevyException | UnsupportedOperationException e) {
                err.println("kevy cursor: " + e.getMessage());
                return 1;
            } finally {
                out.flush();
                err.flush();
                if (store != null) {
                    store.close();
                }
                if (source != null) {
                    source.close();
                }
            }
        }

        abstract int run(PrintWriter out);

        /** The server's tail of {@code shard}, or empty when it does not answer within 5 s. */
        Optional<Cursor> tail(int shard) {
            try {
                return Optional.of(source.tail(shard).toCompletableFuture().get(5, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            } catch (Exception e) {
                return Optional.empty();
            }
        }

        int shards() {
            try {
                return source.shards().toCompletableFuture().get(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KevyException("interrupted");
            } catch (Exception e) {
                throw new KevyException("the kevy server did not answer FEED.SHARDS: "
                        + (e.getCause() != null ? e.getCause().getMessage() : e));
            }
        }

        void print(PrintWriter out, StoredCursors c) {
            out.println("consumer " + c.consumer() + " (" + c.shards() + " shard(s)) in " + store + ":");
            for (Cursor x : c.cursors()) {
                Optional<Cursor> t = tail(x.shard());
                String behind = t.map(tc -> tc.generation() != x.generation() ? "generation gone (now "
                        + tc.generation() + "): the next start rebuilds"
                        : (tc.offset() - x.offset()) + " frame(s) behind").orElse("server not reachable");
                out.println("  shard " + x.shard() + ": " + x + "   tail " + t.map(Cursor::toString).orElse("?")
                        + "   " + behind);
            }
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "Print the stored cursors.")
    static final class Show extends Base {
        @Option(names = "--json", description = "Print the stored record as JSON.")
        boolean json;

        @Override
        int run(PrintWriter out) {
            Optional<StoredCursors> c = store.load(name);
            if (c.isEmpty()) {
                out.println("consumer " + name + ": no stored cursors in " + store + "; the next start follows "
                        + "consumer.start_from = " + cfg.get(SidecarOptions.CONSUMER_START_FROM));
                return 0;
            }
            if (json) {
                out.println(new String(c.get().toJson(), StandardCharsets.UTF_8));
            } else {
                print(out, c.get());
            }
            return 0;
        }
    }

    @Command(name = "set", mixinStandardHelpOptions = true,
            description = "Write cursors: --to tail|earliest, or SHARD:GENERATION:OFFSET for some shards.")
    static final class Set extends Base {
        @Option(names = "--to", paramLabel = "tail|earliest",
                description = "Every shard at the server's tail (skip everything pending) or at offset 0 of its "
                        + "generation (replay what the backlog holds).")
        String to;

        @Option(names = "--dry-run", description = "Print what would be written; write nothing.")
        boolean dryRun;

        @Parameters(paramLabel = "SHARD:GENERATION:OFFSET", arity = "0..*")
        List<String> cursors = new ArrayList<>();

        @Override
        int run(PrintWriter out) {
            if ((to == null) == cursors.isEmpty()) {
                throw new IllegalArgumentException("give either --to tail|earliest or SHARD:GENERATION:OFFSET ...");
            }
            StoredCursors next;
            if (to != null) {
                if (!to.equals("tail") && !to.equals("earliest")) {
                    throw new IllegalArgumentException("--to must be tail or earliest, got '" + to + "'");
                }
                int n = shards();
                List<Cursor> cs = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    int shard = i;
                    Cursor t = tail(i).orElseThrow(() -> new KevyException("no FEED.TAIL answer for shard " + shard));
                    cs.add(to.equals("tail") ? t : t.withOffset(0));
                }
                next = new StoredCursors(name, n, cs);
            } else {
                Optional<StoredCursors> stored = store.load(name);
                List<Cursor> given = new ArrayList<>();
                for (String s : cursors) {
                    given.add(parse(s));
                }
                int n = stored.map(StoredCursors::shards).orElseGet(() -> given.size());
                Cursor[] cs = new Cursor[n];
                stored.ifPresent(r -> r.cursors().forEach(c -> cs[c.shard()] = c));
                for (Cursor c : given) {
                    if (c.shard() >= n) {
                        throw new IllegalArgumentException("shard " + c.shard() + " is out of range: the record has "
                                + n + " shard(s)");
                    }
                    cs[c.shard()] = c;
                }
                for (int i = 0; i < n; i++) {
                    if (cs[i] == null) {
                        throw new IllegalArgumentException("no stored cursors: give a cursor for every shard (shard "
                                + i + " missing)");
                    }
                }
                next = new StoredCursors(name, n, List.of(cs));
            }
            if (dryRun) {
                out.println("dry run: would write to " + store + ": " + new String(next.toJson(),
                        StandardCharsets.UTF_8));
                return 0;
            }
            store.save(next);
            out.println("wrote to " + store + ": " + new String(next.toJson(), StandardCharsets.UTF_8));
            return 0;
        }

        private static Cursor parse(String s) {
            String[] p = s.split(":");
            if (p.length != 3) {
                throw new IllegalArgumentException("a cursor is SHARD:GENERATION:OFFSET, got '" + s + "'");
            }
            try {
                return new Cursor(Integer.parseInt(p[0]), Long.parseLong(p[1]), Long.parseLong(p[2]));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("a cursor is SHARD:GENERATION:OFFSET (integers), got '" + s + "'");
            }
        }
    }

    @Command(name = "reset", mixinStandardHelpOptions = true,
            description = "Remove the stored cursors; the next start follows consumer.start_from.")
    static final class Reset extends Base {
        @Option(names = "--dry-run", description = "Print what would be removed; remove nothing.")
        boolean dryRun;

        @Override
        int run(PrintWriter out) {
            Optional<StoredCursors> c = store.load(name);
            String what = c.map(r -> new String(r.toJson(), StandardCharsets.UTF_8)).orElse("nothing stored");
            if (dryRun) {
                out.println("dry run: would remove from " + store + ": " + what);
                return 0;
            }
            store.delete(name);
            out.println("removed from " + store + ": " + what + "; the next start follows consumer.start_from = "
                    + cfg.get(SidecarOptions.CONSUMER_START_FROM));
            return 0;
        }
    }
}
