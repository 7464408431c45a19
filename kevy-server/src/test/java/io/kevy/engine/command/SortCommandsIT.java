package io.kevy.engine.command;

import static io.kevy.testing.StateDump.keyOnShard;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kevy.engine.Engine;
import io.kevy.testing.FrameRecorder;
import io.kevy.testing.OracleFixture;
import io.kevy.testing.RawClient;
import io.kevy.testing.Replies;
import io.kevy.testing.ReplyDiff;
import io.kevy.testing.StateDump;
import io.kevy.testing.TestServer;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.SortArgs;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * SORT and SORT_RO against a real Redis 7.0 (reply bytes and error texts), through lettuce, their locking (key
 * finder) and the frames of SORT ... STORE (feed contract §7) on a 2-shard server, where BY/GET keys and the
 * STORE key land on both shards.
 */
class SortCommandsIT {
    /**
     * Fresh connections for every test: Redis 7.0's SORT tests {@code errno == ERANGE} after strtod without
     * clearing errno first, so an ERANGE left by an earlier command (an out-of-range weight) fails later SORTs of
     * non-integer weights until some system call resets errno; accepting a new connection does (its accept loop
     * ends with EAGAIN). kevy does not reproduce that stale state.
     */
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create().recordFrames().freshConnectionsEachTest();

    private static final List<String> LIMITS = List.of("0 3", "2 2", "-1 2", "0 -1", "0 -5", "5 0", "100 1", "3 100",
            "-5 -5", "9223372036854775807 1", "0 9223372036854775807", "-9223372036854775808 2", "1 -1", "0 0");

    private static String same(String line) {
        return oracle.sameLine(line);
    }

    @Test
    void numericSortOfAList() {
        oracle.same("RPUSH", "l", "3", "1", "2", "10", "-1", "1.5", " 4", "", "0x10", "inf", "-inf", "1e3", "+5", ".5",
                "-0", "0", "2");
        same("SORT l");
        same("SORT l DESC");
        same("SORT l ASC");
        same("SORT l desc asc");
        for (String limit : LIMITS) {
            same("SORT l LIMIT " + limit);
            same("SORT l DESC LIMIT " + limit);
        }
        same("SORT l LIMIT 0 3 LIMIT 2 2");
        same("SORT_RO l DESC LIMIT 1 4");
        same("SORT nokey");
        same("SORT nokey DESC LIMIT 0 1");
        same("SORT_RO nokey");
    }

    @Test
    void weightsThatAreNotNumbers() {
        for (String bad : List.of("a", "1a", "1 ", "nan", "1e400", "-1e400", "1e-400", "1e-310", "0x", "1e", "infx",
                " ")) {
            oracle.same("DEL", "bad");
            oracle.same("RPUSH", "bad", "1", bad);
            oracle.same("SORT", "bad");
            oracle.same("SORT", "bad", "LIMIT", "0", "0");
            oracle.same("SORT", "bad", "ALPHA");
            oracle.same("SORT", "bad", "BY", "nosort");
        }
        oracle.reconnect(); // clears the ERANGE the bad weights left in Redis's errno
        for (String good : List.of("0x1p-1070", "2.2250738585072014e-308", "  -Infinity", "5.", "1e-300")) {
            oracle.same("DEL", "good");
            oracle.same("RPUSH", "good", good, "0");
            oracle.same("SORT", "good");
        }
        oracle.sameBytes("RPUSH", "nul", "2\u0000x", "1");
        oracle.sameBytes("SORT", "nul");
    }

    @Test
    void alphaSort() {
        oracle.same("RPUSH", "l", "b", "B", "a", "A", "10", "9", "", "_", "\u00e9", "e", "ab", "a");
        same("SORT l ALPHA");
        same("SORT l ALPHA DESC");
        for (String limit : LIMITS) {
            same("SORT l ALPHA LIMIT " + limit);
        }
        oracle.sameBytes("RPUSH", "nul", "a\u0000c", "a\u0000b", "a", "a\u0001", "\u00ff", "\u0080");
        oracle.sameBytes("SORT", "nul", "ALPHA");
        oracle.sameBytes("SORT", "nul", "ALPHA", "DESC");
        oracle.sameBytes("SORT", "nul", "ALPHA", "STORE", "dst");
        oracle.sameBytes("LRANGE", "dst", "0", "-1");
        oracle.sameBytes("SORT", "nul", "ALPHA", "DESC", "STORE", "dst");
        oracle.sameBytes("LRANGE", "dst", "0", "-1");
    }

    @Test
    void byPatterns() {
        same("RPUSH l a b c d e");
        oracle.same("SET", "w_a", "3");
        oracle.same("SET", "w_b", "1");
        oracle.same("SET", "w_c", "2");
        oracle.same("SET", "w_e", "x");
        oracle.same("HSET", "h_a", "f", "9", "g", "z");
        oracle.same("HSET", "h_b", "f", "-1");
        oracle.same("HSET", "h_d", "f", "4");
        oracle.same("RPUSH", "w_d", "5");
        same("SORT l BY w_*");
        same("SORT l BY w_* ALPHA");
        same("SORT l BY w_* ALPHA DESC");
        same("SORT l BY h_*->f");
        same("SORT l BY h_*->f DESC");
        same("SORT l BY h_*->g ALPHA");
        same("SORT l BY h_*->nofield");
        same("SORT l BY w_*->f");
        same("SORT l BY h_*");
        same("SORT l BY nokey_*");
        same("SORT l BY nokey_* DESC");
        same("SORT l BY *");
        same("SORT l BY x*y");
        oracle.same("SET", "xay", "2");
        same("SORT l BY x*y");
        for (String limit : LIMITS) {
            same("SORT l BY h_*->f LIMIT " + limit);
            same("SORT l BY w_* DESC LIMIT " + limit);
        }
        oracle.same("RPUSH", "n", "1", "2", "3");
        oracle.same("SET", "w_1", "nan");
        same("SORT n BY w_*");
        same("SORT n BY w_* ALPHA");
        same("SORT l BY w_* BY nosort");
        same("SORT l BY nosort BY w_*");
        oracle.same("SET", "arrow_a->", "3");
        oracle.same("SET", "arrow_b->", "1");
        same("SORT l BY arrow_*-> GET arrow_*->");
    }

    @Test
    void getPatterns() {
        same("RPUSH l 3 1 2 4");
        oracle.same("SET", "o_1", "one");
        oracle.same("SET", "o_2", "two");
        oracle.same("HSET", "h_1", "name", "uno");
        oracle.same("HSET", "h_3", "name", "tres");
        oracle.same("RPUSH", "o_3", "x");
        same("SORT l GET #");
        same("SORT l GET o_*");
        same("SORT l GET # GET o_* GET h_*->name GET h_*->nofield GET o_*->name");
        same("SORT l GET nostar GET o_1");
        same("SORT l DESC LIMIT 1 2 GET o_* GET #");
        same("SORT l BY nosort GET h_*->name");
        same("SORT l GET #x");
        same("SORT l GET *");
        same("SORT l GET h_*->");
        same("SORT_RO l GET # GET o_*");
        same("SORT l LIMIT 0 0 GET #");
        same("SORT l GET o_* STORE dst");
        same("LRANGE dst 0 -1");
        same("SORT l GET o_* GET # STORE dst");
        same("LRANGE dst 0 -1");
        oracle.sameBytes("SORT", "l", "GET", "#\u0000x");
        oracle.sameBytes("SORT", "l", "GET", "o_\u0000*");
    }

    @Test
    void nosortOrderOfListsSortedSetsAndSets() {
        same("RPUSH l c a b d");
        same("ZADD z 3 c 1 a 2 b 2 bb -1 x");
        same("SADD s 5 3 9 1 -2");
        for (String key : List.of("l", "z", "s")) {
            same("SORT " + key + " BY nosort");
            same("SORT " + key + " BY nosort DESC");
            for (String limit : LIMITS) {
                same("SORT " + key + " BY nosort LIMIT " + limit);
                same("SORT " + key + " BY nosort DESC LIMIT " + limit);
            }
            same("SORT " + key + " BY nosort ALPHA STORE dst");
            same("LRANGE dst 0 -1");
            same("SORT " + key + " BY nosort DESC STORE dst");
            same("LRANGE dst 0 -1");
            same("SORT " + key + " BY nosort LIMIT 1 2 STORE dst");
            same("LRANGE dst 0 -1");
        }
        same("SORT z ALPHA");
        same("SORT z");
        same("SORT s");
        same("SORT s DESC LIMIT 1 2");
        same("ZADD zn 1 10 2 9 3 8");
        same("SORT zn");
        same("SORT zn BY nosort");
        same("SADD hs b a c 1");
        String kevyOrder = oracle.kevy().raw().call("SORT", "hs", "BY", "nosort");
        assertThat(Replies.sortedArray(kevyOrder))
                .isEqualTo(Replies.sortedArray(oracle.redis().raw().call("SORT", "hs", "BY", "nosort")));
        same("SORT hs BY nosort STORE dst");
        same("LRANGE dst 0 -1");
        same("SORT hs BY nosort ALPHA DESC STORE dst");
        same("LRANGE dst 0 -1");
    }

    @Test
    void sortingAReadsSortedSetConvertsItToSkiplistAsRedis() {
        same("ZADD z 1 a 2 b");
        assertThat(StateDump.encoding(oracle.engine(), "z")).isEqualTo("listpack");
        same("SORT z BY nosort");
        assertThat(StateDump.encoding(oracle.engine(), "z")).isEqualTo("skiplist");
        assertThat(oracle.redis().raw().call("OBJECT", "ENCODING", "z")).isEqualTo("$8\r\nskiplist\r\n");
    }

    @Test
    void storeMatchesRedis() {
        same("RPUSH l 3 1 2");
        same("SORT l STORE dst");
        same("LRANGE dst 0 -1");
        same("SORT l DESC STORE dst STORE dst2");
        same("LRANGE dst 0 -1");
        same("LRANGE dst2 0 -1");
        same("SET str x");
        same("SORT l STORE str");
        same("LRANGE str 0 -1");
        same("SORT l LIMIT 0 0 STORE dst");
        same("EXISTS dst");
        same("SORT nokey STORE dst2");
        same("EXISTS dst2");
        same("SORT l STORE l");
        same("LRANGE l 0 -1");
    }

    @Test
    void errorsMatchRedis() {
        same("RPUSH l 1 2");
        same("SET str x");
        for (String args : List.of("LIMIT 0", "LIMIT", "LIMIT a 1", "LIMIT 0 a", "LIMIT 1.5 1", "BY", "GET", "STORE",
                "FOO", "ASC FOO", "LIMIT 0 1 2", "BY w_* GET", "ALPHA LIMIT 0 x STORE d", "STORE d FOO")) {
            same("SORT l " + args);
            same("SORT str " + args);
            same("SORT nokey " + args);
            same("SORT_RO l " + args);
        }
        same("SORT_RO l STORE d");
        same("SORT_RO l GET # STORE d");
        same("SORT str");
        same("SORT str BY nosort");
        same("SORT_RO str");
        same("SORT str STORE d");
        same("EXISTS d");
        same("SORT");
        same("SORT_RO");
    }

    @Test
    void storeFramesAcrossShards() {
        Engine e = oracle.engine();
        String src = keyOnShard(e, "src", 0);
        String dst = keyOnShard(e, "dst", 1);
        RawClient raw = oracle.kevy().raw();
        raw.call("RPUSH", src, "3", "1", "2");
        oracle.frames().take();
        assertThat(raw.call("SORT", src, "STORE", dst)).isEqualTo(":3\r\n");
        List<FrameRecorder.Frame> fs = oracle.frames().takeFrames();
        assertThat(fs).extracting(FrameRecorder.Frame::text).containsExactly("DEL " + dst, "RPUSH " + dst + " 1 2 3");
        assertThat(fs).extracting(FrameRecorder.Frame::shard).containsExactly(1, 1);

        assertThat(raw.call("SORT", src, "LIMIT", "0", "0", "STORE", dst)).isEqualTo(":0\r\n");
        assertThat(oracle.frames().take()).as("empty result deletes dst").containsExactly("DEL " + dst);
        assertThat(raw.call("SORT", src, "LIMIT", "0", "0", "STORE", dst)).isEqualTo(":0\r\n");
        assertThat(oracle.frames().take()).as("empty result, dst absent: no-op").isEmpty();

        raw.call("SORT", src);
        raw.call("SORT_RO", src, "GET", "#");
        raw.call("SORT", src, "LIMIT", "x", "1", "STORE", dst);
        raw.call("SORT", "nokey", "STORE", dst);
        assertThat(oracle.frames().take()).as("reads, errors and no-ops").isEmpty();
    }

    @Test
    void largeStoreIsChunked() {
        RawClient raw = oracle.kevy().raw();
        List<String> cmd = new ArrayList<>(List.of("RPUSH", "big"));
        for (int i = 2500; i > 0; i--) {
            cmd.add(Integer.toString(i));
        }
        raw.call(cmd.toArray(new String[0]));
        oracle.frames().take();
        assertThat(raw.call("SORT", "big", "STORE", "dst")).isEqualTo(":2500\r\n");
        List<FrameRecorder.Frame> fs = oracle.frames().takeFrames();
        assertThat(fs).extracting(f -> f.argv().length).containsExactly(2, 1026, 1026, 454);
        assertThat(fs.get(1).text()).startsWith("RPUSH dst 1 2 3 ");
        assertThat(new String(fs.get(3).argv()[453], StandardCharsets.UTF_8)).isEqualTo("2500");
    }

    @Test
    void byAndGetReadKeysOnEveryShard() {
        Engine e = oracle.engine();
        RawClient raw = oracle.kevy().raw();
        List<String> elems = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            elems.add("e" + i);
            oracle.same("SET", "w_e" + i, Integer.toString((i * 7) % 20));
            oracle.same("SET", "o_e" + i, "v" + i);
        }
        List<Integer> shards = new ArrayList<>();
        for (String x : elems) {
            shards.add(e.shardIndex(("w_" + x).getBytes(StandardCharsets.UTF_8)));
        }
        assertThat(shards).as("the weights live on both shards").contains(0, 1);
        List<String> push = new ArrayList<>(List.of("RPUSH", "l"));
        push.addAll(elems);
        oracle.same(push.toArray(new String[0]));
        same("SORT l BY w_* GET o_* GET #");
        same("SORT l BY w_* DESC GET o_* STORE dst");
        same("LRANGE dst 0 -1");
        assertThat(raw.call("SORT_RO", "l", "BY", "w_*", "LIMIT", "0", "1")).isEqualTo("*1\r\n$2\r\ne0\r\n");
    }

    @Test
    void keyFinderLocksAllShardsOnlyWhenPatternsReadKeys() {
        try (ReplyDiff d = new ReplyDiff(oracle.kevy().raw(), oracle.redis().raw())) {
            d.same("COMMAND", "GETKEYS", "SORT", "k", "BY", "w_*", "STORE", "d");
            d.same("COMMAND", "GETKEYS", "SORT", "k", "GET", "#", "GET", "o_*->f");
        }
        CommandSpec sort = oracle.commands().lookup("sort");
        CommandSpec ro = oracle.commands().lookup("sort_ro");
        assertThat(sort.keyPositions(argv("SORT k"))).containsExactly(1);
        assertThat(sort.keyPositions(argv("SORT k DESC ALPHA LIMIT 0 1"))).containsExactly(1);
        assertThat(sort.keyPositions(argv("SORT k STORE d"))).containsExactly(1, 3);
        assertThat(sort.keyPositions(argv("SORT k STORE d STORE e"))).containsExactly(1, 5);
        assertThat(sort.keyPositions(argv("SORT k BY nosort GET # STORE d"))).containsExactly(1, 7);
        assertThat(sort.keyPositions(argv("SORT k GET nostar"))).containsExactly(1);
        assertThat(sort.keyPositions(argv("SORT k BY nosort BY w_*"))).as("nosort is sticky").containsExactly(1);
        assertThat(sort.keyFinder().readsUnnamedKeys(argv("SORT k BY nosort GET # STORE d"))).isFalse();
        assertThat(sort.keyFinder().readsUnnamedKeys(argv("SORT k STORE d"))).isFalse();
        assertThat(sort.keyPositions(argv("SORT k BY w_*"))).as("GETKEYS names the sorted key").containsExactly(1);
        assertThat(sort.keyFinder().readsUnnamedKeys(argv("SORT k BY w_*"))).isTrue();
        assertThat(sort.keyPositions(argv("SORT k GET # GET o_*->f STORE d"))).containsExactly(1, 7);
        assertThat(sort.keyFinder().readsUnnamedKeys(argv("SORT k GET # GET o_*->f STORE d"))).isTrue();
        assertThat(sort.keyPositions(argv("SORT k LIMIT x 1 BY w_*"))).as("malformed: the handler fails")
                .containsExactly(1);
        assertThat(ro.keyPositions(argv("SORT_RO k"))).containsExactly(1);
        assertThat(ro.keyPositions(argv("SORT_RO k STORE d"))).containsExactly(1);
        assertThat(ro.keyPositions(argv("SORT_RO k BY w_*"))).containsExactly(1);
        assertThat(ro.keyFinder().readsUnnamedKeys(argv("SORT_RO k BY w_*"))).isTrue();
        assertThat(sort.flags()).containsOnly(CommandFlag.WRITE, CommandFlag.DENYOOM, CommandFlag.MOVABLEKEYS);
        assertThat(ro.flags()).containsOnly(CommandFlag.READONLY, CommandFlag.MOVABLEKEYS);
    }

    private static byte[][] argv(String line) {
        String[] parts = line.split(" ");
        byte[][] out = new byte[parts.length][];
        for (int i = 0; i < parts.length; i++) {
            out[i] = parts[i].getBytes(StandardCharsets.UTF_8);
        }
        return out;
    }

    @Test
    void lettuceClient() {
        RedisCommands<String, String> r = oracle.kevy().lettuce();
        r.rpush("l", "3", "1", "2");
        r.set("w_1", "30");
        r.set("w_2", "20");
        r.set("w_3", "10");
        r.hset("h_1", "f", "one");
        assertThat(r.sort("l")).containsExactly("1", "2", "3");
        assertThat(r.sort("l", SortArgs.Builder.desc().limit(0, 2))).containsExactly("3", "2");
        assertThat(r.sort("l", SortArgs.Builder.by("w_*").get("#").get("h_*->f"))).containsExactly("3", null, "2",
                null, "1", "one");
        assertThat(r.sortStore("l", SortArgs.Builder.alpha().desc(), "dst")).isEqualTo(3);
        assertThat(r.lrange("dst", 0, -1)).containsExactly("3", "2", "1");
        assertThat(r.sortReadOnly("l", SortArgs.Builder.by("nosort"))).containsExactly("3", "1", "2");
        r.rpush("bad", "x");
        assertThatThrownBy(() -> r.sort("bad")).isInstanceOf(RedisCommandExecutionException.class)
                .hasMessage("ERR One or more scores can't be converted into double");
        r.set("str", "x");
        assertThatThrownBy(() -> r.sort("str")).isInstanceOf(RedisCommandExecutionException.class)
                .hasMessageStartingWith("WRONGTYPE");
    }
    /**
     * Seeded random SORT ... STORE runs (lists, sets and sorted sets, BY and GET patterns, keys on 3 shards):
     * every reply equals Redis's, and replaying the frames onto an empty server rebuilds the same state (the
     * completeness invariant of feed contract §7).
     */
    @Test
    void randomStoresMatchRedisAndReplay() {
        long seed = Long.getLong("seed", System.nanoTime());
        System.out.println("SortCommandsIT.randomStoresMatchRedisAndReplay seed=" + seed);
        java.util.Random rnd = new java.util.Random(seed);
        String[] sources = {"l", "s", "z", "nokey", "w_1"};
        String[] dsts = {"d0", "d1", "{t}d2", "l", "w_2"};
        try (TestServer source = TestServer.start(io.kevy.server.config.ServerOptions.SHARDS, 3);
             TestServer mirror = TestServer.start(io.kevy.server.config.ServerOptions.SHARDS, 2);
             RawClient src = source.raw(); RawClient r = oracle.redis().raw()) {
            r.call("FLUSHALL");
            FrameRecorder recorder = FrameRecorder.attach(source.server().engine());
            for (int i = 0; i < 1500; i++) {
                List<String> cmd = new ArrayList<>();
                String m = Integer.toString(rnd.nextInt(12));
                switch (rnd.nextInt(8)) {
                    case 0 -> cmd.addAll(List.of("RPUSH", "l", m));
                    case 1 -> cmd.addAll(List.of("SADD", "s", m));
                    case 2 -> cmd.addAll(List.of("ZADD", "z", Integer.toString(rnd.nextInt(5)), m));
                    case 3 -> cmd.addAll(List.of("SET", "w_" + m, Integer.toString(rnd.nextInt(100))));
                    case 4 -> cmd.addAll(List.of("HSET", "h_" + m, "f", "v" + rnd.nextInt(3)));
                    default -> {
                        cmd.addAll(List.of("SORT", sources[rnd.nextInt(sources.length)]));
                        if (rnd.nextBoolean()) {
                            cmd.addAll(List.of("BY", rnd.nextInt(3) == 0 ? "nosort" : "w_*"));
                        }
                        if (rnd.nextInt(3) == 0) {
                            cmd.addAll(List.of("LIMIT", Integer.toString(rnd.nextInt(6) - 1),
                                    Integer.toString(rnd.nextInt(8) - 2)));
                        }
                        for (int g = rnd.nextInt(3); g > 0; g--) {
                            cmd.addAll(List.of("GET", List.of("#", "w_*", "h_*->f").get(rnd.nextInt(3))));
                        }
                        if (rnd.nextBoolean()) {
                            cmd.add("DESC");
                        }
                        cmd.addAll(List.of("STORE", dsts[rnd.nextInt(dsts.length)]));
                    }
                }
                String[] args = cmd.toArray(new String[0]);
                assertThat(src.call(args)).as("seed %d step %d: %s", seed, i, String.join(" ", args))
                        .isEqualTo(r.call(args));
            }
            for (String d : dsts) {
                assertThat(src.call("LRANGE", d, "0", "-1")).isEqualTo(r.call("LRANGE", d, "0", "-1"));
            }
            recorder.assertReplayRebuilds(mirror, seed);
        }
    }
}
