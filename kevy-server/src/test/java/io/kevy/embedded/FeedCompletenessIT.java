package io.kevy.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.feed.FeedConfig;
import io.kevy.feed.FeedCursor;
import io.kevy.server.config.ServerOptions;
import io.kevy.config.Sizes;
import io.kevy.testing.FeedClient;
import io.kevy.testing.NegativeZeroZSets;
import io.kevy.testing.RawClient;
import io.kevy.testing.StateDump;
import io.kevy.testing.TestServer;
import io.kevy.testing.gen.Workload;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The completeness invariant of feed contract §7, and the idempotence of frames: random write commands run
 * against a server; then every frame of every shard, from offset 0 of the current generations, is replayed
 * onto a fresh embedded {@link Store}, and the full state (keys, types, values, TTLs) must equal the
 * server's. A second store gets every frame twice in a row (except the list effects the docs list as not
 * idempotent) and must end in the same state. The same holds with an embedded store as the source.
 *
 * <p>Seeded: each run prints its seeds; rerun one with {@code -Dkevy.seed=N}. {@code -Dkevy.seeds=K} and
 * {@code -Dkevy.commands=N} change how many seeds and commands per seed. Each seed prints how many commands of
 * each kind succeeded and failed, and each server run how many consumer-group commands succeeded over its seeds
 * (XREADGROUP, XCLAIM and XAUTOCLAIM must succeed at least once per 100 commands: the stream generator's modelled
 * operations make them valid).
 */
class FeedCompletenessIT {
    /**
     * Frame verbs whose double application differs from a single one: the list effects (pushes, pops, LINSERT,
     * LREM) and also LTRIM, which is emitted verbatim (contract §7) and trims again when applied twice with a
     * start above 0 or a stop below -1.
     */
    private static final Set<String> NOT_IDEMPOTENT = Set.of("LPUSH", "RPUSH", "LPUSHX", "RPUSHX", "LPOP",
            "RPOP", "LINSERT", "LREM", "LTRIM");

    private static final int PIPELINE = 64;

    /** The consumer-group commands whose successes each run reports and checks (see StreamGenerator). */
    private static final List<String> GROUP_COMMANDS = List.of("xreadgroup", "xclaim", "xautoclaim", "xack",
            "xgroup");

    @ParameterizedTest(name = "{0} shard(s)")
    @ValueSource(ints = {1, 4})
    void replayingEveryFrameOntoAnEmptyStoreGivesTheSameState(int shards) {
        int commands = Integer.getInteger("kevy.commands", 3000);
        Map<String, int[]> total = new TreeMap<>();
        List<Long> seeds = seeds();
        for (long seed : seeds) {
            System.out.printf("FeedCompletenessIT: shards=%d seed=%d commands=%d%n", shards, seed, commands);
            run(shards, seed, commands).forEach((k, v) -> {
                int[] t = total.computeIfAbsent(k, x -> new int[2]);
                t[0] += v[0];
                t[1] += v[1];
            });
        }
        StringBuilder sb = new StringBuilder();
        for (String g : GROUP_COMMANDS) {
            int[] t = total.getOrDefault(g, new int[2]);
            sb.append(' ').append(g).append('=').append(t[0]).append('/').append(t[0] + t[1]);
        }
        System.out.printf("FeedCompletenessIT: shards=%d, %d seeds: consumer-group commands succeeded/sent:%s%n",
                shards, seeds.size(), sb);
        // the modelled group operations must mostly succeed: a few dozen successes per 3000 commands at least
        for (String g : List.of("xreadgroup", "xclaim", "xautoclaim")) {
            assertThat(total.getOrDefault(g, new int[2])[0]).as("successful %s over %d seeds", g, seeds.size())
                    .isGreaterThanOrEqualTo(seeds.size() * commands / 100);
        }
    }

    private static List<Long> seeds() {
        Long fixed = Long.getLong("kevy.seed");
        if (fixed != null) {
            return List.of(fixed);
        }
        int n = Integer.getInteger("kevy.seeds", 3);
        Random r = new Random();
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(r.nextLong());
        }
        return out;
    }

    @Test
    void theSameHoldsForTheEmbeddedStoresOwnFeed() {
        int commands = Integer.getInteger("kevy.commands", 3000);
        for (long seed : seeds()) {
            System.out.printf("FeedCompletenessIT: embedded seed=%d commands=%d%n", seed, commands);
            Map<String, int[]> outcomes = new TreeMap<>();
            try (Store source = Store.open(Config.defaults().withFeed(FeedConfig.MAX_BUFFER))) {
                for (Workload.Command c : Workload.generate(seed, commands)) {
                    boolean error = false;
                    for (byte[][] argv : c.argvs()) {
                        error |= source.execute(argv).isError(); // each call is its own client: no MULTI here
                    }
                    outcomes.computeIfAbsent(name(c), k -> new int[2])[error ? 1 : 0]++;
                }
                FeedCursor tail = source.changesTail();
                List<byte[][]> frames = new ArrayList<>();
                long cursor = 0;
                while (cursor < tail.offset()) {
                    ChangeBatch b = source.changesSince(tail.generation(), cursor, 4096, List.of());
                    b.changes().forEach(ch -> frames.add(ch.argv()));
                    cursor = b.next().offset();
                }
                long now = System.currentTimeMillis();
                Map<String, String> expected = StateDump.live(source.engine(), now);
                System.out.printf("  %d frames, %d keys; ok/error per command: %s%n", frames.size(), expected.size(),
                        summary(outcomes));
                replayAndCompare(frames, expected, now, seed);
            }
        }
    }

    /**
     * What a command is counted as: its verb (a modelled operation may send another command than its name), a
     * block (a transaction) as its operation.
     */
    private static String name(Workload.Command c) {
        return c.argvs().size() == 1
                ? new String(c.argvs().get(0)[0], StandardCharsets.US_ASCII).toLowerCase(Locale.ROOT)
                : c.op().command();
    }

    /** Runs one seed on a server with {@code shards} shards; returns the successes and errors per command. */
    private static Map<String, int[]> run(int shards, long seed, int commands) {
        Map<String, int[]> outcomes = new TreeMap<>();
        try (TestServer server = TestServer.start(c -> c.with(ServerOptions.SHARDS, shards)
                .with(ServerOptions.FEED_ENABLED, true).with(ServerOptions.FEED_BUFFER_SIZE, Sizes.GB))) {
            RawClient raw = server.raw();
            List<Workload.Command> work = Workload.generate(seed, commands);
            for (int done = 0; done < work.size(); done += PIPELINE) {
                List<Workload.Command> batch = work.subList(done, Math.min(work.size(), done + PIPELINE));
                for (Workload.Command c : batch) {
                    for (byte[][] argv : c.argvs()) {
                        raw.send(RawClient.encode(argv));
                    }
                }
                for (Workload.Command c : batch) {
                    boolean error = false;
                    for (int i = 0; i < c.argvs().size(); i++) {
                        error |= raw.readReply().startsWith("-");
                    }
                    outcomes.computeIfAbsent(name(c), k -> new int[2])[error ? 1 : 0]++;
                }
            }

            FeedClient feed = new FeedClient(server.raw());
            List<byte[][]> frames = new ArrayList<>();
            for (int s = 0; s < shards; s++) {
                feed.readAll(s).forEach(f -> frames.add(f.argv()));
            }
            long now = System.currentTimeMillis();
            Map<String, String> source = StateDump.live(server.server().engine(), now);
            System.out.printf("  %d frames, %d keys; ok/error per command: %s%n", frames.size(), source.size(),
                    summary(outcomes));
            replayAndCompare(frames, source, now, seed);
        }
        return outcomes;
    }

    /**
     * The frames of sorted sets that hold -0 in the skiplist encoding replay to the same -0 scores, whichever frames
     * carry them: the ZADDs that made them, rebuild frames of a *STORE, a RESTORE and cross-shard COPY/RENAME, a ZADD
     * of -0 after SORT converted a small set without a frame. A listpack stores -0 as 0, so a set rebuilt by ZADDs
     * into a listpack first used to end with 0 (feed contract §7: only a skiplist's frames carry -0, and applying
     * one keeps it).
     */
    @Test
    void negativeZerosOfSkiplistSortedSetsSurviveTheReplay() {
        try (TestServer server = TestServer.start(c -> c.with(ServerOptions.SHARDS, 4)
                .with(ServerOptions.FEED_ENABLED, true).with(ServerOptions.FEED_BUFFER_SIZE, 64 * Sizes.MB))) {
            NegativeZeroZSets h = new NegativeZeroZSets("nz", server.server().engine());
            h.run(server.raw());
            FeedClient feed = new FeedClient(server.raw());
            List<byte[][]> frames = new ArrayList<>();
            for (int s = 0; s < 4; s++) {
                feed.readAll(s).forEach(f -> frames.add(f.argv()));
            }
            long now = System.currentTimeMillis();
            Map<String, String> source = StateDump.live(server.server().engine(), now);
            assertThat(source).hasSize(h.keys().size());
            assertThat(source.values()).allMatch(v -> v.contains("=-0"));
            replayAndCompare(frames, source, now, 0);
        }
    }

    /**
     * Replays {@code frames} onto a fresh store once, and onto another twice in a row, as kevy's own appliers do
     * ({@link Store#applyFrame}); both must equal.
     */
    private static void replayAndCompare(List<byte[][]> frames, Map<String, String> expected, long now,
                                         long seed) {
        try (Store once = Store.open(Config.defaults()); Store twice = Store.open(Config.defaults())) {
            for (byte[][] f : frames) {
                Reply r = once.applyFrame(f);
                assertThat(r.isError()).as("frame %s applies cleanly (seed %d): %s", show(f), seed, r).isFalse();
                twice.applyFrame(f);
                if (!NOT_IDEMPOTENT.contains(new String(f[0], StandardCharsets.US_ASCII))) {
                    twice.applyFrame(f);
                }
            }
            assertThat(StateDump.live(once.engine(), now)).as("state rebuilt from frames (seed %d)", seed)
                    .isEqualTo(expected);
            assertThat(StateDump.live(twice.engine(), now)).as("state with every frame applied twice (seed %d)",
                    seed).isEqualTo(expected);
        }
    }

    private static String show(byte[][] argv) {
        StringBuilder sb = new StringBuilder();
        for (byte[] a : argv) {
            sb.append(sb.length() == 0 ? "" : " ").append(new String(a, StandardCharsets.ISO_8859_1));
        }
        return sb.toString();
    }

    private static String summary(Map<String, int[]> outcomes) {
        StringBuilder sb = new StringBuilder();
        outcomes.forEach((k, v) -> sb.append(k).append('=').append(v[0]).append('/').append(v[1]).append(' '));
        return sb.toString().trim();
    }
}
