package io.kevy.persist;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** {@code shards.meta}: the shard count the data directory was written with ({@code "shards <n>"}). */
final class ShardsMeta {
    static final String FILE = "shards.meta";

    private ShardsMeta() {
    }

    /** The stored count, or -1 when the file does not exist. */
    static int read(Path dir) throws IOException {
        Path p = dir.resolve(FILE);
        if (!Files.exists(p)) {
            return -1;
        }
        String s = GenerationFiles.readSmall(p).trim();
        try {
            if (s.startsWith("shards ")) {
                int n = Integer.parseInt(s.substring(7).trim());
                if (n > 0) {
                    return n;
                }
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new IOException(p + ": unreadable (expected \"shards <n>\" with n >= 1, found \"" + s + "\")");
    }

    static void write(Path dir, int shards) throws IOException {
        FileSync.replace(dir.resolve(FILE), ("shards " + shards + "\n").getBytes(StandardCharsets.US_ASCII));
    }
}
