package io.kevy.persist;

import io.kevy.embedded.Config;
import io.kevy.embedded.Store;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Measures the snapshot pause (the capture under the shard lock) and the background write time for N string
 * keys plus N/10 hashes of 10 fields, on one shard (the embedded store): the figure docs/operations.md quotes.
 * {@code java -cp <test class path> io.kevy.persist.SnapshotPause [keys=1000000]}
 */
public final class SnapshotPause {
    private SnapshotPause() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        Path dir = Files.createTempDirectory("kevy-pause");
        try (Store s = Store.open(Config.defaults().withPersistence(PersistenceConfig.defaults(dir).withAof(false)
                .withSaveRules(java.util.List.of())))) {
            for (int i = 0; i < n; i++) {
                s.set("key:" + i, "value:" + i);
            }
            for (int i = 0; i < n / 10; i++) {
                String[] cmd = new String[22];
                cmd[0] = "HSET";
                cmd[1] = "hash:" + i;
                for (int f = 0; f < 10; f++) {
                    cmd[2 + 2 * f] = "field" + f;
                    cmd[3 + 2 * f] = "v" + i;
                }
                s.execute(cmd);
            }
            for (int round = 0; round < 3; round++) {
                long t0 = System.nanoTime();
                s.execute("SAVE").orThrow();
                long ms = (System.nanoTime() - t0) / 1_000_000;
                String info = s.execute("INFO", "persistence").asString();
                String pause = info.lines().filter(l -> l.startsWith("kevy_last_capture_pause_ms:")).findFirst()
                        .orElse("?");
                System.out.println("keys=" + (n + n / 10) + " save_ms=" + ms + " " + pause + " dump_bytes="
                        + Files.size(dir.resolve("dump-0.rdb")));
            }
        } finally {
            DiskGate.deleteQuietly(dir);
        }
    }
}
