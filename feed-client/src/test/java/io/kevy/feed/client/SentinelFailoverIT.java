package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kevy.embedded.Reply;
import io.kevy.engine.Shard;
import io.kevy.feed.client.support.ForwardingFeedSource;
import io.kevy.feed.client.support.StoreMirror;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import io.kevy.testing.ServerProcess;
import io.kevy.testing.TestServer;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failover by real Redis Sentinels (issue 29): one kevy primary (a child process) and two kevy replicas
 * (in-process) on loopback, three {@code redis-sentinel} processes watching them, a writer and feed consumers
 * connected through lettuce's Sentinel URI. The primary is killed with SIGKILL ({@code kill -9}: no shutdown code
 * runs, the kernel closes its sockets) <b>while the writer writes</b>.
 *
 * <p><b>The writer</b> writes a distinct key per write ({@code w:<seq>}), each {@code SET} followed by
 * {@code WAIT 1 1000} on the same connection, and records each write as confirmed (WAIT answered at least 1), not
 * replicated (WAIT answered 0 on its timeout) or failed (an error on the SET or the WAIT: the connection broke, or the
 * server refused). It does not stop for the kill: on an error it closes the connection and opens a new one through the
 * Sentinel URI (lettuce asks the Sentinels for the current primary: the dead one until they fail over, then the
 * promoted replica), and goes on until it has {@value #CONFIRMED_AFTER} confirmed writes on connections opened after
 * the kill. Its lettuce client does not reconnect by itself ({@code autoReconnect(false)}): lettuce's own reconnect
 * (at-least-once) may re-send a command in flight on the new connection, where a {@code WAIT} would count the replicas
 * of a connection that wrote nothing (kevy, like Redis, answers such a WAIT at once) and "confirm" a write that went
 * to the dead primary. The test then requires every confirmed write on the new primary (keys are distinct, so "on it"
 * means its value). docs/operations.md says why WAIT 1 is not a guarantee in every case with several shards: Sentinel
 * promotes the replica with the highest offset sum, and one replica may be ahead on one shard and behind on another.
 * With this writer that case is a tie and nearly impossible: a replica that acknowledged write n holds every earlier
 * write of the connection on every shard (kevy's WAIT waits for the connection's position on each shard it wrote), and
 * only write n+1 can be in flight, so a promoted replica lacking write n has at most the offset sum of the
 * acknowledging one, equal only when it is one frame behind on n's shard and one ahead on the other, and Sentinel
 * (which reads the replicas' offsets again once the primary is down) then picks it by run id. The failure message
 * prints both replicas' offsets, so such a case is told from a bug.
 *
 * <p><b>The consumers.</b> A consumer's cursor is served after the failover when it is at or below where the
 * promoted replica's copy of the old generation ended ({@code E}, per shard, from its generation history); a
 * cursor past {@code E} (frames of the old primary's last moments that no replica got) gets FEEDRESYNC and that
 * shard rebuilds (docs/cdc.md, "Replicas and failover"). The test checks exactly that rule for every consumer:
 * the shards it rebuilt are the shards whose cursor at the failover (the old generation's cursor it read from
 * last) was past {@code E}; and at the end each consumer's view equals the new primary's {@code w:} keys. Which
 * side of {@code E} a consumer that reads the primary as fast as it can ends up on is a race with the
 * replicas (the frames of a write reach the replicas and the consumer at the same moment), so:
 * <ul>
 *   <li>the main consumer ({@code failover}) and the consumer stopped before the failover read <b>what is
 *   replicated</b>: their source hands them only the frames both replicas have applied (a batch waits, in the
 *   source, until both replicas' shard is past it; the gate reads the in-process replicas' shard offsets). Like
 *   Kafka's high watermark, this makes every frame they saw one the promoted replica has, whichever replica
 *   Sentinel picks, so their cursors are at or below {@code E} in every run: they must continue without a
 *   rebuild, with the frames that follow and no frame twice or skipped. A consumer that merely lags (a pause
 *   per read, a bounded lag) would only make the race rarer; this removes it, at the cost of each read
 *   waiting until the replicas applied its frames;</li>
 *   <li>a third consumer ({@code eager}) reads the primary directly, as applications do; it is usually at or
 *   below {@code E} too, and when it read frames the promoted replica never got, the rule says exactly which of
 *   its shards rebuild; its view must equal the new primary's all the same.</li>
 * </ul>
 *
 * <p>Also required: the Sentinels promote a replica, writes through the Sentinel URI succeed again, the other
 * replica follows the new primary without a second full sync and holds its data, and a consumer stopped before
 * the failover resumes with its stored cursor of the old generation, without a rebuild.
 */
class SentinelFailoverIT {
    private static final String MASTER = "mymaster";
    private static final int SHARDS = 2;
    private static final String PREFIX = "w:";
    /** The writer's confirmed writes before the kill (the stopped consumer stops half way). */
    private static final int CONFIRMED_BEFORE = 400;
    /** The writer's confirmed writes on connections opened after the kill, before it stops. */
    private static final int CONFIRMED_AFTER = 100;
    /** WAIT's timeout, ms. */
    private static final int WAIT_MS = 1000;

    /** The servers' and sentinels' directories, configs and logs; removed after the test (processes stopped). */
    @TempDir
    Path work;

    @Test
    void sentinelsPromoteAReplicaWhileAWriterWritesAndTheConsumersFollow() throws Exception {
        Assumptions.assumeTrue(sentinelInstalled(), "redis-sentinel is not installed (apt-get install redis-sentinel)");
        List<Process> sentinels = new ArrayList<>();
        ScheduledExecutorService gateTimer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "replicated-gate");
            t.setDaemon(true);
            return t;
        });
        Path r1Toml = work.resolve("r1.toml");
        try (ServerProcess primary = ServerProcess.start(work.resolve("primary"), "--shards",
                Integer.toString(SHARDS), "--feed", "--no-aof"); TestServer r1 = replicaFromFile(r1Toml, primary.port());
             TestServer r2 = server()) {
            List<TestServer> replicas = List.of(r1, r2);
            // r1 starts from its TOML, which names the primary; r2 has no config file and is told by REPLICAOF
            assertThat(r2.raw().call("REPLICAOF", "127.0.0.1", Integer.toString(primary.port())))
                    .isEqualTo("+OK\r\n");
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                try (RawClient p = primary.raw()) {
                    return p.call("INFO", "replication").contains("connected_slaves:2");
                }
            });
            int[] ports = new int[3];
            for (int i = 0; i < 3; i++) {
                Process sentinel = null;
                for (int attempt = 0; sentinel == null; attempt++) {
                    ports[i] = freePort();
                    sentinel = startSentinel(work, i, ports[i], primary.port());
                    if (!awaitListening(sentinel, ports[i])) { // exited: the port was taken in between
                        assertThat(attempt).as("sentinel %d failed to start: %s", i, log(work, i)).isLessThan(3);
                        sentinel = null;
                    }
                }
                sentinels.add(sentinel);
            }
            for (int p : ports) { // every Sentinel knows both replicas and the two other Sentinels
                await().atMost(Duration.ofSeconds(60)).ignoreExceptionsInstanceOf(UncheckedIOException.class)
                        .untilAsserted(() -> {
                            RawClient s = RawClient.connect(p);
                            try {
                                assertThat(count(s.call("SENTINEL", "REPLICAS", MASTER))).isEqualTo(2);
                                assertThat(count(s.call("SENTINEL", "SENTINELS", MASTER))).isEqualTo(2);
                            } finally {
                                s.close();
                            }
                        });
            }
            RedisURI uri = RedisURI.Builder.sentinel("127.0.0.1", ports[0], MASTER)
                    .withSentinel("127.0.0.1", ports[1]).withSentinel("127.0.0.1", ports[2])
                    .withTimeout(Duration.ofSeconds(5)).build();
            RedisClient client = RedisClient.create(uri);
            client.setOptions(ClientOptions.builder().autoReconnect(false).build());
            Writer writer = new Writer(client);
            Thread writing = new Thread(writer, "sentinel-it-writer");
            writing.setDaemon(true);
            try (FeedSource source = FeedSource.connect(uri); StoreMirror mirror = new StoreMirror();
                 StoreMirror mirrorB = new StoreMirror(); StoreMirror mirrorE = new StoreMirror()) {
                long[] oldGen = new long[SHARDS];
                for (int s = 0; s < SHARDS; s++) {
                    oldGen[s] = source.tail(s).toCompletableFuture().get(10, TimeUnit.SECONDS).generation();
                }
                Watched gated = new Watched(source, oldGen, replicas, gateTimer);
                Watched gatedB = new Watched(source, oldGen, replicas, gateTimer);
                Watched eagerSource = new Watched(source, oldGen, null, gateTimer);
                Resyncs resyncs = new Resyncs();
                Resyncs resyncsB = new Resyncs();
                Resyncs resyncsE = new Resyncs();
                FeedConsumer<String, String> consumer = consumer("failover", gated, mirror, resyncs).build();
                FeedConsumer<String, String> eager = consumer("eager", eagerSource, mirrorE, resyncsE).build();
                FeedConsumer<String, String> stopped = consumer("restarted", gatedB, mirrorB, resyncsB)
                        .cursorStore(new MemoryCursorStore()).build();
                consumer.start().toCompletableFuture().get();
                eager.start().toCompletableFuture().get();
                stopped.start().toCompletableFuture().get();

                writing.start();
                long t0;
                TestServer promoted;
                try {
                    await().atMost(Duration.ofSeconds(60)).until(() -> writer.ok()
                            && writer.confirmedBefore.get() >= CONFIRMED_BEFORE / 2 && mirrorB.keys().size() >= 100);
                    stopped.close(); // its cursors (old generation, within what both replicas hold) stay in its store
                    await().atMost(Duration.ofSeconds(60)).until(() -> writer.ok()
                            && writer.confirmedBefore.get() >= CONFIRMED_BEFORE && mirror.keys().size() >= 200
                            && mirrorE.keys().size() >= 200);

                    t0 = System.nanoTime();
                    primary.kill9(); // kill -9 while the writer writes: nothing is saved, the kernel closes the sockets
                    writer.killed = true; // writes started from here on go to connections opened after the kill
                    TestServer[] found = new TestServer[1];
                    await().atMost(Duration.ofSeconds(60)).until(() -> {
                        for (TestServer r : replicas) {
                            if (r.raw().call("ROLE").startsWith("*3\r\n$6\r\nmaster")) {
                                found[0] = r;
                                return true;
                            }
                        }
                        return false;
                    });
                    promoted = found[0];
                    System.out.printf("SentinelFailoverIT: promoted the replica on port %d %d ms after the primary "
                            + "was killed%n", promoted.port(), (System.nanoTime() - t0) / 1_000_000);
                    // the writer goes on through the Sentinel URI (lettuce asks the Sentinels for the new primary)
                    await().atMost(Duration.ofSeconds(60)).until(() -> writer.ok()
                            && writer.confirmedAfter.get() >= CONFIRMED_AFTER);
                } finally {
                    writer.stop = true;
                    writing.join(TimeUnit.SECONDS.toMillis(30));
                }
                assertThat(writing.isAlive()).as("the writer stopped").isFalse();
                assertThat(writer.failure).as("the writer's unexpected failure").isNull();
                System.out.printf("SentinelFailoverIT: writes through the Sentinel URI again %d ms after the kill%n",
                        (writer.firstConfirmedAfterKill - t0) / 1_000_000);
                TestServer other = promoted == r1 ? r2 : r1;
                // Sentinel's failover transactions (SLAVEOF, CONFIG REWRITE, CLIENT KILL, EXEC) keep r1's TOML in
                // step: promoted, it no longer names the dead primary (a clean restart must not make it a replica
                // of a lagging server: issue 29's drill lost a WAIT-confirmed write so); reconfigured, it names the
                // new primary. r2's CONFIG REWRITE fails (no config file) inside EXEC without stopping its SLAVEOF.
                String expectedReplicaof = promoted == r1 ? null : "replicaof = \"127.0.0.1 " + promoted.port() + "\"";
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    String toml = Files.readString(r1Toml);
                    assertThat(toml).contains("# r1, started from here", "[feed]");
                    if (expectedReplicaof == null) {
                        assertThat(toml).doesNotContain("replicaof");
                    } else {
                        assertThat(toml).contains(expectedReplicaof);
                    }
                });
                long[] ends = generationEnds(promoted, oldGen);

                // every write WAIT 1 confirmed, before, during and after the failover, is on the new primary
                Map<String, String> truth = strings(promoted.lettuce());
                List<Writer.Write> writes = writer.writes();
                List<String> lost = new ArrayList<>();
                for (Writer.Write w : writes) {
                    if (w.outcome() == Outcome.CONFIRMED && !value(w.seq()).equals(truth.get(key(w.seq())))) {
                        lost.add(key(w.seq()) + "(shard " + shardOf(key(w.seq())) + ")");
                    }
                }
                assertThat(lost).as("WAIT 1-confirmed writes missing on the new primary; old generation ended at %s "
                        + "on the promoted replica, at %s on the other (see the class comment)", Arrays.toString(ends),
                        Arrays.toString(endsOrOffsets(other, oldGen))).isEmpty();
                assertThat(writer.confirmedAfter.get()).as("writes through the Sentinel URI after the failover")
                        .isGreaterThanOrEqualTo(CONFIRMED_AFTER);

                // the other replica follows the new primary with a partial resync (still its first full sync only)
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(strings(other.lettuce()))
                        .isEqualTo(truth));
                assertThat(other.raw().call("INFO", "replication")).as("it resumed from its cursors")
                        .contains("kevy_full_syncs:1\r\n");

                // the consumers: the shards past E rebuilt (none for the gated ones), and their view is the primary's
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                    assertThat(view(mirror)).as("the failover consumer's view").isEqualTo(truth);
                    assertThat(view(mirrorE)).as("the eager consumer's view").isEqualTo(truth);
                });
                assertThat(consumer.state()).isEqualTo(FeedConsumer.State.RUNNING);
                assertThat(eager.state()).isEqualTo(FeedConsumer.State.RUNNING);
                long[] at = gated.cursorsAtFailover();
                long[] atE = eagerSource.cursorsAtFailover();
                assertThat(beyond(at, ends)).as("the gated consumer read only what both replicas had").isEmpty();
                assertRebuiltExactlyBeyond("failover", at, ends, resyncs, mirror);
                assertRebuiltExactlyBeyond("eager", atE, ends, resyncsE, mirrorE);
                consumer.close();
                eager.close();

                // a consumer stopped before the failover restarts with its stored cursor of the old generation
                FeedConsumer<String, String> later = stopped.toBuilder().build();
                later.start().toCompletableFuture().get();
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(view(mirrorB))
                        .as("the restarted consumer's view").isEqualTo(truth));
                long[] atB = gatedB.cursorsAtFailover();
                assertThat(beyond(atB, ends)).isEmpty();
                assertRebuiltExactlyBeyond("restarted", atB, ends, resyncsB, mirrorB);
                later.close();

                long confirmed = writes.stream().filter(w -> w.outcome() == Outcome.CONFIRMED).count();
                System.out.printf("SentinelFailoverIT: %d writes: %d confirmed (%d after the kill), %d not "
                        + "replicated (WAIT 0), %d failed; %d connections, %d refused connects; E=%s; cursors at "
                        + "the failover: failover=%s rebuilt=%s, eager=%s rebuilt=%s, restarted=%s rebuilt=%s; "
                        + "changes consumed: failover=%d eager=%d restarted=%d%n",
                        writes.size(), confirmed, writer.confirmedAfter.get(),
                        writes.stream().filter(w -> w.outcome() == Outcome.NOT_REPLICATED).count(),
                        writes.stream().filter(w -> w.outcome() == Outcome.FAILED).count(), writer.connections.get(),
                        writer.refused.get(), Arrays.toString(ends), Arrays.toString(at), resyncs.shards,
                        Arrays.toString(atE), resyncsE.shards, Arrays.toString(atB), resyncsB.shards,
                        mirror.changes.get(), mirrorE.changes.get(), mirrorB.changes.get());
            } finally {
                writer.stop = true;
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        } finally {
            gateTimer.shutdownNow();
            for (Process p : sentinels) {
                p.destroyForcibly().waitFor();
            }
            for (int i = 0; i < 3; i++) {
                Path log = work.resolve("sentinel-" + i + ".log");
                if (Files.exists(log)) {
                    List<String> lines = Files.readAllLines(log);
                    System.out.println("--- sentinel " + i + " (last lines)");
                    lines.subList(Math.max(0, lines.size() - 25), lines.size()).forEach(System.out::println);
                }
            }
        }
    }

    private static FeedConsumer.Builder<String, String> consumer(String name, FeedSource source, StoreMirror mirror,
            Resyncs resyncs) {
        return FeedConsumer.builder(StringCodec.UTF8).source(source).name(name).handler(mirror)
                .onRebuild(ScanRebuild.sweeping(mirror::keys)) // a rebuild deletes what the new primary lacks
                .listener(resyncs).startFrom(StartFrom.TAIL).batchSize(64)
                .retryBackoff(Duration.ofMillis(50), Duration.ofMillis(500)).maxConnectionAttempts(1000);
    }

    /**
     * The rule of docs/cdc.md's "Replicas and failover": the shards {@code name} rebuilt are exactly those whose
     * cursor at the failover was past where the promoted replica's copy of the old generation ended; on the others
     * it got every frame once, in order (no frame twice, none skipped).
     */
    private static void assertRebuiltExactlyBeyond(String name, long[] cursors, long[] ends, Resyncs resyncs,
            StoreMirror mirror) {
        Set<Integer> beyond = beyond(cursors, ends);
        assertThat(new TreeSet<>(resyncs.shards)).as("%s: the shards that got FEEDRESYNC (cursors at the failover "
                + "%s, old generation ended at %s)", name, Arrays.toString(cursors), Arrays.toString(ends))
                .isEqualTo(beyond);
        if (beyond.isEmpty()) {
            assertThat(mirror.snapshots.get() + mirror.vanished.get()).as("%s: no rebuild", name).isZero();
        }
        mirror.offsets().forEach((shard, offsets) -> {
            if (beyond.contains(shard)) {
                return;
            }
            synchronized (offsets) {
                for (int i = 1; i < offsets.size(); i++) {
                    assertThat(offsets.get(i)).as("%s: shard %d's frame after offset %d", name, shard,
                            offsets.get(i - 1)).isEqualTo(offsets.get(i - 1) + 1);
                }
            }
        });
    }

    private static Set<Integer> beyond(long[] cursors, long[] ends) {
        Set<Integer> out = new TreeSet<>();
        for (int s = 0; s < cursors.length; s++) {
            if (cursors[s] > ends[s]) {
                out.add(s);
            }
        }
        return out;
    }

    /** Where generation {@code oldGen[s]} ended on the promoted server's shard {@code s} (its history). */
    private static long[] generationEnds(TestServer promoted, long[] oldGen) {
        long[] ends = new long[SHARDS];
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            for (int s = 0; s < SHARDS; s++) {
                long g = oldGen[s];
                Long e = withShard(promoted, s, sh -> sh.generationEnd(g));
                assertThat(e).as("shard %d's generation history names generation %d", s, oldGen[s]).isNotNull();
                ends[s] = e;
            }
        });
        return ends;
    }

    /** Per shard: where the old generation ended on {@code r}, or its offset while it is still in it. */
    private static long[] endsOrOffsets(TestServer r, long[] oldGen) {
        long[] out = new long[SHARDS];
        for (int s = 0; s < SHARDS; s++) {
            out[s] = replicatedOffset(r, s, oldGen[s]);
        }
        return out;
    }

    /** How far {@code r} holds generation {@code g} of shard {@code s}: its offset, its history's end, or 0. */
    static long replicatedOffset(TestServer r, int s, long g) {
        return withShard(r, s, sh -> {
            if (sh.generation() == g) {
                return sh.nextOffset();
            }
            Long end = sh.generationEnd(g);
            return end == null ? 0L : end;
        });
    }

    private static <T> T withShard(TestServer r, int s, java.util.function.Function<Shard, T> f) {
        Shard sh = r.server().engine().shard(s);
        sh.lock().lock();
        try {
            return f.apply(sh);
        } finally {
            sh.lock().unlock();
        }
    }

    private static String key(long seq) {
        return PREFIX + seq;
    }

    private static String value(long seq) {
        return "v" + seq;
    }

    private static int shardOf(String key) {
        return io.kevy.common.Slots.shard(key.getBytes(java.nio.charset.StandardCharsets.UTF_8), SHARDS);
    }

    /** The server's {@code w:} keys and their (string) values. */
    private static Map<String, String> strings(RedisCommands<String, String> redis) {
        Map<String, String> out = new TreeMap<>();
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<String> page = redis.scan(cursor, ScanArgs.Builder.matches(PREFIX + "*").limit(1000));
            if (!page.getKeys().isEmpty()) {
                for (KeyValue<String, String> kv : redis.mget(page.getKeys().toArray(new String[0]))) {
                    if (kv.hasValue()) {
                        out.put(kv.getKey(), kv.getValue());
                    }
                }
            }
            cursor = page;
        } while (!cursor.isFinished());
        return out;
    }

    /** A consumer's view: the {@code w:} keys of its mirror and their (string) values. */
    private static Map<String, String> view(StoreMirror mirror) {
        Map<String, String> out = new TreeMap<>();
        for (String k : mirror.store().scan(PREFIX + "*")) {
            Reply r = mirror.store().execute("GET", k);
            if (r instanceof Reply.Bulk b) {
                out.put(k, b.utf8());
            }
        }
        return out;
    }

    enum Outcome { CONFIRMED, NOT_REPLICATED, FAILED }

    /**
     * Writes {@code w:<seq>} = {@code v<seq>}, each followed by {@code WAIT 1} on the same connection, until
     * stopped; on any error it opens a new connection through the Sentinel URI (see the class comment).
     */
    private static final class Writer implements Runnable {
        record Write(long seq, boolean afterKill, Outcome outcome) {
        }

        private final RedisClient client;
        private final List<Write> writes = Collections.synchronizedList(new ArrayList<>());
        final AtomicLong confirmedBefore = new AtomicLong();
        final AtomicLong confirmedAfter = new AtomicLong();
        final AtomicLong connections = new AtomicLong();
        final AtomicLong refused = new AtomicLong();
        volatile long firstConfirmedAfterKill;
        volatile boolean killed;
        volatile boolean stop;
        volatile Throwable failure;

        Writer(RedisClient client) {
            this.client = client;
        }

        /** True while the writer runs as it should; throws (failing an await at once) when it broke. */
        boolean ok() {
            if (failure != null) {
                throw new AssertionError("the writer failed: " + failure, failure);
            }
            return true;
        }

        List<Write> writes() {
            synchronized (writes) {
                return new ArrayList<>(writes);
            }
        }

        @Override
        public void run() {
            StatefulRedisConnection<String, String> conn = null;
            long seq = 0;
            try {
                while (!stop) {
                    if (conn == null) {
                        try {
                            conn = client.connect(); // asks the Sentinels for the primary
                            connections.incrementAndGet();
                        } catch (RedisException e) { // the dead primary, until the Sentinels fail over
                            refused.incrementAndGet();
                            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // a client's retry backoff
                            continue;
                        }
                    }
                    boolean after = killed;
                    long s = seq++;
                    Outcome o;
                    try {
                        conn.sync().set(key(s), value(s));
                        o = conn.sync().waitForReplication(1, WAIT_MS) >= 1 ? Outcome.CONFIRMED
                                : Outcome.NOT_REPLICATED;
                    } catch (RedisException e) { // the connection broke, or -READONLY, or a timeout
                        o = Outcome.FAILED;
                        conn.closeAsync();
                        conn = null;
                    }
                    writes.add(new Write(s, after, o));
                    if (o == Outcome.CONFIRMED) {
                        if (after && confirmedAfter.getAndIncrement() == 0) {
                            firstConfirmedAfterKill = System.nanoTime();
                        } else if (!after) {
                            confirmedBefore.incrementAndGet();
                        }
                    }
                }
            } catch (Throwable t) {
                failure = t;
            } finally {
                if (conn != null) {
                    conn.closeAsync();
                }
            }
        }
    }

    /** Records the shards a consumer got FEEDRESYNC on. */
    private static final class Resyncs implements ConsumerListener {
        final Set<Integer> shards = ConcurrentHashMap.newKeySet();

        @Override
        public void onResync(String consumer, int shard) {
            shards.add(shard);
        }
    }

    /**
     * A consumer's source: records, per shard, the furthest cursor of the old generation the consumer read from
     * or was handed (its cursor at the failover, once it reads the new primary), and, when given the replicas,
     * hands out of an old-generation batch only the frames every replica has applied: a batch waits (polled
     * every millisecond, up to {@link #GATE_WAIT}) until both replicas' shard is past its last frame, then is
     * cut before the first frame one of them lacks (its next cursor that frame's offset). Batches of the new
     * generation pass as they are. Does not close the shared source.
     */
    private static final class Watched extends ForwardingFeedSource {
        private static final long GATE_WAIT = TimeUnit.MILLISECONDS.toNanos(200);
        private final long[] oldGen;
        private final List<TestServer> replicas;
        private final ScheduledExecutorService timer;
        private final AtomicLongArray furthest = new AtomicLongArray(SHARDS);

        Watched(FeedSource inner, long[] oldGen, List<TestServer> replicas, ScheduledExecutorService timer) {
            super(inner);
            this.oldGen = oldGen;
            this.replicas = replicas;
            this.timer = timer;
        }

        long[] cursorsAtFailover() {
            long[] out = new long[SHARDS];
            for (int s = 0; s < SHARDS; s++) {
                out[s] = furthest.get(s);
            }
            return out;
        }

        private void note(Cursor c) {
            if (c.generation() == oldGen[c.shard()]) {
                furthest.accumulateAndGet(c.shard(), c.offset(), Math::max);
            }
        }

        @Override
        public CompletionStage<FrameBatch> read(Cursor from, int count, List<byte[]> prefixes, Duration block) {
            note(from);
            return inner.read(from, count, prefixes, block).thenCompose(this::gate).thenApply(b -> {
                note(b.next());
                return b;
            });
        }

        private CompletionStage<FrameBatch> gate(FrameBatch b) {
            int s = b.next().shard();
            long g = oldGen[s];
            if (replicas == null || b.next().generation() != g || b.frames().isEmpty()) {
                return CompletableFuture.completedFuture(b);
            }
            long last = b.frames().get(b.frames().size() - 1).offset();
            long deadline = System.nanoTime() + GATE_WAIT;
            CompletableFuture<FrameBatch> out = new CompletableFuture<>();
            timer.execute(new Runnable() {
                @Override
                public void run() {
                    try {
                        long replicated = Long.MAX_VALUE;
                        for (TestServer r : replicas) {
                            replicated = Math.min(replicated, replicatedOffset(r, s, g));
                        }
                        if (replicated > last || System.nanoTime() - deadline >= 0) {
                            out.complete(cut(b, replicated));
                        } else {
                            timer.schedule(this, 1, TimeUnit.MILLISECONDS);
                        }
                    } catch (RuntimeException e) {
                        out.completeExceptionally(e);
                    }
                }
            });
            return out;
        }

        private static FrameBatch cut(FrameBatch b, long replicated) {
            List<Frame> kept = new ArrayList<>();
            for (Frame f : b.frames()) {
                if (f.offset() >= replicated) {
                    return new FrameBatch(b.next().withOffset(f.offset()), kept);
                }
                kept.add(f);
            }
            return b;
        }

        @Override
        public void close() {
            // the shared source is closed by the test
        }
    }

    private static TestServer server() {
        return TestServer.start(c -> c.with(ServerOptions.SHARDS, 2).with(ServerOptions.FEED_ENABLED, true));
    }

    /** A replica started from a TOML file that names the primary, as a user's would. */
    private static TestServer replicaFromFile(Path toml, int primaryPort) throws IOException {
        Files.writeString(toml, "# r1, started from here\n[feed]\nenabled = true\n\n[replication]\n"
                + "replicaof = \"127.0.0.1 " + primaryPort + "\"   # Sentinel's CONFIG REWRITE keeps this in step\n");
        return TestServer.fromFile(toml, c -> c.with(ServerOptions.SHARDS, 2));
    }

    private static Process startSentinel(Path work, int i, int port, int primaryPort) throws IOException {
        Path conf = work.resolve("sentinel-" + i + ".conf");
        Files.writeString(conf, String.join("\n",
                "port " + port,
                "bind 127.0.0.1",
                "daemonize no",
                "dir " + work,
                "logfile " + work.resolve("sentinel-" + i + ".log"),
                "sentinel monitor " + MASTER + " 127.0.0.1 " + primaryPort + " 2",
                "sentinel down-after-milliseconds " + MASTER + " 1000",
                "sentinel failover-timeout " + MASTER + " 10000",
                "sentinel parallel-syncs " + MASTER + " 1", ""));
        return new ProcessBuilder("redis-sentinel", conf.toString()).redirectErrorStream(true)
                .redirectOutput(work.resolve("sentinel-" + i + ".out").toFile()).start();
    }

    /**
     * Waits until the Sentinel accepts connections (it binds its port a moment after the process starts).
     *
     * @return {@code true} once it listens, {@code false} if the process exited first
     */
    private static boolean awaitListening(Process sentinel, int port) {
        return await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
            if (!sentinel.isAlive()) {
                return false;
            }
            try (Socket s = new Socket("127.0.0.1", port)) {
                return true;
            } catch (IOException refused) {
                return null;
            }
        }, listening -> listening != null);
    }

    private static String log(Path work, int i) throws IOException {
        Path log = work.resolve("sentinel-" + i + ".log");
        Path out = work.resolve("sentinel-" + i + ".out");
        return (Files.exists(log) ? Files.readString(log) : "") + (Files.exists(out) ? Files.readString(out) : "");
    }

    /** True when a {@code redis-sentinel} executable is on the PATH (README: such tests skip without it). */
    private static boolean sentinelInstalled() {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "redis-sentinel"))) {
                return true;
            }
        }
        return false;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** The element count of an array reply's first line ({@code *N}). */
    private static int count(String reply) {
        assertThat(reply).startsWith("*");
        return Integer.parseInt(reply.substring(1, reply.indexOf('\r')));
    }
}
