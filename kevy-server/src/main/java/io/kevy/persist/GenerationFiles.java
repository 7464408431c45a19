package io.kevy.persist;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-shard generation files of feed contract §5: {@code feed-{i}.gen} holds the current generation
 * (replaced durably whenever it changes); {@code feed-{i}.meta} holds {@code "<gen> <next_offset>"}, the
 * clean-shutdown marker, written only by a clean shutdown after the data is durable, and read and deleted at
 * every boot.
 */
final class GenerationFiles {
    private static final Logger log = LoggerFactory.getLogger(GenerationFiles.class);

    /** A clean-shutdown marker. */
    record Marker(long generation, long nextOffset) {
    }

    private GenerationFiles() {
    }

    static Path genPath(Path dir, int shard) {
        return dir.resolve("feed-" + shard + ".gen");
    }

    static Path markerPath(Path dir, int shard) {
        return dir.resolve("feed-" + shard + ".meta");
    }

    /** The stored generation, or empty when the file is missing or unreadable (logged). */
    static OptionalLong readGeneration(Path dir, int shard) {
        Path p = genPath(dir, shard);
        if (!Files.exists(p)) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(readSmall(p).trim()));
        } catch (IOException | NumberFormatException e) {
            log.warn("{}: unreadable generation file ({}); a new generation will be drawn", p, e.getMessage());
            return OptionalLong.empty();
        }
    }

    static void writeGeneration(Path dir, int shard, long generation) throws IOException {
        FileSync.replace(genPath(dir, shard), (generation + "\n").getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * Reads and deletes the clean-shutdown marker (the deletion is made durable before returning, so a crash
     * later in this run cannot be mistaken for a clean stop). Empty when missing or corrupt (logged).
     */
    static Optional<Marker> takeMarker(Path dir, int shard) throws IOException {
        Path p = markerPath(dir, shard);
        if (!Files.exists(p)) {
            return Optional.empty();
        }
        Optional<Marker> m;
        try {
            String[] parts = readSmall(p).trim().split("\\s+");
            m = parts.length == 2 ? Optional.of(new Marker(Long.parseLong(parts[0]), Long.parseLong(parts[1])))
                    : Optional.empty();
        } catch (IOException | NumberFormatException e) {
            m = Optional.empty();
        }
        if (m.isEmpty()) {
            log.warn("{}: corrupt clean-shutdown marker; treating the last stop as a crash", p);
        }
        Files.delete(p);
        FileSync.directory(dir);
        return m;
    }

    /** The longest of these one-line files, bytes: a bigger one is damaged, and is not read into memory. */
    private static final int SMALL_FILE_MAX = 256;

    /**
     * A one-line file of at most {@value #SMALL_FILE_MAX} bytes, bytes outside ASCII shown as {@code ?}.
     *
     * @throws IOException naming the file when it is longer
     */
    static String readSmall(Path p) throws IOException {
        byte[] b;
        try (java.io.InputStream in = Files.newInputStream(p)) {
            b = in.readNBytes(SMALL_FILE_MAX + 1);
        }
        if (b.length > SMALL_FILE_MAX) {
            throw new IOException(p + ": longer than " + SMALL_FILE_MAX + " bytes (" + Files.size(p) + "): damaged");
        }
        StringBuilder s = new StringBuilder(b.length);
        for (byte x : b) {
            s.append(x >= 0x20 && x < 0x7f || x == '\n' || x == '\r' || x == '\t' || x == ' ' ? (char) x : '?');
        }
        return s.toString();
    }

    static void writeMarker(Path dir, int shard, Marker marker) throws IOException {
        FileSync.replace(markerPath(dir, shard),
                (marker.generation() + " " + marker.nextOffset() + "\n").getBytes(StandardCharsets.US_ASCII));
    }
}
