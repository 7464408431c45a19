package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.ADMIN;
import static io.kevy.engine.command.CommandFlag.ALL_SHARDS;
import static io.kevy.engine.command.CommandFlag.LOADING;
import static io.kevy.engine.command.CommandFlag.NOSCRIPT;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.STALE;
import static io.kevy.engine.command.CommandSpec.command;

import io.kevy.engine.Bytes;
import io.kevy.engine.ErrorReply;
import io.kevy.engine.Errors;
import io.kevy.engine.Keyspace;
import io.kevy.engine.RedisNumbers;
import io.kevy.engine.ReplySink;
import io.kevy.engine.Verbs;
import io.kevy.engine.struct.Dict;
import io.kevy.engine.type.RedisValue;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DEBUG and MEMORY (Redis 7.0), the parts that are cheap and that Redis's own test suites call.
 *
 * <p>DEBUG runs with every shard locked, so SLEEP stops all key access as Redis's single thread would (PING and
 * other key-less commands still answer). Supported: HELP, SLEEP, OBJECT, SET-ACTIVE-EXPIRE, DIGEST,
 * DIGEST-VALUE (Redis's algorithm: equal data gives equal digests on both), POPULATE (emits {@code SET} frames:
 * kevy's feed stays complete), CHANGE-REPL-ID, LOG, ERROR, and QUICKLIST-PACKED-THRESHOLD and
 * SET-SKIP-CHECKSUM-VALIDATION as no-ops. RELOAD and LOADAOF are refused (kevy has no RDB to reload); anything
 * else gets Redis's unknown-subcommand error. DEBUG is always enabled (Redis's {@code enable-debug-command}).
 *
 * <p>MEMORY: USAGE (an estimate from the value's structure, see {@link #usage}), STATS (Redis's fields with the
 * JVM's figures, as INFO memory), DOCTOR, PURGE (a no-op), MALLOC-STATS and HELP.
 */
final class DebugCommands {
    private static final Logger log = LoggerFactory.getLogger(DebugCommands.class);
    static final ErrorReply NO_RELOAD = ErrorReply.err("DEBUG RELOAD and LOADAOF are not supported by kevy "
            + "(there is no RDB or AOF to reload in memory)");

    private DebugCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("debug", -2).flags(ADMIN, NOSCRIPT, LOADING, STALE, ALL_SHARDS).group("server")
                .since("1.0.0").summary("A container for debugging commands").complexity("Depends on subcommand.")
                .handler(DebugCommands::debug));
        t.add(command("memory", -2).group("server").since("4.0.0")
                .summary("A container for memory diagnostics commands").complexity("Depends on subcommand.")
                .subcommand(command("usage", -3).flags(READONLY).keys(2, 2, 1).keyFlags("RO").since("4.0.0")
                        .summary("Estimate the memory usage of a key")
                        .complexity("O(N) where N is the number of samples.").handler(DebugCommands::memoryUsage))
                .subcommand(command("doctor", 2).since("4.0.0").summary("Outputs memory problems report")
                        .complexity("O(1)")
                        .tips("nondeterministic_output", "request_policy:all_shards", "response_policy:special")
                        .handler(c -> c.reply().bulk("Hi Sam, I can't be of help with memory here: kevy runs on "
                                + "the JVM, whose garbage collector manages it. See INFO memory.\n")))
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
                        .handler(DebugCommands::memoryStats))
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

    private static void debug(Call c) {
        String sub = Bytes.lowerAscii(c.arg(1));
        int argc = c.argc();
        switch (sub) {
            case "help" -> {
                if (argc == 2) {
                    help(c);
                    return;
                }
            }
            case "sleep" -> {
                if (argc == 3) {
                    sleep(c);
                    return;
                }
            }
            case "object" -> {
                if (argc == 3) {
                    object(c);
                    return;
                }
            }
            case "reload", "loadaof" -> throw Call.fail(NO_RELOAD);
            case "set-active-expire" -> {
                if (argc == 3) {
                    c.engine().activeExpire(atoi(c.arg(2)) != 0);
                    c.reply().ok();
                    return;
                }
            }
            case "digest" -> {
                if (argc == 2) {
                    digest(c);
                    return;
                }
            }
            case "digest-value" -> {
                digestValue(c);
                return;
            }
            case "populate" -> {
                if (argc >= 3 && argc <= 5) {
                    populate(c);
                    return;
                }
            }
            case "change-repl-id" -> {
                if (argc == 2) {
                    c.engine().changeReplId();
                    c.reply().ok();
                    return;
                }
            }
            case "log" -> {
                if (argc == 3) {
                    log.warn("DEBUG LOG: {}", Bytes.str(c.arg(2)));
                    c.reply().ok();
                    return;
                }
            }
            case "error" -> {
                if (argc == 3) {
                    throw Call.fail(ErrorReply.of(ServerCommands.latin1(c.arg(2), Integer.MAX_VALUE)));
                }
            }
            case "quicklist-packed-threshold", "set-skip-checksum-validation" -> {
                if (argc == 3) {
                    c.reply().ok();
                    return;
                }
            }
            default -> {
            }
        }
        throw Call.fail(ServerCommands.subcommandSyntaxError(c));
    }

    /** C's {@code atoi}: optional whitespace and sign, then digits; anything else stops the number. */
    private static long atoi(byte[] b) {
        String s = Bytes.str(b).trim();
        int i = 0;
        if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            i++;
        }
        int start = i;
        while (i < s.length() && Character.isDigit(s.charAt(i)) && i - start < 18) {
            i++;
        }
        return i == start ? 0 : Long.parseLong(s.substring(0, i));
    }

    /** DEBUG SLEEP seconds (C's {@code strtod}; junk is 0): holds every shard lock meanwhile. */
    private static void sleep(Call c) {
        double seconds;
        try {
            seconds = Double.parseDouble(Bytes.str(c.arg(2)).trim());
        } catch (NumberFormatException e) {
            seconds = 0;
        }
        long micros = (long) (seconds * 1_000_000);
        if (micros > 0) {
            try {
                Thread.sleep(micros / 1000, (int) (micros % 1000) * 1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        c.reply().ok();
    }

    /** DEBUG OBJECT key: Redis's status line; {@code lru_seconds_idle} is 0 (kevy keeps no access times). */
    private static void object(Call c) {
        Dict.Node<Object> n = c.node(c.arg(2));
        if (n == null) {
            throw Call.fail(Errors.NO_SUCH_KEY);
        }
        Object v = n.value();
        String encoding = v instanceof byte[] b ? stringEncoding(b) : ((RedisValue) v).encoding();
        long lru = (c.now() / 1000) & ((1 << 24) - 1);
        c.reply().simple("Value at:0x" + Long.toHexString(System.identityHashCode(v)) + " refcount:1 encoding:"
                + encoding + " serializedlength:" + serializedLength(v) + " lru:" + lru + " lru_seconds_idle:0");
    }

    /** OBJECT ENCODING of a string as Redis 7.0 reports it: int, embstr (up to 44 bytes) or raw. */
    static String stringEncoding(byte[] b) {
        if (b.length <= 20 && RedisNumbers.isLong(b)) {
            return "int";
        }
        return b.length <= 44 ? "embstr" : "raw";
    }

    /** An approximation of the value's RDB size: its elements' bytes plus a length prefix each. */
    private static long serializedLength(Object v) {
        if (v instanceof byte[] b) {
            return b.length + 1;
        }
        long[] n = {1};
        ((RedisValue) v).rebuild(Bytes.EMPTY, frame -> {
            for (int i = 2; i < frame.length; i++) {
                n[0] += frame[i].length + 1;
            }
        });
        return n[0];
    }

    private static void digest(Call c) {
        DebugDigest d = new DebugDigest();
        byte[] total = new byte[20];
        boolean[] any = {false};
        for (int i = 0; i < c.engine().shardCount(); i++) {
            if (c.engine().shard(i).keyspace().size() > 0) {
                any[0] = true;
            }
        }
        if (any[0]) {
            d.mix(total, new byte[4]);
            for (int i = 0; i < c.engine().shardCount(); i++) {
                c.engine().shard(i).keyspace().forEach(n -> d.addKey(total, n));
            }
        }
        c.reply().simple(DebugDigest.hex(total));
    }

    private static void digestValue(Call c) {
        DebugDigest d = new DebugDigest();
        ReplySink r = c.reply();
        byte[][] keys = Arrays.copyOfRange(c.argv(), 2, c.argc());
        String[] out = new String[keys.length];
        for (int i = 0; i < keys.length; i++) {
            byte[] digest = new byte[20];
            Dict.Node<Object> n = c.node(keys[i]);
            if (n != null) {
                d.objectDigest(digest, n);
            }
            out[i] = DebugDigest.hex(digest);
        }
        r.array(out.length);
        for (String s : out) {
            r.simple(s);
        }
    }

    /**
     * DEBUG POPULATE count [prefix] [size]: creates string keys {@code prefix:i} = {@code value:i} (padded with
     * zero bytes or cut to {@code size}), skipping existing keys, and emits a {@code SET} frame for each.
     */
    private static void populate(Call c) {
        long count = Args.nonNegative(c, 2, Args.MUST_BE_POSITIVE);
        String prefix = c.argc() >= 4 ? Bytes.str(c.arg(3)) : "key";
        long size = 0;
        if (c.argc() == 5) {
            size = Args.nonNegative(c, 4, Args.MUST_BE_POSITIVE);
        }
        for (long j = 0; j < count; j++) {
            byte[] key = Bytes.utf8(prefix + ":" + j);
            if (c.node(key) != null) {
                continue;
            }
            byte[] text = Bytes.utf8("value:" + j);
            byte[] value = size == 0 ? text : Arrays.copyOf(text, (int) Math.min(size, Integer.MAX_VALUE - 8));
            c.db(key).add(key, value);
            c.emit(Verbs.SET, key, value);
        }
        c.reply().ok();
    }

    private static void help(Call c) {
        HelpReply.write(c.reply(), "DEBUG",
                "CHANGE-REPL-ID",
                "    Change the replication IDs of the instance.",
                "DIGEST",
                "    Output a hex signature representing the current DB content.",
                "DIGEST-VALUE <key> [<key> ...]",
                "    Output a hex signature of the values of all the specified keys.",
                "ERROR <string>",
                "    Return a Redis protocol error with <string> as message.",
                "LOG <message>",
                "    Write <message> to the server log.",
                "OBJECT <key>",
                "    Show low level info about `key` and associated value.",
                "POPULATE <count> [<prefix>] [<size>]",
                "    Create <count> string keys named key:<num>. If <prefix> is specified then",
                "    it is used instead of the 'key' prefix.",
                "RELOAD [option ...]",
                "    Not supported by kevy (no RDB to reload).",
                "SET-ACTIVE-EXPIRE <0|1>",
                "    Setting it to 0 disables expiring keys in background when they are not",
                "    accessed (otherwise the Redis behavior). Setting it to 1 reenables back the",
                "    default.",
                "QUICKLIST-PACKED-THRESHOLD <size>",
                "    Accepted; no effect in kevy.",
                "SET-SKIP-CHECKSUM-VALIDATION <0|1>",
                "    Accepted; no effect in kevy.",
                "SLEEP <seconds>",
                "    Stop the server for <seconds>. Decimals allowed.");
    }

    /** MEMORY STATS: Redis 7.0's map, with the JVM's heap figures (see {@link InfoFields}). */
    private static void memoryStats(Call c) {
        long keys = 0;
        long expires = 0;
        long buckets = 0;
        for (int i = 0; i < c.engine().shardCount(); i++) {
            io.kevy.engine.Shard s = c.engine().shard(i);
            s.lock().lock();
            try {
                keys += s.keyspace().size();
                expires += s.keyspace().expiresSize();
            } finally {
                s.lock().unlock();
            }
        }
        long used = InfoFields.usedHeap();
        long peak = InfoFields.peak(used);
        long startup = InfoFields.startup(used);
        long rss = InfoFields.rss();
        long mainOverhead = keys * 24 + 8 * Long.highestOneBit(Math.max(1, keys) * 2);
        long expiresOverhead = expires * 24;
        long overhead = startup + mainOverhead + expiresOverhead;
        long dataset = Math.max(0, used - overhead);
        ReplySink r = c.reply();
        r.array(keys > 0 ? 56 : 54);
        for (Object[] kv : new Object[][] {{"peak.allocated", peak}, {"total.allocated", used},
            {"startup.allocated", startup}, {"replication.backlog", 0L}, {"clients.slaves", 0L},
            {"clients.normal", 0L}, {"cluster.links", 0L}, {"aof.buffer", 0L}, {"lua.caches", 0L},
            {"functions.caches", 0L}}) {
            r.bulk((String) kv[0]);
            r.integer((Long) kv[1]);
        }
        if (keys > 0) {
            r.bulk("db.0");
            r.array(6);
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
        r.bulkDouble((float) (used == startup ? 0 : 100.0 * dataset / (used - startup)));
        r.bulk("peak.percentage");
        r.bulkDouble((float) (peak == 0 ? 0 : 100.0 * used / peak));
        r.bulk("allocator.allocated");
        r.integer(used);
        r.bulk("allocator.active");
        r.integer(Runtime.getRuntime().totalMemory());
        r.bulk("allocator.resident");
        r.integer(rss);
        for (String k : new String[] {"allocator-fragmentation", "allocator-rss", "rss-overhead"}) {
            r.bulk(k + ".ratio");
            r.bulkDouble(1.0);
            r.bulk(k + ".bytes");
            r.integer(0);
        }
        r.bulk("fragmentation");
        r.bulkDouble((float) (used == 0 ? 0 : (double) rss / used));
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
