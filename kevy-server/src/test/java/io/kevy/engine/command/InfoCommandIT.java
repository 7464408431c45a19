package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.engine.Engine;
import io.kevy.testing.OracleFixture;
import io.kevy.testing.RawClient;
import io.kevy.testing.Replies;
import io.kevy.testing.TestServer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * INFO's structure compared with a real Redis 7.0 (section titles and order, field names and order per section;
 * the values are dynamic), and kevy's values: keyspace, statistics, registered sections.
 */
class InfoCommandIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create().noFlush();

    @BeforeAll
    static void seed() {
        oracle.same("HSET", "h", "f", "v");
        oracle.same("SET", "s", "v");
    }

    @Test
    void sectionsAndTheirOrderMatchRedis() {
        for (String[] args : new String[][] {{}, {"default"}, {"all"}, {"everything"}, {"ALL"}, {"server", "clients"},
            {"keyspace", "SERVER"}, {"commandstats"}, {"cpu", "nosuch", "cluster"}, {"modules"}, {"all", "server"},
            {"default", "commandstats"}, {"latencystats"}}) {
            List<String> ours = titles(info(oracle.kevy().raw(), args));
            ours.remove("Feed"); // kevy's own section, after Keyspace (registeredSectionsFollowKeyspace...)
            assertThat(ours).as("INFO %s", String.join(" ", args)).isEqualTo(titles(info(oracle.redis().raw(), args)));
        }
        oracle.same("INFO", "nosuch");
        oracle.same("INFO", "modules");
        oracle.same("INFO", "cluster");
    }

    @Test
    void fieldNamesAndOrderMatchRedis() {
        Map<String, List<String>> k = fieldNames(info(oracle.kevy().raw(), "everything"));
        Map<String, List<String>> r = fieldNames(info(oracle.redis().raw(), "everything"));
        for (String section : List.of("Server", "Clients", "Memory", "Persistence", "Stats", "Replication", "CPU",
                "Cluster")) {
            List<String> ours = new ArrayList<>(k.get(section));
            ours.removeIf(f -> f.startsWith("kevy_"));
            assertThat(ours).as("fields of # %s", section).isEqualTo(r.get(section));
        }
    }

    @Test
    void formatIsRedisLines() {
        String text = info(oracle.kevy().raw(), "all");
        assertThat(text).doesNotEndWith("\r\n\r\n").endsWith("\r\n");
        Pattern line = Pattern.compile("(# [A-Za-z]+|[a-z0-9_|]+:.*|)");
        for (String l : text.split("\r\n", -1)) {
            assertThat(l).matches(line);
        }
        Map<String, String> server = fields(info(oracle.kevy().raw(), "server"));
        assertThat(server).containsEntry("redis_version", "7.0.15").containsEntry("redis_mode", "standalone")
                .containsEntry("tcp_port", Integer.toString(oracle.kevy().port())).containsEntry("arch_bits", "64")
                .containsEntry("process_id", Long.toString(ProcessHandle.current().pid()))
                .containsEntry("multiplexing_api", io.netty.channel.uring.IoUring.isAvailable() ? "io_uring"
                        : io.netty.channel.epoll.Epoll.isAvailable() ? "epoll" : "nio")
                .containsEntry("kevy_shards", "2").containsEntry("hz", "10");
        assertThat(server.get("run_id")).matches("[0-9a-f]{40}");
        Map<String, String> memory = fields(info(oracle.kevy().raw(), "memory"));
        assertThat(Long.parseLong(memory.get("used_memory"))).isPositive();
        assertThat(memory.get("used_memory_human")).matches("[0-9.]+[BKMGTP]");
        assertThat(memory).containsEntry("maxmemory", "0").containsEntry("maxmemory_human", "0B")
                .containsEntry("maxmemory_policy", "noeviction").containsEntry("mem_allocator", "jvm");
        Map<String, String> replication = fields(info(oracle.kevy().raw(), "replication"));
        assertThat(replication).containsEntry("role", "master").containsEntry("connected_slaves", "0");
        Map<String, String> persistence = fields(info(oracle.kevy().raw(), "persistence"));
        assertThat(persistence).containsEntry("loading", "0").containsEntry("aof_enabled", "0")
                .containsEntry("rdb_last_save_time", oracle.kevy().raw().call("LASTSAVE").substring(1).trim());
        assertThat(fields(info(oracle.kevy().raw(), "cpu")).get("used_cpu_user")).matches("[0-9]+\\.[0-9]{6}");
    }

    @Test
    void keyspaceClientsAndStatsAreCounted() {
        try (TestServer s = TestServer.start()) {
            RawClient a = s.raw();
            assertThat(Replies.bulk(a.call("INFO", "keyspace"))).isEqualTo("# Keyspace\r\n");
            a.call("HSET", "h1", "f", "v");
            a.call("HSET", "h2", "f", "v");
            a.call("HGET", "h1", "f");
            a.call("HGET", "h1", "nosuch");
            a.call("HGET", "missing", "f");
            a.call("HGET", "h1");
            a.call("HINCRBY", "h1", "f", "1");
            a.call("SET", "h1", "x", "y");
            s.raw().call("PING");
            assertThat(Replies.bulk(a.call("INFO", "keyspace")))
                    .isEqualTo("# Keyspace\r\ndb0:keys=2,expires=0,avg_ttl=0\r\n");
            Map<String, String> stats = fields(info(a, "stats"));
            assertThat(stats).containsEntry("keyspace_hits", "2").containsEntry("keyspace_misses", "1")
                    .containsEntry("total_error_replies", "3").containsEntry("total_connections_received", "2");
            assertThat(Long.parseLong(stats.get("total_commands_processed"))).isGreaterThanOrEqualTo(10);
            // Every byte read from a client counts, as Redis's stat_net_input_bytes: between two INFO stats
            // calls on one connection come a PING (14 bytes) and the second INFO stats (25 bytes).
            long input = Long.parseLong(stats.get("total_net_input_bytes"));
            assertThat(input).isPositive();
            a.call("PING");
            long after = Long.parseLong(fields(info(a, "stats")).get("total_net_input_bytes"));
            assertThat(after - input).isEqualTo("*1\r\n$4\r\nPING\r\n".length()
                    + "*2\r\n$4\r\nINFO\r\n$5\r\nstats\r\n".length());
            assertThat(fields(info(a, "clients"))).containsEntry("connected_clients", "2")
                    .containsEntry("maxclients", "10000").containsEntry("blocked_clients", "0");
            String cmdstats = info(a, "commandstats");
            assertThat(cmdstats).containsPattern("cmdstat_hset:calls=2,usec=\\d+,usec_per_call=\\d+\\.\\d\\d,"
                    + "rejected_calls=0,failed_calls=0\r\n");
            assertThat(cmdstats).contains("cmdstat_hget:calls=3,").contains(",rejected_calls=1,failed_calls=0");
            assertThat(cmdstats).containsPattern("cmdstat_hincrby:calls=1,.*,rejected_calls=0,failed_calls=1");
            a.call("CONFIG", "GET", "hz");
            assertThat(info(a, "commandstats")).contains("cmdstat_config|get:calls=1,");
            assertThat(info(a, "errorstats")).isEqualTo("# Errorstats\r\nerrorstat_ERR:count=3\r\n");
            a.call("HGET", "h2", "f");
            a.call("SET", "str", "v");
            a.call("HGET", "str", "f");
            assertThat(info(a, "errorstats"))
                    .isEqualTo("# Errorstats\r\nerrorstat_ERR:count=3\r\nerrorstat_WRONGTYPE:count=1\r\n");
        }
    }

    @Test
    void registeredSectionsFollowKeyspaceAndReplaceBuiltIns() {
        try (TestServer s = TestServer.start()) {
            Engine e = s.server().engine();
            e.registerInfoSection("feed", sb -> sb.append("feed_enabled:1\r\n"));
            e.registerInfoSection("persistence", sb -> sb.append("aof_enabled:1\r\nkevy_extra:7\r\n"));
            RawClient a = s.raw();
            assertThat(titles(info(a))).endsWith("Keyspace", "Feed").contains("Persistence");
            assertThat(titles(info(a, "all"))).endsWith("Keyspace", "Feed");
            assertThat(info(a, "feed")).isEqualTo("# Feed\r\nfeed_enabled:1\r\n");
            Map<String, String> persistence = fields(info(a, "persistence"));
            assertThat(persistence).containsEntry("aof_enabled", "1").containsEntry("loading", "0")
                    .containsKey("module_fork_last_cow_size");
            assertThat(List.copyOf(persistence.keySet())).endsWith("module_fork_last_cow_size", "kevy_extra");
            assertThat(titles(info(a, "server"))).containsExactly("Server");
        }
    }

    @Test
    void lastsaveIsWhatPersistenceRecords() {
        try (TestServer s = TestServer.start()) {
            RawClient a = s.raw();
            long before = System.currentTimeMillis() / 1000;
            long lastsave = Long.parseLong(a.call("LASTSAVE").substring(1).trim());
            assertThat(lastsave).isBetween(before - 60, before + 1);
            s.server().engine().durability(new io.kevy.engine.Durability() {
                @Override
                public long lastSaveSeconds() {
                    return 1234567890L;
                }
            });
            assertThat(a.call("LASTSAVE")).isEqualTo(":1234567890\r\n");
        }
    }

    private static String info(RawClient c, String... sections) {
        String[] cmd = new String[sections.length + 1];
        cmd[0] = "INFO";
        System.arraycopy(sections, 0, cmd, 1, sections.length);
        return Replies.bulk(c.call(cmd));
    }

    private static List<String> titles(String info) {
        List<String> out = new ArrayList<>();
        for (String l : info.split("\r\n")) {
            if (l.startsWith("# ")) {
                out.add(l.substring(2));
            }
        }
        return out;
    }

    private static Map<String, List<String>> fieldNames(String info) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        List<String> current = null;
        for (String l : info.split("\r\n")) {
            if (l.startsWith("# ")) {
                current = new ArrayList<>();
                m.put(l.substring(2), current);
            } else if (!l.isEmpty() && current != null) {
                current.add(l.substring(0, l.indexOf(':')));
            }
        }
        return m;
    }

    private static Map<String, String> fields(String info) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String l : info.split("\r\n")) {
            int colon = l.indexOf(':');
            if (!l.startsWith("#") && colon > 0) {
                m.put(l.substring(0, colon), l.substring(colon + 1));
            }
        }
        return m;
    }
}
