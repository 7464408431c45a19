package io.kevy.engine.command;

import static io.kevy.testing.StateDump.keyOnShard;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.kevy.engine.Engine;
import io.kevy.engine.Shard;
import io.kevy.engine.text.Bytes;
import io.kevy.testing.FrameRecorder;
import io.kevy.testing.OracleFixture;
import io.kevy.testing.RawClient;
import io.kevy.testing.Replies;
import io.kevy.testing.StateDump;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ValueScanCursor;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Set commands against a real Redis 7.0 (reply bytes and error texts; unordered comparisons where Redis's
 * hashtable order is not reproducible), through lettuce, and their effect frames (feed contract §7) on a
 * 2-shard server. Random replies (SPOP, SRANDMEMBER) are checked by their properties.
 */
class SetCommandsIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create().recordFrames();

    private static String same(String line) {
        return oracle.sameLine(line);
    }

    /** Runs a command whose reply is a set (order not reproducible) and compares the members, sorted. */
    private static List<String> sameMembers(String line) {
        String[] args = line.split(" ");
        List<String> expected = sorted(Replies.array(oracle.diff().redis().call(args)));
        List<String> actual = sorted(Replies.array(oracle.diff().kevy().call(args)));
        assertThat(actual).as("members of %s", line).isEqualTo(expected);
        return actual;
    }

    /** OBJECT ENCODING of {@code key} on kevy (read in-process) equals Redis's. */
    private static void sameEncoding(String key) {
        String expected = oracle.diff().redis().call("OBJECT", "ENCODING", key);
        String actual = StateDump.encoding(oracle.engine(), key);
        assertThat(actual == null ? "$-1\r\n" : "$" + actual.length() + "\r\n" + actual + "\r\n")
                .as("encoding of %s", key).isEqualTo(expected);
    }

    private static void both(String... args) {
        oracle.same(args);
    }

    @Test
    void basicsMatchRedis() {
        same("SADD s 3 1 2");
        same("SADD s 2 3 4 4");
        same("SMEMBERS s");
        sameEncoding("s");
        same("SCARD s");
        same("SISMEMBER s 1");
        same("SISMEMBER s 9");
        same("SISMEMBER s 01");
        same("SMISMEMBER s 1 9 4 01");
        same("SMISMEMBER nokey a b");
        same("SISMEMBER nokey a");
        same("SCARD nokey");
        same("SMEMBERS nokey");
        same("SREM s 1 9 1");
        same("SMEMBERS s");
        same("SADD s -5 9223372036854775807 -9223372036854775808 0");
        same("SMEMBERS s");
        sameEncoding("s");
        same("SADD s 01");
        sameEncoding("s");
        sameMembers("SMEMBERS s");
        same("SREM s 01");
        sameEncoding("s");
        same("SREM s 2 3 4 -5 9223372036854775807 -9223372036854775808 0");
        same("EXISTS s");
        same("SREM nokey a");
        same("SADD h a b c");
        sameEncoding("h");
        sameMembers("SMEMBERS h");
        same("SADD");
        same("SADD h");
        same("SREM h");
        same("SMEMBERS");
        same("SMEMBERS a b");
        same("SISMEMBER h");
        same("SMISMEMBER h");
        same("SCARD h b");
    }

    @Test
    void intsetEncodingThresholdMatchesRedis() {
        List<String> cmd = new ArrayList<>(List.of("SADD", "big"));
        for (int i = 0; i < 512; i++) {
            cmd.add(Integer.toString(i * 7 - 1000));
        }
        oracle.same(cmd.toArray(new String[0]));
        sameEncoding("big");
        same("SMEMBERS big");
        same("SADD big 100000");
        sameEncoding("big");
        same("SREM big 100000");
        sameEncoding("big");
    }

    @Test
    void spopAndSrandmemberEdgesMatchRedis() {
        same("SADD s 5 1 3");
        same("SPOP s 0");
        same("SPOP s -1");
        same("SPOP s x");
        same("SPOP s -9223372036854775808");
        same("SPOP s 1 2");
        same("SPOP nokey");
        same("SPOP nokey 3");
        same("SPOP nokey 0");
        same("SRANDMEMBER s 0");
        same("SRANDMEMBER s x");
        same("SRANDMEMBER s 1 2");
        same("SRANDMEMBER s -9223372036854775808");
        same("SRANDMEMBER s 9223372036854775808");
        same("SRANDMEMBER nokey");
        same("SRANDMEMBER nokey 5");
        same("SRANDMEMBER nokey -5");
        same("SRANDMEMBER nokey -9223372036854775808");
        // count >= size: the whole set in iteration order (ascending for an intset)
        same("SRANDMEMBER s 3");
        same("SRANDMEMBER s 100");
        same("SPOP s 3");
        same("EXISTS s");
        same("SADD s 5 1 3");
        same("SPOP s 9223372036854775807");
        same("SADD s 7");
        same("SPOP s");
        same("SPOP");
        same("SRANDMEMBER");
    }

    /**
     * Counts beyond any reply (issue 28), as Redis 7.0: the range error; a positive count answers the whole set;
     * an absent or wrongly typed key answers before any pick; a negative count whose reply goes over the output
     * limit closes the connection with nothing sent (Redis's CLIENT_CLOSE_ASAP, here under a 1 MB
     * client-output-buffer-limit: without one Redis writes until it runs out of memory, where kevy closes the
     * connection), while one that fits answers whole.
     */
    @Test
    void srandmemberCountsBeyondAnyReplyMatchRedis() {
        same("SADD s 5 1 3");
        same("SADD t a b c");
        same("SET str v");
        same("SRANDMEMBER s 9223372036854775807");
        sameMembers("SRANDMEMBER t 9223372036854775807"); // hashtable order differs
        same("SRANDMEMBER s 2147483648");
        same("SRANDMEMBER s -92233720368547758070");
        same("SRANDMEMBER s -9223372036854775807 x");
        same("SRANDMEMBER nokey -9223372036854775807");
        same("SRANDMEMBER str -9223372036854775807");
        same("SRANDMEMBER str -9223372036854775808");
        oracle.withNormalOutputLimit("1mb", () -> {
            oracle.sameCloseWithoutReply("SRANDMEMBER", "s", "-9223372036854775807");
            oracle.sameCloseWithoutReply("SRANDMEMBER", "t", "-9223372036854775807");
            oracle.sameCloseWithoutReply("SRANDMEMBER", "s", "-2147483648");
            oracle.sameCloseWithoutReply("SRANDMEMBER", "t", "-2147483647");
            oracle.sameCloseWithoutReply("SRANDMEMBER", "t", "-200000"); // 1.4 MB
            String kevy = oracle.diff().kevy().call("SRANDMEMBER", "s", "-100000"); // 700 kB
            String redis = oracle.diff().redis().call("SRANDMEMBER", "s", "-100000");
            assertThat(kevy).startsWith("*100000\r\n").hasSameSizeAs(redis);
        });
        oracle.kevyClosesWithoutReply("SRANDMEMBER", "s", "-9223372036854775807");
        oracle.kevyClosesWithoutReply("SRANDMEMBER", "t", "-2147483648");
        same("SCARD t");
    }

    @Test
    void srandmemberProperties() {
        RawClient raw = oracle.kevy().raw();
        List<String> add = new ArrayList<>(List.of("SADD", "s"));
        for (int i = 0; i < 100; i++) {
            add.add("m" + i);
        }
        raw.call(add.toArray(new String[0]));
        Set<String> all = new HashSet<>(add.subList(2, add.size()));
        oracle.frames().take();

        // negative count: exactly |count| members, repeats allowed, also beyond the size
        List<String> rep = Replies.array(raw.call("SRANDMEMBER", "s", "-500"));
        assertThat(rep).hasSize(500);
        assertThat(all).containsAll(rep);
        assertThat(new HashSet<>(rep).size()).isLessThan(500);
        assertThat(Replies.array(raw.call("SRANDMEMBER", "s", "-1"))).hasSize(1);
        // positive count below the size: distinct members (both sampling strategies)
        for (int n : new int[] {1, 5, 33, 34, 60, 99}) {
            List<String> uniq = Replies.array(raw.call("SRANDMEMBER", "s", Integer.toString(n)));
            assertThat(uniq).hasSize(n).doesNotHaveDuplicates();
            assertThat(all).containsAll(uniq);
        }
        assertThat(sorted(Replies.array(raw.call("SRANDMEMBER", "s", "100")))).isEqualTo(sorted(new ArrayList<>(all)));
        String one = Replies.bulk(raw.call("SRANDMEMBER", "s"));
        assertThat(all).contains(one);
        // every member shows up eventually
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 20 && seen.size() < 100; i++) {
            seen.addAll(Replies.array(raw.call("SRANDMEMBER", "s", "-200")));
        }
        assertThat(seen).isEqualTo(all);
        assertThat(raw.call("SCARD", "s")).isEqualTo(":100\r\n");
        assertThat(oracle.frames().take()).isEmpty();
    }

    @Test
    void spopPropertiesAndFrames() {
        RawClient raw = oracle.kevy().raw();
        List<String> add = new ArrayList<>(List.of("SADD", "s"));
        for (int i = 0; i < 100; i++) {
            add.add("m" + i);
        }
        raw.call(add.toArray(new String[0]));
        Set<String> left = new HashSet<>(add.subList(2, add.size()));
        oracle.frames().take();

        String one = Replies.bulk(raw.call("SPOP", "s"));
        assertThat(left.remove(one)).isTrue();
        assertThat(oracle.frames().take()).containsExactly("SREM s " + one);
        // few (pop one by one) and many (keep the rest) strategies
        for (int n : new int[] {3, 19, 60}) {
            List<String> popped = Replies.array(raw.call("SPOP", "s", Integer.toString(n)));
            assertThat(popped).hasSize(n).doesNotHaveDuplicates();
            assertThat(left).containsAll(popped);
            popped.forEach(left::remove);
            assertThat(oracle.frames().take()).containsExactly("SREM s " + String.join(" ", popped));
            assertThat(sorted(Replies.array(raw.call("SMEMBERS", "s")))).isEqualTo(sorted(new ArrayList<>(left)));
        }
        List<String> rest = Replies.array(raw.call("SPOP", "s", "50"));
        assertThat(sorted(rest)).isEqualTo(sorted(new ArrayList<>(left)));
        assertThat(oracle.frames().take()).containsExactly("SREM s " + String.join(" ", rest));
        assertThat(raw.call("EXISTS", "s")).isEqualTo(":0\r\n");
        raw.call("SPOP", "s");
        raw.call("SPOP", "s", "3");
        assertThat(oracle.frames().take()).isEmpty();
    }

    @Test
    void spopOfManyMembersIsSplitIntoSremFramesOf1024() {
        RawClient raw = oracle.kevy().raw();
        List<String> add = new ArrayList<>(List.of("SADD", "s"));
        for (int i = 0; i < 3000; i++) {
            add.add("m" + i);
        }
        raw.call(add.toArray(new String[0]));
        oracle.frames().take();
        List<String> popped = Replies.array(raw.call("SPOP", "s", "2500"));
        assertThat(popped).hasSize(2500).doesNotHaveDuplicates();
        List<String> fs = oracle.frames().take();
        assertThat(fs).hasSize(3);
        List<String> removed = new ArrayList<>();
        for (String f : fs) {
            String[] parts = f.split(" ");
            assertThat(parts[0] + " " + parts[1]).isEqualTo("SREM s");
            assertThat(parts.length - 2).isLessThanOrEqualTo(1024);
            removed.addAll(List.of(parts).subList(2, parts.length));
        }
        assertThat(removed).isEqualTo(popped);
        assertThat(raw.call("SCARD", "s")).isEqualTo(":500\r\n");
    }

    @Test
    void spopOfManyKeepsTheTtlAndRecomputesTheEncodingLikeRedis() {
        List<String> cmd = new ArrayList<>(List.of("SADD", "s", "a"));
        for (int i = 0; i < 20; i++) {
            cmd.add(Integer.toString(i));
        }
        oracle.same(cmd.toArray(new String[0]));
        same("SREM s a");
        sameEncoding("s");
        // 18 of 20: Redis rebuilds the set from the 2 members it keeps, as an intset
        assertThat(Replies.array(oracle.diff().redis().call("SPOP", "s", "18"))).hasSize(18);
        RawClient raw = oracle.kevy().raw();
        byte[] key = Bytes.utf8("s");
        long when = System.currentTimeMillis() + 100_000;
        Shard shard = oracle.engine().shardFor(key);
        shard.lock().lock();
        try {
            shard.keyspace().setExpiry(shard.keyspace().node(key, System.currentTimeMillis()), when);
        } finally {
            shard.lock().unlock();
        }
        assertThat(Replies.array(raw.call("SPOP", "s", "18"))).hasSize(18);
        sameEncoding("s");
        same("SCARD s");
        assertThat(StateDump.of(oracle.engine()).get("s")).endsWith(" PXAT " + when);
    }

    @Test
    void smoveMatchesRedis() {
        same("SADD a 1 2 3");
        same("SADD b x");
        same("SMOVE a b 1");
        same("SMOVE a b 9");
        same("SMOVE a a 2");
        same("SMOVE a a 9");
        same("SMOVE a c 2");
        same("SMOVE nokey b 2");
        same("SMOVE a b 3");
        same("EXISTS a");
        sameMembers("SMEMBERS b");
        same("SMEMBERS c");
        same("SET str x");
        same("SMOVE nokey str a");
        same("SMOVE str b a");
        same("SMOVE b str x");
        same("SADD d 5");
        same("SADD e 5");
        same("SMOVE d e 5");
        same("EXISTS d");
        same("SMEMBERS e");
        sameEncoding("c");
        same("SMOVE c e");
    }

    @Test
    void algebraOfIntegerSetsMatchesRedisInOrder() {
        same("SADD a 1 2 3 4 5 10");
        same("SADD b 4 5 6 7 10 -3");
        same("SADD c 5 10 11");
        same("SINTER a b");
        same("SINTER a b c");
        same("SINTER c b a");
        same("SUNION a b c");
        same("SUNION c nokey a");
        same("SDIFF a b");
        same("SDIFF b a c");
        same("SDIFF a nokey");
        same("SDIFF a a");
        same("SDIFF a b a");
        same("SDIFF nokey a");
        same("SINTER a nokey");
        same("SINTER a");
        same("SUNION nokey");
        same("SINTERSTORE d a b");
        same("SMEMBERS d");
        sameEncoding("d");
        same("SUNIONSTORE d a b c");
        same("SMEMBERS d");
        same("SDIFFSTORE d a b");
        same("SMEMBERS d");
        same("SINTERSTORE d a nokey");
        same("EXISTS d");
        same("SINTERSTORE d a nokey");
        same("SUNIONSTORE d a");
        same("SDIFFSTORE d a a");
        same("EXISTS d");
        same("SUNIONSTORE a a b");
        same("SMEMBERS a");
        same("SINTERSTORE b b c");
        same("SMEMBERS b");
        same("SET str x");
        same("SUNIONSTORE str c");
        same("SMEMBERS str");
        same("SINTER");
        same("SINTERSTORE d");
    }

    @Test
    void algebraOfStringSetsMatchesRedis() {
        same("SADD a x y z 1 2");
        same("SADD b y z w 2");
        same("SADD c z q 2 3");
        sameMembers("SINTER a b");
        sameMembers("SINTER a b c");
        sameMembers("SUNION a b c");
        sameMembers("SDIFF a b");
        sameMembers("SDIFF a b c");
        sameMembers("SDIFF c a");
        same("SINTERSTORE d a b c");
        sameMembers("SMEMBERS d");
        sameEncoding("d");
        same("SDIFFSTORE d a b");
        sameMembers("SMEMBERS d");
        sameEncoding("d");
        same("SUNIONSTORE d a b c");
        sameMembers("SMEMBERS d");
        sameEncoding("d");
        // a hashtable first set whose difference is all integers: Redis's algorithm choice decides the encoding
        List<String> big = new ArrayList<>(List.of("SADD", "e", "s1", "s2", "s3"));
        for (int i = 0; i < 40; i++) {
            big.add(Integer.toString(i));
        }
        oracle.same(big.toArray(new String[0]));
        same("SADD f s1 s2 s3");
        same("SDIFFSTORE g e f");
        sameEncoding("g");
        same("SADD h s1 s2 s3 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30");
        same("SDIFFSTORE g e f h");
        sameEncoding("g");
        same("SMEMBERS g");
        same("SDIFFSTORE g f e");
        same("EXISTS g");
    }

    @Test
    void sintercardMatchesRedis() {
        same("SADD a 1 2 3 4 x");
        same("SADD b 2 3 4 x y");
        same("SINTERCARD 2 a b");
        same("SINTERCARD 2 a b LIMIT 0");
        same("SINTERCARD 2 a b LIMIT 2");
        same("SINTERCARD 2 a b limit 10");
        same("SINTERCARD 2 a b LIMIT 1 LIMIT 3");
        same("SINTERCARD 1 a");
        same("SINTERCARD 2 a nokey");
        same("SINTERCARD 0 a");
        same("SINTERCARD -1 a");
        same("SINTERCARD x a");
        same("SINTERCARD 3 a b");
        same("SINTERCARD 9223372036854775807 a");
        same("SINTERCARD 2 a b LIMIT -1");
        same("SINTERCARD 2 a b LIMIT x");
        same("SINTERCARD 2 a b LIMIT");
        same("SINTERCARD 2 a b FOO 1");
        same("SET str x");
        same("SINTERCARD 2 a str");
        same("SINTERCARD 2 nokey str");
        same("SINTERCARD 1");
    }

    @Test
    void wrongTypeEverywhere() {
        same("SET str x");
        same("SADD s 1");
        for (String cmd : List.of("SADD str a", "SREM str a", "SMEMBERS str", "SISMEMBER str a",
                "SMISMEMBER str a", "SCARD str", "SPOP str", "SPOP str 2", "SPOP str 0", "SRANDMEMBER str",
                "SRANDMEMBER str -2", "SRANDMEMBER str 0", "SMOVE str s a", "SMOVE s str 1", "SINTER s str",
                "SINTER nokey str", "SUNION str s", "SDIFF s str", "SDIFF nokey str", "SINTERSTORE d s str",
                "SUNIONSTORE d s str", "SDIFFSTORE d nokey str", "SINTERCARD 2 s str", "SSCAN str 0",
                "SSCAN str 0 FOO")) {
            same(cmd);
        }
        same("EXISTS d");
        same("SMEMBERS s");
        assertThat(oracle.frames().take()).containsExactly("SET str x", "SADD s 1");
    }

    @Test
    void sscanMatchesRedis() {
        same("SADD i 5 3 1 4 2");
        same("SSCAN i 0");
        same("SSCAN i 0 COUNT 1");
        same("SSCAN i 123 COUNT 1");
        same("SSCAN i 0 MATCH 1*");
        same("SSCAN i 0 MATCH * COUNT 100");
        same("SSCAN i 0 match [2-4] count 2");
        same("SSCAN i 0 COUNT 0");
        same("SSCAN i 0 COUNT -1");
        same("SSCAN i 0 COUNT x");
        same("SSCAN i 0 MATCH");
        same("SSCAN i 0 COUNT");
        same("SSCAN i 0 TYPE string");
        same("SSCAN i 0 FOO bar");
        same("SSCAN i x");
        same("SSCAN i -1");
        same("SSCAN i +0");
        same("SSCAN i 00");
        same("SSCAN i 18446744073709551616");
        same("SSCAN i 0x1");
        same("SSCAN i +");
        same("SSCAN i -");
        oracle.same("SSCAN", "i", "");
        oracle.same("SSCAN", "i", " 0");
        oracle.same("SSCAN", "i", "0 ");
        same("SSCAN nokey 0");
        same("SSCAN nokey 0 FOO");
        same("SSCAN nokey x");
        same("SSCAN i");
    }

    @Test
    void sscanOfAHashtableReturnsEveryMember() {
        RawClient raw = oracle.kevy().raw();
        List<String> add = new ArrayList<>(List.of("SADD", "h"));
        Set<String> all = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            add.add("member:" + i);
            all.add("member:" + i);
        }
        raw.call(add.toArray(new String[0]));
        for (String count : new String[] {"1", "10", "100", "5000"}) {
            Set<String> seen = new HashSet<>();
            String cursor = "0";
            int calls = 0;
            do {
                List<Object> reply = Replies.nested(raw.call("SSCAN", "h", cursor, "COUNT", count));
                cursor = (String) reply.get(0);
                @SuppressWarnings("unchecked")
                List<String> items = (List<String>) reply.get(1);
                seen.addAll(items);
                calls++;
            } while (!cursor.equals("0"));
            assertThat(seen).as("COUNT %s", count).isEqualTo(all);
            if (count.equals("5000")) {
                assertThat(calls).isEqualTo(1);
            }
        }
        Set<String> matched = new HashSet<>();
        String cursor = "0";
        do {
            List<Object> reply = Replies.nested(raw.call("SSCAN", "h", cursor, "MATCH", "member:1?"));
            cursor = (String) reply.get(0);
            @SuppressWarnings("unchecked")
            List<String> items = (List<String>) reply.get(1);
            matched.addAll(items);
        } while (!cursor.equals("0"));
        assertThat(matched).hasSize(10).allMatch(m -> m.matches("member:1\\d"));
    }

    @Test
    void framesOfEachWrite() {
        RawClient raw = oracle.kevy().raw();
        raw.call("SADD", "s", "a", "b", "a");
        raw.call("SADD", "s", "a", "c");
        raw.call("SADD", "s", "a");
        raw.call("SREM", "s", "a", "zz", "a");
        raw.call("SREM", "s", "zz");
        raw.call("SREM", "nokey", "a");
        assertThat(oracle.frames().take()).containsExactly("SADD s a b", "SADD s c", "SREM s a");
        raw.call("SMOVE", "s", "t", "b");
        raw.call("SMOVE", "s", "t", "zz");
        raw.call("SMOVE", "s", "s", "c");
        raw.call("SADD", "u", "c");
        oracle.frames().take();
        raw.call("SMOVE", "s", "u", "c");
        assertThat(oracle.frames().take()).containsExactly("SREM s c");
        assertThat(raw.call("EXISTS", "s")).isEqualTo(":0\r\n");
        raw.call("SET", "str", "x");
        raw.call("SADD", "str", "a");
        raw.call("SPOP", "str");
        raw.call("SMOVE", "t", "str", "b");
        raw.call("SINTERSTORE", "d", "t", "str");
        assertThat(oracle.frames().take()).containsExactly("SET str x");
    }

    @Test
    void storeFramesAreDelThenChunkedSadd() {
        Engine e = oracle.engine();
        String a = keyOnShard(e, "a", 0);
        String b = keyOnShard(e, "b", 1);
        String dst = keyOnShard(e, "d", 1);
        RawClient raw = oracle.kevy().raw();
        List<String> add = new ArrayList<>(List.of("SADD", a));
        for (int i = 0; i < 2500; i++) {
            add.add("m" + i);
        }
        raw.call(add.toArray(new String[0]));
        raw.call("SADD", b, "m1", "m2", "x");
        oracle.frames().take();

        assertThat(raw.call("SUNIONSTORE", dst, a, b)).isEqualTo(":2501\r\n");
        List<FrameRecorder.Frame> fs = oracle.frames().takeFrames();
        assertThat(fs).allMatch(f -> f.shard() == 1);
        assertThat(fs.get(0).text()).isEqualTo("DEL " + dst);
        assertThat(fs).hasSize(4);
        Set<String> stored = new HashSet<>();
        for (FrameRecorder.Frame f : fs.subList(1, 4)) {
            assertThat(new String(f.argv()[0], StandardCharsets.US_ASCII)).isEqualTo("SADD");
            assertThat(new String(f.argv()[1], StandardCharsets.US_ASCII)).isEqualTo(dst);
            assertThat(f.argv().length - 2).isBetween(1, 1024);
            for (int i = 2; i < f.argv().length; i++) {
                stored.add(new String(f.argv()[i], StandardCharsets.US_ASCII));
            }
        }
        assertThat(stored).hasSize(2501).contains("x", "m0", "m2499");

        assertThat(raw.call("SINTERSTORE", dst, a, b)).isEqualTo(":2\r\n");
        List<String> texts = oracle.frames().take();
        assertThat(texts).hasSize(2);
        assertThat(texts.get(0)).isEqualTo("DEL " + dst);
        assertThat(texts.get(1)).isIn("SADD " + dst + " m1 m2", "SADD " + dst + " m2 m1");

        // empty result: DEL only when dst existed
        assertThat(raw.call("SDIFFSTORE", dst, b, a, b)).isEqualTo(":0\r\n");
        assertThat(oracle.frames().take()).containsExactly("DEL " + dst);
        assertThat(raw.call("SDIFFSTORE", dst, b, a, b)).isEqualTo(":0\r\n");
        assertThat(oracle.frames().take()).isEmpty();

        // integer results rebuild in ascending order
        raw.call("SADD", b, "3", "1", "2");
        raw.call("SREM", b, "m1", "m2", "x");
        oracle.frames().take();
        assertThat(raw.call("SUNIONSTORE", dst, b)).isEqualTo(":3\r\n");
        assertThat(oracle.frames().take()).containsExactly("DEL " + dst, "SADD " + dst + " 1 2 3");
    }

    @Test
    void smoveAcrossShards() {
        Engine e = oracle.engine();
        String src = keyOnShard(e, "src", 1);
        String dst = keyOnShard(e, "dst", 0);
        RawClient raw = oracle.kevy().raw();
        raw.call("SADD", src, "m", "n");
        raw.call("SADD", dst, "n");
        oracle.frames().take();
        assertThat(raw.call("SMOVE", src, dst, "m")).isEqualTo(":1\r\n");
        List<FrameRecorder.Frame> fs = oracle.frames().takeFrames();
        assertThat(fs).extracting(FrameRecorder.Frame::text).containsExactly("SREM " + src + " m", "SADD " + dst + " m");
        assertThat(fs).extracting(FrameRecorder.Frame::shard).containsExactly(1, 0);
        // already a member of dst: only the removal is an effect
        assertThat(raw.call("SMOVE", src, dst, "n")).isEqualTo(":1\r\n");
        assertThat(oracle.frames().take()).containsExactly("SREM " + src + " n");
        assertThat(raw.call("EXISTS", src)).isEqualTo(":0\r\n");
    }

    @Test
    void lettuceClient() {
        RedisCommands<String, String> r = oracle.kevy().lettuce();
        assertThat(r.sadd("s", "a", "b", "c")).isEqualTo(3);
        assertThat(r.smembers("s")).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(r.sismember("s", "a")).isTrue();
        assertThat(r.smismember("s", "a", "z")).containsExactly(true, false);
        assertThat(r.scard("s")).isEqualTo(3);
        assertThat(r.smove("s", "t", "a")).isTrue();
        assertThat(r.sadd("u", "b", "x")).isEqualTo(2);
        assertThat(r.sinter("s", "u")).containsExactly("b");
        assertThat(r.sunion("s", "u")).containsExactlyInAnyOrder("b", "c", "x");
        assertThat(r.sdiff("s", "u")).containsExactly("c");
        assertThat(r.sintercard("s", "u")).isEqualTo(1);
        assertThat(r.sunionstore("d", "s", "u")).isEqualTo(3);
        ValueScanCursor<String> scan = r.sscan("d", ScanCursor.INITIAL, ScanArgs.Builder.limit(100));
        assertThat(scan.getValues()).containsExactlyInAnyOrder("b", "c", "x");
        assertThat(scan.isFinished()).isTrue();
        assertThat(r.srandmember("d", -5)).hasSize(5);
        assertThat(r.spop("d", 3)).containsExactlyInAnyOrder("b", "c", "x");
        assertThat(r.exists("d")).isZero();
        assertThat(r.srem("u", "x", "y")).isEqualTo(1);
        r.set("str", "x");
        assertThatThrownBy(() -> r.sadd("str", "a")).isInstanceOf(RedisCommandExecutionException.class)
                .hasMessageStartingWith("WRONGTYPE");
    }

    private static List<String> sorted(List<String> l) {
        List<String> out = new ArrayList<>(l);
        out.sort(null);
        return out;
    }
}
