package io.kevy.persist;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** Durable file replacement: tmp + fsync + rename + directory fsync. */
final class FileSync {
    private FileSync() {
    }

    /** Fsyncs directory {@code dir} so a rename in it survives a power loss (best effort where unsupported). */
    static void directory(Path dir) throws IOException {
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

    /** Replaces {@code target} with {@code bytes} durably. */
    static void replace(Path target, byte[] bytes) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            AofWriter.writeFully(ch, java.nio.ByteBuffer.wrap(bytes));
            ch.force(true);
        }
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        directory(target.getParent());
    }
}
