package io.kevy.persist;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Crash-safe replacement of a whole data directory's files when the shard count changes. New files are written
 * into {@code redistribute.tmp/}; renaming that to {@code redistribute.ready/} is the commit point; the files
 * are then moved into place and the old shards' files listed in {@code stale} are deleted. A boot that finds
 * {@code redistribute.ready/} finishes the move; one that finds {@code redistribute.tmp/} discards it (the old
 * files are untouched).
 */
final class Redistribution {
    private static final String STAGING = "redistribute.tmp";
    private static final String READY = "redistribute.ready";
    private static final String STALE = "stale";
    /** The names {@code stale} may list: the shards' own files, in the data dir itself (nothing else is deleted). */
    private static final java.util.regex.Pattern DATA_FILE =
            java.util.regex.Pattern.compile("(aof-\\d{1,9}\\.aof(\\.next)?|dump-\\d{1,9}\\.rdb|feed-\\d{1,9}\\.(gen|meta|history))");
    /** The longest {@code stale} list read, bytes (5 names of under 30 bytes per shard). */
    private static final int STALE_MAX = 1 << 20;

    private final Path dir;
    private final Path staging;

    private Redistribution(Path dir) {
        this.dir = dir;
        this.staging = dir.resolve(STAGING);
    }

    /** Finishes a committed re-distribution, or drops an uncommitted one. */
    static void recover(Path dir) throws IOException {
        if (Files.isDirectory(dir.resolve(READY))) {
            finish(dir);
        }
        BootLoader.deleteTree(dir.resolve(STAGING));
    }

    static Redistribution begin(Path dir) throws IOException {
        Redistribution r = new Redistribution(dir);
        BootLoader.deleteTree(r.staging);
        Files.createDirectories(r.staging);
        return r;
    }

    /** Where the staged copy of {@code finalPath} (a file in the data dir) is written. */
    Path path(Path finalPath) {
        return staging.resolve(finalPath.getFileName());
    }

    void writeGeneration(int shard, long gen) throws IOException {
        FileSync.replace(path(GenerationFiles.genPath(dir, shard)),
                (gen + "\n").getBytes(StandardCharsets.US_ASCII));
    }

    void writeShardsMeta(int shards) throws IOException {
        ShardsMeta.write(staging, shards);
    }

    /** Commits: lists the old files to delete, renames the staging dir to ready, then moves the files in. */
    void commit(int oldShards, int newShards) throws IOException {
        List<String> stale = new ArrayList<>();
        for (int j = 0; j < Math.max(oldShards, newShards); j++) {
            for (Path p : List.of(SnapshotFormat.path(dir, j), AofWriter.aofPath(dir, j), AofWriter.nextPath(dir, j),
                    GenerationFiles.genPath(dir, j), GenerationFiles.markerPath(dir, j),
                    GenerationFiles.historyPath(dir, j))) {
                if (!Files.exists(path(p))) {
                    stale.add(p.getFileName().toString());
                }
            }
        }
        FileSync.replace(staging.resolve(STALE), String.join("\n", stale).getBytes(StandardCharsets.UTF_8));
        FileSync.directory(staging);
        Files.move(staging, dir.resolve(READY), StandardCopyOption.ATOMIC_MOVE);
        FileSync.directory(dir);
        finish(dir);
    }

    private static List<String> readStale(Path staleList) throws IOException {
        long size = Files.size(staleList);
        if (size > STALE_MAX) {
            throw new IOException(staleList + ": " + size + " bytes, over " + STALE_MAX + ": damaged (kevy writes "
                    + "one line per old file)");
        }
        return List.of(new String(Files.readAllBytes(staleList), StandardCharsets.ISO_8859_1).split("\n"));
    }

    private static void finish(Path dir) throws IOException {
        Path ready = dir.resolve(READY);
        Path staleList = ready.resolve(STALE);
        List<String> stale = Files.exists(staleList) ? readStale(staleList) : List.of();
        try (Stream<Path> files = Files.list(ready)) {
            for (Path f : files.toList()) {
                if (!f.getFileName().toString().equals(STALE)) {
                    Files.move(f, dir.resolve(f.getFileName()), StandardCopyOption.ATOMIC_MOVE,
                            StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        for (String name : stale) {
            if (name.isBlank()) {
                continue;
            }
            if (!DATA_FILE.matcher(name).matches()) { // a damaged or crafted list must not delete other files
                org.slf4j.LoggerFactory.getLogger(Redistribution.class).warn("{}: not deleting \"{}\": not a shard's "
                        + "data file name", staleList, name);
                continue;
            }
            Files.deleteIfExists(dir.resolve(name));
        }
        FileSync.directory(dir);
        BootLoader.deleteTree(ready);
        FileSync.directory(dir);
    }
}
