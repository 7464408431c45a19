package io.kevy.feed.client.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.common.Slots;
import io.kevy.feed.client.ConsumerListener;
import io.kevy.feed.client.FeedMirror;
import io.kevy.feed.client.FeedSource;
import io.kevy.feed.client.KeySnapshot;
import io.kevy.feed.client.MirroredValue;
import io.kevy.feed.client.RebuildReason;
import io.kevy.feed.client.RebuildResult;
import io.kevy.feed.client.RebuildScope;
import io.kevy.feed.client.ScanPage;
import io.lettuce.core.codec.StringCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.awaitility.Awaitility;

/**
 * The randomized exact-rebuild run of issue 31: a {@link FeedMirror} over {@code m:} keys, then {@code rounds}
 * real FEEDRESYNCs, each forced while {@code writers} threads run RENAME, RENAMENX, COPY, LMOVE, SMOVE, pushes,
 * pops, LTRIM, LREM, hashes, sets, zsets, streams (XADD with and without MAXLEN = / ~, XTRIM MAXLEN / MINID,
 * XDEL, XSETID, XGROUP CREATE MKSTREAM, XREADGROUP, XACK; entries compared as XRANGE - + reads them), DEL, MSET,
 * expiries (short PX / EXPIRE that fire, far PXAT that do not, PERSIST) and MULTI blocks on keys of a few hash
 * tags (one tag per shard at least, so every shard has mirrored keys; moves mostly same-shard) and across
 * tags. A round: the writers start; {@link ResyncingFeedSource#hold} holds the consumer's FEED.READs; big SETs
 * of non-mirrored {@code fill:} keys overrun every shard's backlog until the server answers FEEDRESYNC at each
 * held cursor; the reads are released, get {@code -FEEDRESYNC}, and the consumer rebuilds every shard
 * ({@link RebuildReason#RESYNC}) while the writers go on; then the writers stop, every due expiry is forced (the
 * server's reads expire keys lazily, emitting DEL), the consumer catches up, and the mirror must equal the
 * server: type, value and absolute expiry (PEXPIRETIME) of every key. Writes must have been acknowledged between
 * the rebuild's first SCAN and its end (made while it ran) in at least half the rounds (over the wire every round
 * had dozens when measured; an embedded rebuild takes about 1 ms). Seeded; the seed and round count are printed.
 */
public final class MirrorRebuildRun {
    private static final int TAGS = 4;
    private static final int KEYS_PER_TAG = 12;
    private static final long SHORT_TTL_MAX = 40;
    /** The fill's value: 8 KiB, so a few dozen SETs overrun a small backlog. */
    private static final String FILL = "x".repeat(8 << 10);
    /** SETs per shard between two eviction checks. */
    private static final int FILL_STEP = 8;

    /** The mirror's changes per key in the current round (printed for the keys that differ). */
    private static final Map<String, List<String>> HISTORY = new java.util.HashMap<>();

    private MirrorRebuildRun() {
    }

    /** One writer thread's client: a connection (MULTI state carries between calls) or an embedded store. */
    public interface Writer {
        /** Runs one command (verb first) and returns its reply, whatever it is. */
        Object call(String... argv);

        /** MULTI, the block, EXEC on this client; the default sends them with {@link #call} (a connection). */
        default Object multi(List<String[]> block) {
            call("MULTI");
            for (String[] argv : block) {
                call(argv);
            }
            return call("EXEC");
        }
    }

    /**
     * Runs it.
     *
     * @param source  the source the mirror reads, wrapped so the test can force FEEDRESYNCs
     * @param writer  a new writer per thread (-1: the preload, -2: the backlog fill)
     */
    public static void run(String label, ResyncingFeedSource source, Function<Integer, Writer> writer, int rounds,
            int writers, long seed) throws Exception {
        run(label, source, writer, false, rounds, writers, seed);
    }

    /**
     * As {@link #run} with only commands whose effects are idempotent (no pushes, pops or list moves): what the
     * plain reads guarantee (a server with neither FEED.VALUE nor MULTI/EXEC: a read holds at least the frames
     * below its cursor, maybe more).
     */
    public static void runIdempotent(String label, ResyncingFeedSource source, Function<Integer, Writer> writer,
            int rounds, int writers, long seed) throws Exception {
        run(label, source, writer, true, rounds, writers, seed);
    }

    private static void run(String label, ResyncingFeedSource source, Function<Integer, Writer> writer,
            boolean idempotent, int rounds, int writers, long seed) throws Exception {
        int shards = source.shards().toCompletableFuture().get();
        System.out.println("MirrorRebuildRun " + label + ": seed " + seed + ", " + rounds + " forced FEEDRESYNC(s), "
                + shards + " shard(s)");
        List<String> tags = tags(shards);
        List<String> fillKeys = fillKeys(shards);
        Random seeds = new Random(seed);
        Writer preload = writer.apply(-1);
        Writer fill = writer.apply(-2);
        Random pre = new Random(seeds.nextLong());
        for (int i = 0; i < 400; i++) {
            step(preload, pre, tags, idempotent, new AtomicLong());
        }
        Set<Integer> resynced = ConcurrentHashMap.newKeySet();
        AtomicLong feedResyncs = new AtomicLong();
        // the round's write count when its rebuild sent its first SCAN and when its last shard's rebuild ended
        java.util.concurrent.atomic.AtomicReference<AtomicLong> roundOps = new java.util.concurrent.atomic
                .AtomicReference<>(new AtomicLong());
        AtomicLong opsAtFirstScan = new AtomicLong(-1);
        AtomicLong opsAtRebuildEnd = new AtomicLong(-1);
        AtomicBoolean armed = new AtomicBoolean();
        source.onScan(() -> {
            if (armed.get()) {
                opsAtFirstScan.compareAndSet(-1, roundOps.get().get());
            }
        });
        long minDuringScan = Long.MAX_VALUE;
        int roundsWithWritesDuringScan = 0;
        ConsumerListener resyncs = new ConsumerListener() {
            @Override
            public void onResync(String consumer, int shard) {
                feedResyncs.incrementAndGet();
            }

            @Override
            public void onRebuild(String consumer, RebuildScope scope, RebuildResult result) {
                if (scope.reason() == RebuildReason.RESYNC) {
                    if (armed.get()) {
                        opsAtRebuildEnd.set(roundOps.get().get());
                    }
                    resynced.addAll(scope.carried().keySet());
                }
            }
        };
        long started = System.nanoTime();
        try (FeedMirror<String, String> mirror = FeedMirror.builder(StringCodec.UTF8).source(source)
                .name("mirror-" + label).prefixes("m:").consumer(b -> b.listener(resyncs))
                .listener((k, before, after) -> {
                    synchronized (HISTORY) {
                        HISTORY.computeIfAbsent(k, x -> new ArrayList<>()).add(before + " -> " + after);
                    }
                }).build()) {
            mirror.start().toCompletableFuture().get();
            assertThat(mirror.awaitSynced(Duration.ofSeconds(60))).isTrue();
            for (int round = 0; round < rounds; round++) {
                synchronized (HISTORY) {
                    HISTORY.clear();
                }
                resynced.clear();
                long resyncsBefore = feedResyncs.get();
                AtomicBoolean stop = new AtomicBoolean();
                AtomicLong lastShortExpiry = new AtomicLong();
                AtomicLong ops = new AtomicLong();
                roundOps.set(ops);
                opsAtFirstScan.set(-1);
                opsAtRebuildEnd.set(-1);
                List<Thread> ts = new ArrayList<>();
                long t0;
                long t1;
                long t2;
                long fills;
                long during;
                try {
                    for (int w = 0; w < writers; w++) {
                        Writer wr = writer.apply(w);
                        Random r = new Random(seeds.nextLong());
                        Thread t = new Thread(() -> {
                            while (!stop.get()) {
                                step(wr, r, tags, idempotent, lastShortExpiry);
                                ops.incrementAndGet();
                            }
                        }, "mirror-writer-" + w);
                        t.start();
                        ts.add(t);
                    }
                    while (ops.get() < 50) {
                        Thread.onSpinWait(); // the writers are under way before the resync is forced
                    }
                    t0 = System.nanoTime();
                    fills = forceResync(source, fill, fillKeys, shards, armed);
                    t1 = System.nanoTime();
                    int r0 = round;
                    Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(5))
                            .alias("round " + r0 + ": every shard rebuilt after its FEEDRESYNC")
                            .until(() -> {
                                if (mirror.consumer().state() == io.kevy.feed.client.FeedConsumer.State.FAILED) {
                                    throw new AssertionError("round " + r0 + " of " + label + " (seed " + seed
                                            + "): the consumer failed: " + mirror.consumer().failure().orElse(null));
                                }
                                return resynced.size() == shards;
                            });
                    during = ops.get();
                    t2 = System.nanoTime();
                } finally {
                    // also when the round failed: writers left running would write on into a closed store or
                    // server ("store closed") and into the next test
                    armed.set(false);
                    stop.set(true);
                    for (Thread t : ts) {
                        t.join(10_000);
                        if (t.isAlive()) {
                            t.interrupt();
                            throw new AssertionError(t.getName() + " still runs 10 s after the round");
                        }
                    }
                }
                long duringScan = opsAtRebuildEnd.get() - opsAtFirstScan.get();
                assertThat(opsAtFirstScan.get()).as("round %d of %s (seed %d): the rebuild scanned", round, label, seed)
                        .isNotNegative();
                if (duringScan > 0) {
                    roundsWithWritesDuringScan++;
                }
                minDuringScan = Math.min(minDuringScan, duringScan);
                long wait = lastShortExpiry.get() - System.currentTimeMillis() + 2;
                if (wait > 0) {
                    Thread.sleep(wait); // the short TTLs must have passed: waiting for time itself
                }
                List<String> keys = new ArrayList<>(new TreeSet<>(serverKeys(source)));
                keys.addAll(mirror.snapshot().keySet());
                source.snapshots(bytes(keys)).toCompletableFuture().get(); // reads expire due keys (DEL frames)
                Servers.awaitCaughtUp(mirror.consumer(), source, Duration.ofSeconds(60));
                Map<String, String> server = serverDump(source);
                Map<String, String> local = mirrorDump(mirror);
                if (!local.equals(server)) {
                    TreeSet<String> diff = new TreeSet<>(server.keySet());
                    diff.addAll(local.keySet());
                    diff.removeIf(k -> java.util.Objects.equals(server.get(k), local.get(k)));
                    synchronized (HISTORY) {
                        for (String k : diff) {
                            System.out.println("MirrorRebuildRun " + label + ": " + k + ": server " + server.get(k)
                                    + ", mirror " + local.get(k) + "; mirror changes this round: " + HISTORY.get(k));
                        }
                    }
                }
                assertThat(local).as("round %d of %s (seed %d): mirror == server", round, label, seed)
                        .isEqualTo(server);
                System.out.println("MirrorRebuildRun " + label + ": round " + round + ": "
                        + (feedResyncs.get() - resyncsBefore) + " FEEDRESYNC(s) after " + fills + " fill SET(s), "
                        + during + " write(s) by the end of the rebuild (" + duringScan + " between its first SCAN and "
                        + "its end), " + ops.get() + " in all, " + server.size()
                        + " key(s) equal (ms: force " + (t1 - t0) / 1_000_000 + ", rebuild " + (t2 - t1) / 1_000_000
                        + ", check " + (System.nanoTime() - t2) / 1_000_000 + ")");
            }
            assertThat(mirror.consumer().state()).isEqualTo(io.kevy.feed.client.FeedConsumer.State.RUNNING);
            // over the wire a rebuild takes several round trips and every round has such writes (at least dozens);
            // an embedded rebuild of some 40 keys takes about 1 ms, so a round may have none: most rounds must
            assertThat(roundsWithWritesDuringScan).as("%s (seed %d): rounds with writes made while the rebuild "
                    + "scanned and read (between its first SCAN and its end)", label, seed)
                    .isGreaterThanOrEqualTo((rounds + 1) / 2);
        }
        System.out.println("MirrorRebuildRun " + label + ": " + rounds + " round(s), seed " + seed + ", "
                + feedResyncs.get() + " FEEDRESYNC(s) in all, writes during the rebuild's scan and reads in "
                + roundsWithWritesDuringScan + " round(s) (at least " + minDuringScan + " in each), "
                + (System.nanoTime() - started) / 1_000_000 + " ms");
    }

    /**
     * Holds the consumer's reads, overruns every shard's backlog with SETs of {@code fill:} keys until the server
     * answers FEEDRESYNC at every held cursor, and releases the reads. Returns the SETs it took.
     */
    private static long forceResync(ResyncingFeedSource source, Writer fill, List<String> fillKeys, int shards,
            AtomicBoolean armed) throws InterruptedException {
        armed.set(true); // the next SCAN is the rebuild's (the consumer may resync before its reads are held)
        source.hold();
        long sets = 0;
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        try {
            while (!source.evicted(shards)) {
                assertThat(System.nanoTime()).as("the held cursors were evicted within 30 s").isLessThan(deadline);
                for (String k : fillKeys) {
                    for (int i = 0; i < FILL_STEP; i++) {
                        fill.call("SET", k, FILL);
                        sets++;
                    }
                }
            }
        } finally {
            source.release();
        }
        return sets;
    }

    /** {@value #TAGS} hash tags, the first {@code shards} of them one per shard (a shard with none is never read). */
    private static List<String> tags(int shards) {
        List<String> tags = new ArrayList<>();
        for (int i = 0; tags.size() < TAGS; i++) {
            String t = "t" + i;
            if (Slots.shard(("m:{" + t + "}:0").getBytes(StandardCharsets.UTF_8), shards) == tags.size() % shards) {
                tags.add(t);
            }
        }
        return tags;
    }

    /** One {@code fill:} key per shard, in shard order. */
    private static List<String> fillKeys(int shards) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; keys.size() < shards; i++) {
            String k = "fill:{f" + i + "}";
            if (Slots.shard(k.getBytes(StandardCharsets.UTF_8), shards) == keys.size()) {
                keys.add(k);
            }
        }
        return keys;
    }

    private static String key(Random r, List<String> tags, int tag) {
        return "m:{" + tags.get(tag) + "}:" + r.nextInt(KEYS_PER_TAG);
    }

    /** One random write, or (one in 12) a MULTI block of three. */
    static void step(Writer w, Random r, List<String> tags, boolean idempotent, AtomicLong lastShortExpiry) {
        if (r.nextInt(12) == 0) {
            List<String[]> block = new ArrayList<>(3);
            for (int i = 0; i < 3; i++) {
                block.add(command(r, tags, idempotent, lastShortExpiry));
            }
            w.multi(block);
            return;
        }
        w.call(command(r, tags, idempotent, lastShortExpiry));
    }

    private static String[] command(Random r, List<String> tags, boolean idempotent, AtomicLong lastShortExpiry) {
        int pick = r.nextInt(31);
        while (idempotent && (pick >= 8 && pick <= 12 || pick >= 24)) {
            pick = r.nextInt(24); // streams: an XADD or trim applied to a read that already holds it is not idempotent
        }
        int tag = r.nextInt(TAGS);
        String a = key(r, tags, tag);
        String b = r.nextInt(5) == 0 ? key(r, tags, r.nextInt(TAGS)) : key(r, tags, tag);
        String v = "v" + r.nextInt(1000);
        switch (pick) {
            case 0: return new String[] {"SET", a, v};
            case 1: {
                long ttl = 1 + r.nextInt((int) SHORT_TTL_MAX);
                lastShortExpiry.accumulateAndGet(System.currentTimeMillis() + ttl + 5, Math::max);
                return new String[] {"SET", a, v, "PX", Long.toString(ttl)};
            }
            case 2: return new String[] {"PEXPIREAT", a, Long.toString(System.currentTimeMillis() + 3_600_000L
                    + r.nextInt(1000))};
            case 3: return new String[] {"PERSIST", a};
            case 4: {
                lastShortExpiry.accumulateAndGet(System.currentTimeMillis() + 30 + 5, Math::max);
                return new String[] {"PEXPIRE", a, "30"};
            }
            case 5: return new String[] {"RENAME", a, b};
            case 6: return new String[] {"RENAMENX", a, b};
            case 7: return new String[] {"COPY", a, b, "REPLACE"};
            case 8: return new String[] {"RPUSH", a, v, "w" + r.nextInt(9)};
            case 9: return new String[] {"LPUSH", a, v};
            case 10: return new String[] {"LPOP", a, Integer.toString(1 + r.nextInt(2))};
            case 11: return new String[] {"RPOP", a};
            case 12: return new String[] {"LMOVE", a, b, r.nextBoolean() ? "LEFT" : "RIGHT", "LEFT"};
            case 13: return new String[] {"LTRIM", a, "0", Integer.toString(r.nextInt(4))};
            case 14: return new String[] {"LREM", a, "0", "w" + r.nextInt(9)};
            case 15: return new String[] {"SADD", a, "s" + r.nextInt(8), "s" + r.nextInt(8)};
            case 16: return new String[] {"SREM", a, "s" + r.nextInt(8)};
            case 17: return new String[] {"SMOVE", a, b, "s" + r.nextInt(8)};
            case 18: return new String[] {"HSET", a, "f" + r.nextInt(5), v};
            case 19: return new String[] {"HDEL", a, "f" + r.nextInt(5)};
            case 20: return new String[] {"ZADD", a, Integer.toString(r.nextInt(50)) + ".5", "z" + r.nextInt(6)};
            case 21: return new String[] {"ZREM", a, "z" + r.nextInt(6)};
            case 22: return r.nextBoolean() ? new String[] {"DEL", a, b}
                    : new String[] {"MSET", a, v, b, "m" + r.nextInt(1000)};
            case 23: return new String[] {"INCR", a};
            case 24: return new String[] {"XADD", a, "*", "f", v, "g" + r.nextInt(3), v};
            case 25: return new String[] {"XADD", a, "MAXLEN", r.nextBoolean() ? "~" : "=",
                    Integer.toString(r.nextInt(5)), "*", "f", v};
            case 26: return r.nextBoolean() ? new String[] {"XTRIM", a, "MAXLEN", Integer.toString(r.nextInt(5))}
                    : new String[] {"XTRIM", a, "MINID", Long.toString(System.currentTimeMillis() - r.nextInt(20))};
            case 27: return new String[] {"XDEL", a, (System.currentTimeMillis() - r.nextInt(10)) + "-"
                    + r.nextInt(3), (System.currentTimeMillis() - r.nextInt(30)) + "-0"};
            case 28: return new String[] {"XGROUP", "CREATE", a, "g", "0", "MKSTREAM"};
            case 29: return r.nextBoolean() ? new String[] {"XREADGROUP", "GROUP", "g", "c" + r.nextInt(2), "COUNT",
                    "2", "STREAMS", a, ">"} : new String[] {"XACK", a, "g", System.currentTimeMillis() + "-0"};
            default: return new String[] {"XSETID", a, (System.currentTimeMillis() + r.nextInt(5)) + "-0"};
        }
    }

    private static List<byte[]> bytes(List<String> keys) {
        List<byte[]> out = new ArrayList<>(keys.size());
        for (String k : keys) {
            out.add(k.getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }

    private static List<String> serverKeys(FeedSource source) throws Exception {
        List<String> keys = new ArrayList<>();
        String cursor = "0";
        do {
            ScanPage p = source.scan(cursor, "m:*".getBytes(StandardCharsets.UTF_8), 500).toCompletableFuture().get();
            for (byte[] k : p.keys()) {
                keys.add(new String(k, StandardCharsets.UTF_8));
            }
            cursor = p.cursor();
        } while (!cursor.equals("0"));
        return keys;
    }

    /** key → "type value pxat", the plain reads (TYPE, the value read, PEXPIRETIME; not FEED.VALUE). */
    private static Map<String, String> serverDump(FeedSource source) throws Exception {
        List<String> keys = new ArrayList<>(new TreeSet<>(serverKeys(source)));
        List<Optional<KeySnapshot>> snaps = source.snapshots(bytes(keys)).toCompletableFuture().get();
        Map<String, String> out = new TreeMap<>();
        for (int i = 0; i < keys.size(); i++) {
            if (snaps.get(i).isEmpty()) {
                continue;
            }
            KeySnapshot s = snaps.get(i).get();
            List<String> v = new ArrayList<>();
            for (byte[] b : s.value()) {
                v.add(new String(b, StandardCharsets.UTF_8));
            }
            String content = switch (s.type()) {
                case SET -> new TreeSet<>(v).toString();
                case HASH -> {
                    TreeMap<String, String> m = new TreeMap<>();
                    for (int j = 0; j + 1 < v.size(); j += 2) {
                        m.put(v.get(j), v.get(j + 1));
                    }
                    yield m.toString();
                }
                case ZSET -> {
                    TreeMap<String, Double> m = new TreeMap<>();
                    for (int j = 0; j + 1 < v.size(); j += 2) {
                        m.put(v.get(j), Double.parseDouble(v.get(j + 1)));
                    }
                    yield m.toString();
                }
                case STREAM -> {
                    // the entries as XRANGE - + read them (the counters are FeedStreamIT's)
                    List<String> entries = new ArrayList<>();
                    for (int j = 3; j < v.size(); ) {
                        int n = Integer.parseInt(v.get(j + 1));
                        entries.add(v.get(j) + " " + v.subList(j + 2, j + 2 + n));
                        j += 2 + n;
                    }
                    yield entries.toString();
                }
                default -> v.toString();
            };
            out.put(keys.get(i), s.type().word() + " " + content + " pxat " + s.expireAtMillis());
        }
        return out;
    }

    private static Map<String, String> mirrorDump(FeedMirror<String, String> mirror) {
        Map<String, String> out = new TreeMap<>();
        for (Map.Entry<String, MirroredValue<String>> e : mirror.snapshot().entrySet()) {
            MirroredValue<String> m = e.getValue();
            String content = switch (m.type()) {
                case STRING -> List.of(m.string()).toString();
                case LIST -> m.list().toString();
                case SET -> new TreeSet<>(m.set()).toString();
                case HASH -> {
                    TreeMap<String, String> t = new TreeMap<>();
                    m.hash().forEach(kv -> t.put(kv.getKey(), kv.getValue()));
                    yield t.toString();
                }
                case ZSET -> {
                    TreeMap<String, Double> t = new TreeMap<>();
                    m.zset().forEach(sv -> t.put(sv.getValue(), sv.getScore()));
                    yield t.toString();
                }
                case STREAM -> {
                    List<String> entries = new ArrayList<>();
                    for (io.lettuce.core.StreamMessage<String, String> sm : m.stream()) {
                        List<String> f = new ArrayList<>();
                        sm.getBody().forEach((k, x) -> {
                            f.add(k);
                            f.add(x);
                        });
                        entries.add(sm.getId() + " " + f);
                    }
                    yield entries.toString();
                }
                default -> "?";
            };
            out.put(e.getKey(), m.type().word() + " " + content + " pxat " + m.expireAtMillis().orElse(-1));
        }
        return out;
    }
}
