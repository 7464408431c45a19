package io.kevy.engine.command;

import io.kevy.testing.OracleFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * ZRANGE in every form, ZRANGESTORE, ZCOUNT, ZLEXCOUNT and ZREMRANGEBY*, reply for reply against a real Redis
 * 7.0: negative indexes, inf and exclusive bounds, LIMIT offsets and negative counts, WITHSCORES on empty, lex
 * ranges, and the errors of invalid combinations.
 */
class ZSetRangeCommandsIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create();

    @BeforeEach
    void seed() {
        oracle.same("ZADD", "z", "-inf", "ninf", "1", "a", "2", "b", "2", "c", "3.5", "d", "10", "e", "inf", "pinf");
        oracle.same("ZADD", "lex", "0", "a", "0", "b", "0", "c", "0", "d", "0", "e", "0", "f", "0", "g", "0", "aa", "0",
                "");
        oracle.same("SET", "str", "v");
    }

    static void same(String... args) {
        oracle.same(args);
    }

    @Test
    void byRank() {
        String[][] ranges = {{"0", "-1"}, {"0", "0"}, {"-1", "-1"}, {"2", "4"}, {"-3", "-2"}, {"5", "100"},
            {"100", "200"}, {"-100", "1"}, {"3", "1"}, {"-100", "-90"}, {"0", "-100"},
            {"-9223372036854775808", "9223372036854775807"}};
        for (String[] r : ranges) {
            same("ZRANGE", "z", r[0], r[1]);
            same("ZRANGE", "z", r[0], r[1], "WITHSCORES");
            same("ZRANGE", "z", r[0], r[1], "REV", "withscores");
            same("ZREVRANGE", "z", r[0], r[1]);
            same("ZREVRANGE", "z", r[0], r[1], "WITHSCORES");
        }
        same("ZRANGE", "missing", "0", "-1", "WITHSCORES");
        same("ZREVRANGE", "missing", "0", "-1");
        same("ZRANGE", "z", "a", "1");
        same("ZRANGE", "z", "0", "1.5");
        same("ZRANGE", "str", "0", "-1");
        same("ZRANGE", "z", "0", "-1", "LIMIT", "0", "1");
        same("ZRANGE", "z", "0", "-1", "LIMIT", "0", "-1");
        same("ZREVRANGE", "z", "0", "-1", "LIMIT", "0", "1");
        same("ZREVRANGE", "z", "0", "-1", "REV");
        same("ZRANGE", "z", "0", "-1", "WITHSCORES", "WITHSCORES", "REV", "REV");
        same("ZRANGE", "z", "0", "-1", "BOGUS");
        same("ZRANGE", "z", "0", "-1", "LIMIT", "0");
        same("ZRANGE", "z", "0");
    }

    @Test
    void byScore() {
        String[][] ranges = {{"-inf", "+inf"}, {"1", "2"}, {"(1", "2"}, {"1", "(2"}, {"(1", "(2"}, {"2", "2"},
            {"(2", "2"}, {"2", "(2"}, {"3", "1"}, {"-inf", "-inf"}, {"inf", "inf"}, {"(-inf", "(inf"},
            {"0x1", "0x10"}, {" 1", "2"}, {"", "2"}, {"(", "2"}, {"1e400", "inf"}, {"-1e400", "1"}, {"0", "1e-400"}};
        for (String[] r : ranges) {
            same("ZRANGEBYSCORE", "z", r[0], r[1]);
            same("ZRANGEBYSCORE", "z", r[0], r[1], "WITHSCORES");
            same("ZREVRANGEBYSCORE", "z", r[1], r[0], "WITHSCORES");
            same("ZRANGE", "z", r[0], r[1], "BYSCORE");
            same("ZRANGE", "z", r[1], r[0], "BYSCORE", "REV", "WITHSCORES");
            same("ZCOUNT", "z", r[0], r[1]);
        }
        String[][] limits = {{"0", "2"}, {"1", "2"}, {"2", "-1"}, {"0", "0"}, {"-1", "2"}, {"7", "1"}, {"8", "1"},
            {"100", "5"}, {"3", "100"}, {"0", "-5"}};
        for (String[] l : limits) {
            same("ZRANGEBYSCORE", "z", "-inf", "+inf", "LIMIT", l[0], l[1]);
            same("ZRANGEBYSCORE", "z", "(1", "10", "WITHSCORES", "LIMIT", l[0], l[1]);
            same("ZREVRANGEBYSCORE", "z", "10", "(1", "LIMIT", l[0], l[1], "WITHSCORES");
            same("ZRANGE", "z", "(1", "10", "BYSCORE", "LIMIT", l[0], l[1]);
        }
        same("ZRANGEBYSCORE", "z", "a", "1");
        same("ZRANGEBYSCORE", "z", "1", "nan");
        same("ZRANGEBYSCORE", "z", "(nan", "1");
        same("ZRANGEBYSCORE", "z", "1", "2 ");
        same("ZRANGEBYSCORE", "z", "[1", "2");
        same("ZRANGEBYSCORE", "z", "1", "2", "LIMIT", "a", "1");
        same("ZRANGEBYSCORE", "z", "1", "2", "LIMIT", "1");
        same("ZRANGEBYSCORE", "z", "1", "2", "REV");
        same("ZRANGEBYSCORE", "z", "1", "2", "BYSCORE");
        same("ZRANGEBYSCORE", "missing", "1", "2", "WITHSCORES");
        same("ZRANGEBYSCORE", "str", "1", "2");
        same("ZRANGEBYSCORE", "str", "x", "2");
        same("ZCOUNT", "missing", "1", "2");
        same("ZCOUNT", "z", "x", "2");
        same("ZCOUNT", "str", "1", "2");
        same("ZCOUNT", "str", "x", "2");
    }

    @Test
    void byLex() {
        String[][] ranges = {{"-", "+"}, {"[a", "[c"}, {"(a", "[c"}, {"[a", "(c"}, {"(a", "(c"}, {"[aa", "+"},
            {"-", "(b"}, {"[", "[a"}, {"(", "+"}, {"+", "-"}, {"-", "-"}, {"+", "+"}, {"[c", "[a"}, {"[b", "(b"},
            {"[z", "+"}};
        for (String[] r : ranges) {
            same("ZRANGEBYLEX", "lex", r[0], r[1]);
            same("ZREVRANGEBYLEX", "lex", r[1], r[0]);
            same("ZRANGE", "lex", r[0], r[1], "BYLEX");
            same("ZRANGE", "lex", r[1], r[0], "BYLEX", "REV");
            same("ZLEXCOUNT", "lex", r[0], r[1]);
            same("ZRANGEBYLEX", "lex", r[0], r[1], "LIMIT", "1", "2");
            same("ZREVRANGEBYLEX", "lex", r[1], r[0], "LIMIT", "1", "-1");
        }
        same("ZRANGEBYLEX", "lex", "-", "+", "LIMIT", "-1", "2");
        same("ZRANGEBYLEX", "lex", "-", "+", "LIMIT", "9", "2");
        same("ZRANGEBYLEX", "lex", "-", "+", "LIMIT", "8", "2");
        same("ZRANGEBYLEX", "lex", "a", "+");
        same("ZRANGEBYLEX", "lex", "-", "c");
        same("ZRANGEBYLEX", "lex", "++", "+");
        same("ZRANGEBYLEX", "lex", "", "+");
        same("ZRANGEBYLEX", "lex", "1", "+");
        same("ZRANGEBYLEX", "lex", "-", "+", "WITHSCORES");
        same("ZRANGE", "lex", "-", "+", "BYLEX", "WITHSCORES");
        same("ZRANGEBYLEX", "missing", "-", "+");
        same("ZRANGEBYLEX", "str", "-", "+");
        same("ZLEXCOUNT", "missing", "-", "+");
        same("ZLEXCOUNT", "lex", "a", "+");
        same("ZLEXCOUNT", "str", "-", "+");
    }

    @Test
    void lexRangesOverMixedScoresScanLikeRedisListpacks() {
        same("ZADD", "mixed", "1", "c", "2", "a", "3", "b", "4", "e", "5", "d");
        String[][] ranges = {{"[b", "[c"}, {"(a", "[b"}, {"-", "[b"}, {"[c", "+"}, {"(b", "(e"}, {"-", "+"}};
        for (String[] r : ranges) {
            same("ZLEXCOUNT", "mixed", r[0], r[1]);
            same("ZRANGEBYLEX", "mixed", r[0], r[1]);
            same("ZREVRANGEBYLEX", "mixed", r[1], r[0]);
            same("ZRANGEBYLEX", "mixed", r[0], r[1], "LIMIT", "1", "2");
        }
        same("ZREMRANGEBYLEX", "mixed", "[b", "[c");
        same("ZRANGE", "mixed", "0", "-1", "WITHSCORES");
    }

    @Test
    void invalidCombinations() {
        same("ZRANGE", "z", "0", "1", "BYSCORE", "BYLEX");
        same("ZRANGE", "z", "0", "1", "BYLEX", "BYSCORE");
        same("ZRANGE", "z", "[a", "[b", "BYLEX", "WITHSCORES");
        same("ZRANGE", "z", "0", "1", "LIMIT", "0", "1", "WITHSCORES");
        same("ZRANGE", "z", "0", "1", "REV", "REV");
        same("ZRANGE", "z", "x", "1", "BYSCORE");
        same("ZRANGE", "z", "x", "1", "BYLEX");
        same("ZRANGE", "z", "(1", "(2", "BYSCORE", "LIMIT", "0", "x");
        same("ZRANGE", "z", "0", "-1", "LIMIT", "x", "1");
        same("ZRANGESTORE", "dst", "z", "0", "-1", "WITHSCORES");
        same("ZRANGESTORE", "dst", "z", "0", "-1", "LIMIT", "0", "1");
        same("ZRANGEBYLEX", "z", "-", "+", "REV");
        same("ZREVRANGEBYSCORE", "z", "1", "2", "REV");
        same("ZREVRANGE", "z", "0", "1", "BYSCORE");
    }

    @Test
    void rangeStore() {
        same("ZRANGESTORE", "dst", "z", "0", "-1");
        same("ZRANGE", "dst", "0", "-1", "WITHSCORES");
        same("ZRANGESTORE", "dst", "z", "(1", "10", "BYSCORE", "LIMIT", "1", "2");
        same("ZRANGE", "dst", "0", "-1", "WITHSCORES");
        same("ZRANGESTORE", "dst", "z", "10", "(1", "BYSCORE", "REV");
        same("ZRANGE", "dst", "0", "-1", "WITHSCORES");
        same("ZRANGESTORE", "dst", "lex", "[b", "(e", "BYLEX");
        same("ZRANGE", "dst", "0", "-1", "WITHSCORES");
        same("ZRANGESTORE", "dst", "lex", "+", "-", "BYLEX", "REV", "LIMIT", "0", "3");
        same("ZRANGE", "dst", "0", "-1", "WITHSCORES");
        same("ZRANGESTORE", "dst", "z", "5", "3");
        same("EXISTS", "dst");
        same("ZRANGESTORE", "dst", "missing", "0", "-1");
        same("SET", "dst", "string");
        same("ZRANGESTORE", "dst", "z", "0", "1");
        same("ZRANGE", "dst", "0", "-1", "WITHSCORES");
        same("ZRANGESTORE", "z", "z", "1", "2");
        same("ZRANGE", "z", "0", "-1", "WITHSCORES");
        same("ZRANGESTORE", "dst", "str", "0", "1");
        same("ZRANGESTORE", "dst", "z", "0");
    }

    @Test
    void removeRanges() {
        same("ZREMRANGEBYSCORE", "z", "(1", "2");
        same("ZRANGE", "z", "0", "-1", "WITHSCORES");
        same("ZREMRANGEBYSCORE", "z", "100", "200");
        same("ZREMRANGEBYSCORE", "z", "x", "200");
        same("ZREMRANGEBYSCORE", "missing", "1", "2");
        same("ZREMRANGEBYSCORE", "missing", "x", "2");
        same("ZREMRANGEBYSCORE", "str", "1", "2");
        same("ZREMRANGEBYRANK", "z", "-2", "-1");
        same("ZRANGE", "z", "0", "-1", "WITHSCORES");
        same("ZREMRANGEBYRANK", "z", "5", "10");
        same("ZREMRANGEBYRANK", "z", "2", "1");
        same("ZREMRANGEBYRANK", "z", "x", "1");
        same("ZREMRANGEBYRANK", "z", "0", "0");
        same("ZREMRANGEBYRANK", "str", "0", "0");
        same("ZREMRANGEBYLEX", "lex", "(a", "[c");
        same("ZRANGE", "lex", "0", "-1");
        same("ZREMRANGEBYLEX", "lex", "[z", "+");
        same("ZREMRANGEBYLEX", "lex", "a", "+");
        same("ZREMRANGEBYLEX", "lex", "-", "+");
        same("EXISTS", "lex");
        same("ZREMRANGEBYLEX", "str", "-", "+");
        same("ZREMRANGEBYRANK", "z", "-100", "100");
        same("EXISTS", "z");
    }
}
