package io.kevy.persist;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Test hook for the disk-fault tests (issue 32): a full disk, a failing fsync, and the record of each AOF's last
 * fsynced length that a power-loss test truncates the file to. Off (one volatile read per call) unless a control
 * directory is set, by the system property {@code kevy.test.faults} (for a child-process server) or
 * {@link #control(Path)} (in-process). While it is set:
 * <ul>
 *   <li>a file {@code nospace} in it makes every data-file write fail with {@code No space left on device};</li>
 *   <li>a file {@code fail-fsync} in it makes every AOF fsync fail with {@code Input/output error};</li>
 *   <li>after every successful AOF fsync (and when an AOF is opened: it is durable then) the file's length is
 *       written as 8 bytes (LE) to {@code synced-<file name>} in it, overwritten in place.</li>
 * </ul>
 * Never set in production. Thread-safe.
 */
public final class FileFaults {
    /** The system property naming the control directory. */
    public static final String PROPERTY = "kevy.test.faults";
    /** The message of a write refused by a full disk, as the OS gives it (ENOSPC). */
    public static final String NO_SPACE = "No space left on device";
    private static volatile Path control = initial();

    private FileFaults() {
    }

    private static Path initial() {
        String p = System.getProperty(PROPERTY);
        return p == null || p.isEmpty() ? null : Path.of(p);
    }

    /** Sets (or, with null, clears) the control directory of this JVM. */
    public static void control(Path dir) {
        control = dir;
    }

    /** True when a control directory is set (the fault tests); false in production. */
    static boolean active() {
        return control != null;
    }

    /** Before a data-file write: fails as a full disk would when {@code nospace} is present. */
    static void beforeWrite() throws IOException {
        Path c = control;
        if (c != null && Files.exists(c.resolve("nospace"))) {
            throw new IOException(NO_SPACE);
        }
    }

    /** Before an AOF fsync: fails as a disk error would when {@code fail-fsync} is present. */
    static void beforeFsync() throws IOException {
        Path c = control;
        if (c != null && Files.exists(c.resolve("fail-fsync"))) {
            throw new IOException("Input/output error");
        }
    }

    /** Records that {@code file} is durable up to {@code length} bytes. */
    static void synced(Path file, long length) {
        Path c = control;
        if (c == null) {
            return;
        }
        Path record = c.resolve("synced-" + file.getFileName());
        try (FileChannel ch = FileChannel.open(record, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(0, length);
            ch.write(b, 0);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * True when {@code e} (or a cause) is the OS's out-of-space or over-quota error: the condition a server can
     * wait out read-only (Redis's MISCONF) rather than refuse to start.
     */
    public static boolean isNoSpace(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = t.getMessage();
            if (m != null && (m.contains(NO_SPACE) || m.contains("Disk quota exceeded"))) {
                return true;
            }
        }
        return false;
    }
}
