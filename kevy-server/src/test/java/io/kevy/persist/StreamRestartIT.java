package io.kevy.persist;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.server.KevyServer;
import io.kevy.server.config.ServerConfig;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import io.kevy.testing.RedisOracle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A stream's listpack nodes survive a restart as Redis's survive {@code DEBUG RELOAD} (its RDB stores the nodes as
 * they are): after XADD, XDEL (a node's first entry, a whole node, entries here and there), exact and approximate
 * trims on kevy and on a real Redis 7.0, kevy restarts from a snapshot, from its AOF alone, or from a rewritten
 * AOF, and Redis reloads; XINFO STREAM FULL (node counts, entries, groups, PELs; absolute times blanked), the DUMP
 * of a stream without groups and what later {@code XTRIM ~} and {@code XADD MAXLEN ~} remove must stay Redis's.
 */
class StreamRestartIT {
    /** How kevy restarts. */
    enum Restart { SNAPSHOT, AOF, REWRITTEN_AOF }

    @TempDir
    Path dir;

    private KevyServer start(Restart how) throws Exception {
        ServerConfig cfg = ServerConfig.defaults()
                .with(ServerOptions.PORT, 0)
                .with(ServerOptions.SHARDS, 2)
                .with(ServerOptions.IO_THREADS, 1)
                .with(ServerOptions.DIR, dir.toString())
                .with(ServerOptions.SAVE, "")
                .with(ServerOptions.AOF, how != Restart.SNAPSHOT);
        return KevyServer.start(cfg);
    }

    /** Sends {@code cmd} to both and requires the same reply; returns it. */
    private static String same(RawClient kevy, RawClient redis, String... cmd) {
        String k = kevy.call(cmd);
        assertThat(k).as("reply to %s", String.join(" ", cmd)).isEqualTo(redis.call(cmd));
        return k;
    }

    /** XINFO STREAM FULL on both, equal once absolute times in ms (seen and delivery times) are blanked. */
    private static void sameFull(RawClient kevy, RawClient redis, String key, String when) {
        String k = kevy.call("XINFO", "STREAM", key, "FULL");
        String r = redis.call("XINFO", "STREAM", key, "FULL");
        assertThat(maskTimes(k)).as("XINFO STREAM %s FULL %s", key, when).isEqualTo(maskTimes(r));
    }

    /** The DUMP reply of {@code key}, as raw bytes (a payload is binary). */
    private static byte[] dump(RawClient c, String key) {
        return c.send(RawClient.encode("DUMP".getBytes(StandardCharsets.US_ASCII),
                key.getBytes(StandardCharsets.US_ASCII))).readReplyBytes();
    }

    private static String maskTimes(String reply) {
        return reply.replaceAll(":\\d{13,}\r\n", ":T\r\n");
    }

    private static void build(RawClient k, RawClient r) {
        for (int i = 1; i <= 700; i++) {
            List<String> cmd = new ArrayList<>(List.of("XADD", "s", i + "-" + (i % 3)));
            if (i % 11 == 0) {
                cmd.addAll(List.of("other", "x".repeat(i % 40), "n", Integer.toString(i * 7)));
            } else {
                cmd.addAll(List.of("f", "v" + i, "n", Integer.toString(i)));
            }
            same(k, r, cmd.toArray(new String[0]));
        }
        same(k, r, "XDEL", "s", "1-1", "2-2", "50-2", "99-0"); // the first node's master entry among them
        List<String> wholeNode = new ArrayList<>(List.of("XDEL", "s"));
        for (int i = 201; i <= 300; i++) {
            wholeNode.add(i + "-" + (i % 3));
        }
        same(k, r, wholeNode.toArray(new String[0])); // the third node goes
        for (int i = 320; i < 700; i += 37) {
            same(k, r, "XDEL", "s", i + "-" + (i % 3));
        }
        same(k, r, "XTRIM", "s", "MAXLEN", "=", "560"); // flags entries inside the first node
        same(k, r, "XGROUP", "CREATE", "s", "g", "0");
        same(k, r, "XREADGROUP", "GROUP", "g", "alice", "COUNT", "30", "STREAMS", "s", ">");
        same(k, r, "XDEL", "s", "110-2", "120-0"); // pending, now deleted-flagged
        same(k, r, "XTRIM", "s", "MINID", "~", "105"); // keeps the node that holds 105
        same(k, r, "XADD", "s", "701-0", "f", "last");
        for (int i = 1; i <= 90; i++) { // values of 100-300 bytes: nodes close on stream-node-max-bytes
            same(k, r, "XADD", "b", i + "-0", "payload", "p".repeat(100 + (i * 7) % 200), "i", Integer.toString(i));
        }
        same(k, r, "XDEL", "b", "1-0", "17-0", "18-0", "40-0");
        same(k, r, "XTRIM", "b", "MAXLEN", "85");
    }

    @ParameterizedTest
    @EnumSource(Restart.class)
    void nodesAfterARestartAreRedisNodesAfterDebugReload(Restart how) throws Exception {
        try (RedisOracle redis = RedisOracle.start("--enable-debug-command", "yes");
             RawClient r = redis.raw()) {
            try (KevyServer s = start(how); RawClient k = RawClient.connect(s.port())) {
                build(k, r);
                for (String key : List.of("s", "b")) {
                    sameFull(k, r, key, "before the restart");
                }
                assertThat(dump(k, "b")).isEqualTo(dump(r, "b"));
                switch (how) {
                    case SNAPSHOT -> assertThat(k.call("SAVE")).isEqualTo("+OK\r\n");
                    case REWRITTEN_AOF -> {
                        assertThat(k.call("BGREWRITEAOF")).startsWith("+");
                        Awaitility.await().until(() -> k.call("INFO", "persistence")
                                .contains("aof_rewrite_in_progress:0"));
                        same(k, r, "XADD", "s", "702-0", "f", "after the rewrite");
                    }
                    case AOF -> {
                    }
                }
                s.close(false); // NOSAVE: the AOF alone, or the snapshot taken above
            }
            if (how == Restart.AOF) {
                try (Stream<Path> files = Files.list(dir)) {
                    assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("dump-"));
                }
            }
            assertThat(r.call("DEBUG", "RELOAD")).isEqualTo("+OK\r\n");
            try (KevyServer s = start(how); RawClient k = RawClient.connect(s.port())) {
                for (String key : List.of("s", "b")) {
                    sameFull(k, r, key, "after the restart (" + how + ")");
                }
                assertThat(dump(k, "b")).as("DUMP b after the restart")
                        .isEqualTo(dump(r, "b"));
                same(k, r, "XTRIM", "s", "MAXLEN", "~", "420");
                same(k, r, "XADD", "s", "MAXLEN", "~", "300", "800-0", "f", "v");
                same(k, r, "XTRIM", "b", "MINID", "~", "30");
                same(k, r, "XADD", "b", "MAXLEN", "~", "40", "100-0", "f", "v");
                same(k, r, "XADD", "b", "101-0", "f", "v");
                for (String key : List.of("s", "b")) {
                    sameFull(k, r, key, "after trimming");
                }
            }
        }
    }
}
