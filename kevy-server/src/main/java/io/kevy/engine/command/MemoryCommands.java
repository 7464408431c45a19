package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.LOADING;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.STALE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.Keyspace;
import io.kevy.engine.error.Errors;
import io.kevy.engine.struct.Dict;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.engine.type.RedisValue;
import io.kevy.resp.ReplySink;

/**
 * MEMORY (Redis 7.0): USAGE (an estimate from the value's structure, see {@link #usage}), STATS (Redis's fields
 * with the JVM's figures, as INFO memory), DOCTOR, PURGE (a no-op), MALLOC-STATS and HELP.
 */
final class MemoryCommands {
    private MemoryCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("memory", -2).group("server").since("4.0.0")
                .summary("A container for memory diagnostics commands").complexity("Depends on subcommand.")
                .subcommand(command("usage", -3).flags(READONLY).keys(2, 2, 1).keyFlags("RO").since("4.0.0")
                        .summary("Estimate the memory usage of a key")
                        .complexity("O(N) where N is the number of samples.").handler(MemoryCommands::memoryUsage))
                .subcommand(command("doctor", 2).since("4.0.0").summary("Outputs memory problems report")
                        .complexity("O(1)")
                        .tips("nondeterministic_output", "request_policy:all_shards", "response_policy:special")
                        .handler(c -> c.reply().verbatim(io.kevy.engine.text.Bytes.utf8("Hi Sam, I can't be of "
                                + "help with memory here: kevy runs on the JVM, whose garbage collector manages it. "
                                + "See INFO memory.\n"), "txt")))
                .subcommand(command("purge", 2).since("4.0.0").summary("Ask the allocator to release memory")
                        .complexity("Depends on how much memory is allocated, could be slow")
                        .tips("request_policy:all_shards", "response_policy:all_succeeded")
                        .handler(c -> c.reply().ok()))
                .subcommand(command("malloc-stats", 2).since("4.0.0").summary("Show allocator internal stats")
                        .complexity("Depends on how much memory is allocated, could be slow")
                        .tips("nondeterministic_output", "request_policy:all_shards", "response_policy:special")
                        .handler(c -> c.reply().bulk("Stats not supported for the current allocator")))
                .subcommand(command("stats", 2).since("4.0.0").summary("Show memory usage details")
                        .complexity("O(1)")
                        .tips("nondeterministic_output", "request_policy:all_shards", "response_policy:special")
                        .handler(MemoryCommands::memoryStats))
                .subcommand(command("help", 2).flags(LOADING, STALE).since("4.0.0")
                        .summary("Show helpful text about the different subcommands").complexity("O(1)")
                        .handler(c -> HelpReply.write(c.reply(), "MEMORY",
                                "DOCTOR",
                                "    Return memory problems reports.",
                                "MALLOC-STATS",
                                "    Return internal statistics report from the memory allocator.",
                                "PURGE",
                                "    Attempt to purge dirty pages for reclamation by the allocator.",
                                "STATS",
                                "    Return information about the memory usage of the server.",
                                "USAGE <key> [SAMPLES <count>]",
                                "    Return memory in bytes used by <key> and its value. Nested values are",
                                "    sampled up to <count> times (default: 5, 0 means sample all)."))));
    }

    /** MEMORY STATS: Redis 7.0's map, with the JVM's heap figures (see {@link InfoFields}). */
    private static void memoryStats(Call c) {
        long[] counts = InfoFields.keysAndExpires(c.engine());
        long keys = counts[0];
        long expires = counts[1];
        long used = InfoFields.usedHeap();
        long peak = InfoFields.peak(used);
        long startup = InfoFields.startup(used);
        long rss = InfoFields.rss();
        long mainOverhead = keys * 24 + 8 * Long.highestOneBit(Math.max(1, keys) * 2);
        long expiresOverhead = expires * 24;
        long overhead = startup + mainOverhead + expiresOverhead;
        long dataset = Math.max(0, used - overhead);
        ReplySink r = c.reply();
        r.map(keys > 0 ? 28 : 27);
        for (Object[] kv : new Object[][] {{"peak.allocated", peak}, {"total.allocated", used},
            {"startup.allocated", startup}, {"replication.backlog", 0L}, {"clients.slaves", 0L},
            {"clients.normal", 0L}, {"cluster.links", 0L}, {"aof.buffer", 0L}, {"lua.caches", 0L},
            {"functions.caches", 0L}}) {
            r.bulk((String) kv[0]);
            r.integer((Long) kv[1]);
        }
        if (keys > 0) {
            r.bulk("db.0");
            r.map(3);
            r.bulk("overhead.hashtable.main");
            r.integer(mainOverhead);
            r.bulk("overhead.hashtable.expires");
            r.integer(expiresOverhead);
            r.bulk("overhead.hashtable.slot-to-keys");
            r.integer(0);
        }
        r.bulk("overhead.total");
        r.integer(overhead);
        r.bulk("keys.count");
        r.integer(keys);
        r.bulk("keys.bytes-per-key");
        r.integer(keys == 0 ? 0 : (used - startup) / keys);
        r.bulk("dataset.bytes");
        r.integer(dataset);
        r.bulk("dataset.percentage");
        r.doubleValue((float) (used == startup ? 0 : 100.0 * dataset / (used - startup)));
        r.bulk("peak.percentage");
        r.doubleValue((float) (peak == 0 ? 0 : 100.0 * used / peak));
        r.bulk("allocator.allocated");
        r.integer(used);
        r.bulk("allocator.active");
        r.integer(Runtime.getRuntime().totalMemory());
        r.bulk("allocator.resident");
        r.integer(rss);
        for (String k : new String[] {"allocator-fragmentation", "allocator-rss", "rss-overhead"}) {
            r.bulk(k + ".ratio");
            r.doubleValue(1.0);
            r.bulk(k + ".bytes");
            r.integer(0);
        }
        r.bulk("fragmentation");
        r.doubleValue((float) (used == 0 ? 0 : (double) rss / used));
        r.bulk("fragmentation.bytes");
        r.integer(rss - used);
    }

    /** MEMORY USAGE key [SAMPLES count]: an integer estimate in bytes, or null when the key does not exist. */
    private static void memoryUsage(Call c) {
        for (int j = 3; j < c.argc(); j++) {
            if (c.argIs(j, "samples") && j + 1 < c.argc()) {
                long samples = RedisNumbers.parseLong(c.arg(j + 1), Errors.NOT_INTEGER);
                if (samples < 0) {
                    throw Call.fail(Errors.SYNTAX);
                }
                j++;
            } else {
                throw Call.fail(Errors.SYNTAX);
            }
        }
        byte[] key = c.arg(2);
        Dict.Node<Object> n = c.node(key);
        if (n == null) {
            c.reply().nullBulk();
            return;
        }
        c.reply().integer(usage(key, n.value(), Keyspace.expiry(n) != Keyspace.NO_EXPIRY));
    }

    /**
     * Estimated bytes for a key (modelled on Redis 7.0 with jemalloc size classes: the key's sds, a dict entry,
     * and for strings the object and its sds, for collections their {@link RedisValue#memoryUsage}).
     */
    static long usage(byte[] key, Object value, boolean volatileKey) {
        long bytes = alloc(sdsSize(key.length)) + 24 + (volatileKey ? 24 : 0);
        if (value instanceof byte[] b) {
            if (b.length <= 20 && RedisNumbers.isLong(b)) {
                bytes += 16;
            } else if (b.length <= 44) {
                bytes += alloc(16 + 3 + b.length + 1);
            } else {
                bytes += 16 + alloc(sdsSize(b.length));
            }
        } else {
            bytes += 16 + ((RedisValue) value).memoryUsage();
        }
        return bytes;
    }

    private static long sdsSize(long len) {
        int header = len < 32 ? 1 : len < 256 ? 3 : len < 65536 ? 5 : 9;
        return header + len + 1;
    }

    /** jemalloc's size class for an allocation of {@code n} bytes (8, 16, 32, 48, 64, 80, ..., 4 per doubling). */
    static long alloc(long n) {
        if (n <= 8) {
            return 8;
        }
        if (n <= 128) {
            return (n + 15) & ~15L;
        }
        long p = Long.highestOneBit(n - 1);
        long step = p / 4;
        return (n + step - 1) / step * step;
    }
}
