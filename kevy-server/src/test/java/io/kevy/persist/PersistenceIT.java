package io.kevy.persist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kevy.engine.Engine;
import io.kevy.engine.Shard;
import io.kevy.server.KevyServer;
import io.kevy.server.config.ServerConfig;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.NegativeZeroZSets;
import io.kevy.testing.RawClient;
import io.kevy.testing.RedisOracle;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Restarts of a real server on one data directory: clean stops, crashes, damaged files, shard changes. */
class PersistenceIT {
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

    private static long[][] positions(KevyServer s) {
        Engine e = s.engine();
        long[][] p = new long[e.shardCount()][];
        for (int i = 0; i < e.shardCount(); i++) {
            Shard sh = e.shard(i);
            sh.lock().lock();
            try {
                p[i] = new long[] {sh.generation(), sh.nextOffset()};
            } finally {
                sh.lock().unlock();
            }
        }
        return p;
    }

    private static void write(KevyServer s, int n) {
        try (RawClient c = RawClient.connect(s.port())) {
            for (int i = 0; i < n; i++) {
                assertThat(c.call("SET", "key:" + i, "value:" + i)).isEqualTo("+OK\r\n");
            }
            assertThat(c.call("HSET", "hash", "f", "v", "g", "w")).isEqualTo(":2\r\n");
            assertThat(c.call("INCR", "counter")).isEqualTo(":1\r\n");
        }
    }

    private static void assertData(KevyServer s, int n) {
        try (RawClient c = RawClient.connect(s.port())) {
            for (int i = 0; i < n; i++) {
                assertThat(c.call("GET", "key:" + i)).isEqualTo("$" + ("value:" + i).length() + "\r\nvalue:" + i + "\r\n");
            }
            assertThat(c.call("HGET", "hash", "g")).isEqualTo("$1\r\nw\r\n");
            assertThat(c.call("GET", "counter")).isEqualTo("$1\r\n1\r\n");
        }
    }

    @Test
    void cleanRestartKeepsDataGenerationAndOffset() throws Exception {
        long[][] before;
        try (KevyServer s = start()) {
            write(s, 100);
            before = positions(s);
            assertThat(before[0][1] + before[1][1]).isEqualTo(102);
        }
        assertThat(Files.exists(dir.resolve("feed-0.meta"))).isTrue();
        try (KevyServer s = start()) {
            assertThat(positions(s)).isDeepEqualTo(before);
            assertData(s, 100);
            assertThat(Files.exists(dir.resolve("feed-0.meta"))).as("marker deleted at boot").isFalse();
        }
    }

    @Test
    void aStartThatCannotBindKeepsTheCleanShutdownMarkers() throws Exception {
        long[][] before;
        try (KevyServer s = start()) {
            write(s, 20);
            before = positions(s);
        }
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1,
                java.net.InetAddress.getByName("127.0.0.1"))) {
            assertThatThrownBy(() -> start(c -> c.with(ServerOptions.PORT, taken.getLocalPort())))
                    .isInstanceOf(java.net.BindException.class)
                    .hasMessageStartingWith("cannot listen on 127.0.0.1:" + taken.getLocalPort() + ": ")
                    .hasMessageContaining("Address already in use");
        }
        assertThat(Files.exists(dir.resolve("feed-0.meta"))).as("marker written back").isTrue();
        try (KevyServer s = start()) {
            assertThat(positions(s)).as("same generations and offsets: consumers resume").isDeepEqualTo(before);
            assertData(s, 20);
        }
    }

    @Test
    void crashKeepsDataButStartsNewGenerations() throws Exception {
        long[][] before;
        KevyServer s = start();
        write(s, 50);
        before = positions(s);
        s.persistence().aof().syncNow();
        s.abort(); // no marker: like kill -9 after the data reached the disk
        try (KevyServer s2 = start()) {
            long[][] after = positions(s2);
            for (int i = 0; i < after.length; i++) {
                assertThat(after[i][0]).as("generation of shard %d", i).isNotEqualTo(before[i][0]);
                assertThat(after[i][1]).isZero();
            }
            assertData(s2, 50);
        }
        // and that new generation survives a clean restart
        long[][] again;
        try (KevyServer s3 = start()) {
            again = positions(s3);
            assertData(s3, 50);
        }
        try (KevyServer s4 = start()) {
            assertThat(positions(s4)).isDeepEqualTo(again);
        }
    }

    @Test
    void snapshotOnlyRestartWithoutAof() throws Exception {
        long[][] before;
        try (KevyServer s = start(c -> c.with(ServerOptions.AOF, false))) {
            write(s, 20);
            try (RawClient c = RawClient.connect(s.port())) {
                assertThat(c.call("SAVE")).isEqualTo("+OK\r\n");
                assertThat(s.engine().durability().lastSaveSeconds()).isGreaterThan(0);
            }
            before = positions(s);
            s.close(true); // SHUTDOWN SAVE
        }
        try (KevyServer s = start(c -> c.with(ServerOptions.AOF, false))) {
            assertData(s, 20);
            assertThat(positions(s)).isDeepEqualTo(before);
        }
    }

    @Test
    void noPersistenceAtAllMeansNewGenerationAndNoData() throws Exception {
        long[][] before;
        try (KevyServer s = start(c -> c.with(ServerOptions.AOF, false))) {
            write(s, 5);
            before = positions(s);
        }
        try (KevyServer s = start(c -> c.with(ServerOptions.AOF, false))) {
            assertThat(positions(s)[0][0]).isNotEqualTo(before[0][0]);
            try (RawClient c = RawClient.connect(s.port())) {
                assertThat(c.call("DBSIZE")).isEqualTo(":0\r\n");
            }
        }
    }

    @Test
    void flushallSurvivesRestart() throws Exception {
        try (KevyServer s = start()) {
            write(s, 10);
            try (RawClient c = RawClient.connect(s.port())) {
                assertThat(c.call("SAVE")).isEqualTo("+OK\r\n");
                assertThat(c.call("FLUSHALL")).isEqualTo("+OK\r\n");
                assertThat(c.call("SET", "after", "flush")).isEqualTo("+OK\r\n");
            }
        }
        try (KevyServer s = start()) {
            try (RawClient c = RawClient.connect(s.port())) {
                assertThat(c.call("DBSIZE")).isEqualTo(":1\r\n");
                assertThat(c.call("GET", "after")).isEqualTo("$5\r\nflush\r\n");
            }
        }
    }

    @Test
    void bootRemovesTmpFilesOfWritesInterruptedBeforeTheirRename() throws Exception {
        KevyServer s = start();
        write(s, 10);
        s.persistence().aof().syncNow();
        s.abort();
        // what kill -9 leaves inside AofWriter.createFile (a rewrite's .next) and SnapshotWriter.write
        Path nextTmp = dir.resolve(AofWriter.nextPath(dir, 0).getFileName() + ".tmp");
        Path dumpTmp = dir.resolve(SnapshotFormat.path(dir, 1).getFileName() + ".tmp");
        Path foreign = dir.resolve("notes.tmp");
        Files.write(nextTmp, new byte[] {1, 2, 3});
        Files.write(dumpTmp, new byte[] {4, 5});
        Files.write(foreign, new byte[] {6});
        try (KevyServer s2 = start()) {
            assertData(s2, 10);
        }
        assertThat(nextTmp).doesNotExist();
        assertThat(dumpTmp).doesNotExist();
        assertThat(foreign).as("a file that is not ours is left alone").exists();
    }

    @Test
    void tornLastRecordIsTruncated() throws Exception {
        KevyServer s = start();
        write(s, 10);
        s.persistence().aof().syncNow();
        s.abort();
        Path aof = AofWriter.aofPath(dir, 0);
        long size = Files.size(aof);
        try (OutputStream o = Files.newOutputStream(aof, StandardOpenOption.APPEND)) {
            o.write("*3\r\n$3\r\nSET\r\n$4\r\ntorn".getBytes(StandardCharsets.US_ASCII));
        }
        try (KevyServer s2 = start()) {
            assertData(s2, 10);
        }
        assertThat(Files.size(aof)).as("torn bytes cut away, new AOF written").isLessThanOrEqualTo(size + 1000);
    }

    @Test
    void corruptionInTheMiddleStopsTheBootUnlessTruncationIsAllowed() throws Exception {
        KevyServer s = start();
        write(s, 10);
        s.persistence().aof().syncNow();
        s.abort();
        Path aof = AofWriter.aofPath(dir, 1);
        byte[] bytes = Files.readAllBytes(aof);
        int at = AofHeader.SIZE + 40;
        bytes[at] = '!';
        Files.write(aof, bytes);
        assertThatThrownBy(this::start).isInstanceOf(IOException.class)
                .hasMessageContaining(aof.toString()).hasMessageContaining("corrupt at byte")
                .hasMessageContaining("aof_load_corrupt");
        try (KevyServer s2 = start(c -> c.with(ServerOptions.AOF_LOAD_CORRUPT, "truncate"))) {
            assertThat(s2.port()).isPositive();
        }
    }

    /** Issue 32: this record stopped the boot with "len < 0" (an int overflow leaking as the message). */
    @Test
    void aHugeBulkLengthNamesFileOffsetAndTheSetting() throws Exception {
        KevyServer s = start();
        write(s, 10);
        s.persistence().aof().syncNow();
        s.abort();
        Path aof = AofWriter.aofPath(dir, 0);
        long size = Files.size(aof);
        try (OutputStream o = Files.newOutputStream(aof, StandardOpenOption.APPEND)) {
            o.write("*1\r\n$4294967295\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        assertThatThrownBy(this::start).isInstanceOf(IOException.class)
                .hasMessageContaining(aof + ": corrupt at byte " + (size + 5))
                .hasMessageContaining("bulk length 4294967295 is over the longest value kevy holds")
                .hasMessageContaining("persistence.aof_load_corrupt = \"truncate\" to load the valid prefix");
        try (KevyServer s2 = start(c -> c.with(ServerOptions.AOF_LOAD_CORRUPT, "truncate"))) {
            assertData(s2, 10);
        }
    }

    @Test
    void rewriteShrinksTheAofAndKeepsEverything() throws Exception {
        long[][] before;
        try (KevyServer s = start()) {
            try (RawClient c = RawClient.connect(s.port())) {
                for (int i = 0; i < 500; i++) {
                    c.call("SET", "same", "v" + i);
                }
            }
            write(s, 10);
            long sizeBefore = s.persistence().aof().size(0) + s.persistence().aof().size(1);
            try (RawClient c = RawClient.connect(s.port())) {
                assertThat(c.call("BGREWRITEAOF")).isEqualTo("+Background append only file rewriting started\r\n");
            }
            org.awaitility.Awaitility.await().until(() -> s.persistence().config() != null
                    && !Files.exists(AofWriter.nextPath(dir, 0)) && !Files.exists(AofWriter.nextPath(dir, 1))
                    && s.persistence().aof().size(0) + s.persistence().aof().size(1) < sizeBefore);
            try (RawClient c = RawClient.connect(s.port())) {
                assertThat(c.call("SET", "post", "rewrite")).isEqualTo("+OK\r\n");
            }
            before = positions(s);
        }
        try (KevyServer s = start()) {
            assertData(s, 10);
            assertThat(positions(s)).isDeepEqualTo(before);
            try (RawClient c = RawClient.connect(s.port())) {
                assertThat(c.call("GET", "same")).isEqualTo("$4\r\nv499\r\n");
                assertThat(c.call("GET", "post")).isEqualTo("$7\r\nrewrite\r\n");
            }
        }
    }

    @Test
    void theAofRewritesItselfOnceItGrewByThePercentage() throws Exception {
        long[][] before;
        try (KevyServer s = start(c -> c.with(ServerOptions.AUTO_AOF_REWRITE_PERCENTAGE, 100)
                .with(ServerOptions.AUTO_AOF_REWRITE_MIN_SIZE, 4096L))) {
            try (RawClient c = RawClient.connect(s.port())) {
                assertThat(c.call("INFO", "persistence")).contains("aof_rewrites:0\r\n");
                // one key overwritten 1,000 times: ~30 kB of frames on its shard, far over 4 kB and 100% growth
                for (int i = 0; i < 1000; i++) {
                    assertThat(c.call("SET", "same", "v" + i)).isEqualTo("+OK\r\n");
                }
                org.awaitility.Awaitility.await().untilAsserted(() -> {
                    assertThat(c.call("INFO", "persistence")).doesNotContain("aof_rewrites:0\r\n")
                            .contains("aof_rewrite_in_progress:0\r\n");
                    assertThat(s.persistence().aof().size(0) + s.persistence().aof().size(1)).isLessThan(4096);
                });
            }
            write(s, 10);
            before = positions(s);
        }
        try (KevyServer s = start()) {
            assertData(s, 10);
            assertThat(positions(s)).isDeepEqualTo(before);
            try (RawClient c = RawClient.connect(s.port())) {
                assertThat(c.call("GET", "same")).isEqualTo("$4\r\nv999\r\n");
            }
        }
    }

    @Test
    void bgsaveShowsItsProgressInInfoPersistence() throws Exception {
        try (KevyServer s = start()) {
            write(s, 200);
            Shard second = s.engine().shard(1);
            try (RawClient c = RawClient.connect(s.port())) {
                // Holding shard 1's lock keeps the save running (it waits to count and capture that shard); INFO
                // would wait for the lock too, so this thread reads the persistence fields itself.
                second.lock().lock();
                try {
                    assertThat(c.call("BGSAVE")).isEqualTo("+Background saving started\r\n");
                    org.awaitility.Awaitility.await().untilAsserted(() -> assertThat(persistenceInfo(s))
                            .contains("rdb_bgsave_in_progress:1\r\n")
                            .containsPattern("rdb_current_bgsave_time_sec:\\d+\r\n")
                            .contains("aof_current_rewrite_time_sec:-1\r\n"));
                } finally {
                    second.lock().unlock();
                }
                org.awaitility.Awaitility.await().untilAsserted(() -> assertThat(c.call("INFO", "persistence"))
                        .contains("rdb_bgsave_in_progress:0\r\n").contains("rdb_last_bgsave_status:ok\r\n")
                        .contains("current_save_keys_processed:0\r\n").contains("current_save_keys_total:0\r\n")
                        .contains("rdb_current_bgsave_time_sec:-1\r\n").contains("rdb_saves:1\r\n")
                        .contains("kevy_keys_saved:202\r\n"));
            }
        }
    }

    @Test
    void anAbortWaitsForTheBackgroundSaveBeforeReleasingTheDirectory() throws Exception {
        KevyServer s = start();
        write(s, 200);
        Shard second = s.engine().shard(1);
        Thread aborter = new Thread(s::abort, "aborter");
        // Holding shard 1's lock keeps the save running (it waits to count and capture that shard).
        second.lock().lock();
        try {
            try (RawClient c = RawClient.connect(s.port())) {
                assertThat(c.call("BGSAVE")).isEqualTo("+Background saving started\r\n");
            }
            org.awaitility.Awaitility.await().untilAsserted(() -> assertThat(persistenceInfo(s))
                    .contains("rdb_bgsave_in_progress:1\r\n"));
            aborter.start();
            aborter.join(500);
            assertThat(aborter.isAlive()).as("abort returned while the save was still running").isTrue();
            assertThatThrownBy(this::start).isInstanceOf(DataDirInUseException.class);
        } finally {
            second.lock().unlock();
        }
        aborter.join(60_000);
        assertThat(aborter.isAlive()).isFalse();
        try (KevyServer s2 = start()) {
            assertData(s2, 200);
        }
    }

    /** The persistence fields as INFO shows them, read in this thread. */
    private static String persistenceInfo(KevyServer s) {
        StringBuilder sb = new StringBuilder();
        s.engine().infoSections().get("persistence").accept(sb);
        return sb.toString();
    }

    @Test
    void shardCountChangeRedistributesOrRefuses() throws Exception {
        try (KevyServer s = start()) {
            write(s, 200);
        }
        assertThatThrownBy(() -> start(c -> c.with(ServerOptions.SHARDS, 3).with(ServerOptions.REDISTRIBUTE, false)))
                .hasMessageContaining("was written with 2 shards but this server has 3");
        try (KevyServer s = start(c -> c.with(ServerOptions.SHARDS, 3))) {
            assertData(s, 200);
            assertThat(Files.readString(dir.resolve("shards.meta")).trim()).isEqualTo("shards 3");
        }
        try (KevyServer s = start(c -> c.with(ServerOptions.SHARDS, 1))) {
            assertData(s, 200);
        }
        assertThat(Files.exists(dir.resolve("dump-2.rdb"))).isFalse();
        assertThat(Files.exists(dir.resolve("aof-1.aof"))).isFalse();
    }

    @Test
    void appendfsyncAlwaysAcknowledgesAfterFsync() throws Exception {
        try (KevyServer s = start(c -> c.with(ServerOptions.APPENDFSYNC, "always"))) {
            write(s, 100);
            AofWriter aof = s.persistence().aof();
            assertThat(aof.durableSeq()).isGreaterThanOrEqualTo(102);
            assertData(s, 100);
        }
    }

    /** DEBUG POPULATE is not flagged write, but it emits SET frames: its reply waits for their fsync too. */
    @Test
    void appendfsyncAlwaysAcknowledgesDebugPopulateAfterFsync() throws Exception {
        try (KevyServer s = start(c -> c.with(ServerOptions.APPENDFSYNC, "always"));
                RawClient c = RawClient.connect(s.port())) {
            assertThat(c.call("DEBUG", "POPULATE", "50000")).isEqualTo("+OK\r\n");
            AofWriter aof = s.persistence().aof();
            assertThat(aof.durableSeq()).as("fsynced before the reply").isGreaterThanOrEqualTo(50_000);
        }
    }

    /**
     * Sorted sets that hold -0 in the skiplist encoding keep it across a restart, whether boot replays the AOF
     * (their ZADDs; the rebuild frames of a *STORE, a RESTORE and cross-shard COPY/RENAME; a ZADD of -0 after SORT
     * converted the set) or loads the snapshot (each set's rebuild frames): a client reads what it read before,
     * which before the restart is what redis-server reads after the same history, and after it, for the sets
     * Redis's RDB loading keeps as skiplists, what redis-server reads after DEBUG RELOAD. A listpack stores -0 as
     * 0, and boot used to build these sets up from ZADDs in a listpack first. (Redis's loading also turns a
     * skiplist of at most 128 short members into a listpack, its -0 into 0; kevy keeps such a set as it was: a
     * snapshot and the frames after it give the state they were taken from, feed contract §10.)
     */
    @ParameterizedTest(name = "aof {0}")
    @ValueSource(booleans = {true, false})
    void negativeZerosOfSkiplistSortedSetsSurviveARestart(boolean aof) throws Exception {
        UnaryOperator<ServerConfig> cfg = c -> c.with(ServerOptions.AOF, aof);
        try (RedisOracle redis = RedisOracle.start("--enable-debug-command", "yes")) {
            RawClient o = redis.raw();
            NegativeZeroZSets h;
            Map<String, String> before;
            try (KevyServer s = start(cfg); RawClient c = RawClient.connect(s.port())) {
                h = new NegativeZeroZSets("nz", s.engine());
                h.run(c);
                h.run(o);
                before = h.observe(c);
                assertThat(before).isEqualTo(h.observe(o));
                if (!aof) {
                    assertThat(c.call("SAVE")).isEqualTo("+OK\r\n");
                }
            }
            assertThat(Files.exists(SnapshotFormat.path(dir, 0))).as("a snapshot to load").isEqualTo(!aof);
            try (KevyServer s = start(cfg); RawClient c = RawClient.connect(s.port())) {
                assertThat(h.observe(c)).isEqualTo(before);
                assertThat(o.call("DEBUG", "RELOAD")).isEqualTo("+OK\r\n");
                assertThat(h.observe(c, h.large())).isEqualTo(h.observe(o, h.large()));
            }
        }
    }

    @Test
    void snapshotHeaderCarriesTheCursor() throws Exception {
        long[][] pos;
        try (KevyServer s = start()) {
            write(s, 30);
            try (RawClient c = RawClient.connect(s.port())) {
                assertThat(c.call("SAVE")).isEqualTo("+OK\r\n");
            }
            pos = positions(s);
        }
        SnapshotReader.Header h = SnapshotReader.readHeader(SnapshotFormat.path(dir, 0));
        assertThat(h.hasCursor()).isTrue();
        assertThat(h.generation()).isEqualTo(pos[0][0]);
        assertThat(h.nextOffset()).isEqualTo(pos[0][1]);
    }
}
