package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.ADMIN;
import static io.kevy.engine.command.CommandFlag.ALL_SHARDS;
import static io.kevy.engine.command.CommandFlag.LOADING;
import static io.kevy.engine.command.CommandFlag.NOSCRIPT;
import static io.kevy.engine.command.CommandFlag.STALE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.struct.Dict;
import io.kevy.engine.text.Bytes;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.engine.type.RedisValue;
import io.kevy.resp.ReplySink;
import io.kevy.resp.Verbs;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DEBUG (Redis 7.0), the parts that are cheap and that Redis's own test suites call.
 *
 * <p>DEBUG runs with every shard locked, so SLEEP stops all key access as Redis's single thread would (PING and
 * other key-less commands still answer). Supported: HELP, SLEEP, OBJECT, SET-ACTIVE-EXPIRE, DIGEST,
 * DIGEST-VALUE (Redis's algorithm: equal data gives equal digests on both), POPULATE (emits {@code SET} frames:
 * kevy's feed stays complete), CHANGE-REPL-ID, LOG, ERROR, PROTOCOL ({@link DebugProtocol}), and QUICKLIST-PACKED-THRESHOLD and
 * SET-SKIP-CHECKSUM-VALIDATION as no-ops. RELOAD and LOADAOF are refused (kevy has no RDB to reload); anything
 * else gets Redis's unknown-subcommand error. DEBUG is always enabled (Redis's {@code enable-debug-command}).
 *
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
            case "protocol" -> {
                if (argc == 3) {
                    DebugProtocol.reply(c, c.arg(2));
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
}
