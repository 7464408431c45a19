package io.kevy.persist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kevy.engine.Shard;
import io.kevy.server.KevyServer;
import io.kevy.server.config.ServerConfig;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk at boot and a failing fsync (issue 32, points 3 and 5), on a real data directory through the
 * {@link FileFaults} hook (the OS's errors, without a privileged mount): a boot that must write serves reads and
 * refuses writes with MISCONF until space returns; a failed fsync refuses writes for good and acknowledges
 * nothing it covered (Redis #8347).
 */
class DiskFaultIT {
    private static final String NO_SPACE = "-MISCONF Errors writing to the AOF file: No space left on device\r\n";
    private static final String FSYNC_FAILED = "-MISCONF Errors writing to the AOF file: Input/output error\r\n";

    @TempDir
    Path dir;
    @TempDir
    Path control;

    @BeforeEach
    void hook() {
        FileFaults.control(control);
    }

    @AfterEach
    void unhook() {
        FileFaults.control(null);
    }

    private KevyServer start(UnaryOperator<ServerConfig> custom) throws Exception {
        return KevyServer.start(custom.apply(ServerConfig.defaults()
                .with(ServerOptions.PORT, 0)
                .with(ServerOptions.SHARDS, 2)
                .with(ServerOptions.IO_THREADS, 1)
                .with(ServerOptions.DIR, dir.toString())
                .with(ServerOptions.SAVE, "")));
    }

    private void fault(String name, boolean on) {
        try {
            if (on) {
                Files.writeString(control.resolve(name), "");
            } else {
                Files.deleteIfExists(control.resolve(name));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long generation(KevyServer s, int shard) {
        Shard sh = s.engine().shard(shard);
        sh.lock().lock();
        try {
            return sh.generation();
        } finally {
            sh.lock().unlock();
        }
    }

    private static void fill(KevyServer s, int n) {
        try (RawClient c = RawClient.connect(s.port())) {
            for (int i = 0; i < n; i++) {
                assertThat(c.call("SET", "k:" + i, "v:" + i)).isEqualTo("+OK\r\n");
            }
        }
    }

    private static void assertReads(RawClient c, int n) {
        for (int i = 0; i < n; i++) {
            assertThat(c.call("GET", "k:" + i)).isEqualTo("$" + ("v:" + i).length() + "\r\nv:" + i + "\r\n");
        }
    }

    @Test
    void aBootThatMustWriteOnAFullDiskServesReadsRefusesWritesAndRecoversWhenSpaceReturns() throws Exception {
        KevyServer s = start(c -> c);
        fill(s, 50);
        s.persistence().aof().syncNow();
        s.abort(); // a crash: the next boot must draw new generations, and write them
        fault("nospace", true);
        try (KevyServer s2 = start(c -> c); RawClient c = RawClient.connect(s2.port())) {
            assertReads(c, 50);
            assertThat(c.call("SET", "after", "x")).isEqualTo(NO_SPACE);
            assertThat(c.call("DEL", "k:1")).isEqualTo(NO_SPACE);
            assertThat(c.call("EXISTS", "after")).isEqualTo(":0\r\n");
            assertThat(c.call("INFO", "persistence")).contains("aof_last_write_status:err");
            assertThat(c.call("BGSAVE")).isEqualTo(NO_SPACE);
            fault("nospace", false);
            await().atMost(Duration.ofSeconds(10)).until(() -> c.call("SET", "after", "x").equals("+OK\r\n"));
            assertThat(c.call("INFO", "persistence")).contains("aof_last_write_status:ok");
            s2.persistence().aof().syncNow();
            s2.abort();
        }
        try (KevyServer s3 = start(c -> c); RawClient c = RawClient.connect(s3.port())) {
            assertReads(c, 50);
            assertThat(c.call("GET", "after")).isEqualTo("$1\r\nx\r\n");
        }
    }

    @Test
    void aCleanRestartOnAFullDiskWritesNoFileAndResumes() throws Exception {
        KevyServer s = start(c -> c);
        fill(s, 20);
        long gen = generation(s, 0);
        s.close();
        fault("nospace", true);
        try (KevyServer s2 = start(c -> c); RawClient c = RawClient.connect(s2.port())) {
            assertThat(generation(s2, 0)).as("resumed: nothing had to be written").isEqualTo(gen);
            assertReads(c, 20);
            assertThat(c.call("INFO", "persistence")).contains("aof_last_write_status:ok");
            fault("nospace", false);
        }
    }

    @Test
    void aFailedFsyncUnderAlwaysAcknowledgesNothingAndRefusesWritesForGood() throws Exception {
        KevyServer s = start(c -> c.with(ServerOptions.APPENDFSYNC, "always"));
        long gen = generation(s, 0);
        try (RawClient c = RawClient.connect(s.port()); RawClient writer = RawClient.connect(s.port())) {
            assertThat(writer.call("SET", "before", "1")).isEqualTo("+OK\r\n");
            fault("fail-fsync", true);
            writer.command("SET", "during", "2");
            assertThat(writer.isClosedByServer()).as("no reply for a write whose fsync failed; closed").isTrue();
            assertThat(c.call("SET", "after", "3")).isEqualTo(FSYNC_FAILED);
            assertThat(c.call("GET", "before")).isEqualTo("$1\r\n1\r\n");
            fault("fail-fsync", false);
            await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(10))
                    .until(() -> c.call("SET", "after", "3").equals(FSYNC_FAILED));
            assertThat(c.call("INFO", "persistence")).contains("aof_last_write_status:err");
        }
        s.close(); // a clean stop cannot vouch for the files: no marker
        try (KevyServer s2 = start(c -> c.with(ServerOptions.APPENDFSYNC, "always"));
             RawClient c = RawClient.connect(s2.port())) {
            assertThat(generation(s2, 0)).as("a new generation: consumers rebuild").isNotEqualTo(gen);
            assertThat(c.call("GET", "before")).isEqualTo("$1\r\n1\r\n");
            assertThat(c.call("SET", "again", "4")).isEqualTo("+OK\r\n");
        }
    }

    @Test
    void aFailedFsyncUnderEverysecRefusesWritesFromThen() throws Exception {
        try (KevyServer s = start(c -> c.with(ServerOptions.APPENDFSYNC, "everysec"));
             RawClient c = RawClient.connect(s.port())) {
            assertThat(c.call("SET", "before", "1")).isEqualTo("+OK\r\n");
            fault("fail-fsync", true);
            await().atMost(Duration.ofSeconds(5)).until(() -> c.call("SET", "k", "v").equals(FSYNC_FAILED));
            fault("fail-fsync", false);
            await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(10))
                    .until(() -> c.call("SET", "k", "v").equals(FSYNC_FAILED));
            assertThat(c.call("GET", "before")).isEqualTo("$1\r\n1\r\n");
        }
    }
}
