package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kevy.testing.OracleFixture;
import io.kevy.testing.RawClient;
import io.kevy.testing.ReplyDiff;
import io.lettuce.core.GetExArgs;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * String commands against a real Redis 7.0 (reply bytes and error texts with {@link ReplyDiff}) and through
 * lettuce. One kevy (4 shards) and one Redis serve the whole class; each test starts from FLUSHALL.
 */
class StringCommandsIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create().shards(4);

    @Test
    void getAndSetMatchRedis() {
        oracle.same("GET", "nokey");
        oracle.same("SET", "k", "v");
        oracle.same("GET", "k");
        oracle.same("SET", "k", "");
        oracle.same("GET", "k");
        oracle.same("HSET", "list", "f", "a");
        oracle.same("GET", "list");
        oracle.same("SET", "list", "now-a-string");
        oracle.same("GET", "list");
        oracle.same("SET", "k");
        oracle.same("GET");
        oracle.same("GET", "a", "b");
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
                oracle.same("DEL", "k");
                if (exists) {
                    oracle.same("SET", "k", "old");
                }
                String[] cmd = new String[3 + opts.length];
                cmd[0] = "SET";
                cmd[1] = "k";
                cmd[2] = "new";
                System.arraycopy(opts, 0, cmd, 3, opts.length);
                oracle.same(cmd);
                oracle.same("GET", "k");
                oracle.same("TTL", "k");
            }
        }
    }

    @Test
    void setGetAgainstWrongTypeChangesNothing() {
        oracle.same("HSET", "l", "f", "x");
        oracle.same("SET", "l", "v", "GET");
        oracle.same("TYPE", "l");
        oracle.same("SET", "l", "v", "NX", "GET");
        oracle.same("SET", "l", "v", "XX");
        oracle.same("TYPE", "l");
        oracle.same("SET", "s", "v", "XX", "GET");
        oracle.same("EXISTS", "s");
        oracle.same("SET", "s", "v1", "NX", "GET");
        oracle.same("SET", "s", "v2", "NX", "GET");
        oracle.same("GET", "s");
    }

    @Test
    void setWithAbsoluteTimeInThePastLeavesNoKey() {
        oracle.same("SET", "k", "old");
        oracle.same("SET", "k", "new", "PXAT", "1");
        oracle.same("EXISTS", "k");
        oracle.same("SET", "k", "old");
        oracle.same("SET", "k", "new", "GET", "EXAT", "1");
        oracle.same("GET", "k");
        oracle.same("SET", "k", "new", "EXAT", "1");
        oracle.same("EXISTS", "k");
    }

    @Test
    void keepTtlAndPlainSetMatchRedis() {
        oracle.same("SET", "k", "v", "EXAT", "99999999999");
        oracle.same("SET", "k", "v2", "KEEPTTL");
        oracle.same("EXPIRETIME", "k");
        oracle.same("SET", "k", "v3");
        oracle.same("EXPIRETIME", "k");
        oracle.same("SET", "k", "v", "PXAT", "99999999999123");
        oracle.same("PEXPIRETIME", "k");
        oracle.same("SET", "k", "v", "PX", "100000");
        oracle.same("TTL", "k");
        oracle.same("SET", "k", "v", "PXAT", "9223372036854775807");
        oracle.same("PEXPIRETIME", "k");
    }

    @Test
    void setnxSetexPsetexGetsetMatchRedis() {
        oracle.same("SETNX", "k", "a");
        oracle.same("SETNX", "k", "b");
        oracle.same("GET", "k");
        oracle.same("SETNX", "k");
        oracle.same("SETEX", "k", "100", "v");
        oracle.same("TTL", "k");
        oracle.same("SETEX", "k", "0", "v");
        oracle.same("SETEX", "k", "-10", "v");
        oracle.same("SETEX", "k", "x", "v");
        oracle.same("SETEX", "k", "9223372036854775807", "v");
        oracle.same("PSETEX", "k", "0", "v");
        oracle.same("PSETEX", "k", "100000", "v");
        oracle.same("TTL", "k");
        oracle.same("PSETEX", "k", "9223372036854775807", "v");
        oracle.same("GETSET", "k", "w");
        oracle.same("TTL", "k");
        oracle.same("GETSET", "k", "z");
        oracle.same("GETSET", "nokey", "z");
        oracle.same("HSET", "l", "f", "a");
        oracle.same("GETSET", "l", "z");
        oracle.same("SETNX", "l", "z");
    }

    @Test
    void mgetMsetMsetnxMatchRedis() {
        oracle.same("MSET", "a", "1", "b", "2", "{t}c", "3", "{t}d", "4");
        oracle.same("MGET", "a", "b", "{t}c", "{t}d", "nokey", "a");
        oracle.same("HSET", "l", "f", "x");
        oracle.same("MGET", "a", "l", "b");
        oracle.same("MSET", "a", "1", "b");
        oracle.same("MSET", "a");
        oracle.same("MSETNX", "a", "1", "b");
        oracle.same("MSETNX", "x", "1", "a", "2");
        oracle.same("EXISTS", "x");
        oracle.same("MSETNX", "x", "1", "y", "2", "x", "3");
        oracle.same("MGET", "x", "y");
        oracle.same("SET", "t", "v", "EX", "100");
        oracle.same("MSET", "t", "w");
        oracle.same("TTL", "t");
        oracle.same("MSET", "l", "now-string");
        oracle.same("TYPE", "l");
    }

    @Test
    void getdelAndGetexMatchRedis() {
        oracle.same("SET", "k", "v");
        oracle.same("GETDEL", "k");
        oracle.same("GETDEL", "k");
        oracle.same("HSET", "l", "f", "a");
        oracle.same("GETDEL", "l");
        oracle.same("SET", "k", "v");
        oracle.same("GETEX", "k");
        oracle.same("GETEX", "k", "EX", "100");
        oracle.same("TTL", "k");
        oracle.same("GETEX", "k", "PERSIST");
        oracle.same("TTL", "k");
        oracle.same("GETEX", "k", "PXAT", "99999999999123");
        oracle.same("PEXPIRETIME", "k");
        oracle.same("GETEX", "k", "EXAT", "99999999999");
        oracle.same("EXPIRETIME", "k");
        oracle.same("GETEX", "k", "PX", "100000");
        oracle.same("TTL", "k");
        oracle.same("GETEX", "k", "EXAT", "1");
        oracle.same("EXISTS", "k");
        oracle.same("GETEX", "l", "EX", "10");
        oracle.same("GETEX", "l", "EX", "foo");
        oracle.same("GETEX", "nokey", "EX", "foo");
        oracle.same("GETEX", "nokey", "EX", "-1");
        oracle.same("SET", "k", "v");
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
            oracle.same(cmd);
            oracle.same("GET", "k");
        }
        oracle.same("GETEX");
        oracle.same("GETDEL");
        oracle.same("GETDEL", "a", "b");
    }

    @Test
    void appendStrlenMatchRedis() {
        oracle.same("APPEND", "k", "hello");
        oracle.same("APPEND", "k", " world");
        oracle.same("GET", "k");
        oracle.same("STRLEN", "k");
        oracle.same("STRLEN", "nokey");
        oracle.same("APPEND", "e", "");
        oracle.same("EXISTS", "e");
        oracle.same("APPEND", "k", "");
        oracle.same("HSET", "l", "f", "a");
        oracle.same("APPEND", "l", "x");
        oracle.same("STRLEN", "l");
        oracle.same("SET", "t", "1", "EX", "100");
        oracle.same("APPEND", "t", "2");
        oracle.same("TTL", "t");
    }

    @Test
    void setrangeAndGetrangeMatchRedis() {
        oracle.same("SETRANGE", "k", "0", "");
        oracle.same("EXISTS", "k");
        oracle.same("SETRANGE", "k", "5", "abc");
        oracle.same("GET", "k");
        oracle.same("SETRANGE", "k", "1", "XY");
        oracle.same("GET", "k");
        oracle.same("SETRANGE", "k", "100", "");
        oracle.same("SETRANGE", "k", "-1", "x");
        oracle.same("SETRANGE", "k", "x", "x");
        oracle.same("SETRANGE", "k", "9223372036854775807", "A");
        oracle.same("SETRANGE", "k", "2147483647", "A");
        oracle.same("SETRANGE", "k", "536870912", "A");
        oracle.same("SETRANGE", "k", "99999999999999999999", "A");
        oracle.same("SETRANGE", "nokey", "536870912", "A");
        oracle.same("SETRANGE", "nokey", "536870912", "");
        oracle.same("HSET", "l", "f", "a");
        oracle.same("SETRANGE", "l", "0", "x");
        oracle.same("SETRANGE", "l", "-1", "x");
        oracle.same("SET", "s", "Hello World");
        String[][] ranges = {
            {"0", "3"}, {"0", "-1"}, {"-3", "-1"}, {"5", "3"}, {"-1", "-5"}, {"-100", "100"}, {"0", "0"},
            {"10", "100"}, {"11", "20"}, {"-5", "-6"}, {"9223372036854775807", "9223372036854775807"},
            {"-9223372036854775808", "9223372036854775807"}, {"0", "-9223372036854775808"},
            {"-9223372036854775808", "-9223372036854775808"}, {"4", "-7"}, {"x", "1"}, {"1", "y"},
        };
        for (String[] r : ranges) {
            oracle.same("GETRANGE", "s", r[0], r[1]);
            oracle.same("SUBSTR", "s", r[0], r[1]);
            oracle.same("GETRANGE", "nokey", r[0], r[1]);
        }
        oracle.same("SET", "e", "");
        oracle.same("GETRANGE", "e", "0", "-1");
        oracle.same("GETRANGE", "e", "0", "0");
        oracle.same("SET", "n", "1234");
        oracle.same("GETRANGE", "n", "1", "2");
        oracle.same("GETRANGE", "l", "0", "1");
        oracle.same("GETRANGE", "l", "x", "1");
    }

    @Test
    void countersMatchRedis() {
        oracle.same("INCR", "n");
        oracle.same("INCRBY", "n", "10");
        oracle.same("DECR", "n");
        oracle.same("DECRBY", "n", "5");
        oracle.same("INCRBY", "n", "-100");
        oracle.same("GET", "n");
        oracle.same("SET", "n", "9223372036854775806");
        oracle.same("INCR", "n");
        oracle.same("INCR", "n");
        oracle.same("SET", "n", "-9223372036854775807");
        oracle.same("DECR", "n");
        oracle.same("DECR", "n");
        oracle.same("SET", "n", "0");
        oracle.same("DECRBY", "n", "-9223372036854775808");
        oracle.same("INCRBY", "n", "-9223372036854775808");
        oracle.same("INCRBY", "n", "x");
        oracle.same("INCRBY", "n", "1.5");
        oracle.same("INCRBY", "n", " 1");
        oracle.same("INCRBY", "n", "+1");
        oracle.same("INCRBY", "n", "01");
        for (String bad : new String[] {" 1", "1 ", "+1", "01", "-0", "1.0", "abc", "", "99999999999999999999"}) {
            oracle.same("SET", "b", bad);
            oracle.same("INCR", "b");
            oracle.same("GET", "b");
        }
        oracle.same("HSET", "l", "f", "a");
        oracle.same("INCR", "l");
        oracle.same("INCRBY", "l", "x");
        oracle.same("DECRBY", "l", "1");
        oracle.same("SET", "t", "5", "EX", "100");
        oracle.same("INCR", "t");
        oracle.same("TTL", "t");
    }

    @Test
    void incrbyfloatMatchesRedisFormatting() {
        oracle.same("SET", "f", "10.5");
        oracle.same("INCRBYFLOAT", "f", "0.1");
        oracle.same("INCRBYFLOAT", "f", "1e20");
        oracle.same("GET", "f");
        oracle.same("INCRBYFLOAT", "g", "3");
        oracle.same("INCRBYFLOAT", "g", "-3");
        oracle.same("SET", "h", "1");
        oracle.same("INCRBYFLOAT", "h", "-1.1");
        oracle.same("INCRBYFLOAT", "h", "5.0e3");
        oracle.same("INCRBYFLOAT", "h", "1.23456789012345678901234567890");
        oracle.same("INCRBYFLOAT", "h", "-5000.3");
        oracle.same("INCRBYFLOAT", "h", "abc");
        oracle.same("INCRBYFLOAT", "h", "inf");
        oracle.same("INCRBYFLOAT", "h", "+inf");
        oracle.same("INCRBYFLOAT", "h", "nan");
        oracle.same("INCRBYFLOAT", "h", " 1");
        oracle.same("INCRBYFLOAT", "h", "1e400");
        oracle.same("INCRBYFLOAT", "h", "");
        oracle.same("SET", "z", "0");
        oracle.same("INCRBYFLOAT", "z", "0.024390243902439025");
        oracle.same("INCRBYFLOAT", "z", "-0.024390243902439025");
        oracle.same("SET", "bad", "1 ");
        oracle.same("INCRBYFLOAT", "bad", "1");
        oracle.same("SET", "bad", "inf");
        oracle.same("INCRBYFLOAT", "bad", "1");
        oracle.same("SET", "bad", "1");
        oracle.same("SETRANGE", "bad", "2", "2");
        oracle.same("INCRBYFLOAT", "bad", "1");
        oracle.same("HSET", "l", "f", "a");
        oracle.same("INCRBYFLOAT", "l", "1");
        oracle.same("INCRBYFLOAT", "l", "x");
        oracle.same("SET", "big", "1.7976931348623157e308");
        oracle.same("INCRBYFLOAT", "big", "1.7976931348623157e308");
        oracle.same("INCRBYFLOAT", "n", "0".repeat(5119));
        oracle.same("INCRBYFLOAT", "n", "0".repeat(5120));
        oracle.same("SET", "long", "0".repeat(5119));
        oracle.same("INCRBYFLOAT", "long", "1");
        oracle.same("SET", "long", "0".repeat(5120));
        oracle.same("INCRBYFLOAT", "long", "1");
        oracle.same("INCRBYFLOAT", "hex", "0x1p-2");
        oracle.same("INCRBYFLOAT", "n", "0.0000001");
        oracle.same("INCRBYFLOAT", "n", "123456789.123456789");
    }

    @Test
    void encodingsFollowRedis() {
        String[][] values = {
            {"1"}, {"-1"}, {"9999"}, {"10000"}, {"12345678901234567890"}, {"9223372036854775807"}, {"01"}, {"+1"},
            {"abc"}, {"x".repeat(44)}, {"x".repeat(45)}, {"1.5"}, {""},
        };
        for (String[] v : values) {
            oracle.same("SET", "k", v[0]);
            oracle.same("OBJECT", "ENCODING", "k");
            oracle.same("OBJECT", "REFCOUNT", "k");
        }
        oracle.same("SET", "k", "123");
        oracle.same("APPEND", "k", "4");
        oracle.same("OBJECT", "ENCODING", "k");
        oracle.same("INCR", "k");
        oracle.same("OBJECT", "ENCODING", "k");
        oracle.same("OBJECT", "REFCOUNT", "k");
        oracle.same("SET", "k", "12");
        oracle.same("APPEND", "k", "");
        oracle.same("OBJECT", "ENCODING", "k");
        oracle.same("APPEND", "new", "77");
        oracle.same("OBJECT", "ENCODING", "new");
        oracle.same("SET", "k", "1234");
        oracle.same("SETRANGE", "k", "0", "2");
        oracle.same("OBJECT", "ENCODING", "k");
        oracle.same("SETRANGE", "r", "0", "2");
        oracle.same("OBJECT", "ENCODING", "r");
        oracle.same("INCRBYFLOAT", "f", "3");
        oracle.same("OBJECT", "ENCODING", "f");
        oracle.same("INCRBYFLOAT", "f", "1.5");
        oracle.same("OBJECT", "ENCODING", "f");
        oracle.same("INCR", "i");
        oracle.same("OBJECT", "REFCOUNT", "i");
        oracle.same("INCRBY", "i", "20000");
        oracle.same("OBJECT", "REFCOUNT", "i");
        oracle.same("SET", "c", "5");
        oracle.same("COPY", "c", "c2");
        oracle.same("OBJECT", "ENCODING", "c2");
        oracle.same("OBJECT", "REFCOUNT", "c2");
        oracle.same("SET", "c", "x".repeat(10));
        oracle.same("COPY", "c", "c3");
        oracle.same("OBJECT", "ENCODING", "c3");
        oracle.same("RENAME", "k", "{k}moved");
        oracle.same("OBJECT", "ENCODING", "{k}moved");
        oracle.same("MSET", "m1", "7", "m2", "seven");
        oracle.same("OBJECT", "ENCODING", "m1");
        oracle.same("OBJECT", "ENCODING", "m2");
        oracle.same("SETEX", "se", "100", "77");
        oracle.same("OBJECT", "ENCODING", "se");
        oracle.same("GETSET", "se", "x".repeat(50));
        oracle.same("OBJECT", "ENCODING", "se");
    }

    @Test
    void lcsMatchesRedis() {
        oracle.same("MSET", "{l}a", "ohmytext", "{l}b", "mynewtext");
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
        oracle.same("MSET", "{l}x", "ACCGGTCGAGTGCGCGGAAGCCGGCCGAA", "{l}y", "GTCGTTCGGAATGCCGTTGCTCTGTAAA");
        oracle.same("MSET", "{l}p", "aaaaabbbbbaaaa", "{l}q", "abababababab");
        for (String[] p : pairs) {
            for (String[] o : opts) {
                String[] cmd = new String[3 + o.length];
                cmd[0] = "LCS";
                cmd[1] = p[0];
                cmd[2] = p[1];
                System.arraycopy(o, 0, cmd, 3, o.length);
                oracle.same(cmd);
            }
        }
        oracle.same("HSET", "{l}list", "f", "a");
        oracle.same("LCS", "{l}list", "{l}a");
        oracle.same("LCS", "{l}a", "{l}list", "FOO");
        oracle.same("LCS", "{l}a");
        oracle.same("MSET", "{l}big1", "a".repeat(11_600), "{l}big2", "b".repeat(11_600));
        oracle.same("LCS", "{l}big1", "{l}big2");
        oracle.same("LCS", "{l}big1", "{l}big2", "LEN");
        oracle.same("LCS", "{l}big1", "{l}a", "IDX", "MINMATCHLEN", "1");
        oracle.same("LCS", "a", "b");
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
            oracle.same(cmd);
        }
    }

    @Test
    void lettuceRoundTrips() {
        RedisCommands<String, String> r = oracle.kevy().lettuce();
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
        RedisCommands<byte[], byte[]> r = oracle.kevy().lettuceBinary();
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
        RawClient raw = oracle.kevy().raw();
        raw.call("SET", "k", "x");
        assertThat(raw.call("SETRANGE", "k", "536870911", "AB"))
                .isEqualTo("-ERR string exceeds maximum allowed size (proto-max-bulk-len)\r\n");
        assertThat(raw.call("GET", "k")).isEqualTo("$1\r\nx\r\n");
    }
}
