package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kevy.embedded.StoreAccess;
import io.kevy.engine.Engine;
import io.kevy.engine.Shard;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.FrameRecorder;
import io.kevy.testing.RawClient;
import io.kevy.testing.Replies;
import io.kevy.testing.StateDump;
import io.kevy.testing.TestServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Blocked clients under load on 4 shards: producers push unique elements to lists and sorted sets while
 * consumers pop them with every blocking pop and shuffle them between keys with BLMOVE/BRPOPLPUSH (across
 * shards, in both lock directions). Nothing may deadlock, no element may be lost or delivered twice, no
 * client may stay blocked, every registration must be gone at the end, and replaying the frames of every
 * shard onto an empty store must give the server's state (feed contract §7).
 *
 * <p>Seeded: prints its seed; rerun one with {@code -Dkevy.seed=N}.
 */
class BlockingConcurrencyIT {
    private static final int PRODUCERS = 3;
    private static final int CONSUMERS = 6;
    private static final int PUSHES = 1500;
    private static final String[] LISTS = {"l:a", "l:b", "l:c", "l:d", "l:e", "{t}l1", "{t}l2"};
    private static final String[] ZSETS = {"z:a", "z:b", "z:c"};

    @Test
    void blockedClientsUnderLoadLoseNothingAndDeadlockNever() throws Exception {
        long seed = Long.getLong("kevy.seed", System.nanoTime());
        System.out.println("BlockingConcurrencyIT seed=" + seed);
        try (TestServer kevy = TestServer.start(c -> c.with(ServerOptions.SHARDS, 4))) {
            Engine engine = kevy.server().engine();
            FrameRecorder frames = FrameRecorder.attach(engine);
            AtomicBoolean producing = new AtomicBoolean(true);
            ConcurrentLinkedQueue<String> popped = new ConcurrentLinkedQueue<>();
            List<CompletableFuture<Void>> consumers = new ArrayList<>();
            for (int i = 0; i < CONSUMERS; i++) {
                Random r = new Random(seed + 100 + i);
                consumers.add(CompletableFuture.runAsync(() -> consume(kevy.port(), r, producing, popped)));
            }
            List<CompletableFuture<List<String>>> producers = new ArrayList<>();
            for (int i = 0; i < PRODUCERS; i++) {
                Random r = new Random(seed + i);
                int id = i;
                producers.add(CompletableFuture.supplyAsync(() -> produce(kevy.port(), r, id)));
            }
            List<String> pushed = new ArrayList<>();
            for (CompletableFuture<List<String>> p : producers) {
                pushed.addAll(p.get(60, TimeUnit.SECONDS));
            }
            producing.set(false);
            CompletableFuture.allOf(consumers.toArray(new CompletableFuture[0])).get(60, TimeUnit.SECONDS);

            List<String> seen = new ArrayList<>(popped);
            RawClient c = kevy.raw();
            for (String k : LISTS) {
                seen.addAll(Replies.array(c.call("LRANGE", k, "0", "-1")));
            }
            for (String k : ZSETS) {
                seen.addAll(Replies.array(c.call("ZRANGE", k, "0", "-1")));
            }
            Collections.sort(seen);
            Collections.sort(pushed);
            assertThat(seen).as("every element popped or still stored exactly once (seed %d)", seed)
                    .isEqualTo(pushed);
            await().atMost(Duration.ofSeconds(5)).until(() -> engine.sessions().blockedCount() == 0
                    && blockedKeys(engine) == 0);

            long now = System.currentTimeMillis();
            Map<String, String> expected = StateDump.live(engine, now);
            assertThat(StoreAccess.replay(frames.all(), now)).as("frames replayed (seed %d)", seed)
                    .isEqualTo(expected);
        }
    }

    private static List<String> produce(int port, Random r, int id) {
        List<String> pushed = new ArrayList<>();
        try (RawClient c = RawClient.connect(port)) {
            for (int n = 0; n < PUSHES; n++) {
                String e = "p" + id + "-" + n;
                pushed.add(e);
                if (r.nextInt(4) == 0) {
                    c.call("ZADD", ZSETS[r.nextInt(ZSETS.length)], Integer.toString(r.nextInt(100)), e);
                } else if (r.nextInt(6) == 0) {
                    // a transaction pushing to two keys: its waiters are served when it ends
                    String e2 = e + "b";
                    pushed.add(e2);
                    c.call("MULTI");
                    c.call("RPUSH", LISTS[r.nextInt(LISTS.length)], e);
                    c.call("LPUSH", LISTS[r.nextInt(LISTS.length)], e2);
                    c.call("EXEC");
                } else {
                    c.call(r.nextBoolean() ? "RPUSH" : "LPUSH", LISTS[r.nextInt(LISTS.length)], e);
                }
            }
        }
        return pushed;
    }

    /** Pops until the producers are done and a pop times out; moves do not consume. */
    private static void consume(int port, Random r, AtomicBoolean producing, ConcurrentLinkedQueue<String> popped) {
        try (RawClient c = RawClient.connect(port)) {
            while (true) {
                String timeout = "0.0" + (2 + r.nextInt(8));
                String reply;
                int kind = r.nextInt(7);
                switch (kind) {
                    case 0 -> reply = c.call("BLPOP", list(r), list(r), timeout);
                    case 1 -> reply = c.call("BRPOP", list(r), timeout);
                    case 2 -> reply = c.call("BLMPOP", timeout, "2", list(r), list(r), "LEFT", "COUNT", "2");
                    case 3 -> reply = c.call("BZPOPMIN", ZSETS[r.nextInt(ZSETS.length)], timeout);
                    case 4 -> reply = c.call("BZMPOP", timeout, "1", ZSETS[r.nextInt(ZSETS.length)], "MAX",
                            "COUNT", "3");
                    case 5 -> reply = c.call("BLMOVE", list(r), list(r), r.nextBoolean() ? "LEFT" : "RIGHT",
                            r.nextBoolean() ? "LEFT" : "RIGHT", timeout);
                    default -> reply = c.call("BRPOPLPUSH", list(r), list(r), timeout);
                }
                if (reply.equals("*-1\r\n")) {
                    if (!producing.get()) {
                        return;
                    }
                    continue;
                }
                assertThat(reply).as("reply").doesNotStartWith("-");
                if (kind <= 4) {
                    popped.addAll(elements(kind, reply));
                }
            }
        }
    }

    private static String list(Random r) {
        return LISTS[r.nextInt(LISTS.length)];
    }

    /** The popped elements of a reply, by the shape of its command. */
    @SuppressWarnings("unchecked")
    private static List<String> elements(int kind, String reply) {
        List<Object> top = Replies.nested(reply);
        List<String> out = new ArrayList<>();
        switch (kind) {
            case 0, 1 -> out.add((String) top.get(1));
            case 2 -> out.addAll((List<String>) (List<?>) top.get(1));
            case 3 -> out.add((String) top.get(1));
            default -> {
                for (Object pair : (List<Object>) top.get(1)) {
                    out.add((String) ((List<Object>) pair).get(0));
                }
            }
        }
        return out;
    }

    private static int blockedKeys(Engine engine) {
        int n = 0;
        for (int i = 0; i < engine.shardCount(); i++) {
            Shard s = engine.shard(i);
            s.lock().lock();
            try {
                n += s.signals().blockedKeys();
            } finally {
                s.lock().unlock();
            }
        }
        return n;
    }
}
