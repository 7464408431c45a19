package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.OracleFixture;
import io.kevy.testing.Replies;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.models.command.CommandDetail;
import io.lettuce.core.models.command.CommandDetailParser;
import io.lettuce.core.protocol.CommandType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** COMMAND and its subcommands against a real Redis 7.0, and the clients that read them (lettuce, redis-cli). */
class CommandCommandsIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create().noFlush();

    /** Commands whose metadata in kevy's table is Redis's: COMMAND INFO is byte-for-byte Redis's. */
    @Test
    void infoMatchesRedisWhereTheMetadataDoes() {
        for (String name : List.of("hset", "hsetnx", "hget", "hmget", "hmset", "hdel", "hexists", "hlen", "hkeys",
                "hvals", "hgetall", "hincrby", "hincrbyfloat", "hstrlen", "hscan", "hrandfield", "get", "dbsize",
                "flushall", "flushdb", "time", "lastsave", "info", "shutdown", "debug", "config|get", "config|set",
                "config|resetstat", "config|rewrite", "config|help", "client|id", "client|list", "client|kill",
                "client|info", "client|getname", "client|setname", "client|help", "client|pause", "client|unpause",
                "client|reply", "client|no-evict", "client|getredir", "client|trackinginfo", "client|tracking",
                "client|caching", "command|count",
                "command|list", "command|info", "command|docs", "command|getkeys", "command|getkeysandflags",
                "command|help", "memory|usage", "memory|help", "memory|doctor", "memory|purge", "memory|malloc-stats",
                "function|flush", "script|flush", "CONFIG|GET", "HSET", "subscribe", "unsubscribe", "psubscribe",
                "punsubscribe", "publish", "spublish", "ssubscribe", "sunsubscribe", "pubsub|channels",
                "pubsub|numsub", "pubsub|numpat", "pubsub|shardchannels", "pubsub|shardnumsub", "pubsub|help",
                "pfadd", "pfcount", "pfmerge", "pfdebug", "pfselftest")) {
            oracle.same("COMMAND", "INFO", name);
        }
        oracle.same("COMMAND", "INFO", "nosuch", "hget", "config|nosuch", "nosuch|get");
        oracle.same("COMMAND", "INFO", "hget", "hset", "hlen");
    }

    @Test
    void containersHaveTheirSubcommands() {
        List<Object> info = Replies.nested(oracle.kevy().raw().call("COMMAND", "INFO", "config"));
        @SuppressWarnings("unchecked")
        List<Object> config = (List<Object>) info.get(0);
        assertThat(config.subList(0, 8)).containsExactly("config", "-2", List.of(), "0", "0", "0", List.of("@slow"),
                List.of());
        @SuppressWarnings("unchecked")
        List<List<Object>> subs = (List<List<Object>>) config.get(9);
        Set<Object> names = new HashSet<>();
        subs.forEach(s -> names.add(s.get(0)));
        assertThat(names).containsExactlyInAnyOrder("config|get", "config|set", "config|resetstat", "config|rewrite",
                "config|help");
        assertThat(Replies.nested(oracle.kevy().raw().call("COMMAND"))).hasSize(oracle.commands().size());
        assertThat(oracle.kevy().raw().call("COMMAND", "COUNT"))
                .isEqualTo(":" + oracle.commands().size() + "\r\n");
        assertThat(Replies.nested(oracle.kevy().raw().call("COMMAND", "INFO")))
                .hasSize(oracle.commands().size());
    }

    @Test
    void getkeysMatchesRedis() {
        String[][] cmds = {{"COMMAND", "GETKEYS", "hset", "a", "b", "c"}, {"COMMAND", "GETKEYS", "nosuch", "a"},
            {"COMMAND", "GETKEYS", "hset", "a"}, {"COMMAND", "GETKEYS", "ping"}, {"COMMAND", "GETKEYS"},
            {"COMMAND", "GETKEYS", "client", "list"}, {"COMMAND", "GETKEYS", "config", "get", "a"},
            {"COMMAND", "GETKEYS", "config", "nosuch", "a"}, {"COMMAND", "GETKEYS", "memory", "usage", "k"},
            {"COMMAND", "GETKEYS", "HGET", "k", "f"}, {"COMMAND", "GETKEYS", "del", "a", "b", "c"},
            {"COMMAND", "GETKEYSANDFLAGS", "hset", "a", "b", "c"}, {"COMMAND", "GETKEYSANDFLAGS", "hget", "a", "b"},
            {"COMMAND", "GETKEYSANDFLAGS", "hlen", "a"}, {"COMMAND", "GETKEYSANDFLAGS", "hdel", "a", "f"},
            {"COMMAND", "GETKEYSANDFLAGS", "nosuch"}, {"COMMAND", "GETKEYSANDFLAGS", "pfmerge", "d", "s1", "s2"},
            {"COMMAND", "GETKEYSANDFLAGS", "pfmerge", "d"}, {"COMMAND", "GETKEYSANDFLAGS", "pfcount", "a", "b"},
            {"COMMAND", "GETKEYS", "pfmerge", "d", "s1"}, {"COMMAND", "GETKEYS", "pfmerge", "d"}, {"COMMAND", "GETKEYSANDFLAGS", "pfdebug", "getreg", "k"}};
        for (String[] cmd : cmds) {
            oracle.same(cmd);
        }
    }

    @Test
    void listMatchesRedisAsSets() {
        for (String[] cmd : new String[][] {{"COMMAND", "LIST", "FILTERBY", "PATTERN", "h*"},
            {"COMMAND", "LIST", "FILTERBY", "aclcat", "hash"}, {"COMMAND", "LIST", "FILTERBY", "PATTERN", "config|*"},
            {"COMMAND", "LIST", "FILTERBY", "PATTERN", "CLIENT|GET*"}}) {
            assertThat(Replies.sortedArray(oracle.kevy().raw().call(cmd))).as(String.join(" ", cmd))
                    .isEqualTo(Replies.sortedArray(oracle.redis().raw().call(cmd)));
        }
        oracle.same("COMMAND", "LIST", "FILTERBY", "ACLCAT", "nosuch");
        oracle.same("COMMAND", "LIST", "FILTERBY", "MODULE", "foo");
        oracle.same("COMMAND", "LIST", "FILTERBY", "nosuch", "foo");
        oracle.same("COMMAND", "LIST", "foo");
        oracle.same("COMMAND", "LIST", "FILTERBY");
        oracle.same("COMMAND", "LIST", "FILTERBY", "PATTERN", "h*", "x");
        List<String> all = Replies.array(oracle.kevy().raw().call("COMMAND", "LIST"));
        assertThat(all).contains("hset", "client|kill", "config|get", "command|docs").doesNotHaveDuplicates();
    }

    @Test
    void helpCountAndErrorsMatchRedis() {
        oracle.same("COMMAND", "HELP");
        oracle.same("COMMAND", "NOSUCH");
        oracle.same("COMMAND", "COUNT", "x");
        oracle.same("COMMAND", "DOCS", "nosuch");
        oracle.same("COMMAND", "DOCS", "nosuch", "nosuch2");
    }

    @Test
    void docsHaveRedisShape() {
        List<Object> docs = Replies.nested(oracle.kevy().raw().call("COMMAND", "DOCS", "hget", "config"));
        assertThat(docs).hasSize(4);
        assertThat(docs.get(0)).isEqualTo("hget");
        assertThat(docs.get(1)).isEqualTo(List.of("summary", "Get the value of a hash field", "since", "2.0.0",
                "group", "hash", "complexity", "O(1)"));
        @SuppressWarnings("unchecked")
        List<Object> config = (List<Object>) docs.get(3);
        assertThat(config.subList(0, 8)).containsExactly("summary", "A container for server configuration commands",
                "since", "2.0.0", "group", "server", "complexity", "Depends on subcommand.");
        assertThat(config.get(8)).isEqualTo("subcommands");
        @SuppressWarnings("unchecked")
        List<Object> subs = (List<Object>) config.get(9);
        assertThat(subs).contains("config|get", "config|set");
        List<Object> all = Replies.nested(oracle.kevy().raw().call("COMMAND", "DOCS"));
        assertThat(all).hasSize(2 * oracle.commands().size());
    }

    @Test
    void lettuceReadsTheCommandTable() {
        RedisCommands<String, String> c = oracle.kevy().lettuce();
        List<CommandDetail> details = CommandDetailParser.parse(c.command());
        assertThat(details).hasSize(oracle.commands().size());
        CommandDetail hset = CommandDetailParser.parse(c.commandInfo(CommandType.HSET)).get(0);
        assertThat(hset.getName()).isEqualTo("hset");
        assertThat(hset.getArity()).isEqualTo(-4);
        assertThat(hset.getFirstKeyPosition()).isEqualTo(1);
        assertThat(hset.getFlags()).contains(CommandDetail.Flag.WRITE, CommandDetail.Flag.DENYOOM,
                CommandDetail.Flag.FAST);
        assertThat(hset.getAclCategories()).isNotEmpty();
        assertThat(c.commandCount()).isEqualTo((long) oracle.commands().size());
    }

    @Test
    void redisCliReadsCommandAndDocs() throws IOException, InterruptedException {
        Map<String, String> out = Map.of(
                "COMMAND DOCS hget", "Get the value of a hash field",
                "COMMAND INFO hget", "hget",
                "COMMAND COUNT", Integer.toString(oracle.commands().size()),
                "INFO server", "redis_version:7.0.15",
                "CONFIG GET maxmemory", "maxmemory");
        for (Map.Entry<String, String> e : out.entrySet()) {
            List<String> cmd = new java.util.ArrayList<>(
                    List.of("redis-cli", "-p", Integer.toString(oracle.kevy().port())));
            cmd.addAll(List.of(e.getKey().split(" ")));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.exitValue()).as(text).isZero();
            assertThat(text).as(e.getKey()).contains(e.getValue()).doesNotContain("ERR");
        }
    }
}
