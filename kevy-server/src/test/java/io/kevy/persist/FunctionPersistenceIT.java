package io.kevy.persist;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.server.KevyServer;
import io.kevy.server.config.ServerConfig;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * FUNCTION libraries survive restarts on one data directory, as Redis keeps them in its RDB: through the AOF
 * (their FUNCTION frames on shard 0), through snapshots (shard 0's server-state record), after a crash (the new
 * generation's boot snapshot carries them even without any key), after FLUSHALL (shard 0's new stream restates
 * them), after DELETE, and across a change of the shard count.
 */
class FunctionPersistenceIT {
    private static final String LIB = "#!lua name=counter\n"
            + "redis.register_function('bump', function(keys, args) return redis.call('incrby', keys[1], args[1]) end)\n"
            + "redis.register_function{function_name='peek', callback=function(keys) return redis.call('get', keys[1]) "
            + "end, flags={'no-writes'}, description='reads the counter'}\n";
    private static final String OTHER = "#!lua name=other\nredis.register_function('hello', function() return 'hi' end)";

    @TempDir
    Path dir;

    private KevyServer start(UnaryOperator<ServerConfig> custom) throws Exception {
        ServerConfig cfg = ServerConfig.defaults()
                .with(ServerOptions.PORT, 0)
                .with(ServerOptions.SHARDS, 2)
                .with(ServerOptions.IO_THREADS, 1)
                .with(ServerOptions.DIR, dir.toString())
                .with(ServerOptions.SAVE, "");
        return KevyServer.start(custom.apply(cfg));
    }

    private KevyServer start() throws Exception {
        return start(c -> c);
    }

    private static String call(KevyServer s, String... cmd) {
        try (RawClient c = RawClient.connect(s.port())) {
            return c.call(cmd);
        }
    }

    private static String list(KevyServer s) {
        return call(s, "FUNCTION", "LIST", "WITHCODE");
    }

    @Test
    void theAofCarriesLibrariesAcrossACleanRestartAndACrash() throws Exception {
        String listed;
        try (KevyServer s = start()) {
            assertThat(call(s, "FUNCTION", "LOAD", LIB)).isEqualTo("$7\r\ncounter\r\n");
            assertThat(call(s, "FUNCTION", "LOAD", OTHER)).isEqualTo("$5\r\nother\r\n");
            assertThat(call(s, "FCALL", "bump", "1", "c", "5")).isEqualTo(":5\r\n");
            listed = list(s);
        }
        try (KevyServer s = start()) {
            assertThat(list(s)).isEqualTo(listed);
            assertThat(call(s, "FCALL", "bump", "1", "c", "2")).isEqualTo(":7\r\n");
            assertThat(call(s, "FUNCTION", "DELETE", "other")).isEqualTo("+OK\r\n");
            assertThat(call(s, "DEL", "c")).isEqualTo(":1\r\n");
            s.abort(); // a crash: the next boot starts new generations from what the AOF holds
        }
        try (KevyServer s = start()) {
            assertThat(call(s, "FCALL", "hello", "0")).isEqualTo("-ERR Function not found\r\n");
            assertThat(call(s, "FCALL_RO", "peek", "1", "c")).isEqualTo("$-1\r\n");
            s.abort(); // no key at all: the boot snapshot of the new generation alone must carry the library
        }
        try (KevyServer s = start()) {
            assertThat(call(s, "FCALL", "bump", "1", "c", "1")).isEqualTo(":1\r\n");
            assertThat(call(s, "FUNCTION", "STATS")).contains("libraries_count\r\n:1\r\n", "functions_count\r\n:2\r\n");
        }
    }

    @Test
    void snapshotsCarryLibrariesWithoutAnAof() throws Exception {
        String listed;
        try (KevyServer s = start(c -> c.with(ServerOptions.AOF, false))) {
            assertThat(call(s, "FUNCTION", "LOAD", LIB)).isEqualTo("$7\r\ncounter\r\n");
            assertThat(call(s, "FCALL", "bump", "1", "c", "3")).isEqualTo(":3\r\n");
            assertThat(call(s, "SAVE")).isEqualTo("+OK\r\n");
            listed = list(s);
        }
        try (KevyServer s = start(c -> c.with(ServerOptions.AOF, false))) {
            assertThat(list(s)).isEqualTo(listed);
            assertThat(call(s, "FCALL", "bump", "1", "c", "1")).isEqualTo(":4\r\n");
        }
    }

    @Test
    void flushAllRewriteAndDeleteKeepTheLibrariesExactly() throws Exception {
        try (KevyServer s = start()) {
            assertThat(call(s, "FUNCTION", "LOAD", LIB)).isEqualTo("$7\r\ncounter\r\n");
            assertThat(call(s, "FCALL", "bump", "1", "c", "3")).isEqualTo(":3\r\n");
            assertThat(call(s, "FLUSHALL")).isEqualTo("+OK\r\n");
            s.abort(); // only the new generation's AOF (which restates the library) is left to load from
        }
        try (KevyServer s = start()) {
            assertThat(call(s, "GET", "c")).isEqualTo("$-1\r\n");
            assertThat(call(s, "FCALL", "bump", "1", "c", "2")).isEqualTo(":2\r\n");
            assertThat(call(s, "FUNCTION", "LOAD", OTHER)).isEqualTo("$5\r\nother\r\n");
            assertThat(call(s, "SAVE")).isEqualTo("+OK\r\n");
            assertThat(call(s, "FUNCTION", "DELETE", "counter")).isEqualTo("+OK\r\n"); // after the snapshot: AOF
        }
        try (KevyServer s = start()) {
            assertThat(call(s, "FCALL", "bump", "1", "c", "2")).isEqualTo("-ERR Function not found\r\n");
            assertThat(call(s, "FCALL", "hello", "0")).isEqualTo("$2\r\nhi\r\n");
            assertThat(call(s, "FUNCTION", "FLUSH")).isEqualTo("+OK\r\n");
        }
        try (KevyServer s = start()) {
            assertThat(call(s, "FUNCTION", "LIST")).isEqualTo("*0\r\n");
        }
    }

    @Test
    void redistributingToAnotherShardCountKeepsTheLibraries() throws Exception {
        try (KevyServer s = start()) {
            assertThat(call(s, "FUNCTION", "LOAD", LIB)).isEqualTo("$7\r\ncounter\r\n");
            assertThat(call(s, "FCALL", "bump", "1", "c", "9")).isEqualTo(":9\r\n");
        }
        try (KevyServer s = start(c -> c.with(ServerOptions.SHARDS, 3).with(ServerOptions.REDISTRIBUTE, true))) {
            assertThat(call(s, "FCALL", "bump", "1", "c", "1")).isEqualTo(":10\r\n");
        }
        try (KevyServer s = start(c -> c.with(ServerOptions.SHARDS, 3))) {
            assertThat(call(s, "FCALL_RO", "peek", "1", "c")).isEqualTo("$2\r\n10\r\n");
        }
    }
}
