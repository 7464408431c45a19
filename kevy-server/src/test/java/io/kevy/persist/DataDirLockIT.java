package io.kevy.persist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kevy.embedded.Config;
import io.kevy.embedded.Store;
import io.kevy.server.KevyServer;
import io.kevy.server.config.ServerConfig;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import io.kevy.testing.ServerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data directory lock ({@code kevy.lock}): a second server or store on a directory in use is refused before
 * it touches a file, the first one's AOF stays the file it appends to, and a killed owner leaves no stale lock.
 */
class DataDirLockIT {
    @TempDir
    Path dir;

    private KevyServer start(int port) throws Exception {
        return KevyServer.start(ServerConfig.defaults()
                .with(ServerOptions.PORT, port)
                .with(ServerOptions.SHARDS, 2)
                .with(ServerOptions.IO_THREADS, 1)
                .with(ServerOptions.DIR, dir.toString())
                .with(ServerOptions.SAVE, "")
                .with(ServerOptions.FEED_ENABLED, true));
    }

    private static void write(int port, String prefix, int n) {
        try (RawClient c = RawClient.connect(port)) {
            for (int i = 0; i < n; i++) {
                assertThat(c.call("SET", prefix + i, "v" + i)).isEqualTo("+OK\r\n");
            }
        }
    }

    private static void assertPresent(int port, String prefix, int n) {
        try (RawClient c = RawClient.connect(port)) {
            for (int i = 0; i < n; i++) {
                assertThat(c.call("GET", prefix + i)).as(prefix + i).isEqualTo("$" + ("v" + i).length() + "\r\nv" + i + "\r\n");
            }
        }
    }

    private Object aofInode(int shard) throws Exception {
        return Files.getAttribute(AofWriter.aofPath(dir, shard), "unix:ino");
    }

    private String inUse(long pid) throws Exception {
        return "data directory " + dir.toRealPath() + " is in use by another kevy-server (pid " + pid
                + ", kevy.lock); stop it or choose another --dir";
    }

    @Test
    void secondServerAndStoreOnADirInUseAreRefusedAndTheFirstKeepsItsFiles() throws Exception {
        long pid = ProcessHandle.current().pid();
        try (KevyServer a = start(0)) {
            write(a.port(), "before:", 50);
            Object ino0 = aofInode(0);
            Object ino1 = aofInode(1);
            assertThat(Files.readString(dir.resolve("kevy.lock")).trim()).isEqualTo(Long.toString(pid));

            // same port too: the lock refuses it before the bind would, and before any file work
            assertThatThrownBy(() -> start(a.port()))
                    .isInstanceOf(DataDirInUseException.class)
                    .hasMessage(inUse(pid));
            assertThatThrownBy(() -> start(0))
                    .isInstanceOf(DataDirInUseException.class)
                    .hasMessage(inUse(pid));
            assertThatThrownBy(() -> Store.open(Config.defaults().withDataDir(dir)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage(inUse(pid));

            assertThat(aofInode(0)).isEqualTo(ino0);
            assertThat(aofInode(1)).isEqualTo(ino1);
            try (java.util.stream.Stream<Path> files = Files.list(dir)) {
                assertThat(files.map(p -> p.getFileName().toString())
                        .filter(n -> n.endsWith(".tmp") || n.endsWith(".next"))).isEmpty();
            }
            write(a.port(), "after:", 50);
        }
        try (KevyServer b = start(0)) {
            assertPresent(b.port(), "before:", 50);
            assertPresent(b.port(), "after:", 50);
        }
    }

    @Test
    void theLockIsReleasedByCloseAbortAndAFailedBoot(@TempDir Path storeDir) throws Exception {
        KevyServer a = start(0);
        write(a.port(), "k:", 10);
        a.abort();
        KevyServer b = start(0);
        assertPresent(b.port(), "k:", 10);
        b.close();
        assertThatThrownBy(() -> KevyServer.start(ServerConfig.defaults()
                .with(ServerOptions.PORT, 0)
                .with(ServerOptions.SHARDS, 3)
                .with(ServerOptions.REDISTRIBUTE, false)
                .with(ServerOptions.DIR, dir.toString())))
                .isInstanceOf(java.io.IOException.class)
                .hasMessageContaining("was written with 2 shards");
        try (KevyServer c = start(0)) {
            assertPresent(c.port(), "k:", 10);
        }

        Store s1 = Store.open(Config.defaults().withDataDir(storeDir));
        s1.set("x", "1");
        assertThatThrownBy(() -> Store.open(Config.defaults().withDataDir(storeDir)))
                .isInstanceOf(DataDirInUseException.class);
        s1.close();
        try (Store s2 = Store.open(Config.defaults().withDataDir(storeDir))) {
            assertThat(s2.get("x")).isEqualTo("1");
        }
    }

    @Test
    void aSecondProcessExitsNonZeroAndAKilledOwnerLeavesNoStaleLock() throws Exception {
        try (ServerProcess a = ServerProcess.start(dir, "--shards", "2", "--feed")) {
            write(a.port(), "before:", 50);
            Object ino0 = aofInode(0);
            Object ino1 = aofInode(1);
            assertThatThrownBy(() -> ServerProcess.start(dir, "--shards", "2", "--feed"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("kevy-server exited with 1")
                    .hasMessageContaining("kevy-server: cannot start: " + inUse(a.pid()));
            assertThat(aofInode(0)).isEqualTo(ino0);
            assertThat(aofInode(1)).isEqualTo(ino1);
            write(a.port(), "after:", 50);
            a.term();
        }
        try (ServerProcess b = ServerProcess.start(dir, "--shards", "2", "--feed")) {
            assertPresent(b.port(), "before:", 50);
            assertPresent(b.port(), "after:", 50);
            b.kill9();
        }
        try (ServerProcess c = ServerProcess.start(dir, "--shards", "2", "--feed")) {
            assertPresent(c.port(), "before:", 50);
            assertPresent(c.port(), "after:", 50);
            assertThat(Files.readString(dir.resolve("kevy.lock")).trim()).isEqualTo(Long.toString(c.pid()));
        }
    }
}
