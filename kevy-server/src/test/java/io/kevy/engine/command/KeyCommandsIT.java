package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.OracleFixture;
import io.kevy.testing.RawClient;
import io.kevy.testing.ReplyDiff;
import io.lettuce.core.CopyArgs;
import io.lettuce.core.ExpireArgs;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Generic key commands (DEL, EXISTS, TYPE, TOUCH, RENAME, COPY, the EXPIRE/TTL family, PERSIST, OBJECT, KEYS,
 * SCAN and RANDOMKEY errors) against a real Redis 7.0 with {@link ReplyDiff}, plus lettuce round trips. One
 * kevy with 4 shards, so RENAME and COPY also cross shards.
 */
class KeyCommandsIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create().shards(4);

    @Test
    void delExistsTypeTouchMatchRedis() {
        oracle.same("MSET", "a", "1", "b", "2", "c", "3");
        oracle.same("HSET", "h", "f", "v");
        oracle.same("EXISTS", "a", "a", "nokey", "h");
        oracle.same("TOUCH", "a", "a", "nokey", "h");
        oracle.same("TYPE", "a");
        oracle.same("TYPE", "h");
        oracle.same("TYPE", "nokey");
        oracle.same("DEL", "a", "nokey", "a", "b");
        oracle.same("DEL", "nokey");
        oracle.same("UNLINK", "c", "h", "c");
        oracle.same("EXISTS", "a", "b", "c", "h");
        oracle.same("DEL");
        oracle.same("UNLINK");
        oracle.same("EXISTS");
        oracle.same("TOUCH");
        oracle.same("TYPE");
        oracle.same("TYPE", "a", "b");
    }

    @Test
    void renameMatchesRedis() {
        oracle.same("RENAME", "nokey", "x");
        oracle.same("RENAME", "nokey", "nokey");
        oracle.same("RENAMENX", "nokey", "x");
        oracle.same("SET", "a", "1");
        oracle.same("RENAME", "a", "a");
        oracle.same("RENAMENX", "a", "a");
        for (String dst : new String[] {"b", "{a}b", "zz", "other"}) {
            oracle.same("SET", "src", "v", "EXAT", "99999999999");
            oracle.same("HSET", dst, "f", "old");
            oracle.same("RENAMENX", "src", dst);
            oracle.same("RENAME", "src", dst);
            oracle.same("GET", dst);
            oracle.same("EXPIRETIME", dst);
            oracle.same("EXISTS", "src");
            oracle.same("RENAMENX", dst, "src");
            oracle.same("GET", "src");
            oracle.same("EXPIRETIME", "src");
            oracle.same("DEL", "src", dst);
        }
        oracle.same("HSET", "h", "f1", "v1", "f2", "v2");
        oracle.same("RENAME", "h", "h2");
        oracle.same("HGET", "h2", "f2");
        oracle.same("TYPE", "h2");
        oracle.same("RENAME", "a");
        oracle.same("RENAMENX", "a", "b", "c");
    }

    @Test
    void everyTypeWorksForTypeCopyRenameObjectAndScan() {
        oracle.same("RPUSH", "list", "a", "b", "c");
        oracle.same("SADD", "set", "1", "2", "3");
        oracle.same("SADD", "tset", "x", "y");
        oracle.same("ZADD", "zset", "1", "a", "2.5", "b", "-inf", "c");
        oracle.same("HSET", "hash", "f", "v");
        oracle.same("SET", "str", "v", "EXAT", "99999999999");
        for (String k : new String[] {"list", "set", "tset", "zset", "hash"}) {
            oracle.same("TYPE", k);
            oracle.same("OBJECT", "ENCODING", k);
            oracle.same("OBJECT", "REFCOUNT", k);
            oracle.same("PEXPIREAT", k, "99999999999123");
            for (String dst : new String[] {"dst", "{" + k + "}dst", "x1", "x2"}) {
                oracle.same("COPY", k, dst);
                oracle.same("TYPE", dst);
                oracle.same("OBJECT", "ENCODING", dst);
                oracle.same("PEXPIRETIME", dst);
                contentsSame(dst);
                oracle.same("COPY", "str", dst, "REPLACE");
                oracle.same("RENAME", k, dst);
                oracle.same("TYPE", dst);
                oracle.same("PEXPIRETIME", dst);
                contentsSame(dst);
                oracle.same("RENAMENX", dst, k);
                oracle.same("EXISTS", dst, k);
            }
        }
        oracle.same("LPUSH", "list", "z");
        oracle.same("LRANGE", "list", "0", "-1");
        for (String type : new String[] {"list", "set", "zset", "hash", "string", "none", "LIST", "stream"}) {
            assertThat(sorted(kevyScan(type))).as("SCAN TYPE %s", type).isEqualTo(sorted(redisScan(type)));
        }
        oracle.same("GET", "list");
        oracle.same("INCR", "set");
        oracle.same("APPEND", "zset", "x");
        oracle.same("SET", "list", "v", "GET");
        oracle.same("GETDEL", "hash");
        oracle.same("LCS", "list", "str");
        oracle.same("MGET", "list", "str", "set");
    }

    private static void contentsSame(String k) {
        oracle.same("LRANGE", k, "0", "-1");
        oracle.same("SCARD", k);
        oracle.same("SISMEMBER", k, "2");
        oracle.same("ZRANGE", k, "0", "-1", "WITHSCORES");
        oracle.same("HGET", k, "f");
        oracle.same("GET", k);
    }

    private static List<String> kevyScan(String type) {
        return scanAll(oracle.kevy().lettuce(), type);
    }

    private static List<String> redisScan(String type) {
        return scanAll(oracle.redisLettuce(), type);
    }

    private static List<String> scanAll(RedisCommands<String, String> r, String type) {
        List<String> out = new ArrayList<>();
        io.lettuce.core.KeyScanCursor<String> c = r.scan(io.lettuce.core.KeyScanArgs.Builder.type(type).limit(3));
        out.addAll(c.getKeys());
        while (!c.isFinished()) {
            c = r.scan(c, io.lettuce.core.KeyScanArgs.Builder.type(type).limit(3));
            out.addAll(c.getKeys());
        }
        return out;
    }

    @Test
    void copyMatchesRedis() {
        oracle.same("COPY", "nokey", "x");
        oracle.same("SET", "a", "v", "EXAT", "99999999999");
        oracle.same("COPY", "a", "a");
        oracle.same("COPY", "a", "a", "DB", "0");
        oracle.same("COPY", "a", "b");
        oracle.same("GET", "b");
        oracle.same("EXPIRETIME", "b");
        oracle.same("COPY", "a", "b");
        oracle.same("SET", "a", "v2");
        oracle.same("COPY", "a", "b", "REPLACE");
        oracle.same("GET", "b");
        oracle.same("TTL", "b");
        oracle.same("COPY", "a", "c", "DB", "0", "REPLACE");
        oracle.same("COPY", "a", "d", "db", "x");
        oracle.same("COPY", "a", "d", "db", "99999999999");
        oracle.same("COPY", "a", "d", "db", "-1");
        oracle.same("COPY", "a", "d", "DB");
        oracle.same("COPY", "a", "d", "FOO");
        oracle.same("COPY", "a", "d", "REPLACE", "REPLACE");
        oracle.same("HSET", "h", "f1", "v1", "f2", "v2");
        oracle.same("COPY", "h", "h2");
        oracle.same("HSET", "h", "f1", "changed");
        oracle.same("HGET", "h2", "f1");
        oracle.same("COPY", "h", "a", "REPLACE");
        oracle.same("TYPE", "a");
        oracle.same("COPY", "a");
        assertThat(oracle.kevy().raw().call("COPY", "a", "x", "DB", "1"))
                .isEqualTo("-ERR DB index is out of range\r\n");
        assertThat(oracle.kevy().raw().call("COPY", "a", "a", "DB", "1"))
                .isEqualTo("-ERR DB index is out of range\r\n");
    }

    @Test
    void expireFamilyMatchesRedis() {
        String[] cmds = {"EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT"};
        String[] far = {"100", "100000", "99999999999", "99999999999000"};
        String[] farther = {"200", "200000", "99999999999", "99999999999500"};
        for (int i = 0; i < cmds.length; i++) {
            String cmd = cmds[i];
            oracle.same(cmd, "nokey", far[i]);
            oracle.same(cmd, "nokey", "abc");
            oracle.same(cmd, "nokey", "10", "FOO");
            oracle.same(cmd, "k", "abc", "FOO");
            oracle.same("SET", "k", "v");
            oracle.same(cmd, "k", far[i], "XX");
            oracle.same(cmd, "k", far[i], "GT");
            oracle.same(cmd, "k", far[i], "LT");
            oracle.same("TTL", "k");
            oracle.same("PERSIST", "k");
            oracle.same(cmd, "k", far[i], "NX");
            oracle.same(cmd, "k", far[i], "NX");
            oracle.same(cmd, "k", farther[i], "LT");
            oracle.same(cmd, "k", farther[i], "GT");
            oracle.same("TTL", "k");
            oracle.same(cmd, "k", far[i], "GT");
            oracle.same(cmd, "k", far[i], "XX", "LT");
            oracle.same(cmd, "k", farther[i], "XX", "GT");
            oracle.same(cmd, "k", far[i], "nx", "xx");
            oracle.same(cmd, "k", far[i], "NX", "GT");
            oracle.same(cmd, "k", far[i], "NX", "LT");
            oracle.same(cmd, "k", far[i], "GT", "LT");
            oracle.same(cmd, "k", far[i], "gt", "gt");
            oracle.same(cmd, "k", far[i], "xx", "xx", "lt");
            oracle.same(cmd, "k", "9223372036854775807");
            oracle.same(cmd, "k", "-9223372036854775808");
            oracle.same(cmd, "k", "9223372036854775");
            oracle.same(cmd, "k", "1.5");
            oracle.same("TTL", "k");
            oracle.same(cmd, "k", "-1", "LT");
            oracle.same("EXISTS", "k");
            oracle.same("SET", "k", "v");
            oracle.same(cmd, "k", "-1", "GT");
            oracle.same(cmd, "k", "0");
            oracle.same("EXISTS", "k");
            oracle.same(cmd, "k");
        }
        oracle.same("SET", "k", "v");
        oracle.same("PEXPIREAT", "k", "9223372036854775807");
        oracle.same("PEXPIRETIME", "k");
    }

    @Test
    void ttlFamilyAndPersistMatchRedis() {
        for (String cmd : new String[] {"TTL", "PTTL", "EXPIRETIME", "PEXPIRETIME"}) {
            oracle.same(cmd, "nokey");
            oracle.same("SET", "k", "v");
            oracle.same(cmd, "k");
            oracle.same(cmd);
            oracle.same(cmd, "a", "b");
        }
        oracle.same("SET", "k", "v", "PXAT", "99999999999499");
        oracle.same("EXPIRETIME", "k");
        oracle.same("PEXPIRETIME", "k");
        oracle.same("SET", "k", "v", "PXAT", "99999999999500");
        oracle.same("EXPIRETIME", "k");
        oracle.same("SET", "k", "v", "EX", "100");
        oracle.same("TTL", "k");
        oracle.same("PERSIST", "k");
        oracle.same("PERSIST", "k");
        oracle.same("TTL", "k");
        oracle.same("PERSIST", "nokey");
        oracle.same("PERSIST");
    }

    @Test
    void objectMatchesRedis() {
        oracle.same("OBJECT", "HELP");
        oracle.same("OBJECT", "help");
        oracle.same("OBJECT");
        oracle.same("OBJECT", "FOO");
        oracle.same("OBJECT", "FOO", "k");
        oracle.same("OBJECT", "ENCODING");
        oracle.same("OBJECT", "ENCODING", "a", "b");
        oracle.same("OBJECT", "HELP", "x");
        for (String sub : new String[] {"ENCODING", "REFCOUNT", "IDLETIME", "FREQ"}) {
            oracle.same("OBJECT", sub, "nokey");
        }
        oracle.same("SET", "k", "v");
        oracle.same("OBJECT", "IDLETIME", "k");
        oracle.same("OBJECT", "FREQ", "k");
        oracle.same("HSET", "h", "f", "v");
        oracle.same("OBJECT", "ENCODING", "h");
        oracle.same("OBJECT", "REFCOUNT", "h");
        oracle.same("HSET", "h", "f", "x".repeat(65));
        oracle.same("OBJECT", "ENCODING", "h");
    }

    @Test
    void keysMatchesRedis() {
        String[] keys = {"one", "two", "three", "four", "foo", "foobar", "fo", "f", "a*b", "a?b", "a[b", "h{tag}1",
            "h{tag}2", "x\\y", "UPPER"};
        for (String k : keys) {
            oracle.same("SET", k, "v");
        }
        String[] patterns = {"*", "f*", "*o*", "?o", "t[wh]*", "t[^w]*", "[a-f]*", "a\\*b", "a\\?b", "a[[]b",
            "*{tag}*", "nomatch", "", "x\\\\y", "upper", "[", "fo[", "\\", "f?o*", "*r", "*****", "h{tag}?"};
        for (String p : patterns) {
            assertThat(sorted(oracle.kevy().lettuce().keys(p))).as("KEYS %s", p)
                    .isEqualTo(sorted(oracle.redisLettuce().keys(p)));
        }
        oracle.same("KEYS");
        oracle.same("KEYS", "a", "b");
    }

    @Test
    void scanErrorsMatchRedis() {
        oracle.same("SET", "k", "v");
        oracle.same("SCAN", "x");
        oracle.same("SCAN", "1x");
        oracle.same("SCAN", " 1");
        oracle.same("SCAN", "+");
        oracle.same("SCAN", "-");
        oracle.same("SCAN", "0x10");
        oracle.same("SCAN", "18446744073709551616");
        oracle.same("SCAN", "-18446744073709551616");
        oracle.same("SCAN", "0", "COUNT", "0");
        oracle.same("SCAN", "0", "COUNT", "-1");
        oracle.same("SCAN", "0", "COUNT", "x");
        oracle.same("SCAN", "0", "COUNT");
        oracle.same("SCAN", "0", "MATCH");
        oracle.same("SCAN", "0", "TYPE");
        oracle.same("SCAN", "0", "FOO", "bar");
        oracle.same("SCAN", "x", "COUNT", "0");
        oracle.same("SCAN", "0", "COUNT", "0", "FOO");
        oracle.same("SCAN");
        oracle.same("RANDOMKEY", "x");
        oracle.same("DEL", "k");
        oracle.same("RANDOMKEY");
        oracle.same("SCAN", "0");
        oracle.same("SCAN", "");
        oracle.same("SCAN", "0", "MATCH", "*", "COUNT", "100", "TYPE", "string");
    }

    @Test
    void lettuceRoundTrips() {
        RedisCommands<String, String> r = oracle.kevy().lettuce();
        r.mset(Map.of("a", "1", "b", "2"));
        assertThat(r.exists("a", "b", "c")).isEqualTo(2);
        assertThat(r.type("a")).isEqualTo("string");
        assertThat(r.expire("a", 100, ExpireArgs.Builder.nx())).isTrue();
        assertThat(r.expire("a", 100, ExpireArgs.Builder.nx())).isFalse();
        assertThat(r.ttl("a")).isBetween(99L, 100L);
        assertThat(r.pttl("a")).isBetween(99_000L, 100_000L);
        assertThat(r.persist("a")).isTrue();
        assertThat(r.copy("a", "c", CopyArgs.Builder.replace(true))).isTrue();
        assertThat(r.rename("c", "d")).isEqualTo("OK");
        assertThat(r.renamenx("d", "a")).isFalse();
        assertThat(r.touch("a", "d", "zz")).isEqualTo(2);
        assertThat(r.del("a", "b", "d", "zz")).isEqualTo(3);
        assertThat(r.randomkey()).isNull();
        r.set("only", "x");
        assertThat(r.randomkey()).isEqualTo("only");
        assertThat(r.objectEncoding("only")).isEqualTo("embstr");
        assertThat(r.objectIdletime("only")).isZero();
    }

    @Test
    void keysWithAHundredKilobytePatternDoesNotOverflowTheStack() {
        RawClient raw = oracle.kevy().raw();
        raw.call("SET", "a".repeat(100), "v");
        raw.call("SET", "ab", "v");
        raw.call("SET", "a".repeat(50) + "b", "v");
        assertThat(raw.call("KEYS", "a*".repeat(50_000) + "b")).isEqualTo("*0\r\n");
        assertThat(raw.call("KEYS", "*".repeat(100_000))).startsWith("*3\r\n");
        assertThat(raw.call("KEYS", "*a".repeat(50_000))).isEqualTo("*0\r\n");
        assertThat(raw.call("KEYS", "[".repeat(100_000))).isEqualTo("*0\r\n");
        assertThat(raw.call("KEYS", "a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b"))
                .startsWith("*1\r\n");
        assertThat(raw.call("SCAN", "0", "MATCH", "\\".repeat(100_000) + "a", "COUNT", "1000"))
                .endsWith("*0\r\n");
        assertThat(raw.call("PING")).isEqualTo("+PONG\r\n");
    }

    private static List<String> sorted(List<String> l) {
        List<String> c = new ArrayList<>(l);
        c.sort(null);
        return c;
    }
}
