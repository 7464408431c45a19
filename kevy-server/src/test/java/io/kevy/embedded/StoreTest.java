package io.kevy.embedded;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kevy.feed.FeedConfig;
import io.kevy.feed.FeedCursor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The embedded store (issue 2 "Embedded", feed contract §9). */
class StoreTest {
    private final List<Store> stores = new ArrayList<>();

    private Store open(Config config) {
        Store s = Store.open(config);
        stores.add(s);
        return s;
    }

    @AfterEach
    void closeAll() {
        stores.forEach(Store::close);
    }

    private static List<byte[]> prefixes(String... p) {
        List<byte[]> out = new ArrayList<>();
        for (String s : p) {
            out.add(s.getBytes(UTF_8));
        }
        return out;
    }

    /* ---------- config ---------- */

    @Test
    void feedSizeZeroMeansTheDefaultAndLargeValuesAreCapped() {
        assertThat(Config.defaults().feedEnabled()).isFalse();
        assertThat(Config.defaults().withFeed(0).feedBufferBytes()).isEqualTo(64L << 20);
        assertThat(Config.defaults().withFeed(5000).feedBufferBytes()).isEqualTo(5000);
        assertThat(Config.defaults().withFeed(2L << 30).feedBufferBytes()).isEqualTo(FeedConfig.MAX_BUFFER);
        assertThat(Config.defaults().withFeed(Long.MAX_VALUE).feedBufferBytes()).isEqualTo(1L << 30);
        assertThatThrownBy(() -> Config.defaults().withFeed(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Config.defaults().withFeed(10).withoutFeed().feedEnabled()).isFalse();
    }

    /* ---------- execute and typed replies ---------- */

    @Test
    void executeReturnsTypedReplies() {
        Store s = open(Config.defaults());
        assertThat(s.execute("SET", "k", "v")).isEqualTo(new Reply.Simple("OK"));
        assertThat(s.execute("GET", "k").asString()).isEqualTo("v");
        assertThat(s.execute("GET", "missing")).isInstanceOf(Reply.Null.class);
        assertThat(s.execute("INCR", "n").asLong()).isEqualTo(1);
        Reply err = s.execute("INCR", "k");
        assertThat(err).isEqualTo(new Reply.Error("ERR value is not an integer or out of range"));
        assertThat(((Reply.Error) err).code()).isEqualTo("ERR");
        assertThatThrownBy(err::asLong).isInstanceOf(ReplyException.class)
                .hasMessage("ERR value is not an integer or out of range");
        assertThat(s.execute("NOSUCH").isError()).isTrue();
        assertThat(s.execute("PING")).isEqualTo(new Reply.Simple("PONG"));
        assertThatThrownBy(() -> s.execute("HSET", "k", "f", "v").asString()).isInstanceOf(ReplyException.class)
                .hasMessageStartingWith("WRONGTYPE");
    }

    @Test
    void nestedArraysAreBuiltAsATree() {
        Store s = open(Config.defaults().withFeed(0));
        s.set("a", "1");
        s.hset("h", "f", "v");
        FeedCursor start = new FeedCursor(s.changesTail().generation(), 0);
        Reply r = s.execute("FEED.READ", "0", Long.toString(start.generation()), "0");
        List<Reply> top = r.elements();
        assertThat(top).hasSize(3);
        assertThat(top.get(0).asLong()).isEqualTo(start.generation());
        assertThat(top.get(1).asLong()).isEqualTo(2);
        List<Reply> frames = top.get(2).elements();
        assertThat(frames).hasSize(2);
        assertThat(frames.get(1).elements().get(1).elements()).extracting(Reply::asString)
                .containsExactly("HSET", "h", "f", "v");
        assertThat(s.execute("FEED.READ", "0", Long.toString(start.generation()), "2").elements().get(2).elements())
                .isEmpty();
    }

    @Test
    void argumentsAndRepliesAreCopies() {
        Store s = open(Config.defaults());
        byte[] key = "k".getBytes(UTF_8);
        byte[] value = "value".getBytes(UTF_8);
        s.set(key, value);
        value[0] = 'X';
        key[0] = 'z';
        byte[] got = s.get("k".getBytes(UTF_8));
        assertThat(new String(got, UTF_8)).isEqualTo("value");
        got[0] = 'Y';
        assertThat(s.get("k")).isEqualTo("value");
    }

    @Test
    void typedMethods() {
        Store s = open(Config.defaults());
        s.set("a", "1");
        assertThat(s.get("a")).isEqualTo("1");
        assertThat(s.exists("a", "a", "b")).isEqualTo(2);
        assertThat(s.hset("h", "f1", "v1")).isEqualTo(1);
        assertThat(s.hset("h", Map.of("f2", "v2"))).isEqualTo(1);
        assertThat(s.del("a", "b")).isEqualTo(1);
        assertThat(s.get("a")).isNull();
        assertThatThrownBy(() -> s.get("h")).isInstanceOf(ReplyException.class)
                .extracting(e -> ((ReplyException) e).code()).isEqualTo("WRONGTYPE");
        assertThatThrownBy(() -> s.execute(new byte[0][])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void typedMethodsOfLaterFamilies() {
        Store s = open(Config.defaults());
        s.hset("h", Map.of("f", "v"));
        assertThat(s.hgetall("h")).containsExactlyEntriesOf(Map.of("f", "v"));
        assertThat(s.hgetall("none")).isEmpty();
        s.set("t", "v", Duration.ofHours(1));
        assertThat(s.infoPrefix("t").expires()).isEqualTo(1);
        s.set("u", "v");
        assertThat(s.expire("u", Duration.ofHours(1))).isTrue();
        assertThat(s.expire("none", Duration.ofHours(1))).isFalse();
        assertThat(s.scan("*")).containsExactlyInAnyOrder("h", "t", "u");
        assertThat(s.scan("t*")).containsExactly("t");
    }

    @Test
    void threadSafeUnderConcurrentCallers() throws Exception {
        Store s = open(Config.defaults().withFeed(0));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                fs.add(pool.submit(() -> {
                    for (int i = 0; i < 2000; i++) {
                        s.execute("INCR", "counter");
                    }
                }));
            }
            for (Future<?> f : fs) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(s.get("counter")).isEqualTo("16000");
        FeedCursor tail = s.changesTail();
        assertThat(tail.offset()).isEqualTo(16000);
        ChangeBatch last = s.changesSince(tail.generation(), 15999, 10, List.of());
        assertThat(last.changes().get(0).argvUtf8()).containsExactly("SET", "counter", "16000", "KEEPTTL");
    }

    /* ---------- the feed ---------- */

    @Test
    void changesSinceFollowsTheServerRules() {
        Store s = open(Config.defaults().withFeed(0));
        assertThat(s.feedShards()).isEqualTo(1);
        FeedCursor start = s.changesTail();
        assertThat(start.offset()).isZero();
        assertThat(start.generation()).isBetween(1L, (1L << 53) - 1);
        s.set("user:1", "ada");
        s.set("order:1", "x");
        s.hset("user:2", "name", "bob");
        s.del("user:1", "order:1");
        ChangeBatch all = s.changesSince(start.generation(), 0, 256, List.of());
        assertThat(all.changes()).extracting(Change::toString).containsExactly("0 SET user:1 ada",
                "1 SET order:1 x", "2 HSET user:2 name bob", "3 DEL user:1 order:1");
        assertThat(all.next()).isEqualTo(new FeedCursor(start.generation(), 4));
        ChangeBatch users = s.changesSince(start.generation(), 0, 256, prefixes("user:"));
        assertThat(users.changes()).extracting(Change::offset).as("DEL of two keys is fail-open")
                .containsExactly(0L, 2L, 3L);
        ChangeBatch one = s.changesSince(start.generation(), 1, 1, prefixes("user:"));
        assertThat(one.changes()).isEmpty();
        assertThat(one.next().offset()).as("the cursor moves past filtered changes").isEqualTo(2);
        ChangeBatch caughtUp = s.changesSince(start.generation(), 4, 10, List.of());
        assertThat(caughtUp.changes()).isEmpty();
        assertThat(caughtUp.next()).isEqualTo(new FeedCursor(start.generation(), 4));
        assertThat(all.changes().get(0).verb()).isEqualTo("SET");
    }

    @Test
    void limitIsClampedToOneAnd4096() {
        Store s = open(Config.defaults().withFeed(0));
        long g = s.changesTail().generation();
        for (int i = 0; i < 5000; i++) {
            s.set("k", Integer.toString(i));
        }
        assertThat(s.changesSince(g, 0, 0, List.of()).changes()).hasSize(1);
        assertThat(s.changesSince(g, 0, -7, List.of()).changes()).hasSize(1);
        assertThat(s.changesSince(g, 0, 10_000, List.of()).changes()).hasSize(4096);
        assertThat(s.changesSince(g, 0, 10_000, List.of()).next().offset()).isEqualTo(4096);
    }

    @Test
    void feedExceptions() {
        Store s = open(Config.defaults().withFeed(35 * 2));
        long g = s.changesTail().generation();
        for (int i = 0; i < 5; i++) {
            s.set("k", Integer.toString(i));
        }
        assertThatThrownBy(() -> s.changesSince(g + 1, 0, 10, List.of())).isInstanceOfSatisfying(
                FeedException.Resync.class, e -> {
                    assertThat(e.generation()).isEqualTo(g);
                    assertThat(e.tail()).isEqualTo(5);
                    assertThat(e).hasMessage("FEEDRESYNC " + g + " 5");
                });
        assertThatThrownBy(() -> s.changesSince(g, 0, 10, List.of())).as("evicted")
                .isInstanceOfSatisfying(FeedException.Resync.class, e -> assertThat(e.tail()).isEqualTo(5));
        assertThat(s.changesSince(g, 3, 10, List.of()).changes()).hasSize(2);
        assertThatThrownBy(() -> s.changesSince(g, 6, 10, List.of())).isInstanceOf(FeedException.Future.class);
        s.execute("FLUSHALL");
        FeedCursor t = s.changesTail();
        assertThat(t.generation()).isNotEqualTo(g);
        assertThat(t.offset()).isZero();
        assertThatThrownBy(() -> s.changesSince(g, 5, 10, List.of())).isInstanceOfSatisfying(
                FeedException.Resync.class, e -> assertThat(e.generation()).isEqualTo(t.generation()));

        Store off = open(Config.defaults());
        assertThatThrownBy(off::changesTail).isInstanceOf(FeedException.Disabled.class);
        assertThatThrownBy(() -> off.changesSince(1, 0, 10, List.of())).isInstanceOf(FeedException.Disabled.class);
        assertThat(off.execute("FEED.TAIL", "0")).isEqualTo(new Reply.Error(
                "ERR feed disabled (set [feed] enabled = true)"));
        off.set("p:1", "v");
        assertThat(off.infoPrefix("p:")).as("works with the feed off").isEqualTo(new PrefixInfo(1, 0));
        assertThat(off.infoPrefix("")).isEqualTo(new PrefixInfo(1, 0));
        assertThat(off.infoPrefix("q")).isEqualTo(new PrefixInfo(0, 0));
    }

    @Test
    void changesAreCopiesOfTheFrames() {
        Store s = open(Config.defaults().withFeed(0));
        long g = s.changesTail().generation();
        s.set("k", "v");
        Change c = s.changesSince(g, 0, 1, List.of()).changes().get(0);
        c.argv()[2][0] = 'X';
        assertThat(s.get("k")).isEqualTo("v");
        assertThat(s.changesSince(g, 0, 1, List.of()).changes().get(0).argvUtf8()).containsExactly("SET", "k", "v");
    }

    @Test
    void theBlockingVariantWakesOnAWriteAndTimesOutPastFilteredChanges() throws Exception {
        Store s = open(Config.defaults().withFeed(0));
        long g = s.changesTail().generation();
        CompletableFuture<ChangeBatch> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return s.changesSince(g, 0, 10, prefixes("a:"), Duration.ofSeconds(20));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> s.instance().feed().backlog(0).stats().readersBlocked() == 1);
        s.set("b:1", "v");
        s.set("a:1", "v");
        ChangeBatch b = waiting.get(10, TimeUnit.SECONDS);
        assertThat(b.changes()).extracting(Change::offset).containsExactly(1L);
        assertThat(b.next().offset()).isEqualTo(2);
        assertThat(s.instance().feed().backlog(0).stats().readersBlocked()).isZero();

        s.set("b:2", "v");
        long t0 = System.nanoTime();
        ChangeBatch timedOut = s.changesSince(g, 2, 10, prefixes("a:"), Duration.ofMillis(200));
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThanOrEqualTo(Duration.ofMillis(195));
        assertThat(timedOut.changes()).isEmpty();
        assertThat(timedOut.next().offset()).isEqualTo(3);
        assertThat(s.changesSince(g, 3, 10, List.of(), Duration.ZERO).changes()).isEmpty();
    }

    @Test
    void aBlockingCommandParksTheCallingThreadOnly() throws Exception {
        Store s = open(Config.defaults().withFeed(0));
        long g = s.changesTail().generation();
        CompletableFuture<Reply> blocked = CompletableFuture.supplyAsync(() -> s.execute("FEED.READ", "0",
                Long.toString(g), "0", "BLOCK", "0"));
        await().atMost(Duration.ofSeconds(5)).until(() -> s.engine().sessions().blockedCount() == 1);
        s.set("k", "v");
        Reply r = blocked.get(10, TimeUnit.SECONDS);
        assertThat(r.elements().get(1).asLong()).isEqualTo(1);
        assertThat(r.elements().get(2).elements()).hasSize(1);
        assertThat(s.engine().sessions().blockedCount()).isZero();

        Reply timedOut = s.execute("FEED.READ", "0", Long.toString(g), "1", "BLOCK", "50");
        assertThat(timedOut.elements().get(2).elements()).isEmpty();
    }

    @Test
    void closingTheStoreCancelsBlockedCallers() throws Exception {
        Store s = Store.open(Config.defaults().withFeed(0));
        long g = s.changesTail().generation();
        CompletableFuture<Reply> blocked = CompletableFuture.supplyAsync(() -> s.execute("FEED.READ", "0",
                Long.toString(g), "0", "BLOCK", "0"));
        CompletableFuture<ChangeBatch> reading = CompletableFuture.supplyAsync(() -> {
            try {
                return s.changesSince(g, 0, 10, List.of(), Duration.ofMinutes(5));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> s.engine().sessions().blockedCount() == 1
                && s.instance().feed().backlog(0).stats().readersBlocked() == 2);
        s.close();
        assertThatThrownBy(() -> blocked.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(CancellationException.class);
        assertThat(reading.get(10, TimeUnit.SECONDS).changes()).isEmpty();
        assertThatThrownBy(() -> s.get("k")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void interruptingABlockedCallerCancelsItsWait() throws Exception {
        Store s = open(Config.defaults().withFeed(0));
        long g = s.changesTail().generation();
        List<Throwable> thrown = new ArrayList<>();
        Thread t = new Thread(() -> {
            try {
                s.execute("FEED.READ", "0", Long.toString(g), "0", "BLOCK", "0");
            } catch (Throwable e) {
                synchronized (thrown) {
                    thrown.add(e);
                }
            }
        });
        t.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> s.engine().sessions().blockedCount() == 1);
        t.interrupt();
        t.join(10_000);
        assertThat(thrown).singleElement().isInstanceOf(CancellationException.class);
        assertThat(s.engine().sessions().blockedCount()).isZero();
        assertThat(s.instance().feed().backlog(0).stats().readersBlocked()).isZero();
    }

    @Test
    void aBlockedPopIsServedByAnotherCallersPush() throws Exception {
        Store s = open(Config.defaults().withFeed(0));
        CompletableFuture<Reply> first = CompletableFuture.supplyAsync(() -> s.execute("BLPOP", "q", "0"));
        await().atMost(Duration.ofSeconds(5)).until(() -> s.engine().sessions().blockedCount() == 1);
        CompletableFuture<Reply> second = CompletableFuture.supplyAsync(() -> s.execute("BRPOP", "q", "5"));
        await().atMost(Duration.ofSeconds(5)).until(() -> s.engine().sessions().blockedCount() == 2);
        assertThat(s.execute("RPUSH", "q", "a", "b").asLong()).isEqualTo(2);
        assertThat(first.get(10, TimeUnit.SECONDS).elements()).extracting(Reply::asString).containsExactly("q", "a");
        assertThat(second.get(10, TimeUnit.SECONDS).elements()).extracting(Reply::asString).containsExactly("q", "b");
        assertThat(s.execute("EXISTS", "q").asLong()).isZero();
        assertThat(s.execute("BZPOPMIN", "z", "0.01").isNull()).isTrue();
        long g = s.changesTail().generation();
        List<String> frames = new ArrayList<>();
        for (Change c : s.changesSince(g, 0, 100, List.of()).changes()) {
            List<String> words = new ArrayList<>();
            for (byte[] w : c.argv()) {
                words.add(new String(w, UTF_8));
            }
            frames.add(String.join(" ", words));
        }
        assertThat(frames).containsExactly("RPUSH q a b", "LPOP q 1", "RPOP q 1");
    }

    @Test
    void multiRunsAWholeTransactionOnOneClientAndItsFramesInOrder() {
        Store s = open(Config.defaults().withFeed(0));
        FeedCursor start = s.changesTail();
        Reply exec = s.multi(List.of(new String[] {"SET", "a", "1"}, new String[] {"INCR", "a"},
                new String[] {"LPUSH", "l", "x"}, new String[] {"BLPOP", "empty", "0"}));
        assertThat(exec).isEqualTo(new Reply.Array(List.of(new Reply.Simple("OK"), new Reply.Int(2),
                new Reply.Int(1), new Reply.NullArray())));
        assertThat(s.get("a")).isEqualTo("2");
        ChangeBatch frames = s.changesSince(start.generation(), start.offset(), 256, List.of());
        assertThat(frames.changes()).extracting(Change::toString)
                .containsExactly("0 SET a 1", "1 SET a 2 KEEPTTL", "2 LPUSH l x");
        Reply aborted = s.multi(List.of(new String[] {"SET", "b", "1"}, new String[] {"NOSUCHCOMMAND"}));
        assertThat(aborted).isInstanceOf(Reply.Error.class);
        assertThat(((Reply.Error) aborted).message()).startsWith("EXECABORT");
        assertThat(s.exists("b")).as("an aborted block applies nothing").isZero();
        assertThat(s.changesSince(start.generation(), 3, 256, List.of()).changes()).isEmpty();
        assertThat(s.multi(List.of()).elements()).as("an empty block").isEmpty();
        assertThatThrownBy(() -> s.multi(List.<String[]>of(new String[0])))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty command");
        assertThat(s.execute("SET", "c", "1").asString()).as("no MULTI state left behind").isEqualTo("OK");
    }

    @Test
    void aWatchDoesNotOutliveItsCall() {
        Store s = open(Config.defaults());
        assertThat(s.execute("WATCH", "a", "b").asString()).isEqualTo("OK");
        s.engine().shard(0).lock().lock();
        try {
            assertThat(s.engine().shard(0).signals().watchedKeys()).isZero();
        } finally {
            s.engine().shard(0).lock().unlock();
        }
    }
}
