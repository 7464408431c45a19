package io.kevy.persist;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The exclusive lock of one data directory: {@code <dir>/kevy.lock}, locked with {@link FileChannel#tryLock()}
 * and holding the owner's pid, for the life of a server or embedded store. Two servers booting the same
 * directory would replace each other's AOF and snapshot files, so the second one is refused before it touches
 * any file. The operating system drops the lock when the process dies (kill -9 leaves no stale lock); the
 * file itself stays and is never read by boot.
 *
 * <p>Within one JVM a path table is checked first: POSIX record locks belong to the process, so opening and
 * closing a second channel on a file this JVM has locked would release that lock.
 *
 * <p>Thread-safe.
 */
final class DataDirLock implements AutoCloseable {
    /** The lock file's name inside the data directory. */
    static final String FILE = "kevy.lock";

    private static final Map<Path, DataDirLock> HELD = new ConcurrentHashMap<>();
    /** The table entry while a lock is being taken, so two threads of one JVM cannot both open the file. */
    private static final DataDirLock TAKING = new DataDirLock(null, null, null);

    private final Path key;
    private final FileChannel channel;
    private final FileLock lock;

    private DataDirLock(Path key, FileChannel channel, FileLock lock) {
        this.key = key;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Locks {@code dir} (which must exist) and writes this process's pid into {@code kevy.lock}.
     *
     * @throws DataDirInUseException when another process or another server of this JVM holds the lock
     * @throws IOException when the lock file cannot be created or written
     */
    static DataDirLock acquire(Path dir) throws IOException {
        Path key = dir.toRealPath();
        Path file = key.resolve(FILE);
        long pid = ProcessHandle.current().pid();
        if (HELD.putIfAbsent(key, TAKING) != null) {
            throw new DataDirInUseException(inUse(key, Long.toString(pid)));
        }
        FileChannel ch = null;
        try {
            ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock l;
            try {
                l = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                l = null;
            }
            if (l == null) {
                ch.close();
                ch = null;
                throw new DataDirInUseException(inUse(key, readPid(file)));
            }
            writePid(ch, pid);
            DataDirLock held = new DataDirLock(key, ch, l);
            HELD.put(key, held);
            return held;
        } catch (IOException | RuntimeException e) {
            if (ch != null) {
                ch.close();
            }
            HELD.remove(key);
            throw e;
        }
    }

    /** The pid is for people (the lock is the OS's): a full disk does not stop the boot over it. */
    private static void writePid(FileChannel ch, long pid) throws IOException {
        try {
            FileFaults.beforeWrite();
            ch.truncate(0);
            ch.write(ByteBuffer.wrap((pid + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
            ch.force(true);
        } catch (IOException e) {
            if (!FileFaults.isNoSpace(e)) {
                throw e;
            }
            org.slf4j.LoggerFactory.getLogger(DataDirLock.class).warn("cannot write the pid into {}: {}", FILE,
                    e.getMessage());
        }
    }

    private static String inUse(Path dir, String pid) {
        return "data directory " + dir + " is in use by another kevy-server (pid " + pid + ", " + FILE
                + "); stop it or choose another --dir";
    }

    private static String readPid(Path file) {
        try {
            String s = Files.readString(file, StandardCharsets.US_ASCII).trim();
            return s.isEmpty() ? "unknown" : s;
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** Releases the lock; idempotent. The file stays (a later server overwrites the pid). */
    @Override
    public void close() throws IOException {
        if (!HELD.remove(key, this)) {
            return;
        }
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
