package io.kevy.persist;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;

/**
 * Durable file replacement: tmp + fsync + rename + directory fsync. Used for the data directory's small files and
 * for CONFIG REWRITE's config file.
 *
 * <p>Thread-safe for different targets; callers serialise replacements of one target (its tmp file is shared).
 */
public final class FileSync {
    private FileSync() {
    }

    /**
     * Fsyncs directory {@code dir} so a rename in it survives a power loss (best effort where unsupported).
     *
     * @throws IOException when the directory cannot be opened or synced
     */
    public static void directory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // some platforms cannot open directories; the rename is still atomic there
            if (Files.isDirectory(dir) && System.getProperty("os.name", "").toLowerCase().contains("win")) {
                return;
            }
            throw e;
        }
    }

    /**
     * Replaces {@code target} with {@code bytes} durably: writes {@code <target>.tmp} beside it (with the target's
     * POSIX permissions when it exists, so a file readable only by its owner stays so), fsyncs it, renames it over
     * the target and fsyncs the directory. A reader sees the old file or the new one, never a part.
     *
     * @throws IOException when a step fails; the target is then unchanged (the tmp file may remain)
     */
    public static void replace(Path target, byte[] bytes) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            PosixFileAttributeView perms = Files.getFileAttributeView(target, PosixFileAttributeView.class);
            if (perms != null && Files.exists(target)) {
                Files.setPosixFilePermissions(tmp, perms.readAttributes().permissions());
            }
            AofWriter.writeFully(ch, java.nio.ByteBuffer.wrap(bytes));
            ch.force(true);
        }
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        directory(target.toAbsolutePath().getParent());
    }
}
