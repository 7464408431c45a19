package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import io.kevy.testing.RedisOracle;
import io.kevy.testing.ReplyDiff;
import io.kevy.testing.TestServer;
import io.lettuce.core.GetExArgs;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * String commands against a real Redis 7.0 (reply bytes and error texts with {@link ReplyDiff}) and through
 * lettuce. One kevy (4 shards) and one Redis serve the whole class; each test starts from FLUSHALL.
 */
class StringCommandsIT {
    private static TestServer kevy;
    private static RedisOracle redis;
    private static ReplyDiff diff;

    @BeforeAll
    static void start() {
        kevy = TestServer.start(ServerOptions.SHARDS, 4);
        redis = RedisOracle.start();
        diff = new ReplyDiff(kevy.raw(), redis.raw());
    }

    @AfterAll
    static void stop() {
        if (diff != null) {
            diff.close();
        }
        if (redis != null) {
            redis.close();
        }
        if (kevy != null) {
            kevy.close();
        }
    }

    @BeforeEach
    void flush() {
        diff.same("FLUSHALL");
    }

    @Test
    void getAndSetMatchRedis() {
        diff.same("GET", "nokey");
        diff.same("SET", "k", "v");
        diff.same("GET", "k");
        diff.same("SET", "k", "");
        diff.same("GET", "k");
        diff.same("HSET", "list", "f", "a");
        diff.same("GET", "list");
        diff.same("SET", "list", "now-a-string");
        diff.same("GET", "list");
        diff.same("SET", "k");
        diff.same("GET");
        diff.same("GET", "a", "b");
    }

    @Test
    void setOptionsAndConflictsMatchRedis() {
        String[][] cases = {
            {"NX"}, {"XX"}, {"NX", "XX"}, {"XX", "NX"}, {"NX", "NX"}, {"GET"}, {"GET", "GET"},
            {"EX", "10"}, {"PX", "10000"}, {"EXAT", "99999999999"}, {"PXAT", "99999999999000"}, {"KEEPTTL"},
            {"EX", "10", "PX", "10"}, {"EX", "10", "EX", "20"}, {"EX", "10", "KEEPTTL"}, {"KEEPTTL", "EX", "10"},
            {"EXAT", "10", "PXAT", "10"}, {"PX", "10", "EXAT", "10"}, {"EX"}, {"PX"}, {"EXAT"}, {"PXAT"},
            {"EX", "0"}, {"EX", "-1"}, {"PX", "0"}, {"EXAT", "0"}, {"PXAT", "-5"}, {"EX", "abc"}, {"EX", "1.5"},
            {"EX", "9223372036854775807"}, {"EX", "9223372036854775"}, {"PX", "9223372036854775807"},
            {"EXAT", "9223372036854775807"}, {"EX", "99999999999999999999"},
            {"PERSIST"}, {"FOO"}, {"nx", "get", "ex", "100"}, {"xx", "GET", "keepttl"}, {"KEEPTTL", "KEEPTTL"},
            {"ex", "10", "nx", "foo"},
        };
        for (String[] opts : cases) {
            for (boolean exists : new boolean[] {false, true}) {
                diff.same("DEL", "k");
                if (exists) {
                    diff.same("SET", "k", "old");
                }
                String[] cmd = new String[3 + opts.length];
                cmd[0] = "SET";
                cmd[1] = "k";
                cmd[2] = "new";
                System.arraycopy(opts, 0, cmd, 3, opts.length);
                diff.same(cmd);
                diff.same("GET", "k");
                diff.same("TTL", "k");
            }
        }
    }

    @Test
    void setGetAgainstWrongTypeChangesNothing() {
        diff.same("HSET", "l", "f", "x");
        diff.same("SET", "l", "v", "GET");
        diff.same("TYPE", "l");
        diff.same("SET", "l", "v", "NX", "GET");
        diff.same("SET", "l", "v", "XX");
        diff.same("TYPE", "l");
        diff.same("SET", "s", "v", "XX", "GET");
        diff.same("EXISTS", "s");
        diff.same("SET", "s", "v1", "NX", "GET");
        diff.same("SET", "s", "v2", "NX", "GET");
        diff.same("GET", "s");
    }

    @Test
    void setWithAbsoluteTimeInThePastLeavesNoKey() {
        diff.same("SET", "k", "old");
        diff.same("SET", "k", "new", "PXAT", "1");
        diff.same("EXISTS", "k");
        diff.same("SET", "k", "old");
        diff.same("SET", "k", "new", "GET", "EXAT", "1");
        diff.same("GET", "k");
        diff.same("SET", "k", "new", "EXAT", "1");
        diff.same("EXISTS", "k");
    }

    @Test
    void keepTtlAndPlainSetMatchRedis() {
        diff.same("SET", "k", "v", "EXAT", "99999999999");
        diff.same("SET", "k", "v2", "KEEPTTL");
        diff.same("EXPIRETIME", "k");
        diff.same("SET", "k", "v3");
        diff.same("EXPIRETIME", "k");
        diff.same("SET", "k", "v", "PXAT", "99999999999123");
        diff.same("PEXPIRETIME", "k");
        diff.same("SET", "k", "v", "PX", "100000");
        diff.same("TTL", "k");
        diff.same("SET", "k", "v", "PXAT", "9223372036854775807");
        diff.same("PEXPIRETIME", "k");
    }

    @Test
    void setnxSetexPsetexGetsetMatchRedis() {
        diff.same("SETNX", "k", "a");
        diff.same("SETNX", "k", "b");
        diff.same("GET", "k");
        diff.same("SETNX", "k");
        diff.same("SETEX", "k", "100", "v");
        diff.same("TTL", "k");
        diff.same("SETEX", "k", "0", "v");
        diff.same("SETEX", "k", "-10", "v");
        diff.same("SETEX", "k", "x", "v");
        diff.same("SETEX", "k", "9223372036854775807", "v");
        diff.same("PSETEX", "k", "0", "v");
        diff.same("PSETEX", "k", "100000", "v");
        diff.same("TTL", "k");
        diff.same("PSETEX", "k", "9223372036854775807", "v");
        diff.same("GETSET", "k", "w");
        diff.same("TTL", "k");
        diff.same("GETSET", "k", "z");
        diff.same("GETSET", "nokey", "z");
        diff.same("HSET", "l", "f", "a");
        diff.same("GETSET", "l", "z");
        diff.same("SETNX", "l", "z");
    }

    @Test
    void mgetMsetMsetnxMatchRedis() {
        diff.same("MSET", "a", "1", "b", "2", "{t}c", "3", "{t}d", "4");
        diff.same("MGET", "a", "b", "{t}c", "{t}d", "nokey", "a");
        diff.same("HSET", "l", "f", "x");
        diff.same("MGET", "a", "l", "b");
        diff.same("MSET", "a", "1", "b");
        diff.same("MSET", "a");
        diff.same("MSETNX", "a", "1", "b");
        diff.same("MSETNX", "x", "1", "a", "2");
        diff.same("EXISTS", "x");
        diff.same("MSETNX", "x", "1", "y", "2", "x", "3");
        diff.same("MGET", "x", "y");
        diff.same("SET", "t", "v", "EX", "100");
        diff.same("MSET", "t", "w");
        diff.same("TTL", "t");
        diff.same("MSET", "l", "now-string");
        diff.same("TYPE", "l");
    }

    @Test
    void getdelAndGetexMatchRedis() {
        diff.same("SET", "k", "v");
        diff.same("GETDEL", "k");
        diff.same("GETDEL", "k");
        diff.same("HSET", "l", "f", "a");
        diff.same("GETDEL", "l");
        diff.same("SET", "k", "v");
        diff.same("GETEX", "k");
        diff.same("GETEX", "k", "EX", "100");
        diff.same("TTL", "k");
        diff.same("GETEX", "k", "PERSIST");
        diff.same("TTL", "k");
        diff.same("GETEX", "k", "PXAT", "99999999999123");
        diff.same("PEXPIRETIME", "k");
        diff.same("GETEX", "k", "EXAT", "99999999999");
        diff.same("EXPIRETIME", "k");
        diff.same("GETEX", "k", "PX", "100000");
        diff.same("TTL", "k");
        diff.same("GETEX", "k", "EXAT", "1");
        diff.same("EXISTS", "k");
        diff.same("GETEX", "l", "EX", "10");
        diff.same("GETEX", "l", "EX", "foo");
        diff.same("GETEX", "nokey", "EX", "foo");
        diff.same("GETEX", "nokey", "EX", "-1");
        diff.same("SET", "k", "v");
        String[][] bad = {
            {"EX"}, {"EX", "0"}, {"EX", "-1"}, {"EX", "x"}, {"PX", "0"}, {"EXAT", "0"}, {"EX", "10", "PX", "10"},
            {"EX", "10", "PERSIST"}, {"PERSIST", "EX", "10"}, {"KEEPTTL"}, {"NX"}, {"XX"}, {"GET"}, {"FOO"},
            {"EX", "9223372036854775807"}, {"PX", "9223372036854775807"}, {"PERSIST", "PERSIST"},
        };
        for (String[] opts : bad) {
            String[] cmd = new String[2 + opts.length];
            cmd[0] = "GETEX";
            cmd[1] = "k";
            System.arraycopy(opts, 0, cmd, 2, opts.length);
            diff.same(cmd);
            diff.same("GET", "k");
        }
        diff.same("GETEX");
        diff.same("GETDEL");
        diff.same("GETDEL", "a", "b");
    }

    @Test
    void appendStrlenMatchRedis() {
        diff.same("APPEND", "k", "hello");
        diff.same("APPEND", "k", " world");
        diff.same("GET", "k");
        diff.same("STRLEN", "k");
        diff.same("STRLEN", "nokey");
        diff.same("APPEND", "e", "");
        diff.same("EXISTS", "e");
        diff.same("APPEND", "k", "");
        diff.same("HSET", "l", "f", "a");
        diff.same("APPEND", "l", "x");
        diff.same("STRLEN", "l");
        diff.same("SET", "t", "1", "EX", "100");
        diff.same("APPEND", "t", "2");
        diff.same("TTL", "t");
    }

    @Test
    void setrangeAndGetrangeMatchRedis() {
        diff.same("SETRANGE", "k", "0", "");
        diff.same("EXISTS", "k");
        diff.same("SETRANGE", "k", "5", "abc");
        diff.same("GET", "k");
        diff.same("SETRANGE", "k", "1", "XY");
        diff.same("GET", "k");
        diff.same("SETRANGE", "k", "100", "");
        diff.same("SETRANGE", "k", "-1", "x");
        diff.same("SETRANGE", "k", "x", "x");
        diff.same("SETRANGE", "k", "9223372036854775807", "A");
        diff.same("SETRANGE", "k", "2147483647", "A");
        diff.same("SETRANGE", "k", "536870912", "A");
        diff.same("SETRANGE", "k", "99999999999999999999", "A");
        diff.same("SETRANGE", "nokey", "536870912", "A");
        diff.same("SETRANGE", "nokey", "536870912", "");
        diff.same("HSET", "l", "f", "a");
        diff.same("SETRANGE", "l", "0", "x");
        diff.same("SETRANGE", "l", "-1", "x");
        diff.same("SET", "s", "Hello World");
        String[][] ranges = {
            {"0", "3"}, {"0", "-1"}, {"-3", "-1"}, {"5", "3"}, {"-1", "-5"}, {"-100", "100"}, {"0", "0"},
            {"10", "100"}, {"11", "20"}, {"-5", "-6"}, {"9223372036854775807", "9223372036854775807"},
            {"-9223372036854775808", "9223372036854775807"}, {"0", "-9223372036854775808"},
            {"-9223372036854775808", "-9223372036854775808"}, {"4", "-7"}, {"x", "1"}, {"1", "y"},
        };
        for (String[] r : ranges) {
            diff.same("GETRANGE", "s", r[0], r[1]);
            diff.same("SUBSTR", "s", r[0], r[1]);
            diff.same("GETRANGE", "nokey", r[0], r[1]);
        }
        diff.same("SET", "e", "");
        diff.same("GETRANGE", "e", "0", "-1");
        diff.same("GETRANGE", "e", "0", "0");
        diff.same("SET", "n", "1234");
        diff.same("GETRANGE", "n", "1", "2");
        diff.same("GETRANGE", "l", "0", "1");
        diff.same("GETRANGE", "l", "x", "1");
    }

    @Test
    void countersMatchRedis() {
        diff.same("INCR", "n");
        diff.same("INCRBY", "n", "10");
        diff.same("DECR", "n");
        diff.same("DECRBY", "n", "5");
        diff.same("INCRBY", "n", "-100");
        diff.same("GET", "n");
        diff.same("SET", "n", "9223372036854775806");
        diff.same("INCR", "n");
        diff.same("INCR", "n");
        diff.same("SET", "n", "-9223372036854775807");
        diff.same("DECR", "n");
        diff.same("DECR", "n");
        diff.same("SET", "n", "0");
        diff.same("DECRBY", "n", "-9223372036854775808");
        diff.same("INCRBY", "n", "-9223372036854775808");
        diff.same("INCRBY", "n", "x");
        diff.same("INCRBY", "n", "1.5");
        diff.same("INCRBY", "n", " 1");
        diff.same("INCRBY", "n", "+1");
        diff.same("INCRBY", "n", "01");
        for (String bad : new String[] {" 1", "1 ", "+1", "01", "-0", "1.0", "abc", "", "99999999999999999999"}) {
            diff.same("SET", "b", bad);
            diff.same("INCR", "b");
            diff.same("GET", "b");
        }
        diff.same("HSET", "l", "f", "a");
        diff.same("INCR", "l");
        diff.same("INCRBY", "l", "x");
        diff.same("DECRBY", "l", "1");
        diff.same("SET", "t", "5", "EX", "100");
        diff.same("INCR", "t");
        diff.same("TTL", "t");
    }

    @Test
    void incrbyfloatMatchesRedisFormatting() {
        diff.same("SET", "f", "10.5");
        diff.same("INCRBYFLOAT", "f", "0.1");
        diff.same("INCRBYFLOAT", "f", "1e20");
        diff.same("GET", "f");
        diff.same("INCRBYFLOAT", "g", "3");
        diff.same("INCRBYFLOAT", "g", "-3");
        diff.same("SET", "h", "1");
        diff.same("INCRBYFLOAT", "h", "-1.1");
        diff.same("INCRBYFLOAT", "h", "5.0e3");
        diff.same("INCRBYFLOAT", "h", "1.23456789012345678901234567890");
        diff.same("INCRBYFLOAT", "h", "-5000.3");
        diff.same("INCRBYFLOAT", "h", "abc");
        diff.same("INCRBYFLOAT", "h", "inf");
        diff.same("INCRBYFLOAT", "h", "+inf");
        diff.same("INCRBYFLOAT", "h", "nan");
        diff.same("INCRBYFLOAT", "h", " 1");
        diff.same("INCRBYFLOAT", "h", "1e400");
        diff.same("INCRBYFLOAT", "h", "");
        diff.same("SET", "z", "0");
        diff.same("INCRBYFLOAT", "z", "0.024390243902439025");
        diff.same("INCRBYFLOAT", "z", "-0.024390243902439025");
        diff.same("SET", "bad", "1 ");
        diff.same("INCRBYFLOAT", "bad", "1");
        diff.same("SET", "bad", "inf");
        diff.same("INCRBYFLOAT", "bad", "1");
        diff.same("SET", "bad", "1");
        diff.same("SETRANGE", "bad", "2", "2");
        diff.same("INCRBYFLOAT", "bad", "1");
        diff.same("HSET", "l", "f", "a");
        diff.same("INCRBYFLOAT", "l", "1");
        diff.same("INCRBYFLOAT", "l", "x");
        diff.same("SET", "big", "1.7976931348623157e308");
        diff.same("INCRBYFLOAT", "big", "1.7976931348623157e308");
        diff.same("INCRBYFLOAT", "n", "0".repeat(5119));
        diff.same("INCRBYFLOAT", "n", "0".repeat(5120));
        diff.same("SET", "long", "0".repeat(5119));
        diff.same("INCRBYFLOAT", "long", "1");
        diff.same("SET", "long", "0".repeat(5120));
        diff.same("INCRBYFLOAT", "long", "1");
        diff.same("INCRBYFLOAT", "hex", "0x1p-2");
        diff.same("INCRBYFLOAT", "n", "0.0000001");
        diff.same("INCRBYFLOAT", "n", "123456789.123456789");
    }

    @Test
    void encodingsFollowRedis() {
        String[][] values = {
            {"1"}, {"-1"}, {"9999"}, {"10000"}, {"12345678901234567890"}, {"9223372036854775807"}, {"01"}, {"+1"},
            {"abc"}, {"x".repeat(44)}, {"x".repeat(45)}, {"1.5"}, {""},
        };
        for (String[] v : values) {
            diff.same("SET", "k", v[0]);
            diff.same("OBJECT", "ENCODING", "k");
            diff.same("OBJECT", "REFCOUNT", "k");
        }
        diff.same("SET", "k", "123");
        diff.same("APPEND", "k", "4");
        diff.same("OBJECT", "ENCODING", "k");
        diff.same("INCR", "k");
        diff.same("OBJECT", "ENCODING", "k");
        diff.same("OBJECT", "REFCOUNT", "k");
        diff.same("SET", "k", "12");
        diff.same("APPEND", "k", "");
        diff.same("OBJECT", "ENCODING", "k");
        diff.same("APPEND", "new", "77");
        diff.same("OBJECT", "ENCODING", "new");
        diff.same("SET", "k", "1234");
        diff.same("SETRANGE", "k", "0", "2");
        diff.same("OBJECT", "ENCODING", "k");
        diff.same("SETRANGE", "r", "0", "2");
        diff.same("OBJECT", "ENCODING", "r");
        diff.same("INCRBYFLOAT", "f", "3");
        diff.same("OBJECT", "ENCODING", "f");
        diff.same("INCRBYFLOAT", "f", "1.5");
        diff.same("OBJECT", "ENCODING", "f");
        diff.same("INCR", "i");
        diff.same("OBJECT", "REFCOUNT", "i");
        diff.same("INCRBY", "i", "20000");
        diff.same("OBJECT", "REFCOUNT", "i");
        diff.same("SET", "c", "5");
        diff.same("COPY", "c", "c2");
        diff.same("OBJECT", "ENCODING", "c2");
        diff.same("OBJECT", "REFCOUNT", "c2");
        diff.same("SET", "c", "x".repeat(10));
        diff.same("COPY", "c", "c3");
        diff.same("OBJECT", "ENCODING", "c3");
        diff.same("RENAME", "k", "{k}moved");
        diff.same("OBJECT", "ENCODING", "{k}moved");
        diff.same("MSET", "m1", "7", "m2", "seven");
        diff.same("OBJECT", "ENCODING", "m1");
        diff.same("OBJECT", "ENCODING", "m2");
        diff.same("SETEX", "se", "100", "77");
        diff.same("OBJECT", "ENCODING", "se");
        diff.same("GETSET", "se", "x".repeat(50));
        diff.same("OBJECT", "ENCODING", "se");
    }

    @Test
    void lcsMatchesRedis() {
        diff.same("MSET", "{l}a", "ohmytext", "{l}b", "mynewtext");
        String[][] opts = {
            {}, {"LEN"}, {"IDX"}, {"IDX", "WITHMATCHLEN"}, {"IDX", "MINMATCHLEN", "4"},
            {"IDX", "MINMATCHLEN", "4", "WITHMATCHLEN"}, {"IDX", "MINMATCHLEN", "-3"}, {"LEN", "IDX"},
            {"IDX", "LEN"}, {"FOO"}, {"MINMATCHLEN"}, {"MINMATCHLEN", "x"}, {"idx", "minmatchlen", "0"},
            {"WITHMATCHLEN"}, {"LEN", "WITHMATCHLEN"}, {"LEN", "MINMATCHLEN", "2"},
        };
        String[][] pairs = {
            {"{l}a", "{l}b"}, {"{l}b", "{l}a"}, {"{l}a", "{l}none"}, {"{l}none", "{l}none2"}, {"{l}a", "{l}a"},
            {"{l}x", "{l}y"}, {"{l}p", "{l}q"},
        };
        diff.same("MSET", "{l}x", "ACCGGTCGAGTGCGCGGAAGCCGGCCGAA", "{l}y", "GTCGTTCGGAATGCCGTTGCTCTGTAAA");
        diff.same("MSET", "{l}p", "aaaaabbbbbaaaa", "{l}q", "abababababab");
        for (String[] p : pairs) {
            for (String[] o : opts) {
                String[] cmd = new String[3 + o.length];
                cmd[0] = "LCS";
                cmd[1] = p[0];
                cmd[2] = p[1];
                System.arraycopy(o, 0, cmd, 3, o.length);
                diff.same(cmd);
            }
        }
        diff.same("HSET", "{l}list", "f", "a");
        diff.same("LCS", "{l}list", "{l}a");
        diff.same("LCS", "{l}a", "{l}list", "FOO");
        diff.same("LCS", "{l}a");
        diff.same("MSET", "{l}big1", "a".repeat(11_600), "{l}big2", "b".repeat(11_600));
        diff.same("LCS", "{l}big1", "{l}big2");
        diff.same("LCS", "{l}big1", "{l}big2", "LEN");
        diff.same("LCS", "{l}big1", "{l}a", "IDX", "MINMATCHLEN", "1");
        diff.same("LCS", "a", "b");
    }

    @Test
    void arityErrorsMatchRedis() {
        String[][] cmds = {
            {"SET"}, {"SETNX", "k"}, {"SETEX", "k", "1"}, {"PSETEX", "k"}, {"MGET"}, {"MSET"}, {"MSETNX", "k"},
            {"GETSET", "k"}, {"GETDEL"}, {"APPEND", "k"}, {"STRLEN"}, {"INCR"}, {"DECR", "k", "x"}, {"INCRBY", "k"},
            {"DECRBY", "k"}, {"INCRBYFLOAT", "k"}, {"GETRANGE", "k", "0"}, {"SUBSTR", "k"}, {"SETRANGE", "k", "0"},
            {"LCS", "k"},
        };
        for (String[] cmd : cmds) {
            diff.same(cmd);
        }
    }

    @Test
    void lettuceRoundTrips() {
        RedisCommands<String, String> r = kevy.lettuce();
        assertThat(r.set("k", "v", SetArgs.Builder.nx().ex(100))).isEqualTo("OK");
        assertThat(r.set("k", "w", SetArgs.Builder.nx())).isNull();
        assertThat(r.setGet("k", "w")).isEqualTo("v");
        assertThat(r.ttl("k")).isEqualTo(-1);
        assertThat(r.getex("k", GetExArgs.Builder.ex(50))).isEqualTo("w");
        assertThat(r.ttl("k")).isBetween(49L, 50L);
        assertThat(r.getex("k", GetExArgs.Builder.persist())).isEqualTo("w");
        assertThat(r.ttl("k")).isEqualTo(-1);
        r.mset(Map.of("a", "1", "b", "2", "c", "3"));
        assertThat(r.mget("a", "b", "c", "d"))
                .containsExactly(KeyValue.just("a", "1"), KeyValue.just("b", "2"), KeyValue.just("c", "3"),
                        KeyValue.empty("d"));
        assertThat(r.msetnx(Map.of("a", "9", "z", "9"))).isFalse();
        assertThat(r.incrby("a", 41)).isEqualTo(42);
        assertThat(r.incrbyfloat("a", 0.5)).isEqualTo(42.5);
        assertThat(r.append("a", "0")).isEqualTo(5);
        assertThat(r.getrange("a", -3, -1)).isEqualTo(".50");
        assertThat(r.setrange("a", 0, "x")).isEqualTo(5);
        assertThat(r.getdel("a")).isEqualTo("x2.50");
        assertThat(r.strlen("a")).isZero();
        assertThat(r.getset("g", "1")).isNull();
        r.hset("list", "f", "x");
        assertThatThrownBy(() -> r.incr("list")).isInstanceOf(RedisCommandExecutionException.class)
                .hasMessageStartingWith("WRONGTYPE");
        r.set("{s}1", "ohmytext");
        r.set("{s}2", "mynewtext");
        assertThat(r.lcs(io.lettuce.core.LcsArgs.Builder.keys("{s}1", "{s}2")).getMatchString())
                .isEqualTo("mytext");
        List<String> keys = r.keys("*");
        assertThat(keys).contains("k", "b", "c", "list", "g", "{s}1", "{s}2");
    }

    @Test
    void binarySafeValuesRoundTrip() {
        RedisCommands<byte[], byte[]> r = kevy.lettuceBinary();
        byte[] key = {0, 1, 2, (byte) 0xff, '\r', '\n'};
        byte[] value = new byte[256];
        for (int i = 0; i < value.length; i++) {
            value[i] = (byte) i;
        }
        r.set(key, value);
        assertThat(r.get(key)).isEqualTo(value);
        assertThat(r.append(key, new byte[] {0})).isEqualTo(257);
        assertThat(r.getrange(key, 250, -1)).containsExactly(250, 251, 252, 253, 254, (byte) 255, 0);
    }

    @Test
    void hugeAppendAndSetrangeAreRefusedBeforeAllocating() {
        RawClient raw = kevy.raw();
        raw.call("SET", "k", "x");
        assertThat(raw.call("SETRANGE", "k", "536870911", "AB"))
                .isEqualTo("-ERR string exceeds maximum allowed size (proto-max-bulk-len)\r\n");
        assertThat(raw.call("GET", "k")).isEqualTo("$1\r\nx\r\n");
    }
}
