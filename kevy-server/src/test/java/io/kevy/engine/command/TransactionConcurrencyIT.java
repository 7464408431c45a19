package io.kevy.engine.command;

import static io.kevy.testing.StateDump.keyOnShard;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kevy.engine.Engine;
import io.kevy.engine.Durability;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import io.kevy.testing.Replies;
import io.kevy.testing.TestServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Transactions under concurrency: an EXEC spanning 4 shards is never seen half-applied, WATCH gives correct
 * optimistic increments, and under appendfsync always the replies of an EXEC with writes and of a served
 * blocking pop leave only once those writes are durable.
 */
class TransactionConcurrencyIT {

    /**
     * A writer moves one unit between four keys on four shards in each EXEC (the sum stays 0, each key's value
     * is the same count); readers MGET the four keys meanwhile (locking the four shards): every read must see
     * either all or none of each transaction.
     */
    @Test
    void anExecSpanningFourShardsIsNeverSeenHalfApplied() throws Exception {
        try (TestServer kevy = TestServer.start(c -> c.with(ServerOptions.SHARDS, 4))) {
            Engine e = kevy.server().engine();
            String[] keys = IntStream.range(0, 4).mapToObj(s -> keyOnShard(e, "acct", s)).toArray(String[]::new);
            RawClient setup = kevy.raw();
            for (String k : keys) {
                setup.call("SET", k, "0");
            }
            AtomicBoolean done = new AtomicBoolean();
            ExecutorService pool = Executors.newFixedThreadPool(3);
            try {
                Future<Integer> writer = pool.submit(() -> {
                    try (RawClient w = RawClient.connect(kevy.port())) {
                        int n = 0;
                        for (; n < 2000; n++) {
                            w.command("MULTI");
                            for (String k : keys) {
                                w.command("INCR", k);
                            }
                            w.command("EXEC");
                            for (int i = 0; i < 6; i++) {
                                w.readReply();
                            }
                        }
                        done.set(true);
                        return n;
                    }
                });
                List<Future<Integer>> readers = new ArrayList<>();
                for (int r = 0; r < 2; r++) {
                    readers.add(pool.submit(() -> {
                        int reads = 0;
                        try (RawClient c = RawClient.connect(kevy.port())) {
                            while (!done.get()) {
                                List<String> v = Replies.array(c.call("MGET", keys[0], keys[1], keys[2], keys[3]));
                                assertThat(v).as("one MGET sees whole transactions only").containsOnly(v.get(0));
                                reads++;
                            }
                        }
                        return reads;
                    }));
                }
                assertThat(writer.get(60, TimeUnit.SECONDS)).isEqualTo(2000);
                for (Future<Integer> r : readers) {
                    assertThat(r.get(10, TimeUnit.SECONDS)).isPositive();
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(Replies.array(setup.call("MGET", keys[0], keys[1], keys[2], keys[3]))).containsOnly("2000");
        }
    }

    /**
     * The same for a script (issue 26: a script never leaves a half-applied state): each EVAL increments four keys
     * on four shards, one redis.call each; MGET readers meanwhile see all or none of each script's writes.
     */
    @Test
    void aScriptSpanningFourShardsIsNeverSeenHalfApplied() throws Exception {
        try (TestServer kevy = TestServer.start(c -> c.with(ServerOptions.SHARDS, 4))) {
            Engine e = kevy.server().engine();
            String[] keys = IntStream.range(0, 4).mapToObj(s -> keyOnShard(e, "acct", s)).toArray(String[]::new);
            RawClient setup = kevy.raw();
            for (String k : keys) {
                setup.call("SET", k, "0");
            }
            String script = "for i = 1, #KEYS do redis.call('incr', KEYS[i]) end";
            AtomicBoolean done = new AtomicBoolean();
            ExecutorService pool = Executors.newFixedThreadPool(3);
            try {
                Future<Integer> writer = pool.submit(() -> {
                    try (RawClient w = RawClient.connect(kevy.port())) {
                        int n = 0;
                        for (; n < 1000; n++) {
                            assertThat(w.call("EVAL", script, "4", keys[0], keys[1], keys[2], keys[3]))
                                    .isEqualTo("$-1\r\n");
                        }
                        done.set(true);
                        return n;
                    }
                });
                List<Future<Integer>> readers = new ArrayList<>();
                for (int r = 0; r < 2; r++) {
                    readers.add(pool.submit(() -> {
                        int reads = 0;
                        try (RawClient c = RawClient.connect(kevy.port())) {
                            while (!done.get()) {
                                List<String> v = Replies.array(c.call("MGET", keys[0], keys[1], keys[2], keys[3]));
                                assertThat(v).as("one MGET sees whole scripts only").containsOnly(v.get(0));
                                reads++;
                            }
                        }
                        return reads;
                    }));
                }
                assertThat(writer.get(60, TimeUnit.SECONDS)).isEqualTo(1000);
                for (Future<Integer> r : readers) {
                    assertThat(r.get(10, TimeUnit.SECONDS)).isPositive();
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(Replies.array(setup.call("MGET", keys[0], keys[1], keys[2], keys[3]))).containsOnly("1000");
        }
    }

    /** Clients increment one counter with WATCH/GET/MULTI/SET/EXEC, retrying aborted EXECs: none is lost. */
    @Test
    void watchGivesOptimisticIncrementsThatNeverLoseAnUpdate() throws Exception {
        try (TestServer kevy = TestServer.start(c -> c.with(ServerOptions.SHARDS, 4))) {
            int clients = 4;
            int each = 150;
            List<CompletableFuture<Integer>> all = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                all.add(CompletableFuture.supplyAsync(() -> {
                    int aborted = 0;
                    try (RawClient c = RawClient.connect(kevy.port())) {
                        for (int n = 0; n < each; ) {
                            c.call("WATCH", "counter");
                            String cur = c.call("GET", "counter");
                            long v = cur.equals("$-1\r\n") ? 0 : Long.parseLong(Replies.bulk(cur));
                            c.call("MULTI");
                            c.call("SET", "counter", Long.toString(v + 1));
                            if (c.call("EXEC").equals("*-1\r\n")) {
                                aborted++;
                            } else {
                                n++;
                            }
                        }
                    }
                    return aborted;
                }));
            }
            int aborted = 0;
            for (CompletableFuture<Integer> f : all) {
                aborted += f.get(60, TimeUnit.SECONDS);
            }
            System.out.println("WATCH increments: " + aborted + " EXECs aborted and retried");
            assertThat(Replies.bulk(kevy.raw().call("GET", "counter"))).isEqualTo(Integer.toString(clients * each));
        }
    }

    /**
     * Under appendfsync always, a reply that follows a write leaves only once the write is durable: the EXEC of a
     * transaction with writes, and the reply of a blocked BLPOP served by another client's push (delivered
     * through the channel from another thread). A parked command has changed nothing, so its timeout reply is
     * not held. The durability here is a gate the test opens, so a reply that skipped the holding would arrive
     * early.
     */
    @Test
    void repliesThatFollowWritesWaitForDurability() {
        try (TestServer kevy = TestServer.start()) {
            Gate gate = new Gate();
            kevy.server().engine().durability(gate);
            RawClient waiter = kevy.raw();
            RawClient pusher = kevy.raw();
            waiter.command("BLPOP", "q", "0");
            await().atMost(Duration.ofSeconds(5)).until(() -> kevy.server().engine().sessions().blockedCount() == 1);
            pusher.command("RPUSH", "q", "x");
            assertThat(waiter.replyWithin(300)).as("served BLPOP held").isFalse();
            assertThat(pusher.replyWithin(10)).as("RPUSH held").isFalse();
            gate.open();
            assertThat(waiter.readReply()).isEqualTo("*2\r\n$1\r\nq\r\n$1\r\nx\r\n");
            assertThat(pusher.readReply()).isEqualTo(":1\r\n");

            assertThat(waiter.call("BLPOP", "q", "0.05")).as("a timeout changed nothing").isEqualTo("*-1\r\n");
            assertThat(waiter.call("MULTI")).isEqualTo("+OK\r\n");
            assertThat(waiter.call("SET", "k", "v")).isEqualTo("+QUEUED\r\n");
            waiter.command("EXEC");
            assertThat(waiter.replyWithin(300)).as("EXEC with writes held").isFalse();
            gate.open();
            assertThat(waiter.readReply()).isEqualTo("*1\r\n+OK\r\n");
        }
    }

    /**
     * While the AOF cannot be written, writes are refused also at queue time (flagging the transaction), and an
     * EXEC whose queue has writes is aborted with the disk error as its reason; a read-only one runs (Redis's
     * processCommand and execCommandAbort).
     */
    @Test
    void aDiskErrorAbortsTransactionsWithWrites() {
        try (TestServer kevy = TestServer.start()) {
            RawClient c = kevy.raw();
            c.call("SET", "k", "v");
            c.call("MULTI");
            assertThat(c.call("SET", "k", "queued before the error")).isEqualTo("+QUEUED\r\n");
            kevy.server().engine().durability(new Durability() {
                @Override
                public String writeError() {
                    return "MISCONF Errors writing to the AOF file: No space left on device";
                }
            });
            assertThat(c.call("EXEC")).isEqualTo("-EXECABORT Transaction discarded because of: MISCONF Errors "
                    + "writing to the AOF file: No space left on device\r\n");
            c.call("MULTI");
            assertThat(c.call("SET", "k", "x")).startsWith("-MISCONF");
            assertThat(c.call("EXEC")).startsWith("-EXECABORT Transaction discarded because of previous errors.");
            c.call("MULTI");
            c.call("GET", "k");
            assertThat(c.call("EXEC")).isEqualTo("*1\r\n$1\r\nv\r\n");
            assertThat(c.call("MULTI")).isEqualTo("+OK\r\n");
            assertThat(c.call("EXEC")).as("the aborts ended their transactions").isEqualTo("*0\r\n");
        }
    }

    /** A durability whose writes become durable only when the test opens it. */
    private static final class Gate implements Durability {
        private final List<Runnable> waiting = new ArrayList<>();
        private long seq;
        private long durable;

        @Override
        public boolean gatesReplies() {
            return true;
        }

        @Override
        public synchronized long currentSeq() {
            return ++seq;
        }

        @Override
        public synchronized long durableSeq() {
            return durable;
        }

        @Override
        public void whenDurable(long s, Runnable action) {
            synchronized (this) {
                if (s > durable) {
                    waiting.add(action);
                    return;
                }
            }
            action.run();
        }

        void open() {
            List<Runnable> run;
            synchronized (this) {
                durable = seq;
                run = new ArrayList<>(waiting);
                waiting.clear();
            }
            run.forEach(Runnable::run);
        }
    }
}
