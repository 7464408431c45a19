package io.kevy.feed.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/** {@link CursorStore#file(Path)}: tmp + fsync + atomic rename. */
final class FileCursorStore implements CursorStore {
    private final Path path;

    FileCursorStore(Path path) {
        this.path = path.toAbsolutePath();
    }

    @Override
    public Optional<StoredCursors> load(String consumer) {
        byte[] json;
        try {
            json = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new KevyConfigException("cannot read cursor file " + path + ": " + e, e);
        }
        StoredCursors c = StoredCursors.fromJson(json, path.toString());
        if (!c.consumer().equals(consumer)) {
            throw new KevyConfigException("cursor file " + path + " belongs to consumer '" + c.consumer()
                    + "', not '" + consumer + "': give each consumer its own file");
        }
        return Optional.of(c);
    }

    @Override
    public synchronized void save(StoredCursors cursors) {
        Path dir = path.getParent();
        Path tmp = dir.resolve(path.getFileName() + ".tmp");
        try {
            Files.createDirectories(dir);
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer b = ByteBuffer.wrap(cursors.toJson());
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                ch.force(true);
            }
            try {
                Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING);
            }
            try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
                d.force(true);
            } catch (IOException ignored) {
                // directories cannot be opened for fsync on every platform; the rename is still atomic
            }
        } catch (IOException e) {
            throw new KevyException("cannot write cursor file " + path + ": " + e, e);
        }
    }

    @Override
    public synchronized void delete(String consumer) {
        try {
            if (Files.exists(path)) {
                load(consumer);
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new KevyException("cannot delete cursor file " + path + ": " + e, e);
        }
    }

    @Override
    public String toString() {
        return "CursorStore.file(" + path + ")";
    }
}
