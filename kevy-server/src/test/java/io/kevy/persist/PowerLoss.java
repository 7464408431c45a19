package io.kevy.persist;

import io.kevy.feed.FeedCursor;
import io.kevy.testing.RawClient;
import io.kevy.testing.Replies;
import io.kevy.testing.ServerProcess;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Power loss, not only kill -9 (issue 32, point 5): kill -9 leaves the page cache to the kernel, so it never loses
 * a written but unsynced byte. Here the child server records each AOF's last fsynced length ({@link FileFaults});
 * after the kill every AOF is truncated to it, which is what a power loss leaves (snapshots, generation files and
 * new AOFs are written tmp + fsync + rename, so they are durable anyway). Then the server restarts and every
 * acknowledged write is checked, and every shard must have drawn a new generation at offset 0 (consumers
 * rebuild).
 *
 * <p>{@code appendfsync always}: nothing acknowledged may be lost. {@code everysec}: what is lost must have been
 * acknowledged within {@link #EVERYSEC_WINDOW_MS} of the power loss (the fsync cadence of 1 s plus the fsync's own
 * time on a busy machine). One line of figures per run, {@code PASS|FAIL power-loss-<policy> ...}.
 */
public final class PowerLoss {
    /** The most an everysec power loss may lose, in ms of acknowledged writes before it. */
    public static final long EVERYSEC_WINDOW_MS = 2000;
    private static final int SHARDS = 2;

    private final Path work;
    private final Random rnd;

    public PowerLoss(Path work, long seed) {
        this.work = work;
        this.rnd = new Random(seed);
    }

    /** {@code cycles} power losses under {@code policy} ({@code always} or {@code everysec}) on one data dir. */
    public DiskGate.Result run(String policy, int cycles) throws Exception {
        Path dir = Files.createDirectories(work.resolve("powerloss-" + policy + "-" + System.nanoTime()));
        Path control = Files.createDirectories(work.resolve("powerloss-control-" + System.nanoTime()));
        List<String> jvm = List.of("-D" + FileFaults.PROPERTY + "=" + control);
        String[] args = {"--feed", "--shards", Integer.toString(SHARDS), "--appendfsync", policy};
        boolean always = policy.equals("always");
        long acknowledged = 0;
        long lost = 0;
        long droppedBytes = 0;
        long maxLostAgeMs = 0;
        int passed = 0;
        String failure = "";
        long next = 0;
        ServerProcess s = ServerProcess.start(dir, jvm, args);
        try {
            for (int cycle = 0; cycle < cycles; cycle++) {
                FeedCursor[] before = new FeedCursor[SHARDS];
                try (RawClient c = s.raw()) {
                    for (int i = 0; i < SHARDS; i++) {
                        before[i] = tail(c, i);
                    }
                }
                long first = next;
                int capacity = 2_000_000;
                long[] ackNanos = new long[capacity];
                AtomicLong lastAck = new AtomicLong(first - 1);
                AtomicBoolean stop = new AtomicBoolean();
                ServerProcess running = s;
                Thread writer = new Thread(() -> {
                    try (RawClient c = running.raw()) {
                        for (long i = first; !stop.get() && i - first < capacity; i++) {
                            if (c.call("SET", "k:" + i, "v:" + i).equals("+OK\r\n")) {
                                ackNanos[(int) (i - first)] = System.nanoTime();
                                lastAck.set(i);
                            }
                        }
                    } catch (RuntimeException killed) {
                        // the power went out mid-command: that write is not acknowledged
                    }
                });
                writer.start();
                Thread.sleep(300 + rnd.nextInt(900));
                long outage = System.nanoTime();
                s.kill9();
                stop.set(true);
                writer.join();
                droppedBytes += loseUnsynced(dir, control);
                long last = lastAck.get();
                next = last + 1;
                s = ServerProcess.start(dir, jvm, args);
                String problem = null;
                try (RawClient c = s.raw()) {
                    for (int i = 0; i < SHARDS && problem == null; i++) {
                        FeedCursor after = tail(c, i);
                        if (after.generation() == before[i].generation() || after.offset() != 0) {
                            problem = "shard " + i + " kept its stream: " + before[i] + " -> " + after;
                        }
                    }
                    long cycleLost = 0;
                    for (long i = first; i <= last; i += 1000) {
                        long end = Math.min(last, i + 999);
                        StringBuilder batch = new StringBuilder();
                        for (long k = i; k <= end; k++) {
                            String key = "k:" + k;
                            batch.append("*2\r\n$3\r\nGET\r\n$").append(key.length()).append("\r\n").append(key)
                                    .append("\r\n");
                        }
                        c.send(batch.toString());
                        for (long k = i; k <= end; k++) {
                            String v = "v:" + k;
                            if (!c.readReply().equals("$" + v.length() + "\r\n" + v + "\r\n")) {
                                cycleLost++;
                                long age = (outage - ackNanos[(int) (k - first)]) / 1_000_000;
                                maxLostAgeMs = Math.max(maxLostAgeMs, age);
                                if (always || age > EVERYSEC_WINDOW_MS) {
                                    problem = problem != null ? problem : "acknowledged k:" + k + " lost, acknowledged "
                                            + age + " ms before the power loss";
                                }
                            }
                        }
                    }
                    lost += cycleLost;
                }
                acknowledged += Math.max(0, last - first + 1);
                if (problem == null) {
                    passed++;
                } else if (failure.isEmpty()) {
                    failure = "cycle " + cycle + ": " + problem;
                }
            }
        } finally {
            s.kill9();
        }
        boolean pass = passed == cycles && (always || droppedBytes > 0);
        if (!always && droppedBytes == 0 && failure.isEmpty()) {
            failure = "no unsynced byte was ever dropped: the fault mode tested nothing";
        }
        return new DiskGate.Result("power-loss-" + policy, pass, "cycles=" + passed + "/" + cycles
                + " acknowledged_writes=" + acknowledged + " lost_acknowledged=" + lost + " max_lost_age_ms="
                + maxLostAgeMs + " unsynced_bytes_dropped=" + droppedBytes
                + (failure.isEmpty() ? "" : " first_failure=" + failure));
    }

    /** Truncates every AOF in {@code dir} to the length its last fsync covered; returns the bytes dropped. */
    static long loseUnsynced(Path dir, Path control) throws IOException {
        long dropped = 0;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                String name = f.getFileName().toString();
                if (!name.startsWith("aof-") || !(name.endsWith(".aof") || name.endsWith(".aof.next"))) {
                    continue;
                }
                Path record = control.resolve("synced-" + name);
                if (!Files.exists(record)) {
                    throw new IllegalStateException(f + " has no fsync record in " + control);
                }
                long synced = ByteBuffer.wrap(Files.readAllBytes(record)).order(ByteOrder.LITTLE_ENDIAN).getLong();
                try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
                    long size = ch.size();
                    if (synced < size) {
                        ch.truncate(synced);
                        dropped += size - synced;
                    }
                }
            }
        }
        return dropped;
    }

    private static FeedCursor tail(RawClient c, int shard) {
        List<Object> r = Replies.nested(c.call("FEED.TAIL", Integer.toString(shard)));
        return new FeedCursor(Long.parseLong((String) r.get(0)), Long.parseLong((String) r.get(1)));
    }

    /** {@code bench/diskgate.sh}-style entry: {@code PowerLoss [CYCLES=20] [SEED]}; exits 1 on a failure. */
    public static void main(String[] args) throws Exception {
        int cycles = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : System.nanoTime();
        Path work = Files.createTempDirectory("kevy-powerloss");
        System.out.println("powerloss seed=" + seed + " work=" + work);
        PowerLoss p = new PowerLoss(work, seed);
        boolean ok = true;
        for (String policy : new String[] {"always", "everysec"}) {
            DiskGate.Result r = p.run(policy, cycles);
            System.out.println(r);
            ok &= r.pass();
        }
        DiskGate.deleteQuietly(work);
        System.exit(ok ? 0 : 1);
    }
}
