package io.kevy.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import io.kevy.testing.RedisOracle;
import io.kevy.testing.ReplyDiff;
import io.kevy.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Keyspace notifications ({@code notify-keyspace-events KEA}) per command family, against a real Redis 7.0: a
 * subscriber to {@code __key*__:*} on each server collects the push arrays one command produces, byte for byte
 * (in order; as a multiset where kevy's shards order a multi-key command's frames by shard instead of argv).
 */
class KeyspaceNotificationsIT {
    private static TestServer kevy;
    private static RedisOracle redis;
    private ReplyDiff diff;
    private RawClient kevySub;
    private RawClient redisSub;

    @BeforeAll
    static void start() {
        kevy = TestServer.start(c -> c.with(ServerOptions.NOTIFY_KEYSPACE_EVENTS, "KEA"));
        redis = RedisOracle.start();
    }

    @AfterAll
    static void stop() {
        if (kevy != null) {
            kevy.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    @BeforeEach
    void connect() {
        diff = new ReplyDiff(kevy.raw(), redis.raw());
        diff.same("FLUSHALL");
        diff.same("CONFIG", "SET", "notify-keyspace-events", "KEA");
        kevySub = kevy.raw();
        redisSub = redis.raw();
        for (RawClient s : new RawClient[] {kevySub, redisSub}) {
            s.command("PSUBSCRIBE", "__key*__:*");
            s.readReply();
            s.command("SUBSCRIBE", "marker");
            s.readReply();
        }
    }

    @AfterEach
    void close() {
        diff.close();
        kevySub.close();
        redisSub.close();
    }

    /** Runs {@code args} on both (same reply) and asserts the same notifications in the same order. */
    private List<String> same(String... args) {
        diff.same(args);
        List<String> k = collect(diff.kevy(), kevySub);
        List<String> r = collect(diff.redis(), redisSub);
        assertThat(k).as("notifications of %s", String.join(" ", args)).isEqualTo(r);
        return k;
    }

    /** As {@link #same}, in any order. */
    private List<String> sameUnordered(String... args) {
        diff.same(args);
        List<String> k = collect(diff.kevy(), kevySub);
        List<String> r = collect(diff.redis(), redisSub);
        assertThat(k).as("notifications of %s", String.join(" ", args)).containsExactlyInAnyOrderElementsOf(r);
        return k;
    }

    /** The messages {@code sub} receives up to a marker published after the command by {@code conn}. */
    static List<String> collect(RawClient conn, RawClient sub) {
        assertThat(conn.call("PUBLISH", "marker", "end")).isEqualTo(":1\r\n");
        List<String> out = new ArrayList<>();
        while (true) {
            String m = sub.readReply();
            if (m.equals("*3\r\n$7\r\nmessage\r\n$6\r\nmarker\r\n$3\r\nend\r\n")) {
                return out;
            }
            out.add(m);
        }
    }

    @Test
    void strings() {
        assertThat(same("SET", "s", "v")).hasSize(2);
        same("SET", "s", "v", "EX", "100");
        same("SET", "s", "v", "KEEPTTL");
        same("SETEX", "s", "100", "v");
        same("PSETEX", "s", "100000", "v");
        same("SETNX", "s", "v");
        same("SETNX", "s2", "v");
        same("GETSET", "s", "w");
        same("SET", "n", "1");
        same("INCR", "n");
        same("INCRBY", "n", "5");
        same("DECR", "n");
        same("DECRBY", "n", "2");
        same("INCRBYFLOAT", "n", "1.5");
        same("APPEND", "s", "xx");
        same("SETRANGE", "s", "1", "abc");
        same("GETEX", "s", "EX", "50");
        same("GETEX", "s", "PERSIST");
        same("GETDEL", "s");
        same("GETDEL", "s");
        same("SETBIT", "b", "7", "1");
        same("BITFIELD", "b", "SET", "u8", "0", "255");
        same("BITOP", "NOT", "b", "b");
        sameUnordered("MSET", "m1", "1", "m2", "2", "m3", "3");
        sameUnordered("MSETNX", "m4", "1", "m5", "2");
        same("MSETNX", "m4", "1", "m6", "2");
        same("INCR", "s2"); // an error: no event
    }

    @Test
    void hyperLogLogs() {
        same("PFADD", "hll", "a", "b");
        same("PFADD", "hll", "a"); // no register changed: no event
        same("PFCOUNT", "hll"); // caches the cardinality in the value: a change, but no event in Redis
        same("PFMERGE", "hll2", "hll"); // Redis names it pfadd
        same("PFDEBUG", "TODENSE", "hll");
        same("SET", "notahll", "x");
        same("PFADD", "notahll", "a"); // an error: no event
    }

    @Test
    void geo() {
        same("GEOADD", "{g}k", "13.361389", "38.115556", "Palermo", "15.087269", "37.502669", "Catania");
        same("GEOADD", "{g}k", "NX", "0", "0", "Palermo"); // nothing changed: no event
        same("GEOSEARCHSTORE", "{g}d", "{g}k", "FROMMEMBER", "Palermo", "BYRADIUS", "200", "km");
        same("GEORADIUS", "{g}k", "15", "37", "200", "km", "STORE", "{g}d");
        same("GEORADIUSBYMEMBER", "{g}k", "Palermo", "200", "km", "STOREDIST", "{g}d2");
        same("GEOSEARCHSTORE", "{g}d", "{g}k", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km"); // empty: del
        same("GEORADIUS", "{g}none", "15", "37", "200", "km", "STORE", "{g}d2"); // no source: del
        same("GEOSEARCH", "{g}k", "FROMMEMBER", "Palermo", "BYRADIUS", "200", "km");
    }

    @Test
    void keysAndExpire() {
        diff.same("SET", "a", "1");
        diff.same("SET", "b", "1");
        diff.same("SET", "c", "1");
        collect(diff.kevy(), kevySub);
        collect(diff.redis(), redisSub);
        same("EXPIRE", "a", "100");
        same("PEXPIRE", "a", "100000");
        same("EXPIREAT", "a", "99999999999");
        same("PEXPIREAT", "a", "99999999999000");
        same("PERSIST", "a");
        same("PERSIST", "a");
        same("EXPIRE", "a", "-1"); // in the past: del
        same("DEL", "nosuch");
        sameUnordered("DEL", "b", "c", "nosuch");
        diff.same("SET", "a", "1");
        diff.same("SET", "x", "1");
        collect(diff.kevy(), kevySub);
        collect(diff.redis(), redisSub);
        sameUnordered("UNLINK", "a", "x");
        diff.same("SET", "r", "1");
        collect(diff.kevy(), kevySub);
        collect(diff.redis(), redisSub);
        // rename_from/rename_to: in Redis's order on one shard; across shards kevy's two shards each say theirs
        sameUnordered("RENAME", "r", "r2");
        sameUnordered("RENAME", "r2", "{r2}x");
        sameUnordered("RENAMENX", "{r2}x", "r3");
        same("COPY", "r3", "r4");
        sameUnordered("COPY", "r3", "r4", "REPLACE");
    }

    /** RESTORE: {@code restore} once (also with REPLACE and a TTL), {@code del} when a past TTL only deleted. */
    @Test
    void restore() {
        diff.same("RPUSH", "src", "a", "b");
        collect(diff.kevy(), kevySub);
        collect(diff.redis(), redisSub);
        byte[] reply = diff.redis().send(RawClient.encode("DUMP".getBytes(StandardCharsets.US_ASCII),
                "src".getBytes(StandardCharsets.US_ASCII))).readReplyBytes();
        String r = new String(reply, StandardCharsets.ISO_8859_1);
        String payload = r.substring(r.indexOf("\r\n") + 2, r.length() - 2);
        for (String[] cmd : new String[][] {{"RESTORE", "dst", "0", payload}, {"RESTORE", "dst", "0", payload},
                {"RESTORE", "dst", "100000", payload, "REPLACE"}, {"RESTORE", "dst", "1", payload, "REPLACE",
                        "ABSTTL"}, {"RESTORE", "gone", "1", payload, "ABSTTL"}}) {
            diff.sameBytes(cmd);
            List<String> k = collect(diff.kevy(), kevySub);
            assertThat(k).as("notifications of %s", String.join(" ", cmd[0], cmd[1], cmd[2]))
                    .isEqualTo(collect(diff.redis(), redisSub));
        }
    }

    @Test
    void hashes() {
        same("HSET", "h", "f", "1", "g", "2");
        same("HSETNX", "h", "f", "1");
        same("HSETNX", "h", "n", "1");
        same("HMSET", "h", "f", "3");
        same("HINCRBY", "h", "f", "2");
        same("HINCRBYFLOAT", "h", "f", "0.5");
        same("HDEL", "h", "f", "nosuch");
        same("HDEL", "h", "g", "n");
    }

    @Test
    void lists() {
        same("LPUSH", "l", "a", "b");
        same("RPUSH", "l", "c");
        same("LPUSHX", "l", "d");
        same("RPUSHX", "nosuch", "d");
        same("LSET", "l", "0", "z");
        same("LINSERT", "l", "BEFORE", "z", "y");
        same("LREM", "l", "1", "y");
        same("LTRIM", "l", "0", "1");
        same("LPOP", "l");
        same("RPUSH", "l", "c", "d", "e");
        same("RPOP", "l", "2");
        same("RPOPLPUSH", "l", "l");
        sameUnordered("LMOVE", "l", "l2", "LEFT", "RIGHT");
        same("LMPOP", "1", "l", "LEFT");
        same("LMPOP", "1", "l", "LEFT");
        same("BLPOP", "l2", "0");
        same("RPUSH", "l3", "a", "b", "c", "d");
        same("BRPOP", "l3", "0");
        same("BLMPOP", "0", "1", "l3", "RIGHT", "COUNT", "1");
        same("BLMOVE", "l3", "l3", "LEFT", "RIGHT", "0");
        sameUnordered("BLMOVE", "l3", "{l3}x", "LEFT", "LEFT", "0");
        same("LTRIM", "nosuch", "0", "1");
        same("RPUSH", "t", "a");
        same("LTRIM", "t", "1", "0");
    }

    @Test
    void streamCommands() {
        same("XADD", "st", "1-1", "f", "v");
        same("XADD", "st", "2-1", "f", "v");
        same("XADD", "st", "MAXLEN", "1", "3-1", "f", "v");
        same("XADD", "st", "MAXLEN", "5", "4-1", "f", "v");
        same("XADD", "st", "NOMKSTREAM", "5-1", "f", "v");
        same("XADD", "nost", "NOMKSTREAM", "5-1", "f", "v");
        same("XDEL", "st", "4-1", "9-9");
        same("XDEL", "st", "9-9");
        same("XTRIM", "st", "MAXLEN", "0");
        same("XTRIM", "st", "MAXLEN", "0");
        same("XSETID", "st", "10-0");
        same("XGROUP", "CREATE", "st", "g", "$");
        same("XGROUP", "CREATE", "st2", "g", "$", "MKSTREAM");
        same("XGROUP", "SETID", "st", "g", "0");
        same("XGROUP", "CREATECONSUMER", "st", "g", "c");
        same("XADD", "st", "11-0", "f", "v");
        same("XREADGROUP", "GROUP", "g", "c2", "STREAMS", "st", ">");
        same("XREADGROUP", "GROUP", "g", "c2", "NOACK", "STREAMS", "st", ">");
        same("XCLAIM", "st", "g", "c3", "0", "11-0");
        same("XAUTOCLAIM", "st", "g", "c4", "0", "0");
        same("XACK", "st", "g", "11-0");
        same("XGROUP", "DELCONSUMER", "st", "g", "c");
        same("XGROUP", "DESTROY", "st", "g");
        same("COPY", "st", "{st}copy");
        sameUnordered("RENAME", "st", "renamed"); // across shards the destination is rebuilt first
    }

    @Test
    void blockingPopsServedByAPush() {
        try (RawClient kb = kevy.raw(); RawClient rb = redis.raw()) {
            kb.command("BLPOP", "q", "0");
            rb.command("BLPOP", "q", "0");
            org.awaitility.Awaitility.await().until(() -> diff.kevy().call("INFO", "clients")
                    .contains("blocked_clients:1"));
            org.awaitility.Awaitility.await().until(() -> diff.redis().call("INFO", "clients")
                    .contains("blocked_clients:1"));
            List<String> events = same("RPUSH", "q", "v");
            assertThat(kb.readReply()).isEqualTo(rb.readReply());
            assertThat(events).isNotEmpty();
            kb.command("BRPOPLPUSH", "q2", "q3", "0");
            rb.command("BRPOPLPUSH", "q2", "q3", "0");
            org.awaitility.Awaitility.await().until(() -> diff.kevy().call("INFO", "clients")
                    .contains("blocked_clients:1"));
            org.awaitility.Awaitility.await().until(() -> diff.redis().call("INFO", "clients")
                    .contains("blocked_clients:1"));
            sameUnordered("LPUSH", "q2", "w");
            assertThat(kb.readReply()).isEqualTo(rb.readReply());
            kb.command("BZPOPMIN", "bz", "0");
            rb.command("BZPOPMIN", "bz", "0");
            org.awaitility.Awaitility.await().until(() -> diff.kevy().call("INFO", "clients")
                    .contains("blocked_clients:1"));
            org.awaitility.Awaitility.await().until(() -> diff.redis().call("INFO", "clients")
                    .contains("blocked_clients:1"));
            same("ZADD", "bz", "1", "m");
            assertThat(kb.readReply()).isEqualTo(rb.readReply());
        }
    }

    @Test
    void sets() {
        same("SADD", "s", "a", "b", "c", "d");
        same("SADD", "s", "a");
        same("SREM", "s", "a", "nosuch");
        same("SADD", "one", "x");
        same("SPOP", "one"); // a set of one: the popped member is not random
        same("SADD", "{s}t", "x");
        same("SMOVE", "s", "{s}t", "nosuch");
        diff.same("SREM", "s", "b", "c", "d");
        collect(diff.kevy(), kevySub);
        collect(diff.redis(), redisSub);
        same("SADD", "s", "a", "b");
        same("SMOVE", "{s}t", "s", "x");
        same("SINTERSTORE", "{s}d", "s", "{s}t");
        same("SUNIONSTORE", "{s}d", "s", "{s}t");
        same("SDIFFSTORE", "{s}d", "s", "s");
        same("SDIFFSTORE", "{s}d", "s", "s");
        same("SADD", "one", "x");
        same("SPOP", "one", "5");
    }

    @Test
    void sortedSets() {
        same("ZADD", "z", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e");
        same("ZADD", "z", "1", "a");
        same("ZADD", "z", "INCR", "1", "a");
        same("ZADD", "z", "XX", "CH", "9", "a");
        same("ZINCRBY", "z", "1", "b");
        same("ZREM", "z", "a", "nosuch");
        same("ZREMRANGEBYSCORE", "z", "0", "2");
        same("ZREMRANGEBYRANK", "z", "0", "0");
        same("ZADD", "z", "0", "p", "0", "q", "0", "r");
        same("ZREMRANGEBYLEX", "z", "[p", "[p");
        same("ZPOPMIN", "z");
        same("ZPOPMAX", "z");
        same("ZMPOP", "1", "z", "MAX");
        same("ZADD", "{z}o", "1", "x");
        same("ZADD", "z", "1", "x", "2", "y");
        same("ZUNIONSTORE", "{z}d", "2", "z", "{z}o");
        same("ZINTERSTORE", "{z}d", "2", "z", "{z}o");
        same("ZDIFFSTORE", "{z}d", "1", "z");
        same("ZRANGESTORE", "{z}e", "z", "0", "-1");
        same("ZDIFFSTORE", "{z}d", "2", "z", "z");
        same("ZMPOP", "1", "z", "MIN", "COUNT", "10");
        same("BZPOPMAX", "{z}o", "0");
        same("ZADD", "bm", "1", "a", "2", "b");
        same("BZMPOP", "0", "1", "bm", "MAX");
        same("BZMPOP", "0", "1", "bm", "MIN", "COUNT", "5");
    }

    @Test
    void transactions() {
        diff.same("MULTI");
        diff.same("SET", "t", "1");
        diff.same("INCR", "t");
        diff.same("HSET", "th", "f", "v");
        diff.same("EXPIRE", "t", "100");
        same("EXEC");
        diff.same("WATCH", "t");
        diff.same("SET", "t", "2");
        collect(diff.kevy(), kevySub);
        collect(diff.redis(), redisSub);
        diff.same("MULTI");
        diff.same("DEL", "t");
        same("EXEC"); // aborted: nothing
    }

    @Test
    void sortStore() {
        same("RPUSH", "{l}src", "3", "1", "2");
        same("SORT", "{l}src", "STORE", "{l}dst");
        same("SORT", "{l}empty", "STORE", "{l}dst");
    }

    @Test
    void expiredOnLazyAndOnActiveExpiry() {
        RawClient k = diff.kevy();
        assertThat(k.call("DEBUG", "SET-ACTIVE-EXPIRE", "0")).isEqualTo("+OK\r\n");
        try {
            k.call("SET", "lazy", "v", "PX", "1");
            assertThat(collect(k, kevySub)).hasSize(4); // set, expire on both channels
            org.awaitility.Awaitility.await().until(() -> k.call("PTTL", "lazy").equals(":-2\r\n"));
            k.call("GET", "lazy"); // PTTL does not reap; a read does (lazy expiry)
            assertThat(collect(k, kevySub)).containsExactly(
                    "*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$19\r\n__keyspace@0__:lazy\r\n$7\r\nexpired\r\n",
                    "*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$22\r\n__keyevent@0__:expired\r\n$4\r\nlazy\r\n");
        } finally {
            k.call("DEBUG", "SET-ACTIVE-EXPIRE", "1");
        }
        k.call("SET", "active", "v", "PX", "1");
        assertThat(collect(k, kevySub)).hasSize(4);
        // nobody touches the key: the cron reaps it and the subscriber hears of it
        assertThat(kevySub.readReply())
                .isEqualTo("*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$21\r\n__keyspace@0__:active\r\n$7\r\nexpired\r\n");
        assertThat(kevySub.readReply())
                .isEqualTo("*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$22\r\n__keyevent@0__:expired\r\n$6\r\nactive\r\n");
    }

    @Test
    void flagsSelectTheClassesAndChannels() {
        diff.same("CONFIG", "SET", "notify-keyspace-events", "Kh");
        diff.same("CONFIG", "GET", "notify-keyspace-events");
        same("SET", "k", "v");
        same("HSET", "h", "f", "v");
        diff.same("CONFIG", "SET", "notify-keyspace-events", "E$");
        same("SET", "k", "v");
        same("HSET", "h", "f", "v");
        diff.same("CONFIG", "SET", "notify-keyspace-events", "g");
        same("DEL", "k");
        diff.same("CONFIG", "SET", "notify-keyspace-events", "");
        same("SET", "k", "v");
        diff.same("CONFIG", "SET", "notify-keyspace-events", "Kw");
        diff.same("CONFIG", "GET", "notify-keyspace-events");
    }
}
