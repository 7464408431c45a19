package io.kevy.feed.client;

import io.kevy.common.Slots;
import static io.kevy.feed.client.TestChanges.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@link FeedSource} contract (feed contract §4, §9), run against every implementation: subclasses provide a
 * fresh source with the feed on and a way to run write commands on the same data.
 */
abstract class FeedSourceContractTest {
    protected FeedSource source;

    /** A source over fresh data with the feed on. */
    protected abstract FeedSource open() throws Exception;

    /** Runs a write command on the source's data. */
    protected abstract void write(String... argv) throws Exception;

    protected abstract void shutdown() throws Exception;

    @BeforeEach
    void setUp() throws Exception {
        source = open();
    }

    @AfterEach
    void tearDown() throws Exception {
        source.close();
        shutdown();
    }

    static <T> T get(CompletionStage<T> s) throws Exception {
        return s.toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    static Throwable failure(CompletionStage<?> s) {
        try {
            s.toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            return e;
        }
        throw new AssertionError("expected a failure");
    }

    /** A key that lives on shard 0 of {@code shards}. */
    String keyOnShard0(String prefix, int shards) {
        for (int i = 0; ; i++) {
            if (Slots.shard(utf8(prefix + i), shards) == 0) {
                return prefix + i;
            }
        }
    }

    @Test
    void readsAnswerEachKeyWithItsShardCursorExactly() throws Exception {
        int shards = get(source.shards());
        String k = keyOnShard0("r", shards);
        String gone = keyOnShard0("g", shards);
        write("RPUSH", k, "a", "b");
        write("PEXPIREAT", k, "99999999999999");
        Cursor tail = get(source.tail(0));
        List<KeyRead> reads = get(source.reads(List.of(utf8(k), utf8(gone)), shards));
        assertThat(reads).hasSize(2);
        KeyRead r = reads.get(0);
        assertThat(r.exact()).as("FEED.VALUE on both built-in sources").isTrue();
        assertThat(r.at()).isEqualTo(tail);
        assertThat(r.snapshot().type()).isEqualTo(ValueType.LIST);
        assertThat(r.snapshot().value()).extracting(b -> new String(b, java.nio.charset.StandardCharsets.UTF_8)).containsExactly("a", "b");
        assertThat(r.snapshot().expireAtMillis()).isEqualTo(99999999999999L);
        assertThat(reads.get(1).snapshot()).as("absent").isNull();
        assertThat(reads.get(1).at()).isEqualTo(tail);
    }

    @Test
    void tailThenReadDeliversTheFramesAndTheNextCursor() throws Exception {
        int shards = get(source.shards());
        assertThat(shards).isPositive();
        String k = keyOnShard0("k", shards);
        Cursor tail = get(source.tail(0));
        assertThat(tail.shard()).isZero();
        FrameBatch empty = get(source.read(tail, 10, List.of(), null));
        assertThat(empty.frames()).isEmpty();
        assertThat(empty.next()).isEqualTo(tail);
        write("SET", k, "v1");
        write("SET", k, "v2");
        FrameBatch b = get(source.read(tail, 10, List.of(), null));
        assertThat(b.frames()).extracting(Frame::offset).containsExactly(tail.offset(), tail.offset() + 1);
        assertThat(b.frames().get(1).verb()).isEqualTo("SET");
        assertThat(b.frames().get(1).argv()[2]).isEqualTo(utf8("v2"));
        assertThat(b.next()).isEqualTo(tail.withOffset(tail.offset() + 2));
        FrameBatch one = get(source.read(tail, 1, List.of(), null));
        assertThat(one.frames()).hasSize(1);
    }

    @Test
    void thePrefixFilterDropsOtherKeysButStillAdvances() throws Exception {
        int shards = get(source.shards());
        String a = keyOnShard0("user:", shards);
        String b = keyOnShard0("order:", shards);
        Cursor tail = get(source.tail(0));
        write("SET", b, "x");
        write("SET", a, "y");
        FrameBatch r = get(source.read(tail, 10, List.of(utf8("user:")), null));
        assertThat(r.frames()).hasSize(1);
        assertThat(r.frames().get(0).argv()[1]).isEqualTo(utf8(a));
        assertThat(r.next().offset()).isEqualTo(tail.offset() + 2);
    }

    @Test
    void errorsAreTyped() throws Exception {
        Cursor tail = get(source.tail(0));
        Throwable resync = failure(source.read(new Cursor(0, tail.generation() + 1, 0), 10, List.of(), null));
        assertThat(resync).isInstanceOf(FeedResyncException.class);
        assertThat(((FeedResyncException) resync).generation()).isEqualTo(tail.generation());
        assertThat(((FeedResyncException) resync).tail()).isEqualTo(tail.offset());
        assertThat(failure(source.read(tail.withOffset(tail.offset() + 5), 10, List.of(), null)))
                .isInstanceOf(CursorAheadException.class);
        int shards = get(source.shards());
        assertThat(failure(source.tail(shards))).isInstanceOf(KevyServerException.class)
                .hasMessage("ERR shard out of range");
    }

    @Test
    void blockWaitsForAWriteAndTimesOutEmpty() throws Exception {
        int shards = get(source.shards());
        String k = keyOnShard0("b", shards);
        Cursor tail = get(source.tail(0));
        long t0 = System.nanoTime();
        FrameBatch idle = get(source.read(tail, 10, List.of(), Duration.ofMillis(150)));
        assertThat(idle.frames()).isEmpty();
        assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
        CompletableFuture<FrameBatch> waiting = source.read(tail, 10, List.of(), Duration.ofSeconds(5))
                .toCompletableFuture();
        Thread.sleep(50);
        assertThat(waiting).isNotDone();
        write("SET", k, "woken");
        assertThat(waiting.get(5, TimeUnit.SECONDS).frames()).hasSize(1);
    }

    @Test
    void scanAndSnapshotReadEveryTypeWithItsTtl() throws Exception {
        write("SET", "s:str", "v");
        write("PEXPIRE", "s:str", "100000");
        write("RPUSH", "s:list", "a", "b", "a");
        write("SADD", "s:set", "x", "y");
        write("HSET", "s:hash", "f", "1", "g", "2");
        write("ZADD", "s:zset", "1.5", "m", "-inf", "n");
        write("SET", "other", "o");
        List<byte[]> keys = new ArrayList<>();
        String cursor = "0";
        do {
            ScanPage p = get(source.scan(cursor, KeyFilter.globPrefix(utf8("s:")), 2));
            keys.addAll(p.keys());
            cursor = p.cursor();
        } while (!cursor.equals("0"));
        assertThat(keys).extracting(String::new).containsExactlyInAnyOrder("s:str", "s:list", "s:set", "s:hash",
                "s:zset");
        KeySnapshot str = get(source.snapshot(utf8("s:str"))).orElseThrow();
        assertThat(str.type()).isEqualTo(ValueType.STRING);
        assertThat(str.value()).containsExactly(utf8("v"));
        assertThat(str.ttlMillis()).isBetween(1L, 100_000L);
        assertThat(get(source.snapshot(utf8("s:list"))).orElseThrow().value()).extracting(String::new)
                .containsExactly("a", "b", "a");
        assertThat(get(source.snapshot(utf8("s:set"))).orElseThrow().value()).extracting(String::new)
                .containsExactlyInAnyOrder("x", "y");
        assertThat(get(source.snapshot(utf8("s:hash"))).orElseThrow().value()).extracting(String::new)
                .containsExactlyInAnyOrder("f", "1", "g", "2");
        KeySnapshot z = get(source.snapshot(utf8("s:zset"))).orElseThrow();
        assertThat(z.value()).extracting(String::new).containsExactly("n", "-inf", "m", "1.5");
        assertThat(z.ttlMillis()).isEqualTo(-1);
        assertThat(get(source.snapshot(utf8("nope")))).isEqualTo(Optional.empty());
    }

    @Test
    void snapshotsReadManyKeysInOrderAsSnapshotDoesEach() throws Exception {
        write("SET", "m:str", "v");
        write("PEXPIRE", "m:str", "100000");
        write("RPUSH", "m:list", "a", "b");
        write("SADD", "m:set", "x");
        write("HSET", "m:hash", "f", "1");
        write("ZADD", "m:zset", "2", "m");
        List<byte[]> keys = new ArrayList<>();
        for (String k : List.of("m:str", "m:gone", "m:list", "m:set", "m:hash", "m:zset")) {
            keys.add(utf8(k));
        }
        for (int i = 0; i < 500; i++) {
            write("SET", "m:n" + i, "v" + i);
            keys.add(utf8("m:n" + i));
        }
        List<Optional<KeySnapshot>> all = get(source.snapshots(keys));
        assertThat(all).hasSize(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            Optional<KeySnapshot> one = get(source.snapshot(keys.get(i)));
            assertThat(all.get(i).map(KeySnapshot::type)).as(new String(keys.get(i))).isEqualTo(one.map(KeySnapshot::type));
            assertThat(all.get(i).map(s -> s.value().size())).isEqualTo(one.map(s -> s.value().size()));
        }
        assertThat(all.get(0).orElseThrow().ttlMillis()).isBetween(1L, 100_000L);
        assertThat(all.get(0).orElseThrow().expireAtMillis()).isGreaterThan(System.currentTimeMillis());
        assertThat(all.get(1)).isEmpty();
        assertThat(all.get(2).orElseThrow().value()).extracting(String::new).containsExactly("a", "b");
        assertThat(all.get(5).orElseThrow().value()).extracting(String::new).containsExactly("m", "2");
        assertThat(all.get(505).orElseThrow().value()).extracting(String::new).containsExactly("v499");
        assertThat(all.get(505).orElseThrow().ttlMillis()).isEqualTo(-1);
        assertThat(get(source.snapshots(List.of()))).isEmpty();
    }

    @Test
    void globCharactersInPrefixesAreEscaped() throws Exception {
        write("SET", "a*b:1", "x");
        write("SET", "axb:1", "y");
        ScanPage p = get(source.scan("0", KeyFilter.globPrefix(utf8("a*b:")), 1000));
        assertThat(p.keys()).extracting(String::new).containsExactly("a*b:1");
    }

    @Test
    void getAndSetForTheCursorStore() throws Exception {
        assertThat(get(source.get(utf8("c")))).isNull();
        get(source.set(utf8("c"), new byte[] {0, (byte) 0xff}));
        assertThat(get(source.get(utf8("c")))).containsExactly(0, 0xff);
        assertThat(source.authority()).isNotEmpty();
    }

    @Test
    void aWrongTypeReadIsAServerError() throws Exception {
        write("RPUSH", "l", "a");
        assertThatThrownBy(() -> get(source.get(utf8("l")))).hasCauseInstanceOf(KevyServerException.class)
                .hasMessageContaining("WRONGTYPE");
    }
}
