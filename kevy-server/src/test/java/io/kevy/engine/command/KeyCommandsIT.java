package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import io.kevy.testing.RedisOracle;
import io.kevy.testing.ReplyDiff;
import io.kevy.testing.TestServer;
import io.lettuce.core.CopyArgs;
import io.lettuce.core.ExpireArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Generic key commands (DEL, EXISTS, TYPE, TOUCH, RENAME, COPY, the EXPIRE/TTL family, PERSIST, OBJECT, KEYS,
 * SCAN and RANDOMKEY errors) against a real Redis 7.0 with {@link ReplyDiff}, plus lettuce round trips. One
 * kevy with 4 shards, so RENAME and COPY also cross shards.
 */
class KeyCommandsIT {
    private static TestServer kevy;
    private static RedisOracle redis;
    private static ReplyDiff diff;
    private static RedisClient redisClient;
    private static RedisCommands<String, String> redisLettuce;

    @BeforeAll
    static void start() {
        kevy = TestServer.start(ServerOptions.SHARDS, 4);
        redis = RedisOracle.start();
        diff = new ReplyDiff(kevy.raw(), redis.raw());
        redisClient = RedisClient.create("redis://127.0.0.1:" + redis.port());
        StatefulRedisConnection<String, String> conn = redisClient.connect();
        redisLettuce = conn.sync();
    }

    @AfterAll
    static void stop() {
        if (redisClient != null) {
            redisClient.shutdown();
        }
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
    void delExistsTypeTouchMatchRedis() {
        diff.same("MSET", "a", "1", "b", "2", "c", "3");
        diff.same("HSET", "h", "f", "v");
        diff.same("EXISTS", "a", "a", "nokey", "h");
        diff.same("TOUCH", "a", "a", "nokey", "h");
        diff.same("TYPE", "a");
        diff.same("TYPE", "h");
        diff.same("TYPE", "nokey");
        diff.same("DEL", "a", "nokey", "a", "b");
        diff.same("DEL", "nokey");
        diff.same("UNLINK", "c", "h", "c");
        diff.same("EXISTS", "a", "b", "c", "h");
        diff.same("DEL");
        diff.same("UNLINK");
        diff.same("EXISTS");
        diff.same("TOUCH");
        diff.same("TYPE");
        diff.same("TYPE", "a", "b");
    }

    @Test
    void renameMatchesRedis() {
        diff.same("RENAME", "nokey", "x");
        diff.same("RENAME", "nokey", "nokey");
        diff.same("RENAMENX", "nokey", "x");
        diff.same("SET", "a", "1");
        diff.same("RENAME", "a", "a");
        diff.same("RENAMENX", "a", "a");
        for (String dst : new String[] {"b", "{a}b", "zz", "other"}) {
            diff.same("SET", "src", "v", "EXAT", "99999999999");
            diff.same("HSET", dst, "f", "old");
            diff.same("RENAMENX", "src", dst);
            diff.same("RENAME", "src", dst);
            diff.same("GET", dst);
            diff.same("EXPIRETIME", dst);
            diff.same("EXISTS", "src");
            diff.same("RENAMENX", dst, "src");
            diff.same("GET", "src");
            diff.same("EXPIRETIME", "src");
            diff.same("DEL", "src", dst);
        }
        diff.same("HSET", "h", "f1", "v1", "f2", "v2");
        diff.same("RENAME", "h", "h2");
        diff.same("HGET", "h2", "f2");
        diff.same("TYPE", "h2");
        diff.same("RENAME", "a");
        diff.same("RENAMENX", "a", "b", "c");
    }

    @Test
    void everyTypeWorksForTypeCopyRenameObjectAndScan() {
        diff.same("RPUSH", "list", "a", "b", "c");
        diff.same("SADD", "set", "1", "2", "3");
        diff.same("SADD", "tset", "x", "y");
        diff.same("ZADD", "zset", "1", "a", "2.5", "b", "-inf", "c");
        diff.same("HSET", "hash", "f", "v");
        diff.same("SET", "str", "v", "EXAT", "99999999999");
        for (String k : new String[] {"list", "set", "tset", "zset", "hash"}) {
            diff.same("TYPE", k);
            diff.same("OBJECT", "ENCODING", k);
            diff.same("OBJECT", "REFCOUNT", k);
            diff.same("PEXPIREAT", k, "99999999999123");
            for (String dst : new String[] {"dst", "{" + k + "}dst", "x1", "x2"}) {
                diff.same("COPY", k, dst);
                diff.same("TYPE", dst);
                diff.same("OBJECT", "ENCODING", dst);
                diff.same("PEXPIRETIME", dst);
                contentsSame(dst);
                diff.same("COPY", "str", dst, "REPLACE");
                diff.same("RENAME", k, dst);
                diff.same("TYPE", dst);
                diff.same("PEXPIRETIME", dst);
                contentsSame(dst);
                diff.same("RENAMENX", dst, k);
                diff.same("EXISTS", dst, k);
            }
        }
        diff.same("LPUSH", "list", "z");
        diff.same("LRANGE", "list", "0", "-1");
        for (String type : new String[] {"list", "set", "zset", "hash", "string", "none", "LIST", "stream"}) {
            assertThat(sorted(kevyScan(type))).as("SCAN TYPE %s", type).isEqualTo(sorted(redisScan(type)));
        }
        diff.same("GET", "list");
        diff.same("INCR", "set");
        diff.same("APPEND", "zset", "x");
        diff.same("SET", "list", "v", "GET");
        diff.same("GETDEL", "hash");
        diff.same("LCS", "list", "str");
        diff.same("MGET", "list", "str", "set");
    }

    private static void contentsSame(String k) {
        diff.same("LRANGE", k, "0", "-1");
        diff.same("SCARD", k);
        diff.same("SISMEMBER", k, "2");
        diff.same("ZRANGE", k, "0", "-1", "WITHSCORES");
        diff.same("HGET", k, "f");
        diff.same("GET", k);
    }

    private static List<String> kevyScan(String type) {
        return scanAll(kevy.lettuce(), type);
    }

    private static List<String> redisScan(String type) {
        return scanAll(redisLettuce, type);
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
        diff.same("COPY", "nokey", "x");
        diff.same("SET", "a", "v", "EXAT", "99999999999");
        diff.same("COPY", "a", "a");
        diff.same("COPY", "a", "a", "DB", "0");
        diff.same("COPY", "a", "b");
        diff.same("GET", "b");
        diff.same("EXPIRETIME", "b");
        diff.same("COPY", "a", "b");
        diff.same("SET", "a", "v2");
        diff.same("COPY", "a", "b", "REPLACE");
        diff.same("GET", "b");
        diff.same("TTL", "b");
        diff.same("COPY", "a", "c", "DB", "0", "REPLACE");
        diff.same("COPY", "a", "d", "db", "x");
        diff.same("COPY", "a", "d", "db", "99999999999");
        diff.same("COPY", "a", "d", "db", "-1");
        diff.same("COPY", "a", "d", "DB");
        diff.same("COPY", "a", "d", "FOO");
        diff.same("COPY", "a", "d", "REPLACE", "REPLACE");
        diff.same("HSET", "h", "f1", "v1", "f2", "v2");
        diff.same("COPY", "h", "h2");
        diff.same("HSET", "h", "f1", "changed");
        diff.same("HGET", "h2", "f1");
        diff.same("COPY", "h", "a", "REPLACE");
        diff.same("TYPE", "a");
        diff.same("COPY", "a");
        assertThat(kevy.raw().call("COPY", "a", "x", "DB", "1")).isEqualTo("-ERR DB index is out of range\r\n");
        assertThat(kevy.raw().call("COPY", "a", "a", "DB", "1")).isEqualTo("-ERR DB index is out of range\r\n");
    }

    @Test
    void expireFamilyMatchesRedis() {
        String[] cmds = {"EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT"};
        String[] far = {"100", "100000", "99999999999", "99999999999000"};
        String[] farther = {"200", "200000", "99999999999", "99999999999500"};
        for (int i = 0; i < cmds.length; i++) {
            String cmd = cmds[i];
            diff.same(cmd, "nokey", far[i]);
            diff.same(cmd, "nokey", "abc");
            diff.same(cmd, "nokey", "10", "FOO");
            diff.same(cmd, "k", "abc", "FOO");
            diff.same("SET", "k", "v");
            diff.same(cmd, "k", far[i], "XX");
            diff.same(cmd, "k", far[i], "GT");
            diff.same(cmd, "k", far[i], "LT");
            diff.same("TTL", "k");
            diff.same("PERSIST", "k");
            diff.same(cmd, "k", far[i], "NX");
            diff.same(cmd, "k", far[i], "NX");
            diff.same(cmd, "k", farther[i], "LT");
            diff.same(cmd, "k", farther[i], "GT");
            diff.same("TTL", "k");
            diff.same(cmd, "k", far[i], "GT");
            diff.same(cmd, "k", far[i], "XX", "LT");
            diff.same(cmd, "k", farther[i], "XX", "GT");
            diff.same(cmd, "k", far[i], "nx", "xx");
            diff.same(cmd, "k", far[i], "NX", "GT");
            diff.same(cmd, "k", far[i], "NX", "LT");
            diff.same(cmd, "k", far[i], "GT", "LT");
            diff.same(cmd, "k", far[i], "gt", "gt");
            diff.same(cmd, "k", far[i], "xx", "xx", "lt");
            diff.same(cmd, "k", "9223372036854775807");
            diff.same(cmd, "k", "-9223372036854775808");
            diff.same(cmd, "k", "9223372036854775");
            diff.same(cmd, "k", "1.5");
            diff.same("TTL", "k");
            diff.same(cmd, "k", "-1", "LT");
            diff.same("EXISTS", "k");
            diff.same("SET", "k", "v");
            diff.same(cmd, "k", "-1", "GT");
            diff.same(cmd, "k", "0");
            diff.same("EXISTS", "k");
            diff.same(cmd, "k");
        }
        diff.same("SET", "k", "v");
        diff.same("PEXPIREAT", "k", "9223372036854775807");
        diff.same("PEXPIRETIME", "k");
    }

    @Test
    void ttlFamilyAndPersistMatchRedis() {
        for (String cmd : new String[] {"TTL", "PTTL", "EXPIRETIME", "PEXPIRETIME"}) {
            diff.same(cmd, "nokey");
            diff.same("SET", "k", "v");
            diff.same(cmd, "k");
            diff.same(cmd);
            diff.same(cmd, "a", "b");
        }
        diff.same("SET", "k", "v", "PXAT", "99999999999499");
        diff.same("EXPIRETIME", "k");
        diff.same("PEXPIRETIME", "k");
        diff.same("SET", "k", "v", "PXAT", "99999999999500");
        diff.same("EXPIRETIME", "k");
        diff.same("SET", "k", "v", "EX", "100");
        diff.same("TTL", "k");
        diff.same("PERSIST", "k");
        diff.same("PERSIST", "k");
        diff.same("TTL", "k");
        diff.same("PERSIST", "nokey");
        diff.same("PERSIST");
    }

    @Test
    void objectMatchesRedis() {
        diff.same("OBJECT", "HELP");
        diff.same("OBJECT", "help");
        diff.same("OBJECT");
        diff.same("OBJECT", "FOO");
        diff.same("OBJECT", "FOO", "k");
        diff.same("OBJECT", "ENCODING");
        diff.same("OBJECT", "ENCODING", "a", "b");
        diff.same("OBJECT", "HELP", "x");
        for (String sub : new String[] {"ENCODING", "REFCOUNT", "IDLETIME", "FREQ"}) {
            diff.same("OBJECT", sub, "nokey");
        }
        diff.same("SET", "k", "v");
        diff.same("OBJECT", "IDLETIME", "k");
        diff.same("OBJECT", "FREQ", "k");
        diff.same("HSET", "h", "f", "v");
        diff.same("OBJECT", "ENCODING", "h");
        diff.same("OBJECT", "REFCOUNT", "h");
        diff.same("HSET", "h", "f", "x".repeat(65));
        diff.same("OBJECT", "ENCODING", "h");
    }

    @Test
    void keysMatchesRedis() {
        String[] keys = {"one", "two", "three", "four", "foo", "foobar", "fo", "f", "a*b", "a?b", "a[b", "h{tag}1",
            "h{tag}2", "x\\y", "UPPER"};
        for (String k : keys) {
            diff.same("SET", k, "v");
        }
        String[] patterns = {"*", "f*", "*o*", "?o", "t[wh]*", "t[^w]*", "[a-f]*", "a\\*b", "a\\?b", "a[[]b",
            "*{tag}*", "nomatch", "", "x\\\\y", "upper", "[", "fo[", "\\", "f?o*", "*r", "*****", "h{tag}?"};
        for (String p : patterns) {
            assertThat(sorted(kevy.lettuce().keys(p))).as("KEYS %s", p).isEqualTo(sorted(redisLettuce.keys(p)));
        }
        diff.same("KEYS");
        diff.same("KEYS", "a", "b");
    }

    @Test
    void scanErrorsMatchRedis() {
        diff.same("SET", "k", "v");
        diff.same("SCAN", "x");
        diff.same("SCAN", "1x");
        diff.same("SCAN", " 1");
        diff.same("SCAN", "+");
        diff.same("SCAN", "-");
        diff.same("SCAN", "0x10");
        diff.same("SCAN", "18446744073709551616");
        diff.same("SCAN", "-18446744073709551616");
        diff.same("SCAN", "0", "COUNT", "0");
        diff.same("SCAN", "0", "COUNT", "-1");
        diff.same("SCAN", "0", "COUNT", "x");
        diff.same("SCAN", "0", "COUNT");
        diff.same("SCAN", "0", "MATCH");
        diff.same("SCAN", "0", "TYPE");
        diff.same("SCAN", "0", "FOO", "bar");
        diff.same("SCAN", "x", "COUNT", "0");
        diff.same("SCAN", "0", "COUNT", "0", "FOO");
        diff.same("SCAN");
        diff.same("RANDOMKEY", "x");
        diff.same("DEL", "k");
        diff.same("RANDOMKEY");
        diff.same("SCAN", "0");
        diff.same("SCAN", "");
        diff.same("SCAN", "0", "MATCH", "*", "COUNT", "100", "TYPE", "string");
    }

    @Test
    void lettuceRoundTrips() {
        RedisCommands<String, String> r = kevy.lettuce();
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
        RawClient raw = kevy.raw();
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
