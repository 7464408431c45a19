package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kevy.testing.OracleFixture;
import io.kevy.testing.RawClient;
import io.kevy.testing.Replies;
import io.kevy.testing.TestServer;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** CLIENT subcommands against a real Redis 7.0, CLIENT KILL closing other connections, and lettuce's use. */
class ClientCommandsIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create().noFlush();

    @Test
    void repliesAndErrorsMatchRedis() {
        String[][] cmds = {
            {"CLIENT", "LIST", "TYPE", "foo"}, {"CLIENT", "LIST", "TYPE", "master"}, {"CLIENT", "LIST", "TYPE", "replica"},
            {"CLIENT", "LIST", "TYPE", "pubsub"}, {"CLIENT", "LIST", "TYPE"}, {"CLIENT", "LIST", "ID", "1", "x"},
            {"CLIENT", "LIST", "ID"}, {"CLIENT", "LIST", "ID", "999"}, {"CLIENT", "LIST", "foo", "bar"},
            {"CLIENT", "LIST", "foo"}, {"CLIENT", "KILL", "1.2.3.4:5"}, {"CLIENT", "KILL", "ID", "x"},
            {"CLIENT", "KILL", "ID", "0"}, {"CLIENT", "KILL", "ID", "-3"}, {"CLIENT", "KILL", "ID", "999"},
            {"CLIENT", "KILL", "TYPE", "foo"}, {"CLIENT", "KILL", "TYPE", "master"}, {"CLIENT", "KILL", "USER", "nosuch"},
            {"CLIENT", "KILL", "USER", "DEFAULT"}, {"CLIENT", "KILL", "SKIPME", "maybe"}, {"CLIENT", "KILL", "foo", "bar"},
            {"CLIENT", "KILL", "ID", "1", "SKIPME"}, {"CLIENT", "KILL", "ADDR", "1.2.3.4:5", "LADDR", "1.2.3.4:6"},
            {"CLIENT", "KILL"}, {"CLIENT", "NO-EVICT", "on"}, {"CLIENT", "NO-EVICT", "OFF"},
            {"CLIENT", "NO-EVICT", "foo"}, {"CLIENT", "NO-EVICT"}, {"CLIENT", "REPLY", "ON"}, {"CLIENT", "REPLY", "foo"},
            {"CLIENT", "PAUSE", "abc"}, {"CLIENT", "PAUSE", "-1"}, {"CLIENT", "PAUSE", "10", "foo"},
            {"CLIENT", "PAUSE", "10", "WRITE", "x"}, {"CLIENT", "PAUSE"}, {"CLIENT", "PAUSE", "1", "write"},
            {"CLIENT", "PAUSE", "1", "ALL"}, {"CLIENT", "UNPAUSE"}, {"CLIENT", "UNPAUSE", "x"},
            {"CLIENT", "SETNAME", ""}, {"CLIENT", "GETNAME"}, {"CLIENT", "SETNAME", "a b"}, {"CLIENT", "SETNAME", "a\nb"},
            {"CLIENT", "SETNAME", "app-1"}, {"CLIENT", "GETNAME"}, {"CLIENT", "SETNAME"}, {"CLIENT", "ID", "x"},
            {"CLIENT", "GETREDIR"}, {"CLIENT", "TRACKINGINFO"}, {"CLIENT", "INFO", "x"}, {"CLIENT", "NOSUCH"},
            {"CLIENT"}, {"CLIENT", "HELP", "x"}};
        for (String[] cmd : cmds) {
            oracle.same(cmd);
        }
    }

    @Test
    void listAndInfoLinesHaveRedisFieldsInRedisOrder() {
        RawClient k = oracle.kevy().raw();
        RawClient r = oracle.redis().raw();
        k.call("CLIENT", "SETNAME", "me");
        r.call("CLIENT", "SETNAME", "me");
        String ours = Replies.bulk(k.call("CLIENT", "INFO"));
        String theirs = Replies.bulk(r.call("CLIENT", "INFO"));
        List<String> ourNames = fieldNames(ours);
        assertThat(ourNames.subList(0, ourNames.size() - 2)).isEqualTo(fieldNames(theirs));
        assertThat(ourNames.subList(ourNames.size() - 2, ourNames.size())).containsExactly("lib-name", "lib-ver");
        assertThat(ours).endsWith("\n").contains(" name=me ").contains(" cmd=client|info ")
                .contains(" flags=N ").contains(" db=0 ").contains(" multi=-1 ").contains(" user=default ")
                .contains(" resp=2 ").contains(" qbuf=26 ").contains(" argv-mem=10 ");
        String list = Replies.bulk(k.call("CLIENT", "LIST"));
        assertThat(list).contains(" cmd=client|list ").endsWith("\n");
        String self = Replies.bulk(k.call("CLIENT", "LIST", "ID", k.call("CLIENT", "ID").substring(1).trim()));
        assertThat(self.split("\n")).hasSize(1);
        assertThat(self).startsWith("id=" + k.call("CLIENT", "ID").substring(1).trim() + " addr=127.0.0.1:"
                + k.socket().getLocalPort() + " laddr=127.0.0.1:" + oracle.kevy().port() + " ");
        assertThat(Replies.bulk(k.call("CLIENT", "LIST", "TYPE", "NORMAL")).split("\n"))
                .hasSameSizeAs(Replies.bulk(k.call("CLIENT", "LIST")).split("\n"));
        k.call("CLIENT", "SETINFO", "LIB-NAME", "mylib");
        k.call("CLIENT", "SETINFO", "lib-ver", "1.2");
        assertThat(Replies.bulk(k.call("CLIENT", "INFO"))).endsWith(" lib-name=mylib lib-ver=1.2\n");
    }

    @Test
    void killByIdClosesTheOtherConnection() {
        RawClient killer = oracle.kevy().raw();
        RawClient victim = oracle.kevy().raw();
        String id = victim.call("CLIENT", "ID").substring(1).trim();
        assertThat(killer.call("CLIENT", "KILL", "ID", id)).isEqualTo(":1\r\n");
        assertThat(victim.isClosedByServer()).isTrue();
        assertThat(Replies.bulk(killer.call("CLIENT", "LIST"))).doesNotContain("id=" + id + " ");
        assertThat(killer.call("CLIENT", "KILL", "ID", id)).isEqualTo(":0\r\n");
        assertThat(killer.call("PING")).isEqualTo("+PONG\r\n");
    }

    @Test
    void killByAddressOldFormAndFilters() {
        RawClient killer = oracle.kevy().raw();
        RawClient a = oracle.kevy().raw();
        a.call("PING");
        String addr = "127.0.0.1:" + a.socket().getLocalPort();
        assertThat(killer.call("CLIENT", "KILL", addr)).isEqualTo("+OK\r\n");
        assertThat(a.isClosedByServer()).isTrue();
        assertThat(killer.call("CLIENT", "KILL", addr)).isEqualTo("-ERR No such client\r\n");

        RawClient b = oracle.kevy().raw();
        b.call("PING");
        assertThat(killer.call("CLIENT", "KILL", "ADDR", "127.0.0.1:" + b.socket().getLocalPort(), "TYPE", "normal",
                "USER", "default")).isEqualTo(":1\r\n");
        assertThat(b.isClosedByServer()).isTrue();
    }

    @Test
    void killWithLaddrSkipsTheCallerUnlessSkipmeNo() {
        try (TestServer s = TestServer.start()) {
            RawClient killer = s.raw();
            List<RawClient> others = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                RawClient o = s.raw();
                o.call("PING");
                others.add(o);
            }
            assertThat(killer.call("CLIENT", "KILL", "LADDR", "127.0.0.1:" + s.port())).isEqualTo(":3\r\n");
            for (RawClient o : others) {
                assertThat(o.isClosedByServer()).isTrue();
            }
            assertThat(killer.call("PING")).isEqualTo("+PONG\r\n");
            String me = killer.call("CLIENT", "ID").substring(1).trim();
            assertThat(killer.call("CLIENT", "KILL", "ID", me)).isEqualTo(":0\r\n");
            assertThat(killer.call("CLIENT", "KILL", "ID", me, "SKIPME", "no")).isEqualTo(":1\r\n");
            assertThat(killer.isClosedByServer()).isTrue();
            await().atMost(Duration.ofSeconds(5)).until(() -> s.server().engine().sessions().size() == 0);
        }
    }

    @Test
    void killOldFormMayKillTheCaller() {
        RawClient self = oracle.kevy().raw();
        self.call("PING");
        assertThat(self.call("CLIENT", "KILL", "127.0.0.1:" + self.socket().getLocalPort())).isEqualTo("+OK\r\n");
        assertThat(self.isClosedByServer()).isTrue();
    }

    @Test
    void lettuceClientCommands() {
        RedisCommands<String, String> c = oracle.kevy().lettuce();
        assertThat(c.clientSetname("lettuce-app")).isEqualTo("OK");
        assertThat(c.clientGetname()).isEqualTo("lettuce-app");
        Long id = c.clientId();
        assertThat(c.clientList()).contains("id=" + id + " ").contains("name=lettuce-app");
        assertThat(c.clientInfo()).startsWith("id=" + id + " ");
        RedisClient client = RedisClient.create(RedisURI.create(oracle.kevy().uri()));
        client.setOptions(ClientOptions.builder().autoReconnect(false).build());
        try (StatefulRedisConnection<String, String> other = client.connect()) {
            Long otherId = other.sync().clientId();
            assertThat(c.clientKill(KillArgs.Builder.id(otherId))).isEqualTo(1L);
            await().atMost(Duration.ofSeconds(5)).until(() -> !other.isOpen());
        } finally {
            client.shutdown();
        }
        assertThat(c.clientNoEvict(true)).isEqualTo("OK");
        assertThat(c.clientPause(1)).isEqualTo("OK");
    }

    @Test
    void helpListsKevysSubcommandsInRedisFormat() {
        List<String> help = Replies.array(oracle.kevy().raw().call("CLIENT", "HELP"));
        assertThat(help.get(0)).isEqualTo("CLIENT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
        assertThat(help).contains("SETINFO (LIB-NAME|LIB-VER) <value>", "NO-TOUCH (ON|OFF)", "HELP",
                "    Prints this help.");
        assertThat(oracle.kevy().raw().call("CLIENT", "NO-TOUCH", "on")).isEqualTo("+OK\r\n");
        assertThat(oracle.kevy().raw().call("CLIENT", "REPLY", "OFF"))
                .isEqualTo("-ERR CLIENT REPLY OFF and SKIP are not supported by kevy\r\n");
    }

    private static List<String> fieldNames(String line) {
        List<String> out = new ArrayList<>();
        for (String f : line.trim().split(" ")) {
            out.add(f.substring(0, f.indexOf('=')));
        }
        return out;
    }
}
