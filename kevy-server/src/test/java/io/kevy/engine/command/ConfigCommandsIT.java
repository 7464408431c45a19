package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.OracleFixture;
import io.kevy.testing.RawClient;
import io.kevy.testing.Replies;
import io.kevy.testing.TestServer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** CONFIG GET/SET/RESETSTAT/REWRITE/HELP against a real Redis 7.0, and the real settings taking effect. */
class ConfigCommandsIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create().noFlush();

    @Test
    void getRepliesMatchRedis() {
        oracle.same("CONFIG", "GET", "maxclients");
        oracle.same("CONFIG", "GET", "MAXCLIENTS");
        oracle.same("CONFIG", "GET", "maxclients", "MAXCLIENTS");
        oracle.same("CONFIG", "GET", "hash-max-ziplist-entries");
        String[] twoParams = {"CONFIG", "GET", "hash-max-listpack-value", "zset-max-listpack-entries"};
        assertThat(pairs(oracle.kevy().raw().call(twoParams))).isEqualTo(pairs(oracle.redis().raw().call(twoParams)));
        oracle.same("CONFIG", "GET", "nosuch");
        oracle.same("CONFIG", "GET", "nosuch*");
        oracle.same("CONFIG", "GET");
        oracle.same("CONFIG", "GET", "maxmemory-policy");
        oracle.same("CONFIG", "GET", "notify-keyspace-events");
        oracle.same("CONFIG", "GET", "client-output-buffer-limit");
        oracle.same("CONFIG", "GET", "lazyfree-lazy-user-flush");
        oracle.same("CONFIG", "GET", "timeout");
        oracle.same("CONFIG", "GET", "proto-max-bulk-len");
        oracle.same("CONFIG", "GET", "hz");
        oracle.same("CONFIG", "GET", "requirepass");
        oracle.same("CONFIG", "GET", "slave-read-only");
        oracle.same("CONFIG", "HELP");
        oracle.same("CONFIG", "NOSUCH");
        oracle.same("CONFIG");
        assertThat(pairs(oracle.kevy().raw().call("CONFIG", "GET", "hash-max-*-entries", "maxmemory*")))
                .isEqualTo(pairs(oracle.redis().raw().call("CONFIG", "GET", "hash-max-*-entries", "maxmemory*")));
    }

    @Test
    void everyRedisParameterNameIsKnown() {
        Map<String, String> k = pairs(oracle.kevy().raw().call("CONFIG", "GET", "*"));
        Map<String, String> r = pairs(oracle.redis().raw().call("CONFIG", "GET", "*"));
        assertThat(k.keySet()).isEqualTo(r.keySet());
        assertThat(k).containsEntry("databases", "1").containsEntry("appendonly", "no")
                .containsEntry("port", Integer.toString(oracle.kevy().port())).containsEntry("maxmemory", "0")
                .containsEntry("hash-max-listpack-entries", "512");
    }

    /** Sets and sorted sets choose their encoding from the live limits, as Redis reads its config at each add. */
    @Test
    void setAndSortedSetEncodingsFollowConfigSet() {
        try {
            oracle.same("CONFIG", "SET", "set-max-intset-entries", "2", "zset-max-listpack-entries", "2",
                    "zset-max-listpack-value", "3");
            oracle.same("SADD", "{e}s", "1", "2");
            oracle.same("OBJECT", "ENCODING", "{e}s");
            oracle.same("SADD", "{e}s", "3");
            oracle.same("OBJECT", "ENCODING", "{e}s");
            oracle.same("SCARD", "{e}s"); // a hashtable's order follows Redis's seeded hash: not compared
            oracle.same("SADD", "{e}t", "5", "4");
            oracle.same("SUNIONSTORE", "{e}u", "{e}t", "{e}s");
            oracle.same("OBJECT", "ENCODING", "{e}u");
            oracle.same("ZADD", "{e}z", "1", "a", "2", "b");
            oracle.same("OBJECT", "ENCODING", "{e}z");
            oracle.same("ZADD", "{e}z", "3", "c");
            oracle.same("OBJECT", "ENCODING", "{e}z");
            oracle.same("ZADD", "{e}w", "1", "long");
            oracle.same("OBJECT", "ENCODING", "{e}w");
            oracle.same("ZRANGESTORE", "{e}r", "{e}z", "0", "-1");
            oracle.same("OBJECT", "ENCODING", "{e}r");
            oracle.same("ZUNIONSTORE", "{e}v", "1", "{e}z");
            oracle.same("OBJECT", "ENCODING", "{e}v");
            oracle.same("CONFIG", "SET", "set-max-intset-entries", "512", "zset-max-listpack-entries", "128",
                    "zset-max-listpack-value", "64");
            oracle.same("SADD", "{e}s2", "1", "2", "3");
            oracle.same("OBJECT", "ENCODING", "{e}s2");
            oracle.same("ZADD", "{e}z2", "1", "a", "2", "b", "3", "c");
            oracle.same("OBJECT", "ENCODING", "{e}z2");
        } finally {
            oracle.same("CONFIG", "SET", "set-max-intset-entries", "512", "zset-max-listpack-entries", "128",
                    "zset-max-listpack-value", "64");
        }
    }

    @Test
    void setRepliesMatchRedis() {
        oracle.same("CONFIG", "SET", "maxclients", "abc");
        oracle.same("CONFIG", "SET", "maxclients", "0");
        oracle.same("CONFIG", "SET", "maxclients", "1", "maxclients", "2");
        oracle.same("CONFIG", "SET", "maxclients", "1", "MAXCLIENTS", "2");
        oracle.same("CONFIG", "SET", "hash-max-listpack-entries", "5", "hash-max-ziplist-entries", "6");
        oracle.same("CONFIG", "GET", "hash-max-listpack-entries");
        oracle.same("CONFIG", "SET", "hash-max-ziplist-entries", "-1");
        oracle.same("CONFIG", "SET", "HASH-MAX-ZIPLIST-ENTRIES", "x");
        oracle.same("CONFIG", "SET", "hash-max-listpack-entries", "512");
        oracle.same("CONFIG", "SET", "maxmemory", "abc");
        oracle.same("CONFIG", "SET", "maxmemory", "-1");
        oracle.same("CONFIG", "SET", "maxmemory", "1kb");
        oracle.same("CONFIG", "GET", "maxmemory");
        oracle.same("CONFIG", "SET", "maxmemory", "2M");
        oracle.same("CONFIG", "GET", "maxmemory");
        oracle.same("CONFIG", "SET", "maxmemory", "1.5k");
        oracle.same("CONFIG", "SET", "maxmemory", "0");
        oracle.same("CONFIG", "SET", "activedefrag", "maybe");
        oracle.same("CONFIG", "SET", "maxmemory-policy", "foo");
        oracle.same("CONFIG", "SET", "maxmemory-policy", "ALLKEYS-LRU");
        oracle.same("CONFIG", "GET", "maxmemory-policy");
        oracle.same("CONFIG", "SET", "maxmemory-policy", "noeviction");
        oracle.same("CONFIG", "SET", "loglevel", "foo");
        oracle.same("CONFIG", "SET", "nosuch", "1", "port", "2");
        oracle.same("CONFIG", "SET", "daemonize", "no");
        oracle.same("CONFIG", "SET", "daemonize", "no", "nosuch", "1");
        oracle.same("CONFIG", "SET", "maxclients", "50", "hz", "abc");
        oracle.same("CONFIG", "GET", "maxclients");
        oracle.same("CONFIG", "SET", "a");
        oracle.same("CONFIG", "SET", "a", "b", "c");
        oracle.same("CONFIG", "SET", "save", "100 x");
        oracle.same("CONFIG", "SET", "save", "100");
        oracle.same("CONFIG", "SET", "save", "0 5");
        oracle.same("CONFIG", "SET", "save", " 100  +5 ");
        oracle.same("CONFIG", "SET", "save", "100 10 50 5");
        oracle.same("CONFIG", "GET", "save");
        oracle.same("CONFIG", "SET", "save", "");
        oracle.same("CONFIG", "GET", "save");
        oracle.same("CONFIG", "SET", "notify-keyspace-events", "Q");
        oracle.same("CONFIG", "SET", "notify-keyspace-events", "KEA");
        oracle.same("CONFIG", "GET", "notify-keyspace-events");
        oracle.same("CONFIG", "SET", "notify-keyspace-events", "Kg$xmn");
        oracle.same("CONFIG", "GET", "notify-keyspace-events");
        oracle.same("CONFIG", "SET", "notify-keyspace-events", "");
        oracle.same("CONFIG", "SET", "hz", "0");
        oracle.same("CONFIG", "GET", "hz");
        oracle.same("CONFIG", "SET", "hz", "1000");
        oracle.same("CONFIG", "GET", "hz");
        oracle.same("CONFIG", "SET", "hz", "10");
        oracle.same("CONFIG", "SET", "list-max-listpack-size", "-6");
        oracle.same("CONFIG", "GET", "list-max-ziplist-size");
        oracle.same("CONFIG", "SET", "list-max-listpack-size", "-2");
        oracle.same("CONFIG", "SET", "proto-max-bulk-len", "10");
        oracle.same("CONFIG", "SET", "proto-max-bulk-len", "abc");
        oracle.same("CONFIG", "SET", "timeout", "-1");
        oracle.same("CONFIG", "SET", "dir", "/nonexistent");
        oracle.same("CONFIG", "SET", "dbfilename", "a/b");
        oracle.same("CONFIG", "SET", "client-output-buffer-limit", "normal 0 0");
        oracle.same("CONFIG", "SET", "client-output-buffer-limit", "master 1 2 3");
        oracle.same("CONFIG", "SET", "client-output-buffer-limit", "normal x 2 3");
        oracle.same("CONFIG", "SET", "client-output-buffer-limit", "replica 1mb 2mb 3");
        oracle.same("CONFIG", "GET", "client-output-buffer-limit");
        oracle.same("CONFIG", "SET", "client-output-buffer-limit", "");
        oracle.same("CONFIG", "SET", "client-output-buffer-limit",
                "normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60");
        oracle.same("CONFIG", "SET", "slowlog-log-slower-than", "-5");
        oracle.same("CONFIG", "SET", "tcp-keepalive", "-1");
        oracle.same("CONFIG", "SET", "lazyfree-lazy-eviction", "YES");
        oracle.same("CONFIG", "GET", "lazyfree-lazy-eviction");
        oracle.same("CONFIG", "SET", "lazyfree-lazy-eviction", "no");
        oracle.same("CONFIG", "SET", "oom-score-adj-values", "1 2");
        oracle.same("CONFIG", "SET", "oom-score-adj-values", "1 2 3000");
        oracle.same("CONFIG", "SET", "latency-tracking-info-percentiles", "50 200");
        oracle.same("CONFIG", "SET", "latency-tracking-info-percentiles", "50 x");
        oracle.same("CONFIG", "SET", "latency-tracking-info-percentiles", "50.5 99.99");
        oracle.same("CONFIG", "GET", "latency-tracking-info-percentiles");
        oracle.same("CONFIG", "SET", "latency-tracking-info-percentiles", "50 99 99.9");
        oracle.same("CONFIG", "SET", "maxmemory-samples", "0");
        oracle.same("CONFIG", "SET", "maxmemory-clients", "200%");
        oracle.same("CONFIG", "SET", "maxmemory-clients", "10%");
        oracle.same("CONFIG", "GET", "maxmemory-clients");
        oracle.same("CONFIG", "SET", "maxmemory-clients", "0");
        oracle.same("CONFIG", "SET", "maxmemory-clients", "0%");
        oracle.same("CONFIG", "GET", "maxmemory-clients");
        oracle.same("CONFIG", "SET", "maxmemory-clients", "0");
        oracle.same("CONFIG", "SET", "appendfsync", "sometimes");
        oracle.same("CONFIG", "SET", "appendfsync", "EVERYSEC");
        oracle.same("CONFIG", "GET", "appendfsync");
        oracle.same("CONFIG", "SET", "maxclients", "10000", "hash-max-listpack-entries", "512",
                "hash-max-listpack-value", "64", "lazyfree-lazy-eviction", "no");
    }

    @Test
    void setIsAllOrNothing() {
        RawClient raw = oracle.kevy().raw();
        assertThat(raw.call("CONFIG", "SET", "maxclients", "77", "hash-max-listpack-entries", "9", "hz", "x"))
                .startsWith("-ERR CONFIG SET failed (possibly related to argument 'hz')");
        assertThat(Replies.array(raw.call("CONFIG", "GET", "maxclients"))).containsExactly("maxclients", "10000");
        assertThat(Replies.array(raw.call("CONFIG", "GET", "hash-max-listpack-entries")))
                .containsExactly("hash-max-listpack-entries", "512");
        assertThat(raw.call("CONFIG", "SET", "maxclients", "77", "hz", "20")).isEqualTo("+OK\r\n");
        assertThat(oracle.engine().hz()).isEqualTo(20);
        assertThat(raw.call("CONFIG", "SET", "maxclients", "10000", "hz", "10")).isEqualTo("+OK\r\n");
    }

    /** Both run without a config file (ConfigRewriteIT rewrites one). */
    @Test
    void rewriteWithoutAConfigFileAnswersRedisError() {
        oracle.same("CONFIG", "REWRITE");
        assertThat(oracle.kevy().raw().call("CONFIG", "REWRITE"))
                .isEqualTo("-ERR The server is running without a config file\r\n");
        oracle.same("CONFIG", "REWRITE", "x");
    }

    @Test
    void kevyDifferencesAreReadOnly() {
        RawClient raw = oracle.kevy().raw();
        for (String p : List.of("appendonly", "port", "bind", "databases", "io-threads")) {
            assertThat(raw.call("CONFIG", "SET", p, "1")).as(p).isEqualTo("-ERR CONFIG SET failed (possibly "
                    + "related to argument '" + p + "') - can't set immutable config\r\n");
        }
        assertThat(raw.call("CONFIG", "SET", "dir", "/tmp")).contains("can't set protected config");
        assertThat(Replies.array(raw.call("CONFIG", "GET", "dir"))).containsExactly("dir",
                oracle.kevy().dir().toAbsolutePath().toString());
    }

    /** Redis 7.0's memtoull: digits saturate at 2^64-1, units wrap modulo 2^64, then the signed range check. */
    @Test
    void memoryValuesParseAsRedis() {
        oracle.same("CONFIG", "SET", "client-query-buffer-limit", "1gb"); // kevy's default is lower than Redis's
        for (String v : List.of("99999999999999999999", "18446744073709551615", "9223372036854775808", "-5", "+2000000",
                " 2000000", "", "2000000x", "1.5mb", "2mb", "2MB", "2Gb", "9223372036854775807",
                "9007199254740993kb", "-1gb", "36028797018963968kb", "1" + "0".repeat(200), "0b", "kb")) {
            for (String p : List.of("client-query-buffer-limit", "maxmemory", "hash-max-listpack-value",
                    "stream-node-max-bytes")) {
                oracle.same("CONFIG", "SET", p, v);
                oracle.same("CONFIG", "GET", p);
            }
        }
        oracle.kevy().raw().call("CONFIG", "SET", "client-query-buffer-limit", "128mb");
        oracle.same("CONFIG", "SET", "maxmemory", "0");
        oracle.same("CONFIG", "SET", "hash-max-listpack-value", "64");
        oracle.same("CONFIG", "SET", "stream-node-max-bytes", "4096");
    }

    @Test
    void appendfsyncChangesTheAofWriterLive() {
        try (TestServer s = TestServer.start(io.kevy.server.config.ServerOptions.AOF, true)) {
            RawClient a = s.raw();
            assertThat(a.call("CONFIG", "SET", "appendfsync", "always")).isEqualTo("+OK\r\n");
            assertThat(s.server().persistence().fsync()).isEqualTo(io.kevy.persist.Fsync.ALWAYS);
            assertThat(s.server().persistence().gatesReplies()).isTrue();
            assertThat(a.call("SET", "k", "v")).isEqualTo("+OK\r\n");
            assertThat(a.call("CONFIG", "SET", "appendfsync", "no")).isEqualTo("+OK\r\n");
            assertThat(s.server().persistence().gatesReplies()).isFalse();
            assertThat(a.call("SET", "k", "w")).isEqualTo("+OK\r\n");
            assertThat(Replies.array(a.call("CONFIG", "GET", "appendfsync"))).containsExactly("appendfsync", "no");
            assertThat(a.call("INFO", "persistence")).contains("kevy_appendfsync:no");
        }
    }

    @Test
    void saveRulesReachPersistence() {
        try (TestServer s = TestServer.start()) {
            RawClient a = s.raw();
            assertThat(a.call("CONFIG", "SET", "save", "900 1 60 1000")).isEqualTo("+OK\r\n");
            assertThat(s.server().persistence().saveRules()).containsExactly(
                    new io.kevy.persist.PersistenceConfig.SaveRule(900, 1),
                    new io.kevy.persist.PersistenceConfig.SaveRule(60, 1000));
            assertThat(a.call("CONFIG", "SET", "save", "")).isEqualTo("+OK\r\n");
            assertThat(s.server().persistence().saveRules()).isEmpty();
            assertThat(Replies.array(a.call("CONFIG", "GET", "save"))).containsExactly("save", "");
        }
    }

    @Test
    void maxclientsTakesEffect() {
        try (TestServer s = TestServer.start()) {
            RawClient a = s.raw();
            assertThat(a.call("CONFIG", "SET", "maxclients", "1")).isEqualTo("+OK\r\n");
            RawClient b = s.raw();
            assertThat(b.readReply()).isEqualTo("-ERR max number of clients reached\r\n");
            assertThat(a.call("CONFIG", "SET", "maxclients", "10")).isEqualTo("+OK\r\n");
            assertThat(s.raw().call("PING")).isEqualTo("+PONG\r\n");
        }
    }

    @Test
    void protoMaxBulkLenTakesEffect() {
        try (TestServer s = TestServer.start()) {
            RawClient a = s.raw();
            assertThat(a.call("CONFIG", "SET", "proto-max-bulk-len", "1mb")).isEqualTo("+OK\r\n");
            assertThat(Replies.array(a.call("CONFIG", "GET", "proto-max-bulk-len")))
                    .containsExactly("proto-max-bulk-len", "1048576");
            RawClient b = s.raw();
            b.send("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$2000000\r\n");
            assertThat(b.readReply()).startsWith("-ERR Protocol error: invalid bulk length");
        }
    }

    @Test
    void requirepassTakesEffectForNewConnections() {
        try (TestServer s = TestServer.start()) {
            RawClient a = s.raw();
            assertThat(a.call("CONFIG", "SET", "requirepass", "pw")).isEqualTo("+OK\r\n");
            assertThat(a.call("PING")).isEqualTo("+PONG\r\n");
            RawClient b = s.raw();
            assertThat(b.call("PING")).isEqualTo("-NOAUTH Authentication required.\r\n");
            assertThat(b.call("AUTH", "pw")).isEqualTo("+OK\r\n");
            assertThat(Replies.array(a.call("CONFIG", "GET", "requirepass"))).containsExactly("requirepass", "pw");
        }
    }

    @Test
    void resetstatClearsStatistics() {
        try (TestServer s = TestServer.start()) {
            RawClient a = s.raw();
            a.call("HGET", "nosuch", "f");
            a.call("HSET", "h", "f", "v");
            a.call("HGET", "h", "f");
            a.call("NOSUCHCOMMAND");
            assertThat(a.call("INFO", "stats")).contains("keyspace_hits:1\r\n").contains("keyspace_misses:1\r\n")
                    .contains("total_error_replies:1\r\n");
            assertThat(a.call("INFO", "commandstats")).contains("cmdstat_hset:calls=1,");
            assertThat(a.call("CONFIG", "RESETSTAT")).isEqualTo("+OK\r\n");
            String stats = a.call("INFO", "stats");
            assertThat(stats).contains("keyspace_hits:0\r\n").contains("keyspace_misses:0\r\n")
                    .contains("total_error_replies:0\r\n").contains("total_connections_received:0\r\n")
                    .contains("total_net_input_bytes:" + "*2\r\n$4\r\nINFO\r\n$5\r\nstats\r\n".length() + "\r\n");
            assertThat(a.call("INFO", "commandstats")).doesNotContain("cmdstat_hset").contains("cmdstat_info:calls=1,");
            assertThat(Replies.bulk(a.call("INFO", "errorstats"))).isEqualTo("# Errorstats\r\n");
        }
    }

    /** A flat RESP array of bulk strings as a name → value map. */
    static Map<String, String> pairs(String resp) {
        List<String> items = Replies.array(resp);
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < items.size(); i += 2) {
            assertThat(m.put(items.get(i), items.get(i + 1))).as("duplicate %s", items.get(i)).isNull();
        }
        return m;
    }
}
