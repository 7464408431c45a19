package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.OracleFixture;
import io.kevy.testing.ReplyDiff;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The element commands of sorted sets (ZADD, ZINCRBY, ZREM, ZSCORE, ZMSCORE, ZCARD, ZRANK, ZREVRANK) and score
 * printing, reply for reply against a real Redis 7.0 ({@link ReplyDiff}); ZRANK's WITHSCORE (Redis 7.2) is
 * asserted against 7.2's documented replies.
 */
class ZSetCommandsIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create();

    static void same(String... args) {
        oracle.same(args);
    }

    @Test
    void zaddFlagsAndTheirErrors() {
        same("ZADD", "z", "1", "a", "2", "b");
        same("ZADD", "z", "NX", "5", "a", "3", "c");
        same("ZADD", "z", "XX", "5", "a", "4", "d");
        same("ZADD", "z", "XX", "CH", "5", "a", "6", "b");
        same("ZADD", "z", "CH", "7", "a", "1", "e", "6", "b");
        same("ZADD", "z", "GT", "CH", "1", "a", "8", "b", "9", "new");
        same("ZADD", "z", "LT", "CH", "100", "a", "0", "b");
        same("ZADD", "z", "gt", "xx", "ch", "100", "a", "100", "missing");
        same("ZADD", "z", "1", "same", "2", "same");
        same("ZRANGE", "z", "0", "-1", "WITHSCORES");
        same("ZADD", "z", "NX", "XX", "1", "a");
        same("ZADD", "z", "GT", "LT", "1", "a");
        same("ZADD", "z", "GT", "NX", "1", "a");
        same("ZADD", "z", "LT", "NX", "1", "a");
        same("ZADD", "z", "INCR", "1", "a", "2", "b");
        same("ZADD", "z", "1", "a", "2");
        same("ZADD", "z", "NX", "1");
        same("ZADD", "z", "NX", "XX");
        same("ZADD", "z", "x", "a");
        same("ZADD", "z", "1", "a", "nan", "b");
        same("ZADD", "z", "1", "a", "NaN", "b");
        same("ZADD", "z", " 1", "a");
        same("ZADD", "z", "1e400", "a");
        same("ZADD", "z", "", "a");
        same("ZADD", "z", "0x10", "hex");
        same("ZADD", "z");
        same("ZADD", "z", "1");
        same("ZADD", "missing", "XX", "1", "a");
        same("EXISTS", "missing");
        same("ZADD", "missing", "XX", "INCR", "1", "a");
        same("ZCARD", "z");
        same("SET", "str", "v");
        same("ZADD", "str", "1", "a");
        same("ZADD", "str", "x", "a");
    }

    @Test
    void incrementsAndNanResults() {
        same("ZINCRBY", "z", "1.5", "a");
        same("ZINCRBY", "z", "1.5", "a");
        same("ZINCRBY", "z", "-3", "a");
        same("ZINCRBY", "z", "inf", "b");
        same("ZINCRBY", "z", "-inf", "b");
        same("ZSCORE", "z", "b");
        same("ZINCRBY", "z", "x", "a");
        same("ZINCRBY", "z", "nx", "a");
        same("ZINCRBY", "z", "incr", "a");
        same("ZADD", "z", "INCR", "10", "a");
        same("ZADD", "z", "INCR", "NX", "10", "a");
        same("ZADD", "z", "INCR", "XX", "10", "nope");
        same("ZADD", "z", "INCR", "GT", "-1", "a");
        same("ZADD", "z", "INCR", "LT", "-1", "a");
        same("ZADD", "z", "INCR", "GT", "0", "a");
        same("ZADD", "z", "INCR", "CH", "1", "c");
        same("ZADD", "z", "INCR", "0", "c");
        same("ZADD", "inf", "inf", "m");
        same("ZADD", "inf", "INCR", "-inf", "m");
        same("ZINCRBY", "inf", "-inf", "m");
        same("ZSCORE", "inf", "m");
        same("ZINCRBY", "inf", "inf", "m");
        same("ZRANGE", "z", "0", "-1", "WITHSCORES");
        same("SET", "str", "v");
        same("ZINCRBY", "str", "1", "a");
    }

    @Test
    void scoresPrintAsRedis70Does() {
        String[] scores = {"1.1", "0.1", "1e20", "1e17", "1e16", "123456789012345678", "-0.5", "1e-5", "1e-300",
            "3.0000000000000002e-300", "inf", "-inf", "+inf", "Infinity", "12345.678", "2.5e16", "0", "-0", "7",
            "-7", "4.9e-324", "1.7976931348623157e308", ".5", "5.", "1E3", "0x1p-3", "9007199254740993"};
        List<String> args = new ArrayList<>(List.of("ZADD", "z"));
        for (int i = 0; i < scores.length; i++) {
            args.add(scores[i]);
            args.add("m" + i);
        }
        same(args.toArray(new String[0]));
        same("ZRANGE", "z", "0", "-1", "WITHSCORES");
        for (int i = 0; i < scores.length; i++) {
            same("ZSCORE", "z", "m" + i);
        }
        same("ZSCAN", "z", "0");
        // the skiplist encoding keeps -0, the listpack encoding prints 0
        same("ZADD", "big", "1", "x".repeat(65));
        same("ZADD", "big", "-0", "negzero");
        same("ZSCORE", "big", "negzero");
        same("ZRANGE", "big", "0", "-1", "WITHSCORES");
        same("ZINCRBY", "big", "-0", "negzero");
        same("ZINCRBY", "z", "-0", "m16");
    }

    @Test
    void negativeZeroSurvivesOnlyWhereRedisKeepsASkiplist() {
        List<String> args = new ArrayList<>(List.of("ZADD", "src", "-0", "nz"));
        for (int i = 1; i <= 200; i++) {
            args.add(Integer.toString(i));
            args.add("m" + i);
        }
        same(args.toArray(new String[0]));
        same("ZSCORE", "src", "nz");
        same("ZRANGESTORE", "d1", "src", "0", "-1");
        same("ZSCORE", "d1", "nz");
        same("ZRANGESTORE", "d2", "src", "-inf", "inf", "BYSCORE");
        same("ZSCORE", "d2", "nz");
        same("ZUNIONSTORE", "d3", "1", "src");
        same("ZSCORE", "d3", "nz");
        same("ZRANGESTORE", "d4", "src", "0", "100");
        same("ZSCORE", "d4", "nz");
        same("ZUNIONSTORE", "d5", "1", "d4");
        same("ZSCORE", "d5", "nz");
        same("ZADD", "nk2", "-0", "nz", "1", "x".repeat(70));
        same("ZSCORE", "nk2", "nz");
        same("ZADD", "nk3", "-0", "x".repeat(70), "1", "nz");
        same("ZSCORE", "nk3", "x".repeat(70));
        same("ZUNION", "1", "src", "WEIGHTS", "-1", "WITHSCORES");
        same("ZINTER", "1", "d4", "WEIGHTS", "-1", "WITHSCORES");
    }

    @Test
    void removeAndLookups() {
        same("ZADD", "z", "1", "a", "2", "b", "3", "c");
        same("ZREM", "z", "a", "a", "nope");
        same("ZREM", "z", "nope");
        same("ZREM", "missing", "a");
        same("ZSCORE", "z", "b");
        same("ZSCORE", "z", "a");
        same("ZSCORE", "missing", "a");
        same("ZMSCORE", "z", "a", "b", "c");
        same("ZMSCORE", "missing", "a", "b");
        same("ZMSCORE", "z");
        same("ZCARD", "z");
        same("ZCARD", "missing");
        same("ZREM", "z", "b", "c", "x");
        same("EXISTS", "z");
        same("ZCARD", "z", "extra");
        same("SET", "str", "v");
        same("ZREM", "str", "a");
        same("ZSCORE", "str", "a");
        same("ZMSCORE", "str", "a");
        same("ZCARD", "str");
    }

    @Test
    void ranks() {
        same("ZADD", "z", "1", "a", "2", "b", "2", "c", "3", "d");
        for (String m : new String[] {"a", "b", "c", "d", "x"}) {
            same("ZRANK", "z", m);
            same("ZREVRANK", "z", m);
        }
        same("ZRANK", "missing", "a");
        same("SET", "str", "v");
        same("ZRANK", "str", "a");
        same("ZREVRANK", "str", "a");
        // WITHSCORE is Redis 7.2: kevy answers as 7.2 does (the score a double, a null array; RESP3 ",2" and "_")
        boolean resp3 = oracle.protocol() == 3;
        assertThat(oracle.diff().kevy().call("ZRANK", "z", "c", "WITHSCORE"))
                .isEqualTo(resp3 ? "*2\r\n:2\r\n,2\r\n" : "*2\r\n:2\r\n$1\r\n2\r\n");
        assertThat(oracle.diff().kevy().call("ZREVRANK", "z", "a", "withscore"))
                .isEqualTo(resp3 ? "*2\r\n:3\r\n,1\r\n" : "*2\r\n:3\r\n$1\r\n1\r\n");
        assertThat(oracle.diff().kevy().call("ZRANK", "z", "x", "WITHSCORE")).isEqualTo(resp3 ? "_\r\n" : "*-1\r\n");
        assertThat(oracle.diff().kevy().call("ZRANK", "missing", "x", "WITHSCORE"))
                .isEqualTo(resp3 ? "_\r\n" : "*-1\r\n");
        assertThat(oracle.diff().kevy().call("ZRANK", "z", "a", "WITHSCORES")).isEqualTo("-ERR syntax error\r\n");
        assertThat(oracle.diff().kevy().call("ZRANK", "z", "a", "WITHSCORE", "x"))
                .isEqualTo("-ERR wrong number of arguments for 'zrank' command\r\n");
        assertThat(oracle.diff().kevy().call("ZRANK", "str", "a", "WITHSCORE")).startsWith("-WRONGTYPE");
    }

    @Test
    void largeSetsSwitchToSkiplistAndAnswerTheSame() {
        List<String> args = new ArrayList<>(List.of("ZADD", "z"));
        for (int i = 0; i < 300; i++) {
            args.add(Integer.toString(i % 37));
            args.add("m" + i);
        }
        same(args.toArray(new String[0]));
        same("ZRANGE", "z", "0", "-1", "WITHSCORES");
        same("ZRANGE", "z", "100", "120");
        same("ZRANGE", "z", "-5", "-1", "REV");
        same("ZRANK", "z", "m150");
        same("ZREVRANK", "z", "m150");
        same("ZRANGEBYSCORE", "z", "(3", "7", "LIMIT", "10", "5", "WITHSCORES");
        same("ZREVRANGEBYSCORE", "z", "7", "(3", "LIMIT", "10", "5");
        same("ZCOUNT", "z", "(3", "7");
        same("ZINCRBY", "z", "0.5", "m150");
        same("ZRANGE", "z", "0", "-1", "WITHSCORES");
        same("ZREMRANGEBYSCORE", "z", "10", "(20");
        same("ZREMRANGEBYRANK", "z", "5", "50");
        same("ZRANGE", "z", "0", "-1", "WITHSCORES");
        same("ZPOPMAX", "z", "3");
        same("ZPOPMIN", "z", "3");
        same("ZCARD", "z");
    }
}
