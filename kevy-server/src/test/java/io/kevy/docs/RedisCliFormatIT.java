package io.kevy.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import io.kevy.testing.RedisCli;
import io.kevy.testing.Resp;
import io.kevy.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@link RedisCli} (the reply printer and argument splitter behind {@link DocsExamplesIT}) prints what the real
 * redis-cli prints: the same commands go through both against one kevy server, and the outputs must be equal.
 * Skipped when redis-cli is not installed ({@code apt-get install redis-tools}).
 */
class RedisCliFormatIT {
    private static final Path CLI = Path.of("/usr/bin/redis-cli");

    @Test
    void repliesPrintAsTheRealRedisCliPrintsThem() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(CLI), "redis-cli is not installed");
        try (TestServer server = TestServer.start(c -> c.with(ServerOptions.FEED_ENABLED, true)
                .with(ServerOptions.SHARDS, 1))) {
            RawClient c = server.raw();
            c.call("RPUSH", "l", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k");
            c.call("HSET", "h", "f", "v\n\"q\"\u0001", "g", "");
            c.call("SET", "s", "caf\u00e9");
            List<String> commands = List.of("PING", "GET s", "GET missing", "LRANGE l 0 -1", "HGETALL h",
                    "FEED.READ 0 0 0", "FEED.READ 0 \"1\" 0 COUNT 2", "LRANGE nothing 0 -1", "INCR s",
                    "BLPOP nothing 0.01",
                    "FEED.TAIL 0", "PREFIX.STATS \"\"", "ECHO 'it\\'s'", "ECHO \"tab\\there\\x41\"");
            for (String cmd : commands) {
                List<byte[]> args = RedisCli.splitArgs(cmd);
                c.send(RawClient.encode(args.toArray(new byte[0][])));
                List<String> ours = RedisCli.format(Resp.parse(c.readReplyBytes()));
                List<String> argv = new ArrayList<>(List.of(CLI.toString(), "--no-raw", "-p",
                        Integer.toString(server.port())));
                for (byte[] a : args) {
                    argv.add(new String(a, StandardCharsets.UTF_8));
                }
                Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
                assertThat(String.join("\n", ours) + "\n").as(cmd).isEqualTo(out);
            }
        }
    }
}
