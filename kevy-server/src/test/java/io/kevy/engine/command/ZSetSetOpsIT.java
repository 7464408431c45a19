package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.OracleFixture;
import io.kevy.testing.Replies;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * ZPOPMIN, ZPOPMAX, ZMPOP, ZUNION/ZINTER/ZDIFF and their STORE forms, ZINTERCARD, ZSCAN and ZRANDMEMBER against a
 * real Redis 7.0. Keys are spread over both shards of the test server, so the STORE forms run across shards.
 * Random replies (ZRANDMEMBER, ZSCAN of a large set) are checked for shape and membership.
 */
class ZSetSetOpsIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create();

    @BeforeEach
    void seed() {
        oracle.same("ZADD", "z1", "1", "a", "2", "b", "3", "c");
        oracle.same("ZADD", "z2", "10", "b", "20", "c", "30", "d", "40", "e");
        oracle.same("ZADD", "z3", "inf", "c", "-inf", "d", "5", "e");
        oracle.same("SET", "str", "v");
    }

    static String same(String... args) {
        return oracle.same(args);
    }

    @Test
    void keysOfTheFixtureLiveOnBothShards() {
        Set<Integer> shards = new HashSet<>();
        for (String k : new String[] {"z1", "z2", "z3", "dst"}) {
            shards.add(oracle.engine().shardIndex(k.getBytes()));
        }
        assertThat(shards).hasSize(2);
    }

    @Test
    void pops() {
        same("ZPOPMIN", "z1");
        same("ZPOPMAX", "z2", "2");
        same("ZPOPMIN", "z2", "0");
        same("ZPOPMIN", "z2", "10");
        same("EXISTS", "z2");
        same("ZPOPMIN", "missing");
        same("ZPOPMIN", "missing", "3");
        same("ZPOPMIN", "z1", "-1");
        same("ZPOPMIN", "z1", "x");
        same("ZPOPMIN", "z1", "1", "2");
        same("ZPOPMIN", "str");
        same("ZPOPMIN", "str", "0");
        same("ZPOPMAX", "z3", "1");
        same("ZPOPMIN", "z3", "1");
        same("ZRANGE", "z3", "0", "-1", "WITHSCORES");
    }

    @Test
    void zmpop() {
        same("ZMPOP", "2", "missing", "z1", "MIN");
        same("ZMPOP", "2", "z2", "z1", "max", "COUNT", "2");
        same("ZMPOP", "1", "z1", "MIN", "COUNT", "10");
        same("ZMPOP", "1", "z1", "MIN");
        same("ZMPOP", "2", "missing", "z1", "MIN");
        same("ZMPOP", "0", "z1", "MIN");
        same("ZMPOP", "-1", "z1", "MIN");
        same("ZMPOP", "x", "z1", "MIN");
        same("ZMPOP", "3", "z1", "MIN");
        same("ZMPOP", "1", "z1", "MIDDLE");
        same("ZMPOP", "1", "z2", "MIN", "COUNT", "0");
        same("ZMPOP", "1", "z2", "MIN", "COUNT", "x");
        same("ZMPOP", "1", "z2", "MIN", "COUNT");
        same("ZMPOP", "1", "z2", "MIN", "COUNT", "1", "COUNT", "1");
        same("ZMPOP", "1", "z2", "MIN", "LIMIT", "1");
        same("ZMPOP", "2", "str", "z2", "MIN");
        same("ZMPOP", "2", "z2", "str", "MIN");
        same("ZMPOP", "1");
    }

    @Test
    void unionInterDiff() {
        String[][] forms = {
            {"2", "z1", "z2"}, {"3", "z1", "z2", "z3"}, {"2", "z1", "missing"}, {"1", "missing"},
            {"2", "z1", "z1"}, {"3", "z2", "z3", "z1", "WEIGHTS", "1", "2", "0.5"},
            {"2", "z2", "z3", "WEIGHTS", "0", "1"}, {"2", "z3", "z3", "WEIGHTS", "1", "-1"},
            {"2", "z1", "z2", "AGGREGATE", "MIN"}, {"2", "z1", "z2", "AGGREGATE", "max"},
            {"2", "z2", "z3", "AGGREGATE", "sum", "WEIGHTS", "2", "3"},
            {"2", "z2", "z3", "WEIGHTS", "1", "1", "WEIGHTS", "2", "2", "AGGREGATE", "MIN", "AGGREGATE", "MAX"},
        };
        for (String[] f : forms) {
            for (String cmd : new String[] {"ZUNION", "ZINTER"}) {
                same(concat(new String[] {cmd}, f));
                same(concat(concat(new String[] {cmd}, f), new String[] {"WITHSCORES"}));
                same(concat(new String[] {cmd + "STORE", "dst"}, f));
                same("ZRANGE", "dst", "0", "-1", "WITHSCORES");
            }
        }
        String[][] diffs = {{"2", "z1", "z2"}, {"2", "z2", "z1"}, {"3", "z2", "z1", "z3"}, {"2", "missing", "z1"},
            {"2", "z1", "missing"}, {"2", "z1", "z1"}, {"1", "z3"}};
        for (String[] f : diffs) {
            same(concat(new String[] {"ZDIFF"}, f));
            same(concat(concat(new String[] {"ZDIFF"}, f), new String[] {"WITHSCORES"}));
            same(concat(new String[] {"ZDIFFSTORE", "dst"}, f));
            same("ZRANGE", "dst", "0", "-1", "WITHSCORES");
        }
        same("ZINTERCARD", "2", "z1", "z2");
        same("ZINTERCARD", "2", "z1", "z2", "LIMIT", "1");
        same("ZINTERCARD", "2", "z1", "z2", "LIMIT", "0");
        same("ZINTERCARD", "2", "z1", "z2", "LIMIT", "100");
        same("ZINTERCARD", "2", "z1", "z2", "LIMIT", "-1");
        same("ZINTERCARD", "2", "z1", "z2", "LIMIT", "x");
        same("ZINTERCARD", "3", "z1", "z2", "z3");
        same("ZINTERCARD", "1", "missing");
        same("ZINTERCARD", "2", "z1", "z2", "WITHSCORES");
        same("ZINTERCARD", "2", "z1", "z2", "WEIGHTS", "1", "2");
        same("ZINTERCARD", "0", "z1");
    }

    /** Redis takes a plain set's members with score 1 (times its weight); intsets and hashtable sets alike. */
    @Test
    void plainSetsAreInputsWithScoreOne() {
        same("SADD", "s1", "a", "c", "x");
        same("SADD", "ints", "1", "2", "3", "30");
        same("ZADD", "zi", "7", "2", "8", "30");
        for (String cmd : new String[] {"ZUNION", "ZINTER", "ZDIFF"}) {
            same(cmd, "2", "s1", "z1", "WITHSCORES");
            same(cmd, "2", "z1", "s1", "WITHSCORES");
            same(cmd, "3", "s1", "z2", "nosuch", "WITHSCORES");
            same(cmd, "2", "ints", "zi", "WITHSCORES");
            same(cmd, "1", "s1", "WITHSCORES");
        }
        same("ZUNION", "2", "s1", "z1", "WEIGHTS", "2.5", "1", "AGGREGATE", "MAX", "WITHSCORES");
        same("ZINTER", "2", "s1", "z3", "WEIGHTS", "-1", "2", "AGGREGATE", "MIN", "WITHSCORES");
        same("ZINTERCARD", "2", "s1", "z1");
        same("ZINTERCARD", "2", "ints", "zi", "LIMIT", "1");
        for (String cmd : new String[] {"ZUNIONSTORE", "ZINTERSTORE", "ZDIFFSTORE"}) {
            same(cmd, "dst", "2", "s1", "z1");
            same("ZRANGE", "dst", "0", "-1", "WITHSCORES");
            same("OBJECT", "ENCODING", "dst");
            same(cmd, "dst", "1", "ints");
            same("ZRANGE", "dst", "0", "-1", "WITHSCORES");
        }
        same("ZUNIONSTORE", "dst", "1", "s1", "WEIGHTS", "inf");
        same("ZRANGE", "dst", "0", "-1", "WITHSCORES");
    }

    @Test
    void setOpErrors() {
        for (String cmd : new String[] {"ZUNION", "ZINTER", "ZDIFF", "ZINTERCARD"}) {
            same(cmd, "0", "z1");
            same(cmd, "-1", "z1");
            same(cmd, "x", "z1");
            same(cmd, "3", "z1", "z2");
            same(cmd, "2", "z1", "str");
            same(cmd, "2", "z1", "str", "BOGUS");
            same(cmd, "2", "z1", "z2", "BOGUS");
            same(cmd, "2", "z1", "z2", "WEIGHTS", "1");
            same(cmd, "2", "z1", "z2", "WEIGHTS", "1", "x");
            same(cmd, "2", "z1", "z2", "WEIGHTS", "1", "nan");
            same(cmd, "2", "z1", "z2", "AGGREGATE");
            same(cmd, "2", "z1", "z2", "AGGREGATE", "AVG");
            same(cmd, "2", "z1", "z2", "LIMIT", "1");
            same(cmd, "1");
        }
        for (String cmd : new String[] {"ZUNIONSTORE", "ZINTERSTORE", "ZDIFFSTORE"}) {
            same(cmd, "dst", "0", "z1");
            same(cmd, "dst", "x", "z1");
            same(cmd, "dst", "3", "z1", "z2");
            same(cmd, "dst", "2", "z1", "str");
            same(cmd, "dst", "2", "z1", "z2", "WITHSCORES");
            same(cmd, "dst", "2", "z1", "z2", "WEIGHTS", "1", "x");
            same(cmd, "dst", "1");
        }
    }

    @Test
    void storeReplacesAndDeletesTheDestination() {
        same("SET", "dst", "string");
        same("ZUNIONSTORE", "dst", "2", "z1", "z2");
        same("ZRANGE", "dst", "0", "-1", "WITHSCORES");
        same("ZINTERSTORE", "dst", "2", "z1", "missing");
        same("EXISTS", "dst");
        same("ZINTERSTORE", "dst", "2", "z1", "missing");
        same("ZUNIONSTORE", "z1", "2", "z1", "z2");
        same("ZRANGE", "z1", "0", "-1", "WITHSCORES");
        same("ZDIFFSTORE", "z2", "2", "z2", "z2");
        same("EXISTS", "z2");
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void scanOfSmallSetIsWholeAndOrdered() {
        same("ZSCAN", "z2", "0");
        same("ZSCAN", "z2", "0", "MATCH", "[bc]");
        same("ZSCAN", "z2", "0", "COUNT", "1");
        same("ZSCAN", "z2", "0", "MATCH", "*", "COUNT", "100");
        same("ZSCAN", "z2", "0", "COUNT", "0");
        same("ZSCAN", "z2", "0", "COUNT", "x");
        same("ZSCAN", "z2", "0", "COUNT");
        same("ZSCAN", "z2", "0", "TYPE", "zset");
        same("ZSCAN", "z2", "-1");
        same("ZSCAN", "z2", "x");
        same("ZSCAN", "z2", "18446744073709551615");
        same("ZSCAN", "z2", "18446744073709551616");
        same("ZSCAN", "missing", "0", "BOGUS");
        same("ZSCAN", "missing", "x");
        same("ZSCAN", "z2", "");
        same("ZSCAN", "z2", "+0");
        same("ZSCAN", "z2", " 0");
        same("ZSCAN", "z2", "-");
        same("ZSCAN", "z2", "-18446744073709551615");
        same("ZSCAN", "z2", "-18446744073709551616");
        same("ZSCAN", "z2", "007");
        same("ZSCAN", "str", "0");
    }

    private static final Pattern BULK = Pattern.compile("\\$\\d+\r\n([^\r]*)\r\n");

    private static List<String> flat(List<Object> reply) {
        List<String> out = new ArrayList<>();
        for (Object o : reply) {
            if (o instanceof List<?> l) {
                l.forEach(e -> out.add((String) e));
            } else {
                out.add((String) o);
            }
        }
        return out;
    }

    private static List<String> bulks(String reply) {
        List<String> out = new ArrayList<>();
        Matcher m = BULK.matcher(reply);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    @Test
    void scanOfLargeSetVisitsEveryMemberOnce() {
        List<String> args = new ArrayList<>(List.of("ZADD", "big"));
        for (int i = 0; i < 1000; i++) {
            args.add(Integer.toString(i));
            args.add("m" + i);
        }
        same(args.toArray(new String[0]));
        Set<String> seen = new HashSet<>();
        String cursor = "0";
        int calls = 0;
        do {
            List<String> parts = bulks(oracle.diff().kevy().call("ZSCAN", "big", cursor, "COUNT", "50"));
            cursor = parts.get(0);
            for (int i = 1; i < parts.size(); i += 2) {
                assertThat(parts.get(i + 1)).isEqualTo(parts.get(i).substring(1));
                seen.add(parts.get(i));
            }
            calls++;
        } while (!cursor.equals("0"));
        assertThat(seen).hasSize(1000);
        assertThat(calls).isGreaterThan(1);
        List<String> matched =
                bulks(oracle.diff().kevy().call("ZSCAN", "big", "0", "MATCH", "m99*", "COUNT", "100000"));
        assertThat(matched.get(0)).isEqualTo("0");
        assertThat(matched.subList(1, matched.size())).containsExactlyInAnyOrder("m99", "99", "m990", "990", "m991",
                "991", "m992", "992", "m993", "993", "m994", "994", "m995", "995", "m996", "996", "m997", "997",
                "m998", "998", "m999", "999");
    }

    @Test
    void randomMembers() {
        same("ZRANDMEMBER", "missing");
        same("ZRANDMEMBER", "missing", "5");
        same("ZRANDMEMBER", "missing", "-5", "WITHSCORES");
        same("ZRANDMEMBER", "z2", "0");
        same("ZRANDMEMBER", "z2", "4");
        same("ZRANDMEMBER", "z2", "10", "WITHSCORES");
        same("ZADD", "z2", "50", "x".repeat(70));
        same("ZRANDMEMBER", "z2", "5", "WITHSCORES");
        same("ZREM", "z2", "x".repeat(70));
        same("ZRANDMEMBER", "z2", "x");
        same("ZRANDMEMBER", "z2", "1", "WITHSCORE");
        same("ZRANDMEMBER", "z2", "1", "WITHSCORES", "x");
        same("ZRANDMEMBER", "z2", "-9223372036854775808");
        same("ZRANDMEMBER", "z2", "9223372036854775807", "WITHSCORES");
        same("ZRANDMEMBER", "z2", "-4611686018427387904", "WITHSCORES");
        same("ZRANDMEMBER", "str");
        same("ZRANDMEMBER", "str", "1");
        Set<String> members = Set.of("b", "c", "d", "e");
        assertThat(bulks(oracle.diff().kevy().call("ZRANDMEMBER", "z2"))).hasSize(1).allMatch(members::contains);
        List<String> withRepeats = bulks(oracle.diff().kevy().call("ZRANDMEMBER", "z2", "-20"));
        assertThat(withRepeats).hasSize(20).allMatch(members::contains);
        List<String> scored = flat(Replies.nested(oracle.diff().kevy().call("ZRANDMEMBER", "z2", "-6",
                "WITHSCORES"))); // RESP3's [member, score] pairs flattened as RESP2 has them
        assertThat(scored).hasSize(12);
        for (int i = 0; i < 12; i += 2) {
            assertThat(scored.get(i + 1)).isEqualTo(switch (scored.get(i)) {
                case "b" -> "10";
                case "c" -> "20";
                case "d" -> "30";
                default -> "40";
            });
        }
        List<String> distinct = bulks(oracle.diff().kevy().call("ZRANDMEMBER", "z2", "3"));
        assertThat(distinct).hasSize(3).doesNotHaveDuplicates().allMatch(members::contains);
    }

    /**
     * Counts beyond any reply (issue 28), as Redis 7.0: the range errors; a positive count answers the whole set;
     * an absent or wrongly typed key answers before any pick; a negative count whose reply goes over the output
     * limit closes the connection with nothing sent (Redis's CLIENT_CLOSE_ASAP, here under a 1 MB
     * client-output-buffer-limit: without one Redis writes until it runs out of memory, where kevy closes the
     * connection), while one that fits answers whole.
     */
    @Test
    void countsBeyondAnyReplyMatchRedis() {
        same("ZRANDMEMBER", "z2", "-9223372036854775808", "WITHSCORES");
        same("ZRANDMEMBER", "z2", "-9223372036854775807", "WITHSCORES");
        same("ZRANDMEMBER", "z2", "-4611686018427387904", "withscores");
        same("ZRANDMEMBER", "z2", "4611686018427387904", "WITHSCORES");
        same("ZRANDMEMBER", "z2", "9223372036854775807");
        same("ZRANDMEMBER", "z2", "4611686018427387903", "WITHSCORES");
        same("ZRANDMEMBER", "z2", "2147483648");
        same("ZRANDMEMBER", "z2", "-9223372036854775807", "x");
        same("ZRANDMEMBER", "z2", "-92233720368547758070");
        same("ZRANDMEMBER", "missing", "-9223372036854775807");
        same("ZRANDMEMBER", "missing", "-4611686018427387903", "WITHSCORES");
        same("ZRANDMEMBER", "str", "-9223372036854775807");
        same("ZRANDMEMBER", "str", "-4611686018427387903", "WITHSCORES");
        oracle.withNormalOutputLimit("1mb", () -> {
            oracle.sameCloseWithoutReply("ZRANDMEMBER", "z2", "-9223372036854775807");
            oracle.sameCloseWithoutReply("ZRANDMEMBER", "z2", "-4611686018427387903", "WITHSCORES");
            oracle.sameCloseWithoutReply("ZRANDMEMBER", "z2", "-2147483648");
            oracle.sameCloseWithoutReply("ZRANDMEMBER", "z2", "-2147483647");
            oracle.sameCloseWithoutReply("ZRANDMEMBER", "z2", "-200000"); // 1.4 MB
            oracle.sameCloseWithoutReply("ZRANDMEMBER", "z2", "-100000", "WITHSCORES"); // 1.5 MB on RESP2
            String kevy = oracle.diff().kevy().call("ZRANDMEMBER", "z2", "-100000"); // 700 kB
            String redis = oracle.diff().redis().call("ZRANDMEMBER", "z2", "-100000");
            assertThat(kevy).startsWith("*100000\r\n").hasSameSizeAs(redis);
        });
        oracle.kevyClosesWithoutReply("ZRANDMEMBER", "z2", "-9223372036854775807");
        oracle.kevyClosesWithoutReply("ZRANDMEMBER", "z2", "-4611686018427387903", "WITHSCORES");
        // a script's reply is built in memory, where Redis would run out of it: refused before any pick
        assertThat(oracle.diff().kevy().call("EVAL", "return redis.call('ZRANDMEMBER', KEYS[1], ARGV[1])", "1",
                "z2", "-9223372036854775807")).startsWith("-ERR reply too large to build in memory");
        same("ZCARD", "z2");
    }
}
