package io.kevy.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.engine.command.CommandTable;
import io.kevy.server.config.ServerOptions;
import io.kevy.server.config.Sizes;
import io.kevy.testing.FeedClient;
import io.kevy.testing.RawClient;
import io.kevy.testing.StateDump;
import io.kevy.testing.TestServer;
import io.kevy.testing.gen.CommandGenerator;
import io.kevy.testing.gen.Generators;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The completeness invariant of feed contract §7, and the idempotence of frames: random write commands run
 * against a server; then every frame of every shard, from offset 0 of the current generations, is replayed
 * onto a fresh embedded {@link Store}, and the full state (keys, types, values, TTLs) must equal the
 * server's. A second store gets every frame twice in a row (except the list effects the docs list as not
 * idempotent) and must end in the same state.
 *
 * <p>Seeded: each run prints its seeds; rerun one with {@code -Dkevy.seed=N}. {@code -Dkevy.seeds=K} and
 * {@code -Dkevy.commands=N} change how many seeds and commands per seed.
 */
class FeedCompletenessIT {
    /** Frame verbs whose double application differs from a single one (lists: pushes, pops, LINSERT, LREM). */
    private static final Set<String> NOT_IDEMPOTENT = Set.of("LPUSH", "RPUSH", "LPOP", "RPOP", "LINSERT", "LREM");

    private static final int PIPELINE = 64;

    @ParameterizedTest(name = "{0} shard(s)")
    @ValueSource(ints = {1, 4})
    void replayingEveryFrameOntoAnEmptyStoreGivesTheSameState(int shards) {
        int commands = Integer.getInteger("kevy.commands", 3000);
        for (long seed : seeds()) {
            System.out.printf("FeedCompletenessIT: shards=%d seed=%d commands=%d%n", shards, seed, commands);
            run(shards, seed, commands);
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

    private static void run(int shards, long seed, int commands) {
        Generators gens = new Generators(Generators.ALL, CommandTable.standard());
        Random rnd = new Random(seed);
        KeyPools keys = new KeyPools();
        Map<String, int[]> outcomes = new TreeMap<>();
        try (TestServer server = TestServer.start(c -> c.with(ServerOptions.SHARDS, shards)
                .with(ServerOptions.FEED_ENABLED, true).with(ServerOptions.FEED_BUFFER_SIZE, Sizes.GB))) {
            RawClient raw = server.raw();
            for (int done = 0; done < commands; done += PIPELINE) {
                int n = Math.min(PIPELINE, commands - done);
                List<CommandGenerator.Op> sent = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    CommandGenerator.Op op = gens.pick(rnd);
                    raw.send(RawClient.encode(op.build().make(rnd, keys)));
                    sent.add(op);
                }
                for (CommandGenerator.Op op : sent) {
                    boolean error = raw.readReply().startsWith("-");
                    outcomes.computeIfAbsent(op.command(), k -> new int[2])[error ? 1 : 0]++;
                }
            }

            FeedClient feed = new FeedClient(server.raw());
            List<FeedClient.Frame> frames = new ArrayList<>();
            for (int s = 0; s < shards; s++) {
                frames.addAll(feed.readAll(s));
            }
            long now = System.currentTimeMillis();
            TreeMap<String, StateDump.Entry> source = StateDump.of(server.server().engine(), now);
            System.out.printf("  %d frames, %d keys; ok/error per command: %s%n", frames.size(), source.size(),
                    summary(outcomes));

            try (Store once = Store.open(Config.defaults()); Store twice = Store.open(Config.defaults())) {
                for (FeedClient.Frame f : frames) {
                    Reply r = once.execute(f.argv());
                    assertThat(r.isError()).as("frame %s applies cleanly (seed %d): %s", f, seed, r).isFalse();
                    twice.execute(f.argv());
                    if (!NOT_IDEMPOTENT.contains(f.verb())) {
                        twice.execute(f.argv());
                    }
                }
                assertThat(StateDump.of(once.engine(), now)).as("state rebuilt from frames (seed %d)", seed)
                        .isEqualTo(source);
                assertThat(StateDump.of(twice.engine(), now)).as("state with every frame applied twice (seed %d)",
                        seed).isEqualTo(source);
            }
        }
    }

    private static String summary(Map<String, int[]> outcomes) {
        StringBuilder sb = new StringBuilder();
        outcomes.forEach((k, v) -> sb.append(k).append('=').append(v[0]).append('/').append(v[1]).append(' '));
        return sb.toString().trim();
    }

    /** Keys by area: strings, hashes, and two keys sharing a hash tag; "any" picks from all. */
    private static final class KeyPools implements CommandGenerator.Ctx {
        private final Map<String, List<String>> areas = new TreeMap<>();
        private final List<String> all = new ArrayList<>();

        KeyPools() {
            area("s", "s:", 12);
            area("h", "h:", 6);
            area("t", "{t}", 3);
            all.add(new String(new byte[] {'b', 0, (byte) 0xff, '\r', '\n'}, StandardCharsets.ISO_8859_1));
        }

        private void area(String name, String prefix, int n) {
            List<String> l = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                l.add(prefix + i);
            }
            areas.put(name, l);
            all.addAll(l);
        }

        @Override
        public String key(Random rnd, String area) {
            List<String> l = areas.get(area);
            if (l == null || rnd.nextInt(10) < 3) {
                l = all;
            }
            return l.get(rnd.nextInt(l.size()));
        }

        @Override
        public long nowMs() {
            return System.currentTimeMillis();
        }
    }
}
