package io.kevy.feed.client;

import static io.kevy.feed.client.TestChanges.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.common.Slots;
import io.kevy.feed.client.support.Servers;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The reads of a server without FEED.VALUE ({@link MultiExecReads}), on our server behind a source that rewrites
 * what upstream kevy would not know into unknown commands (FEED.VALUE always; PEXPIRETIME, MULTI or FEED.TAIL
 * inside MULTI per test): each key read in MULTI/EXEC with its shard's FEED.TAIL, exactly; FEED.VALUE refused
 * once however many reads start together; a key whose type changes between TYPE and EXEC read again, with the
 * read of every type; PTTL when PEXPIRETIME is unknown; and, when the server refuses the transaction, the plain
 * reads (not exact).
 */
class MultiExecReadsIT {
    private static final int SHARDS = 4;
    private TestServer server;
    private RawClient raw;
    private Rewriting source;

    /** Our server's source with some verbs renamed to unknown ones, and a hook run before each MULTI pipeline. */
    static final class Rewriting extends AbstractFeedSource {
        final RemoteFeedSource inner;
        final List<String> unknown = new java.util.concurrent.CopyOnWriteArrayList<>(List.of("FEED.VALUE"));
        final AtomicInteger feedValueSent = new AtomicInteger();
        final AtomicInteger execs = new AtomicInteger();
        volatile boolean unknownInsideMultiOnly;
        volatile Consumer<List<byte[][]>> beforeMulti = b -> { };

        Rewriting(String uri) {
            inner = new RemoteFeedSource(io.lettuce.core.RedisURI.create(uri));
        }

        private byte[][] rewrite(byte[][] argv, boolean inMulti) {
            String verb = new String(argv[0], StandardCharsets.US_ASCII);
            if (verb.equals("FEED.VALUE")) {
                feedValueSent.incrementAndGet();
            }
            if (unknown.contains(verb) && (inMulti || !unknownInsideMultiOnly || verb.equals("FEED.VALUE"))) {
                byte[][] out = argv.clone();
                out[0] = utf8(verb + "-UNKNOWN");
                return out;
            }
            return argv;
        }

        @Override
        CompletionStage<Object> call(boolean array, byte[]... argv) {
            return inner.call(array, rewrite(argv, false));
        }

        @Override
        List<CompletionStage<Object>> callAll(List<byte[][]> argvs, boolean[] arrays) {
            boolean multi = argvs.stream().anyMatch(a -> Arrays.equals(a[0], utf8("MULTI")));
            if (multi) {
                beforeMulti.accept(argvs);
            }
            List<byte[][]> out = new ArrayList<>(argvs.size());
            boolean in = false;
            for (byte[][] a : argvs) {
                String verb = new String(a[0], StandardCharsets.US_ASCII);
                if (verb.equals("EXEC")) {
                    execs.incrementAndGet();
                }
                in = verb.equals("MULTI") || in && !verb.equals("EXEC");
                out.add(rewrite(a, in && !verb.equals("MULTI") || verb.equals("MULTI")));
            }
            return inner.callAll(out, arrays);
        }

        @Override
        public String authority() {
            return inner.authority();
        }

        @Override
        public CompletionStage<Integer> shards() {
            return inner.shards();
        }

        @Override
        public CompletionStage<Cursor> tail(int shard) {
            return inner.tail(shard);
        }

        @Override
        public CompletionStage<FrameBatch> read(Cursor from, int count, List<byte[]> prefixes, Duration block) {
            return inner.read(from, count, prefixes, block);
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    @BeforeEach
    void start() {
        server = Servers.start(c -> c.with(ServerOptions.SHARDS, SHARDS));
        raw = server.raw();
        source = new Rewriting(server.uri());
    }

    @AfterEach
    void stop() {
        source.close();
        raw.close();
        server.close();
    }

    private static <T> T get(CompletionStage<T> s) throws Exception {
        return s.toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    /** One key of each type (string with a TTL), 40 strings spread over the shards, and an absent key. */
    private List<byte[]> keys() {
        raw.call("SET", "s", "v", "PXAT", "99999999999999");
        raw.call("RPUSH", "l", "a", "b");
        raw.call("SADD", "st", "m");
        raw.call("HSET", "h", "f", "v");
        raw.call("ZADD", "z", "1.5", "m");
        raw.call("XADD", "x", "1-1", "f", "v");
        List<byte[]> keys = new ArrayList<>();
        for (String k : List.of("s", "l", "st", "h", "z", "x", "absent")) {
            keys.add(utf8(k));
        }
        for (int i = 0; i < 40; i++) {
            raw.call("SET", "k" + i, "v" + i);
            keys.add(utf8("k" + i));
        }
        return keys;
    }

    /** Each read as "key type [values] pxat" (absent: "key none"). */
    private static List<String> describe(List<KeyRead> reads) {
        List<String> out = new ArrayList<>();
        for (KeyRead r : reads) {
            Optional<KeySnapshot> s = r.value();
            if (s.isEmpty()) {
                out.add(new String(r.key(), StandardCharsets.UTF_8) + " none");
                continue;
            }
            List<String> v = new ArrayList<>();
            s.get().value().forEach(b -> v.add(new String(b, StandardCharsets.UTF_8)));
            if (s.get().type() == ValueType.STREAM) {
                v.set(1, "?"); // entries-added: the plain reads of a stream (XRANGE alone) do not know it
            }
            out.add(new String(r.key(), StandardCharsets.UTF_8) + " " + s.get().type().word() + " " + v + " "
                    + s.get().expireAtMillis());
        }
        return out;
    }

    /** The same keys read with FEED.VALUE (our server's exact reads), described. */
    private List<String> expected(List<byte[]> keys) throws Exception {
        try (FeedSource direct = FeedSource.connect(server.uri())) {
            return describe(get(direct.reads(keys, SHARDS)));
        }
    }

    @Test
    void withoutFeedValueEachKeyIsReadInMultiExecWithItsShardsTailAndFeedValueIsAskedOnce() throws Exception {
        List<byte[]> keys = keys();
        List<CompletableFuture<List<KeyRead>>> together = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            together.add(source.reads(keys, SHARDS).toCompletableFuture());
        }
        for (CompletableFuture<List<KeyRead>> f : together) {
            List<KeyRead> reads = f.get(30, TimeUnit.SECONDS);
            assertThat(describe(reads)).isEqualTo(expected(keys));
            for (KeyRead r : reads) {
                int shard = Slots.shard(r.key(), SHARDS);
                assertThat(r.exact()).as("%s", r).isTrue();
                assertThat(r.at()).as("%s", r).isEqualTo(get(source.tail(shard)));
            }
        }
        assertThat(source.feedValueSent.get()).as("FEED.VALUE asked once, by the first read alone").isEqualTo(1);
        assertThat(source.execs.get()).as("one EXEC per shard per read call (47 keys, at most 64 per EXEC)")
                .isEqualTo(8 * SHARDS);
    }

    @Test
    void aKeyWhoseTypeKeepsChangingIsReadAgainWithEveryTypesRead() throws Exception {
        List<byte[]> keys = keys();
        AtomicInteger multis = new AtomicInteger();
        source.beforeMulti = b -> {
            int n = multis.getAndIncrement();
            if (n == 0) { // after TYPE, before the first transaction: s a list, absent a set
                raw.call("DEL", "s", "absent");
                raw.call("RPUSH", "s", "now", "a", "list");
                raw.call("SADD", "absent", "appeared");
            } else if (n == 1) { // before the second, which holds every type's read: s a hash, absent gone
                raw.call("DEL", "s", "absent");
                raw.call("HSET", "s", "f", "v");
            }
        };
        List<KeyRead> reads = get(source.reads(keys, SHARDS));
        assertThat(multis.get()).as("the changed keys went round once more, with every type's read").isEqualTo(2);
        assertThat(describe(reads)).isEqualTo(expected(keys));
        assertThat(describe(reads)).contains("s hash [f, v] -1", "absent none");
        assertThat(reads).allMatch(KeyRead::exact);
    }

    @Test
    void withoutPexpiretimeTheTransactionReadsPttl() throws Exception {
        source.unknown.add("PEXPIRETIME");
        List<byte[]> keys = keys();
        List<KeyRead> reads = get(source.reads(keys, SHARDS));
        assertThat(reads).allMatch(KeyRead::exact);
        KeySnapshot s = reads.get(0).snapshot();
        assertThat(s.expireAtMillis()).as("no PEXPIRETIME: read time + TTL").isEqualTo(-1);
        assertThat(s.ttlMillis()).isGreaterThan(1_000_000);
        assertThat(source.pexpiretime).isFalse();
        assertThat(describe(reads.subList(1, reads.size()))).isEqualTo(expected(keys).subList(1, keys.size()));
    }

    @Test
    void withoutMultiTheReadsAreThePlainOnes() throws Exception {
        source.unknown.add("MULTI");
        refusedTransactionsFallBack();
    }

    @Test
    void aServerRefusingFeedTailInsideMultiGetsThePlainReads() throws Exception {
        source.unknown.add("FEED.TAIL");
        source.unknownInsideMultiOnly = true;
        refusedTransactionsFallBack();
    }

    private void refusedTransactionsFallBack() throws Exception {
        List<byte[]> keys = keys();
        List<KeyRead> reads = get(source.reads(keys, SHARDS));
        assertThat(reads).noneMatch(KeyRead::exact);
        assertThat(describe(reads)).isEqualTo(expected(keys));
        int execs = source.execs.get();
        assertThat(describe(get(source.reads(keys, SHARDS)))).isEqualTo(expected(keys));
        assertThat(source.execs.get()).as("not tried again").isEqualTo(execs);
    }
}
