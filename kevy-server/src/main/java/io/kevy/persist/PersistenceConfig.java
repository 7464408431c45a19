package io.kevy.persist;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Persistence settings.
 *
 * @param dir                    the data directory (created when missing)
 * @param aof                    write the AOF
 * @param fsync                  the appendfsync policy
 * @param saveRules              snapshot rules: save when at least {@code changes} writes happened in the last
 *                               {@code seconds} (Redis's {@code save})
 * @param autoRewritePercentage  rewrite the AOF when it grew by this percentage over its size after the last
 *                               rewrite (0 disables)
 * @param autoRewriteMinBytes    ... and is at least this large, bytes
 * @param truncateCorruptAof     at boot, drop a corrupt AOF record and everything after it instead of refusing
 *                               to start
 * @param redistribute           at boot, re-distribute a data dir written with another shard count instead of
 *                               refusing to start
 */
public record PersistenceConfig(Path dir, boolean aof, Fsync fsync, List<SaveRule> saveRules,
                                int autoRewritePercentage, long autoRewriteMinBytes, boolean truncateCorruptAof,
                                boolean redistribute) {
    /** One {@code save <seconds> <changes>} rule. */
    public record SaveRule(long seconds, long changes) {
    }

    public PersistenceConfig {
        saveRules = List.copyOf(saveRules);
    }

    /** Defaults: AOF everysec, Redis's save rules, rewrite at +100% over 64 MiB, refuse corrupt AOFs. */
    public static PersistenceConfig defaults(Path dir) {
        return new PersistenceConfig(dir, true, Fsync.EVERYSEC, parseRules("3600 1 300 100 60 10000"), 100,
                64L * 1024 * 1024, false, true);
    }

    /** Parses {@code "<seconds> <changes> ..."} (already validated by the config loader). */
    public static List<SaveRule> parseRules(String rules) {
        List<SaveRule> out = new ArrayList<>();
        String t = rules.trim();
        if (t.isEmpty()) {
            return out;
        }
        String[] p = t.split("\\s+");
        for (int i = 0; i + 1 < p.length; i += 2) {
            out.add(new SaveRule(Long.parseLong(p[i]), Long.parseLong(p[i + 1])));
        }
        return out;
    }

    public PersistenceConfig withAof(boolean enabled) {
        return new PersistenceConfig(dir, enabled, fsync, saveRules, autoRewritePercentage, autoRewriteMinBytes,
                truncateCorruptAof, redistribute);
    }

    public PersistenceConfig withFsync(Fsync policy) {
        return new PersistenceConfig(dir, aof, policy, saveRules, autoRewritePercentage, autoRewriteMinBytes,
                truncateCorruptAof, redistribute);
    }

    public PersistenceConfig withSaveRules(List<SaveRule> rules) {
        return new PersistenceConfig(dir, aof, fsync, rules, autoRewritePercentage, autoRewriteMinBytes,
                truncateCorruptAof, redistribute);
    }

    public PersistenceConfig withAutoRewrite(int percentage, long minBytes) {
        return new PersistenceConfig(dir, aof, fsync, saveRules, percentage, minBytes, truncateCorruptAof,
                redistribute);
    }

    public PersistenceConfig withTruncateCorruptAof(boolean truncate) {
        return new PersistenceConfig(dir, aof, fsync, saveRules, autoRewritePercentage, autoRewriteMinBytes, truncate,
                redistribute);
    }

    public PersistenceConfig withRedistribute(boolean enabled) {
        return new PersistenceConfig(dir, aof, fsync, saveRules, autoRewritePercentage, autoRewriteMinBytes,
                truncateCorruptAof, enabled);
    }
}
