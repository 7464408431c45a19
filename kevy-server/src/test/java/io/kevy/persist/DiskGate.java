package io.kevy.persist;

import io.kevy.feed.FeedCursor;
import io.kevy.testing.RawClient;
import io.kevy.testing.Replies;
import io.kevy.testing.ServerProcess;
import io.kevy.testing.WireState;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The durability gates of issue 5, run against kevy-server child processes: the restore drill of feed contract
 * §10, kill -9 under load with appendfsync always, a clean SIGTERM restart under load with a lagging feed
 * reader, a torn AOF tail, and kill -9 at moments of AOF rewrites. Each check returns one line, {@code PASS|FAIL <name> <figures>}.
 *
 * <p>{@code bench/diskgate.sh} runs {@link #main} with the full repetitions; {@code DiskGateIT} runs the same
 * checks with fewer in CI.
 */
public final class DiskGate {
    private static final int SHARDS = 2;

    /** One check's outcome. */
    public record Result(String name, boolean pass, String figures) {
        @Override
        public String toString() {
            return (pass ? "PASS " : "FAIL ") + name + " " + figures;
        }
    }

    private final Path work;
    private final Random rnd;

    public DiskGate(Path work, long seed) {
        this.work = work;
        this.rnd = new Random(seed);
    }

    public static void main(String[] args) throws Exception {
        int reps = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : System.nanoTime();
        int rewriteKills = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        Path work = Files.createTempDirectory("kevy-diskgate");
        System.out.println("diskgate seed=" + seed + " work=" + work);
        DiskGate g = new DiskGate(work, seed);
        List<Result> results = List.of(g.restoreDrill(), g.killNineAlways(reps), g.cleanRestartUnderLoad(),
                g.tornTail(), g.killDuringRewrite(rewriteKills));
        boolean ok = true;
        for (Result r : results) {
            System.out.println(r);
            ok &= r.pass();
        }
        deleteQuietly(work);
        System.exit(ok ? 0 : 1);
    }

    private Path fresh(String name) throws IOException {
        Path d = work.resolve(name + "-" + System.nanoTime());
        Files.createDirectories(d);
        return d;
    }

    private static FeedCursor tail(RawClient c, int shard) {
        List<Object> r = Replies.nested(c.call("FEED.TAIL", Integer.toString(shard)));
        return new FeedCursor(Long.parseLong((String) r.get(0)), Long.parseLong((String) r.get(1)));
    }

    /**
     * Contract §10: feed on, write, SAVE, write more (overwrites, deletes, expiries), capture every shard's frames
     * from its snapshot cursor, stop, copy only the snapshots to a fresh dir, boot there, replay the frames as
     * commands, and require the same state byte for byte.
     */
    public Result restoreDrill() throws Exception {
        Path a = fresh("drill-source");
        Map<String, String> expected;
        String expectedStats;
        List<List<String>> frames = new ArrayList<>();
        long t0 = System.nanoTime();
        try (ServerProcess s = ServerProcess.start(a, "--feed", "--shards", Integer.toString(SHARDS))) {
            try (RawClient c = s.raw()) {
                long far = System.currentTimeMillis() + 3_600_000;
                for (int i = 0; i < 2000; i++) {
                    c.call("SET", "str:" + i, "v" + i);
                    c.call("HSET", "hash:" + (i % 200), "f" + (i % 7), "x" + i);
                    if (i % 10 == 0) {
                        c.call("RPUSH", "list:" + (i % 13), "e" + i);
                        c.call("ZADD", "zset:" + (i % 5), Integer.toString(i), "m" + i);
                        c.call("SADD", "set:" + (i % 9), "s" + i);
                        c.call("PEXPIREAT", "str:" + i, Long.toString(far + i));
                    }
                    if (i % 17 == 0) {
                        c.call("PEXPIRE", "str:" + (i / 2), "150");
                    }
                }
                require(c.call("SAVE"), "+OK\r\n");
                FeedCursor[] cursors = new FeedCursor[SHARDS];
                for (int i = 0; i < SHARDS; i++) {
                    cursors[i] = Snapshots.readSnapshotCursor(Snapshots.path(a, i)).orElseThrow();
                }
                for (int i = 0; i < 3000; i++) {
                    int k = rnd.nextInt(2500);
                    switch (rnd.nextInt(6)) {
                        case 0 -> c.call("SET", "str:" + k, "w" + i);
                        case 1 -> c.call("DEL", "str:" + k, "hash:" + (k % 250));
                        case 2 -> c.call("HINCRBY", "hash:" + (k % 250), "n", "3");
                        case 3 -> c.call("LPOP", "list:" + (k % 13));
                        case 4 -> c.call("ZINCRBY", "zset:" + (k % 5), "1.5", "m" + k);
                        default -> c.call("PEXPIRE", "str:" + k, Integer.toString(100 + rnd.nextInt(200)));
                    }
                }
                Thread.sleep(600); // every short TTL has passed: the reads below reap the rest
                expected = WireState.of(c);
                expectedStats = c.call("PREFIX.STATS", "");
                for (int i = 0; i < SHARDS; i++) {
                    capture(c, i, cursors[i], frames);
                }
            }
            s.term();
        }
        Path b = fresh("drill-restore");
        for (int i = 0; i < SHARDS; i++) {
            Files.copy(Snapshots.path(a, i), Snapshots.path(b, i));
        }
        Files.copy(a.resolve("shards.meta"), b.resolve("shards.meta"));
        Map<String, String> actual;
        String actualStats;
        try (ServerProcess s = ServerProcess.start(b, "--feed", "--shards", Integer.toString(SHARDS))) {
            try (RawClient c = s.raw()) {
                for (List<String> f : frames) {
                    byte[][] argv = new byte[f.size()][];
                    for (int i = 0; i < argv.length; i++) {
                        argv[i] = f.get(i).getBytes(StandardCharsets.ISO_8859_1);
                    }
                    String r = c.send(RawClient.encode(argv)).readReply();
                    if (r.startsWith("-")) {
                        return new Result("restore-drill", false, "frame " + f + " failed: " + r.trim());
                    }
                }
                actual = WireState.of(c);
                actualStats = c.call("PREFIX.STATS", "");
            }
            s.term();
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        boolean pass = expected.equals(actual) && expectedStats.equals(actualStats);
        String figures = "keys=" + expected.size() + " frames_replayed=" + frames.size() + " stats="
                + Replies.array(expectedStats) + " time_ms=" + ms;
        if (!pass) {
            figures += " diff=" + firstDifference(expected, actual);
        }
        return new Result("restore-drill", pass, figures);
    }

    private static void capture(RawClient c, int shard, FeedCursor from, List<List<String>> out) {
        long gen = from.generation();
        long off = from.offset();
        while (true) {
            String reply = c.call("FEED.READ", Integer.toString(shard), Long.toString(gen), Long.toString(off),
                    "COUNT", "4096");
            if (reply.startsWith("-")) {
                throw new IllegalStateException("shard " + shard + " cannot be read from " + from + ": " + reply.trim());
            }
            List<Object> r = Replies.nested(reply);
            long next = Long.parseLong((String) r.get(1));
            @SuppressWarnings("unchecked")
            List<Object> fs = (List<Object>) r.get(2);
            for (Object f : fs) {
                @SuppressWarnings("unchecked")
                List<Object> frame = (List<Object>) f;
                @SuppressWarnings("unchecked")
                List<String> argv = (List<String>) (List<?>) frame.get(1);
                out.add(argv);
            }
            if (next == off) {
                return;
            }
            off = next;
        }
    }

    /**
     * kill -9 during a write load with appendfsync always, {@code reps} times: every acknowledged write is present
     * after the restart and every shard's generation changed.
     */
    public Result killNineAlways(int reps) throws Exception {
        Path d = fresh("kill9");
        long acknowledged = 0;
        int passed = 0;
        String failure = "";
        long next = 0;
        for (int rep = 0; rep < reps; rep++) {
            FeedCursor[] before = new FeedCursor[SHARDS];
            AtomicLong acked = new AtomicLong(-1);
            long first = next;
            try (ServerProcess s = ServerProcess.start(d, "--feed", "--shards", Integer.toString(SHARDS),
                    "--appendfsync", "always")) {
                try (RawClient c = s.raw()) {
                    for (int i = 0; i < SHARDS; i++) {
                        before[i] = tail(c, i);
                    }
                }
                AtomicBoolean stop = new AtomicBoolean();
                Thread writer = new Thread(() -> {
                    try (RawClient c = s.raw()) {
                        for (long i = first; !stop.get(); i++) {
                            if (c.call("SET", "k:" + i, "v:" + i).equals("+OK\r\n")) {
                                acked.set(i);
                            }
                        }
                    } catch (RuntimeException closed) {
                        // the server was killed mid-command: that write is not acknowledged
                    }
                });
                writer.start();
                Thread.sleep(200 + rnd.nextInt(600));
                s.kill9();
                stop.set(true);
                writer.join();
            }
            long last = acked.get();
            next = last + 1;
            try (ServerProcess s = ServerProcess.start(d, "--feed", "--shards", Integer.toString(SHARDS),
                    "--appendfsync", "always"); RawClient c = s.raw()) {
                boolean ok = true;
                for (long i = first; i <= last && ok; i++) {
                    String r = c.call("GET", "k:" + i);
                    if (!r.equals("$" + ("v:" + i).length() + "\r\nv:" + i + "\r\n")) {
                        ok = false;
                        failure = "rep " + rep + ": acknowledged k:" + i + " is " + r.trim();
                    }
                }
                for (int i = 0; i < SHARDS && ok; i++) {
                    FeedCursor after = tail(c, i);
                    if (after.generation() == before[i].generation() || after.offset() != 0) {
                        ok = false;
                        failure = "rep " + rep + ": shard " + i + " kept generation " + before[i] + " -> " + after;
                    }
                }
                if (ok) {
                    passed++;
                }
                acknowledged += Math.max(0, last - first + 1);
                s.kill9();
            }
        }
        return new Result("kill-9-appendfsync-always", passed == reps, "runs=" + passed + "/" + reps
                + " acknowledged_writes=" + acknowledged + (failure.isEmpty() ? "" : " first_failure=" + failure));
    }

    /**
     * A clean SIGTERM restart under a write load: every shard keeps its generation and offset, and a lagging
     * reader continues from its cursor without FEEDRESYNC and sees every frame exactly once in offset order.
     */
    public Result cleanRestartUnderLoad() throws Exception {
        Path d = fresh("sigterm");
        FeedCursor[] beforeStop = new FeedCursor[SHARDS];
        FeedCursor[] reader = new FeedCursor[SHARDS];
        long[] seenFrames = new long[SHARDS];
        AtomicLong acked = new AtomicLong(-1);
        try (ServerProcess s = ServerProcess.start(d, "--feed", "--shards", Integer.toString(SHARDS))) {
            try (RawClient c = s.raw()) {
                for (int i = 0; i < SHARDS; i++) {
                    reader[i] = tail(c, i);
                }
            }
            AtomicBoolean stop = new AtomicBoolean();
            Thread writer = new Thread(() -> {
                try (RawClient c = s.raw()) {
                    for (long i = 0; !stop.get(); i++) {
                        if (c.call("SET", "k:" + i, "v:" + i).equals("+OK\r\n")) {
                            acked.set(i);
                        }
                    }
                } catch (RuntimeException closed) {
                    // the server stopped accepting commands
                }
            });
            writer.start();
            Thread.sleep(500);
            try (RawClient c = s.raw()) {
                for (int i = 0; i < SHARDS; i++) { // the reader takes one batch and falls behind
                    FeedCursor n = readOnce(c, i, reader[i], 100, seenFrames);
                    if (n == null) {
                        return new Result("sigterm-restart-lagging-reader", false, "FEEDRESYNC before the restart");
                    }
                    reader[i] = n;
                }
            }
            Thread.sleep(300);
            int exit = s.term();
            stop.set(true);
            writer.join();
            if (exit != 0 && exit != 143) {
                return new Result("sigterm-restart-lagging-reader", false, "exit status " + exit);
            }
        }
        long lagging = 0;
        try (ServerProcess s = ServerProcess.start(d, "--feed", "--shards", Integer.toString(SHARDS));
             RawClient c = s.raw()) {
            for (int i = 0; i < SHARDS; i++) {
                beforeStop[i] = tail(c, i);
                lagging += beforeStop[i].offset() - reader[i].offset();
                if (beforeStop[i].generation() != reader[i].generation()) {
                    return new Result("sigterm-restart-lagging-reader", false, "shard " + i + " generation changed: "
                            + reader[i] + " -> " + beforeStop[i]);
                }
                FeedCursor cur = reader[i];
                while (cur.offset() < beforeStop[i].offset()) {
                    FeedCursor n = readOnce(c, i, cur, 4096, seenFrames);
                    if (n == null) {
                        return new Result("sigterm-restart-lagging-reader", false, "FEEDRESYNC for a reader at " + cur
                                + " (tail " + beforeStop[i] + ")");
                    }
                    cur = n;
                }
            }
            long total = 0;
            for (long n : seenFrames) {
                total += n;
            }
            boolean allPresent = acked.get() < 0 || c.call("EXISTS", "k:" + acked.get()).equals(":1\r\n");
            boolean exact = total == acked.get() + 1 || total == acked.get() + 2; // the write cut by SIGTERM may land
            return new Result("sigterm-restart-lagging-reader", allPresent && exact, "acknowledged_writes="
                    + (acked.get() + 1) + " frames_seen_once=" + total + " frames_behind_at_restart=" + lagging
                    + " generations_kept=yes");
        }
    }

    /** Reads one batch from {@code from}; checks offsets are consecutive; null on FEEDRESYNC. */
    private static FeedCursor readOnce(RawClient c, int shard, FeedCursor from, int count, long[] seen) {
        String reply = c.call("FEED.READ", Integer.toString(shard), Long.toString(from.generation()),
                Long.toString(from.offset()), "COUNT", Integer.toString(count));
        if (reply.startsWith("-FEEDRESYNC")) {
            return null;
        }
        List<Object> r = Replies.nested(reply);
        long expectedOffset = from.offset();
        @SuppressWarnings("unchecked")
        List<Object> fs = (List<Object>) r.get(2);
        for (Object f : fs) {
            @SuppressWarnings("unchecked")
            long off = Long.parseLong((String) ((List<Object>) f).get(0));
            if (off != expectedOffset) {
                throw new IllegalStateException("shard " + shard + ": frame " + off + " where " + expectedOffset
                        + " was expected (gap or duplicate)");
            }
            expectedOffset++;
            seen[shard]++;
        }
        return new FeedCursor(Long.parseLong((String) r.get(0)), Long.parseLong((String) r.get(1)));
    }

    /** kill -9, a half-written record appended to an AOF, restart: the torn bytes are cut, the data is intact. */
    public Result tornTail() throws Exception {
        Path d = fresh("torn");
        try (ServerProcess s = ServerProcess.start(d, "--shards", Integer.toString(SHARDS), "--appendfsync",
                "always"); RawClient c = s.raw()) {
            for (int i = 0; i < 500; i++) {
                c.call("SET", "t:" + i, "v" + i);
            }
            s.kill9();
        }
        Path aof = AofWriter.aofPath(d, 0);
        byte[] torn = "*3\r\n$3\r\nSET\r\n$5\r\nt:tor".getBytes(StandardCharsets.US_ASCII);
        try (OutputStream o = Files.newOutputStream(aof, StandardOpenOption.APPEND)) {
            o.write(torn);
        }
        try (ServerProcess s = ServerProcess.start(d, "--shards", Integer.toString(SHARDS)); RawClient c = s.raw()) {
            boolean intact = true;
            for (int i = 0; i < 500; i++) {
                intact &= c.call("GET", "t:" + i).equals("$" + ("v" + i).length() + "\r\nv" + i + "\r\n");
            }
            boolean logged = s.log().contains("truncated " + torn.length + " bytes");
            s.kill9();
            return new Result("torn-aof-tail", intact && logged, "torn_bytes=" + torn.length + " truncation_logged="
                    + logged + " keys_intact=" + intact);
        }
    }

    /** What the gate knows of one key written during {@link #killDuringRewrite}: the least and most it may hold. */
    private static final class Bounds {
        long acked = -1;
        long sent = -1;
    }

    /**
     * Issue 5's rewrite clause: kill -9 during AOF rewrites (BGREWRITEAOF and by growth) with appendfsync always,
     * {@code kills} times on one data dir. Two writers INCR counters and SET keys to increasing sequence numbers
     * and record every acknowledged reply; each run kills at a seeded moment: while INFO reports
     * {@code aof_rewrite_in_progress:1}, right after BGREWRITEAOF is acknowledged, while an {@code .next} file is
     * in the dir, or after a random delay (rewrites by growth). Every restart must boot without a corrupt-record
     * or failed-frame log line and with no {@code .next}/{@code .tmp} file left in the dir; every counter must be
     * at least its acknowledged value and at most the number of INCRs sent; every acknowledged SET must read its
     * value or a later one sent.
     */
    public Result killDuringRewrite(int kills) throws Exception {
        Path d = fresh("rewrite-kill9");
        Path config = work.resolve("rewrite-kill9-" + System.nanoTime() + ".toml");
        Files.writeString(config, "[persistence]\nauto_aof_rewrite_percentage = 25\n"
                + "auto_aof_rewrite_min_size = \"4kb\"\n");
        String[] args = {"--config", config.toString(), "--feed", "--shards", Integer.toString(SHARDS),
                "--appendfsync", "always"};
        int writers = 2;
        int counters = 16;
        int setKeys = 500;
        Bounds[][] ctr = new Bounds[writers][counters];
        Bounds[][] set = new Bounds[writers][setKeys];
        for (int w = 0; w < writers; w++) {
            for (int j = 0; j < counters; j++) {
                ctr[w][j] = new Bounds();
                ctr[w][j].acked = 0;
                ctr[w][j].sent = 0;
            }
            for (int j = 0; j < setKeys; j++) {
                set[w][j] = new Bounds();
            }
        }
        long[] nextSeq = new long[writers];
        int[] modes = new int[4];
        List<Integer> order = new ArrayList<>();
        long ackedWrites = 0;
        long truncations = 0;
        long bootMsMax = 0;
        int passed = 0;
        String failure = "";
        long logFrom = 0;
        for (int run = 0; run <= kills; run++) {
            long b0 = System.nanoTime();
            ServerProcess s;
            try {
                s = ServerProcess.start(d, args);
            } catch (IllegalStateException e) {
                failure = "run " + run + ": boot failed: " + e.getMessage().replace('\n', ' ');
                break;
            }
            try (s) {
                bootMsMax = Math.max(bootMsMax, (System.nanoTime() - b0) / 1_000_000);
                String bootLog = s.log().substring((int) logFrom);
                logFrom += bootLog.length();
                truncations += bootLog.lines().filter(l -> l.contains(" truncated ")).count();
                String problem = bootProblem(bootLog, d);
                try (RawClient c = s.raw()) {
                    if (problem == null) {
                        problem = verify(c, ctr, set);
                    }
                    if (problem == null && run == 0) {
                        preload(c);
                    }
                }
                if (problem != null) {
                    failure = "run " + run + ": " + problem;
                    break;
                }
                if (run > 0) {
                    passed++;
                }
                if (run == kills) {
                    s.term();
                    break;
                }
                AtomicBoolean stop = new AtomicBoolean();
                List<Thread> threads = new ArrayList<>();
                AtomicLong acks = new AtomicLong();
                for (int w = 0; w < writers; w++) {
                    int me = w;
                    long seed = rnd.nextLong();
                    Thread t = new Thread(() -> write(s, me, new Random(seed), ctr[me], set[me], nextSeq, stop, acks));
                    t.start();
                    threads.add(t);
                }
                Thread.sleep(100 + rnd.nextInt(300));
                if (order.isEmpty()) { // every moment once per four kills, in a seeded order
                    order.addAll(List.of(0, 1, 2, 3));
                    java.util.Collections.shuffle(order, rnd);
                }
                int mode = order.remove(order.size() - 1);
                modes[mode] += killAt(s, d, mode) ? 1 : 0;
                s.kill9();
                stop.set(true);
                for (Thread t : threads) {
                    t.join();
                }
                ackedWrites += acks.get();
                logFrom = Files.size(d.resolve("server.log"));
            }
        }
        long growthRewrites;
        try (Stream<String> lines = Files.lines(d.resolve("server.log"))) {
            growthRewrites = lines.filter(l -> l.contains("): rewriting")).count();
        }
        return new Result("kill-9-during-aof-rewrite", passed == kills, "kills=" + passed + "/" + kills
                + " in_rewrite=" + modes[0] + " after_bgrewriteaof_ack=" + modes[1] + " with_next_file=" + modes[2]
                + " random_moment=" + modes[3] + " rewrites_by_growth=" + growthRewrites + " acknowledged_writes=" + ackedWrites + " torn_tails_truncated="
                + truncations + " boot_ms_max=" + bootMsMax + (failure.isEmpty() ? "" : " first_failure=" + failure));
    }

    /** 20 000 keys of 100 bytes, so that a rewrite's snapshot takes long enough to be caught in progress. */
    private static void preload(RawClient c) {
        String pad = "p".repeat(100);
        for (int batch = 0; batch < 20; batch++) {
            String[] argv = new String[1 + 2 * 1000];
            argv[0] = "MSET";
            for (int i = 0; i < 1000; i++) {
                argv[1 + 2 * i] = "pad:" + (batch * 1000 + i);
                argv[2 + 2 * i] = pad;
            }
            require(c.call(argv), "+OK\r\n");
        }
    }

    /** One writer's loop: INCR or SET (to its next sequence number) on its own keys, bounds recorded. */
    private static void write(ServerProcess s, int w, Random r, Bounds[] ctr, Bounds[] set, long[] nextSeq,
                              AtomicBoolean stop, AtomicLong acks) {
        try (RawClient c = s.raw()) {
            while (!stop.get()) {
                if (r.nextInt(3) == 0) {
                    int j = r.nextInt(ctr.length);
                    ctr[j].sent++;
                    String reply = c.call("INCR", "ctr:" + w + ":" + j);
                    if (reply.startsWith(":")) {
                        ctr[j].acked = Long.parseLong(reply.substring(1).trim());
                        acks.incrementAndGet();
                    }
                } else {
                    int j = r.nextInt(set.length);
                    long seq = ++nextSeq[w];
                    set[j].sent = seq;
                    if (c.call("SET", "set:" + w + ":" + j, Long.toString(seq)).equals("+OK\r\n")) {
                        set[j].acked = seq;
                        acks.incrementAndGet();
                    }
                }
            }
        } catch (RuntimeException closed) {
            // the server was killed mid-command: that write is not acknowledged
        }
    }

    /**
     * Kills at the moment {@code mode} names (0: a rewrite in progress, 1: BGREWRITEAOF just acknowledged, 2: an
     * {@code .next} file in the dir, 3: after a random delay of up to 1.5 s); returns whether that moment was reached (otherwise it kills anyway,
     * after about 3 s of trying).
     */
    private boolean killAt(ServerProcess s, Path d, int mode) throws IOException, InterruptedException {
        if (mode == 3) {
            Thread.sleep(rnd.nextInt(1500)); // long enough for the once-a-second growth trigger to fire sometimes
            return true;
        }
        long deadline = System.nanoTime() + 3_000_000_000L;
        try (RawClient c = s.raw()) {
            while (System.nanoTime() < deadline) {
                String r = c.call("BGREWRITEAOF");
                if (mode == 1 && r.startsWith("+Background append only file rewriting started")) {
                    return true;
                }
                for (int poll = 0; poll < 200; poll++) {
                    if (mode == 0 && c.call("INFO", "persistence").contains("aof_rewrite_in_progress:1")) {
                        return true;
                    }
                    if (mode == 2 && hasNextFile(d)) {
                        return true;
                    }
                    if (mode == 1) {
                        break;
                    }
                }
            }
        }
        return false;
    }

    private static boolean hasNextFile(Path d) throws IOException {
        try (Stream<Path> files = Files.list(d)) {
            return files.anyMatch(p -> p.getFileName().toString().endsWith(".next"));
        }
    }

    /** A corrupt record, a frame that failed to apply, an error, or a stale rewrite/tmp file after a boot. */
    private static String bootProblem(String bootLog, Path d) throws IOException {
        for (String line : bootLog.lines().toList()) {
            String l = line.toLowerCase(java.util.Locale.ROOT);
            if (l.contains("corrupt") || l.contains("failed to apply") || l.contains(" error ")) {
                return "boot logged: " + line;
            }
        }
        try (Stream<Path> files = Files.list(d)) {
            List<String> stale = files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".next") || n.contains(".tmp")).toList();
            return stale.isEmpty() ? null : "stale files after boot: " + stale;
        }
    }

    /** Checks every key against its bounds, then narrows the bounds to what the restarted server holds. */
    private static String verify(RawClient c, Bounds[][] ctr, Bounds[][] set) {
        String problem = null;
        for (int w = 0; w < ctr.length; w++) {
            for (int j = 0; j < ctr[w].length; j++) {
                problem = check(c, "ctr:" + w + ":" + j, ctr[w][j], 0, problem);
            }
            for (int j = 0; j < set[w].length; j++) {
                problem = check(c, "set:" + w + ":" + j, set[w][j], -1, problem);
            }
        }
        return problem;
    }

    private static String check(RawClient c, String key, Bounds b, long absent, String problem) {
        String reply = c.call("GET", key);
        long v = reply.startsWith("$-1") ? absent : Long.parseLong(reply.substring(reply.indexOf("\r\n") + 2).trim());
        if (problem == null && (v < b.acked || v > b.sent)) {
            problem = key + " is " + (v == absent && reply.startsWith("$-1") ? "missing" : Long.toString(v))
                    + ", acknowledged " + b.acked + ", sent up to " + b.sent;
        }
        b.acked = v;
        b.sent = v;
        return problem;
    }

    private static String firstDifference(Map<String, String> a, Map<String, String> b) {
        for (String k : a.keySet()) {
            if (!a.get(k).equals(b.get(k))) {
                return k + ": " + a.get(k) + " vs " + b.get(k);
            }
        }
        for (String k : b.keySet()) {
            if (!a.containsKey(k)) {
                return k + ": missing vs " + b.get(k);
            }
        }
        return "PREFIX.STATS differ";
    }

    static void deleteQuietly(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // best effort
        }
    }

    private static void require(String actual, String expected) {
        if (!actual.equals(expected)) {
            throw new IllegalStateException("expected " + expected.trim() + ", got " + actual.trim());
        }
    }
}
