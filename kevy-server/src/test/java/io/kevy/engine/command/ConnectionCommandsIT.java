package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import io.kevy.testing.RedisOracle;
import io.kevy.testing.ReplyDiff;
import io.kevy.testing.TestServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

class ConnectionCommandsIT {

    @Test
    void lettuceDefaultHandshakeWorks() {
        try (TestServer server = TestServer.start()) {
            assertThat(server.lettuce().ping()).isEqualTo("PONG");
            assertThat(server.lettuce().echo("hi")).isEqualTo("hi");
            // the default handshake is HELLO 3: TestServer's lettuce speaks RESP3 (a test that needs RESP2 pins it)
            assertThat(server.lettuce().clientInfo()).contains(" resp=3 ");
        }
    }

    @Test
    void repliesMatchRedis() {
        try (TestServer kevy = TestServer.start(); RedisOracle redis = RedisOracle.start();
             ReplyDiff diff = new ReplyDiff(kevy.raw(), redis.raw())) {
            diff.same("PING");
            diff.same("PING", "hello");
            diff.same("PING", "a", "b");
            diff.same("ECHO", "x");
            diff.same("ECHO");
            diff.same("SELECT", "0");
            diff.same("SELECT", "x");
            diff.same("NOSUCHCMD", "a", "b");
            diff.same("HELLO", "x");
            diff.same("AUTH", "pw");
            diff.same("CLIENT", "NOSUCH");
            diff.same("CLIENT");
            diff.same("CLIENT", "SETNAME", "has space");
            diff.same("CLIENT", "SETNAME", "ok-name");
            diff.same("CLIENT", "GETNAME");
        }
    }

    @Test
    void helloSwitchesToResp3AndRefusesOtherVersions() {
        try (TestServer server = TestServer.start()) {
            RawClient raw = server.raw();
            assertThat(raw.call("HELLO", "4")).isEqualTo("-NOPROTO unsupported protocol version\r\n");
            assertThat(raw.call("HELLO", "3")).startsWith("%7\r\n$6\r\nserver\r\n$5\r\nredis\r\n");
            assertThat(raw.call("GET", "k")).isEqualTo("_\r\n");
            assertThat(raw.call("CLIENT", "INFO")).startsWith("=").contains(" resp=3 ");
        }
    }

    @Test
    void requirepassIsEnforced() {
        try (TestServer server = TestServer.start(ServerOptions.REQUIREPASS, "s3cret")) {
            RawClient raw = server.raw();
            assertThat(raw.call("GET", "k")).isEqualTo("-NOAUTH Authentication required.\r\n");
            assertThat(raw.call("AUTH", "wrong"))
                    .isEqualTo("-WRONGPASS invalid username-password pair or user is disabled.\r\n");
            assertThat(raw.call("AUTH", "s3cret")).isEqualTo("+OK\r\n");
            assertThat(raw.call("GET", "k")).isEqualTo("$-1\r\n");

            RedisClient client = RedisClient.create(RedisURI.builder().withHost("127.0.0.1").withPort(server.port())
                    .withPassword("s3cret".toCharArray()).build());
            try (StatefulRedisConnection<String, String> c = client.connect()) {
                assertThat(c.sync().set("a", "b")).isEqualTo("OK");
                assertThat(c.sync().clientInfo()).contains(" resp=3 "); // HELLO 3 AUTH default s3cret
            } finally {
                client.shutdown();
            }
        }
    }

    @Test
    void quitRepliesOkAndCloses() {
        try (TestServer server = TestServer.start()) {
            RawClient raw = server.raw();
            assertThat(raw.call("QUIT")).isEqualTo("+OK\r\n");
            assertThat(raw.isClosedByServer()).isTrue();
        }
    }
}
