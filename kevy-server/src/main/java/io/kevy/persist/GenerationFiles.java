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
 * every boot; {@code feed-{i}.history} holds the shard's generation history ({@link io.kevy.engine.Shard#generationEnd},
 * "cursors that survive failover", docs/cdc.md), one {@code "<generation> <end_offset>"} line per generation the
 * stream continued from, oldest first, replaced durably whenever it changes and absent while it is empty. A data
 * directory without it (written before it existed) has an empty history.
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

    static Path historyPath(Path dir, int shard) {
        return dir.resolve("feed-" + shard + ".history");
    }

    /** The longest history file read, bytes: {@link io.kevy.engine.Shard#MAX_HISTORY} lines of two 20-digit numbers. */
    static final int HISTORY_FILE_MAX = io.kevy.engine.Shard.MAX_HISTORY * 42;

    /**
     * The stored generation history, oldest first ({@code [generation, end offset]} each); empty when the file is
     * missing. A damaged file (longer than {@value #HISTORY_FILE_MAX} bytes, a line that is not two unsigned
     * 64-bit decimals) yields an empty history, logged: the consumers of old generations then rebuild, which is
     * always safe.
     */
    static java.util.List<long[]> readHistory(Path dir, int shard) {
        Path p = historyPath(dir, shard);
        if (!Files.exists(p)) {
            return java.util.List.of();
        }
        try {
            byte[] b;
            try (java.io.InputStream in = Files.newInputStream(p)) {
                b = in.readNBytes(HISTORY_FILE_MAX + 1);
            }
            if (b.length > HISTORY_FILE_MAX) {
                throw new IOException("longer than " + HISTORY_FILE_MAX + " bytes");
            }
            return parseHistory(new String(b, StandardCharsets.US_ASCII));
        } catch (IOException | IllegalArgumentException e) {
            log.warn("{}: unreadable generation history ({}); cursors of older generations will get FEEDRESYNC", p,
                    e.getMessage());
            return java.util.List.of();
        }
    }

    /**
     * Parses a history file's text: lines {@code "<generation> <end_offset>"} (unsigned 64-bit decimals), blank
     * lines ignored.
     *
     * @throws IllegalArgumentException naming the line that is not two unsigned 64-bit decimals
     */
    static java.util.List<long[]> parseHistory(String text) {
        java.util.List<long[]> out = new java.util.ArrayList<>();
        int n = 0;
        for (String line : text.split("\n", -1)) {
            n++;
            String t = line.trim();
            if (t.isEmpty()) {
                continue;
            }
            String[] parts = t.split(" ");
            if (parts.length != 2) {
                throw new IllegalArgumentException("line " + n + " is not \"<generation> <end_offset>\"");
            }
            try {
                out.add(new long[] {Long.parseUnsignedLong(parts[0]), Long.parseUnsignedLong(parts[1])});
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("line " + n + " holds a number that is not an unsigned 64-bit "
                        + "decimal");
            }
        }
        return out;
    }

    /** Replaces the history file durably with {@code history}, or deletes it when the history is empty. */
    static void writeHistory(Path dir, int shard, java.util.List<long[]> history) throws IOException {
        Path p = historyPath(dir, shard);
        if (history.isEmpty()) {
            if (Files.deleteIfExists(p)) {
                FileSync.directory(dir);
            }
            return;
        }
        StringBuilder sb = new StringBuilder();
        for (long[] h : history) {
            sb.append(Long.toUnsignedString(h[0])).append(' ').append(Long.toUnsignedString(h[1])).append('\n');
        }
        FileSync.replace(p, sb.toString().getBytes(StandardCharsets.US_ASCII));
    }

    static void writeMarker(Path dir, int shard, Marker marker) throws IOException {
        FileSync.replace(markerPath(dir, shard),
                (marker.generation() + " " + marker.nextOffset() + "\n").getBytes(StandardCharsets.US_ASCII));
    }
}
