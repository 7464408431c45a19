package io.kevy.feed;

import static org.assertj.core.api.Assertions.assertThat;
import io.kevy.engine.Engine;
import io.kevy.engine.Keyspace;
import io.kevy.engine.Shard;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.FeedClient;
import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Conformance of FEED.SHARDS, FEED.TAIL, FEED.READ and PREFIX.STATS with feed contract §4-§8, reply bytes
 * compared exactly on a raw socket. (BLOCK is covered by {@code FeedBlockIT}.)
 */
class FeedCommandsIT {
    private static final String ARITY_READ = "-ERR wrong number of arguments for 'feed.read' command\r\n";
    private static final String INVALID_SHARD = "-ERR invalid shard\r\n";
    private static final String OUT_OF_RANGE = "-ERR shard out of range\r\n";
    private static final String DISABLED = "-ERR feed disabled (set [feed] enabled = true)\r\n";
    private static final String SYNTAX = "-ERR syntax error\r\n";
    private static final String INVALID_COUNT = "-ERR invalid COUNT\r\n";
    private static final String INVALID_BLOCK = "-ERR invalid BLOCK\r\n";
    private static final String PREFIX_VALUE = "-ERR PREFIX requires a value\r\n";
    private static final String AHEAD = "-ERR feed cursor ahead of stream\r\n";
    private static final String U64_MAX = "18446744073709551615";
    private static final String U64_OVER = "18446744073709551616";

    private static TestServer feedServer(int shards, UnaryOperator<io.kevy.server.config.ServerConfig> more) {
        return TestServer.start(c -> more.apply(c.with(ServerOptions.SHARDS, shards)
                .with(ServerOptions.FEED_ENABLED, true)));
    }

    private static long gen(RawClient raw, int shard) {
        return new FeedClient(raw).tail(shard)[0];
    }

    private static String empty(long gen, long next) {
        return "*3\r\n:" + gen + "\r\n:" + next + "\r\n*0\r\n";
    }

    /** Emits a frame straight into the stream of its key's shard (for shapes no command of main emits yet). */
    private static void emitRaw(Engine engine, String... frame) {
        byte[][] f = new byte[frame.length][];
        for (int i = 0; i < f.length; i++) {
            f[i] = frame[i].getBytes(StandardCharsets.UTF_8);
        }
        Shard s = engine.shardFor(f[1]);
        s.lock().lock();
        try {
            s.emit(f);
        } finally {
            s.lock().unlock();
        }
    }

    @Test
    void theByteExampleOfTheContract() {
        try (TestServer server = feedServer(1, c -> c)) {
            RawClient raw = server.raw();
            long g = gen(raw, 0);
            assertThat(raw.call("SET", "k", "v")).isEqualTo("+OK\r\n");
            assertThat(raw.call("FEED.READ", "0", Long.toString(g), "0")).isEqualTo("*3\r\n:" + g + "\r\n:1\r\n*1\r\n"
                    + "*2\r\n:0\r\n*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n");
            assertThat(raw.call("FEED.TAIL", "0")).isEqualTo("*2\r\n:" + g + "\r\n:1\r\n");
            assertThat(raw.call("feed.read", "+0", "+" + g, "+0001", "count", "1"))
                    .as("case-insensitive verb and keywords, leading + and zeros").isEqualTo(empty(g, 1));
            assertThat(raw.call("Feed.Read", "00", "0" + g, "0", "Count", "1")).isEqualTo("*3\r\n:" + g
                    + "\r\n:1\r\n*1\r\n*2\r\n:0\r\n*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n");
        }
    }

    @Test
    void feedShards() {
        try (TestServer server = feedServer(3, c -> c)) {
            RawClient raw = server.raw();
            assertThat(raw.call("FEED.SHARDS")).isEqualTo(":3\r\n");
            assertThat(raw.call("feed.shards", "x"))
                    .isEqualTo("-ERR wrong number of arguments for 'feed.shards' command\r\n");
        }
        try (TestServer off = TestServer.start(ServerOptions.SHARDS, 5)) {
            assertThat(off.raw().call("FEED.SHARDS")).as("answered with the feed off").isEqualTo(":5\r\n");
        }
    }

    @Test
    void feedTailErrorsInOrder() {
        try (TestServer server = feedServer(2, c -> c)) {
            RawClient raw = server.raw();
            assertThat(raw.call("FEED.TAIL")).isEqualTo("-ERR wrong number of arguments for 'feed.tail' command\r\n");
            assertThat(raw.call("FEED.TAIL", "0", "1"))
                    .isEqualTo("-ERR wrong number of arguments for 'feed.tail' command\r\n");
            for (String bad : new String[] {"x", "-1", "", "+", "1.0", " 1", "0x1", U64_OVER, "++1"}) {
                assertThat(raw.call("FEED.TAIL", bad)).as("shard '%s'", bad).isEqualTo(INVALID_SHARD);
            }
            assertThat(raw.call("FEED.TAIL", "2")).isEqualTo(OUT_OF_RANGE);
            assertThat(raw.call("FEED.TAIL", U64_MAX)).isEqualTo(OUT_OF_RANGE);
            assertThat(raw.call("FEED.TAIL", "0001")).startsWith("*2\r\n:");
        }
        try (TestServer off = TestServer.start()) {
            RawClient raw = off.raw();
            assertThat(raw.call("FEED.TAIL", "x")).isEqualTo(INVALID_SHARD);
            assertThat(raw.call("FEED.TAIL", "7")).isEqualTo(OUT_OF_RANGE);
            assertThat(raw.call("FEED.TAIL", "0")).isEqualTo(DISABLED);
        }
    }

    @Test
    void feedReadArityAndArgumentErrorsInOrder() {
        try (TestServer server = feedServer(2, c -> c)) {
            RawClient raw = server.raw();
            long g = gen(raw, 0);
            String gs = Long.toString(g);
            assertThat(raw.call("FEED.READ")).isEqualTo(ARITY_READ);
            assertThat(raw.call("FEED.READ", "0", gs)).isEqualTo(ARITY_READ);
            // step 1: shard, generation, offset, in that order
            assertThat(raw.call("FEED.READ", "x", "y", "z")).isEqualTo(INVALID_SHARD);
            assertThat(raw.call("FEED.READ", "0", "y", "z")).isEqualTo("-ERR invalid generation\r\n");
            assertThat(raw.call("FEED.READ", "0", "-5", "0")).isEqualTo("-ERR invalid generation\r\n");
            assertThat(raw.call("FEED.READ", "0", gs, "z")).isEqualTo("-ERR invalid offset\r\n");
            assertThat(raw.call("FEED.READ", "0", gs, U64_OVER)).isEqualTo("-ERR invalid offset\r\n");
            assertThat(raw.call("FEED.READ", "9", "y", "0")).as("parsing before the range check")
                    .isEqualTo("-ERR invalid generation\r\n");
            assertThat(raw.call("FEED.READ", "0", gs, "z", "BOGUS")).as("the cursor before the options")
                    .isEqualTo("-ERR invalid offset\r\n");
            // step 2: options, left to right
            assertThat(raw.call("FEED.READ", "0", gs, "0", "COUNT")).isEqualTo(INVALID_COUNT);
            assertThat(raw.call("FEED.READ", "0", gs, "0", "COUNT", "x")).isEqualTo(INVALID_COUNT);
            assertThat(raw.call("FEED.READ", "0", gs, "0", "COUNT", "-1")).isEqualTo(INVALID_COUNT);
            assertThat(raw.call("FEED.READ", "0", gs, "0", "COUNT", U64_OVER)).isEqualTo(INVALID_COUNT);
            assertThat(raw.call("FEED.READ", "0", gs, "0", "PREFIX")).isEqualTo(PREFIX_VALUE);
            assertThat(raw.call("FEED.READ", "0", gs, "0", "PREFIX", "a", "PREFIX")).isEqualTo(PREFIX_VALUE);
            assertThat(raw.call("FEED.READ", "0", gs, "0", "BLOCK")).isEqualTo(INVALID_BLOCK);
            assertThat(raw.call("FEED.READ", "0", gs, "0", "BLOCK", "-1")).isEqualTo(INVALID_BLOCK);
            assertThat(raw.call("FEED.READ", "0", gs, "0", "BLOCK", "1.5")).isEqualTo(INVALID_BLOCK);
            assertThat(raw.call("FEED.READ", "0", gs, "0", "BOGUS")).isEqualTo(SYNTAX);
            assertThat(raw.call("FEED.READ", "0", gs, "0", "BOGUS", "1")).isEqualTo(SYNTAX);
            assertThat(raw.call("FEED.READ", "0", gs, "0", "COUNT", "5", "BOGUS", "1")).isEqualTo(SYNTAX);
            assertThat(raw.call("FEED.READ", "0", gs, "0", "BOGUS", "1", "COUNT", "x")).as("left to right")
                    .isEqualTo(SYNTAX);
            assertThat(raw.call("FEED.READ", "0", gs, "0", "COUNT", "x", "BOGUS")).isEqualTo(INVALID_COUNT);
            assertThat(raw.call("FEED.READ", "0", gs, "0", "PREFIX", "COUNT", "COUNT", "x"))
                    .as("PREFIX takes the next argument as its value").isEqualTo(INVALID_COUNT);
            assertThat(raw.call("FEED.READ", "0", gs, "0", "COUNT", "1", "COUNT"))
                    .as("a trailing COUNT with no value (upstream crashes here)").isEqualTo(INVALID_COUNT);
            // step 3: range, then feed on
            assertThat(raw.call("FEED.READ", "9", "y", "0", "COUNT", "x")).isEqualTo("-ERR invalid generation\r\n");
            assertThat(raw.call("FEED.READ", "9", gs, "0", "COUNT", "x")).as("options before the range check")
                    .isEqualTo(INVALID_COUNT);
            assertThat(raw.call("FEED.READ", "9", gs, "0", "BOGUS")).isEqualTo(SYNTAX);
            assertThat(raw.call("FEED.READ", "2", gs, "0")).isEqualTo(OUT_OF_RANGE);
            assertThat(raw.call("FEED.READ", U64_MAX, gs, "0")).isEqualTo(OUT_OF_RANGE);
        }
        try (TestServer off = TestServer.start()) {
            RawClient raw = off.raw();
            assertThat(raw.call("FEED.READ", "0", "1")).isEqualTo(ARITY_READ);
            assertThat(raw.call("FEED.READ", "x", "1", "0")).isEqualTo(INVALID_SHARD);
            assertThat(raw.call("FEED.READ", "0", "1", "0", "COUNT", "x")).isEqualTo(INVALID_COUNT);
            assertThat(raw.call("FEED.READ", "5", "1", "0")).isEqualTo(OUT_OF_RANGE);
            assertThat(raw.call("FEED.READ", "0", "1", "0")).isEqualTo(DISABLED);
            assertThat(raw.call("FEED.READ", "0", "1", "0", "COUNT", "3", "PREFIX", "a", "BLOCK", "10"))
                    .isEqualTo(DISABLED);
        }
    }

    @Test
    void cursorRules() {
        try (TestServer server = feedServer(1, c -> c)) {
            RawClient raw = server.raw();
            long g = gen(raw, 0);
            String gs = Long.toString(g);
            assertThat(raw.call("FEED.READ", "0", gs, "0")).as("empty stream at the tail").isEqualTo(empty(g, 0));
            for (int i = 0; i < 3; i++) {
                raw.call("SET", "k" + i, "v");
            }
            assertThat(raw.call("FEED.READ", "0", gs, "3")).as("caught up").isEqualTo(empty(g, 3));
            assertThat(raw.call("FEED.READ", "0", gs, "4")).isEqualTo(AHEAD);
            assertThat(raw.call("FEED.READ", "0", gs, U64_MAX)).isEqualTo(AHEAD);
            long other = g == 1 ? 2 : g - 1;
            String resync = "-FEEDRESYNC " + g + " 3\r\n";
            assertThat(raw.call("FEED.READ", "0", Long.toString(other), "0")).isEqualTo(resync);
            assertThat(raw.call("FEED.READ", "0", Long.toString(other), "3")).isEqualTo(resync);
            assertThat(raw.call("FEED.READ", "0", Long.toString(other), "999")).as("whatever the offset")
                    .isEqualTo(resync);
            assertThat(raw.call("FEED.READ", "0", "0", "0")).isEqualTo(resync);
            assertThat(raw.call("FEED.READ", "0", gs, "1", "COUNT", "1")).isEqualTo("*3\r\n:" + g + "\r\n:2\r\n*1\r\n"
                    + "*2\r\n:1\r\n*3\r\n$3\r\nSET\r\n$2\r\nk1\r\n$1\r\nv\r\n");
        }
    }

    @Test
    void evictedOffsetsGetAResyncCarryingTheCurrentTail() {
        // budget: three 36-byte frames (SET kN v at one-digit offsets)
        try (TestServer server = feedServer(1, c -> c.with(ServerOptions.FEED_BUFFER_SIZE, 108L))) {
            RawClient raw = server.raw();
            long g = gen(raw, 0);
            String gs = Long.toString(g);
            for (int i = 0; i < 8; i++) {
                raw.call("SET", "k" + i, "v");
            }
            assertThat(raw.call("FEED.READ", "0", gs, "0")).isEqualTo("-FEEDRESYNC " + g + " 8\r\n");
            assertThat(raw.call("FEED.READ", "0", gs, "4")).isEqualTo("-FEEDRESYNC " + g + " 8\r\n");
            FeedClient.Batch b = new FeedClient(raw).read(0, g, 5);
            assertThat(b.frames()).extracting(FeedClient.Frame::offset).containsExactly(5L, 6L, 7L);
            assertThat(b.next()).isEqualTo(8);
        }
    }

    @Test
    void flushStartsANewGenerationWithoutAFrame() {
        try (TestServer server = feedServer(2, c -> c)) {
            RawClient raw = server.raw();
            long g0 = gen(raw, 0);
            long g1 = gen(raw, 1);
            raw.call("SET", "a", "1");
            raw.call("SET", "b", "1");
            assertThat(raw.call("FLUSHALL")).isEqualTo("+OK\r\n");
            long n0 = gen(raw, 0);
            long n1 = gen(raw, 1);
            assertThat(n0).isNotEqualTo(g0).isBetween(1L, (1L << 53) - 1);
            assertThat(n1).isNotEqualTo(g1).isBetween(1L, (1L << 53) - 1);
            assertThat(raw.call("FEED.TAIL", "0")).isEqualTo("*2\r\n:" + n0 + "\r\n:0\r\n");
            assertThat(raw.call("FEED.READ", "0", Long.toString(g0), "1")).isEqualTo("-FEEDRESYNC " + n0 + " 0\r\n");
            assertThat(raw.call("FEED.READ", "0", Long.toString(n0), "0")).isEqualTo(empty(n0, 0));
            raw.call("FLUSHDB");
            assertThat(gen(raw, 0)).isNotEqualTo(n0);
        }
    }

    @Test
    void countIsClampedAndTheLastOneWins() {
        try (TestServer server = feedServer(1, c -> c)) {
            RawClient raw = server.raw();
            long g = gen(raw, 0);
            StringBuilder pipeline = new StringBuilder();
            for (int i = 0; i < 5000; i++) {
                pipeline.append("SET k").append(i % 10).append(" v\r\n");
            }
            raw.send(pipeline.toString());
            for (int i = 0; i < 5000; i++) {
                raw.readReply();
            }
            FeedClient feed = new FeedClient(raw);
            assertThat(feed.read(0, g, 0).next()).as("default 256").isEqualTo(256);
            assertThat(feed.read(0, g, 0, "COUNT", "0").next()).as("0 clamps to 1").isEqualTo(1);
            assertThat(feed.read(0, g, 0, "COUNT", "5000").next()).as("clamped to 4096").isEqualTo(4096);
            assertThat(feed.read(0, g, 0, "COUNT", U64_MAX).next()).isEqualTo(4096);
            assertThat(feed.read(0, g, 0, "COUNT", "1", "COUNT", "3").next()).isEqualTo(3);
            assertThat(feed.read(0, g, 0, "COUNT", "3", "count", "1").next()).isEqualTo(1);
            assertThat(feed.read(0, g, 4990, "COUNT", "100").frames()).hasSize(10);
        }
    }

    @Test
    void prefixFilterDeliversMatchesAndFailOpenShapes() {
        try (TestServer server = feedServer(1, c -> c)) {
            RawClient raw = server.raw();
            Engine engine = server.server().engine();
            long g = gen(raw, 0);
            raw.call("SET", "a:1", "v");       // 0 delivered for a:
            raw.call("SET", "b:1", "v");       // 1 filtered
            raw.call("HSET", "b:h", "f", "v"); // 2 filtered
            raw.call("DEL", "a:1", "b:1");     // 3 DEL with 2 keys: fail-open
            raw.call("SET", "b:2", "v");       // 4
            raw.call("DEL", "b:2");            // 5 single-key DEL: filtered
            emitRaw(engine, "MSET", "b:3", "1");           // 6 MSET, even one pair: fail-open
            emitRaw(engine, "RENAME", "b:4", "b:5");       // 7 RENAME: fail-open
            emitRaw(engine, "PEXPIREAT", "a:2", "99999999999999"); // 8 delivered
            FeedClient feed = new FeedClient(raw);
            FeedClient.Batch a = feed.read(0, g, 0, "PREFIX", "a:");
            assertThat(a.frames()).extracting(FeedClient.Frame::offset).containsExactly(0L, 3L, 6L, 7L, 8L);
            assertThat(a.next()).isEqualTo(9);
            assertThat(feed.read(0, g, 0, "PREFIX", "a:", "PREFIX", "b:").frames()).hasSize(9);
            assertThat(feed.read(0, g, 0, "PREFIX", "").frames()).as("the empty prefix matches all").hasSize(9);
            assertThat(feed.read(0, g, 0, "PREFIX", "zz").frames()).extracting(FeedClient.Frame::offset)
                    .containsExactly(3L, 6L, 7L);
            FeedClient.Batch none = feed.read(0, g, 4, "COUNT", "2", "PREFIX", "a:");
            assertThat(none.frames()).isEmpty();
            assertThat(none.next()).as("filtered frames advance the cursor").isEqualTo(6);
            assertThat(raw.call("FEED.READ", "0", Long.toString(g), "1", "COUNT", "2", "PREFIX", "a:"))
                    .isEqualTo(empty(g, 3));
            assertThat(raw.call("FEED.READ", "0", Long.toString(g), "3", "COUNT", "1", "PREFIX", "a:"))
                    .isEqualTo("*3\r\n:" + g + "\r\n:4\r\n*1\r\n*2\r\n:3\r\n*3\r\n$3\r\nDEL\r\n$3\r\na:1\r\n$3\r\nb:1\r\n");
        }
    }

    @Test
    void eachShardIsItsOwnStream() {
        try (TestServer server = feedServer(4, c -> c)) {
            RawClient raw = server.raw();
            Engine engine = server.server().engine();
            for (int i = 0; i < 40; i++) {
                raw.call("SET", "key" + i, Integer.toString(i));
            }
            FeedClient feed = new FeedClient(raw);
            int total = 0;
            for (int s = 0; s < 4; s++) {
                for (FeedClient.Frame f : feed.readAll(s)) {
                    assertThat(engine.shardIndex(f.argv()[1])).isEqualTo(s);
                    total++;
                }
            }
            assertThat(total).isEqualTo(40);
            raw.call("DEL", "{x}1", "{x}2");
            raw.call("SET", "{x}1", "v");
            raw.call("SET", "{x}2", "v");
            int s = engine.shardIndex("{x}".getBytes());
            assertThat(feed.readAll(s).stream().filter(f -> new String(f.argv()[1]).startsWith("{x}")).count())
                    .as("hash tags keep keys on one shard").isEqualTo(2);
        }
    }

    @Test
    void prefixStats() {
        try (TestServer server = TestServer.start(ServerOptions.SHARDS, 3)) {
            RawClient raw = server.raw();
            assertThat(raw.call("PREFIX.STATS", "")).isEqualTo("*4\r\n$4\r\nkeys\r\n:0\r\n$7\r\nexpires\r\n:0\r\n");
            for (int i = 0; i < 10; i++) {
                raw.call("SET", "user:" + i, "v");
            }
            raw.call("HSET", "user:h", "f", "v");
            raw.call("SET", "order:1", "v");
            Engine engine = server.server().engine();
            setExpiry(engine, "user:1", System.currentTimeMillis() + 3_600_000);
            setExpiry(engine, "user:2", System.currentTimeMillis() + 3_600_000);
            setExpiry(engine, "user:3", 1); // expired, not reaped yet (or reaped: either way not counted)
            assertThat(raw.call("PREFIX.STATS", "user:"))
                    .as("works with the feed off; expired keys excluded")
                    .isEqualTo("*4\r\n$4\r\nkeys\r\n:10\r\n$7\r\nexpires\r\n:2\r\n");
            assertThat(raw.call("prefix.stats", "")).isEqualTo("*4\r\n$4\r\nkeys\r\n:11\r\n$7\r\nexpires\r\n:2\r\n");
            assertThat(raw.call("PREFIX.STATS", "nothing")).isEqualTo("*4\r\n$4\r\nkeys\r\n:0\r\n$7\r\nexpires\r\n:0\r\n");
            assertThat(raw.call("PREFIX.STATS")).isEqualTo("-ERR wrong number of arguments for 'prefix.stats' command\r\n");
            assertThat(raw.call("PREFIX.STATS", "a", "b"))
                    .isEqualTo("-ERR wrong number of arguments for 'prefix.stats' command\r\n");
        }
    }

    private static void setExpiry(Engine engine, String key, long at) {
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        Shard s = engine.shardFor(k);
        s.lock().lock();
        try {
            Keyspace ks = s.keyspace();
            ks.setExpiry(ks.node(k, 0), at);
        } finally {
            s.lock().unlock();
        }
    }
}
