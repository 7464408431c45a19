package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.DENYOOM;
import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.Keyspace;
import io.kevy.engine.error.Errors;
import io.kevy.engine.struct.Dict;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.resp.Verbs;

/**
 * String commands that read or replace whole values: GET, SET, SETNX, SETEX, PSETEX, GETSET, GETDEL, GETEX,
 * MGET, MSET, MSETNX, STRLEN (Redis 7.0 semantics, replies and error texts). In-place edits and counters are in
 * {@link StringEditCommands}, LCS in {@link LcsCommand}.
 *
 * <p>Frames (feed contract §7): {@code SET k v}, {@code SET k v PXAT <abs-ms>} for any time option,
 * {@code SET k v KEEPTTL}; SETNX/GETSET → {@code SET k v}; GETDEL → {@code DEL k}; GETEX → {@code PEXPIREAT k
 * <abs-ms>}, {@code DEL k} for an EXAT/PXAT in the past, {@code PERSIST k}; MSET/MSETNX → per shard
 * {@code MSET <its pairs>}. A SET whose EXAT/PXAT has already passed leaves no key (Redis 7.0 stores it and
 * expires it at once), so it emits {@code DEL k} when it replaced a key and nothing otherwise. Nothing is
 * emitted for a write that did not apply.
 */
final class StringCommands {
    private StringCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("get", 2).flags(READONLY, FAST).keys(1, 1, 1).group("string").since("1.0.0")
                .summary("Returns the string value of a key.")
                .handler(c -> c.reply().bulkOrNull(c.read(c.arg(1), byte[].class))));
        t.add(command("set", -3).flags(WRITE, DENYOOM).keys(1, 1, 1).group("string").since("1.0.0")
                .summary("Sets the string value of a key, ignoring its type. The key is created if it doesn't exist.")
                .handler(c -> set(c, StringArgs.parse(c, 3, true), c.arg(2), false)));
        t.add(command("setnx", 3).flags(WRITE, DENYOOM, FAST).keys(1, 1, 1).group("string").since("1.0.0")
                .summary("Set the string value of a key only when the key doesn't exist.")
                .handler(c -> set(c, StringArgs.of(StringArgs.NX, null), c.arg(2), true)));
        t.add(command("setex", 4).flags(WRITE, DENYOOM).keys(1, 1, 1).group("string").since("2.0.0")
                .summary("Sets the string value and expiration time of a key. Creates the key if it doesn't exist.")
                .handler(c -> set(c, StringArgs.of(StringArgs.EX, c.arg(2)), c.arg(3), false)));
        t.add(command("psetex", 4).flags(WRITE, DENYOOM).keys(1, 1, 1).group("string").since("2.6.0")
                .summary("Sets both string value and expiration time in milliseconds of a key.")
                .handler(c -> set(c, StringArgs.of(StringArgs.PX, c.arg(2)), c.arg(3), false)));
        t.add(command("getset", 3).flags(WRITE, DENYOOM, FAST).keys(1, 1, 1).group("string").since("1.0.0")
                .summary("Returns the previous string value of a key after setting it to a new value.")
                .handler(c -> set(c, StringArgs.of(StringArgs.GET, null), c.arg(2), false)));
        t.add(command("getdel", 2).flags(WRITE, FAST).keys(1, 1, 1).group("string").since("6.2.0")
                .summary("Returns the string value of a key after deleting the key.").handler(StringCommands::getdel));
        t.add(command("getex", -2).flags(WRITE, FAST).keys(1, 1, 1).group("string").since("6.2.0")
                .summary("Returns the string value of a key after setting its expiration time.")
                .handler(StringCommands::getex));
        t.add(command("mget", -2).flags(READONLY, FAST).keys(1, -1, 1).group("string").since("1.0.0")
                .summary("Atomically returns the string values of one or more keys.").handler(StringCommands::mget));
        t.add(command("mset", -3).flags(WRITE, DENYOOM).keys(1, -1, 2).group("string").since("1.0.1")
                .summary("Atomically creates or modifies the string values of one or more keys.")
                .handler(c -> mset(c, false)));
        t.add(command("msetnx", -3).flags(WRITE, DENYOOM).keys(1, -1, 2).group("string").since("1.0.1")
                .summary("Atomically modifies the string values of one or more keys only when all keys don't exist.")
                .handler(c -> mset(c, true)));
        t.add(command("strlen", 2).flags(READONLY, FAST).keys(1, 1, 1).group("string").since("2.2.0")
                .summary("Returns the length of a string value.").handler(c -> {
                    byte[] v = c.read(c.arg(1), byte[].class);
                    c.reply().integer(v == null ? 0 : v.length);
                }));
        StringEditCommands.register(t);
        LcsCommand.register(t);
    }

    /**
     * SET and its variants (Redis's {@code setGenericCommand}). Errors come first and change nothing: the
     * expire value, then WRONGTYPE for GET. With GET the reply is the old value whether or not the SET applied;
     * otherwise {@code +OK} / nil, or {@code :1} / {@code :0} for SETNX ({@code countReply}).
     */
    private static void set(Call c, StringArgs a, byte[] value, boolean countReply) {
        byte[] key = c.arg(1);
        long when = a.expire == null ? 0 : a.expireAt(c);
        byte[] old = a.has(StringArgs.GET) ? c.read(key, byte[].class) : null;
        Dict.Node<Object> live = c.node(key);
        boolean found = live != null;
        if ((a.has(StringArgs.NX) && found) || (a.has(StringArgs.XX) && !found)) {
            if (a.has(StringArgs.GET)) {
                c.reply().bulkOrNull(old);
            } else if (countReply) {
                c.reply().integer(0);
            } else {
                c.reply().nullBulk();
            }
            return;
        }
        Keyspace db = c.db(key);
        if (when != 0 && when <= c.now()) {
            if (found) {
                db.remove(key);
                c.emit(Verbs.DEL, key);
            }
        } else {
            boolean keepTtl = a.has(StringArgs.KEEPTTL);
            Dict.Node<Object> n = db.put(key, live, value, keepTtl);
            if (when != 0) {
                db.setExpiry(n, when);
                c.emit(Verbs.SET, key, value, Verbs.PXAT, RedisNumbers.toBytes(when));
            } else if (keepTtl) {
                c.emit(Verbs.SET, key, value, Verbs.KEEPTTL);
            } else {
                c.emit(Verbs.SET, key, value);
            }
        }
        if (a.has(StringArgs.GET)) {
            c.reply().bulkOrNull(old);
        } else if (countReply) {
            c.reply().integer(1);
        } else {
            c.reply().ok();
        }
    }

    private static void getdel(Call c) {
        byte[] key = c.arg(1);
        byte[] v = c.read(key, byte[].class);
        if (v == null) {
            c.reply().nullBulk();
            return;
        }
        c.db(key).remove(key);
        c.emit(Verbs.DEL, key);
        c.reply().bulk(v);
    }

    /**
     * GETEX: the syntax is checked first, then the key (a missing key answers nil even with a bad time), its
     * type, and the time; then the value is returned and the TTL changed.
     */
    private static void getex(Call c) {
        byte[] key = c.arg(1);
        StringArgs a = StringArgs.parse(c, 2, false);
        byte[] v = c.read(key, byte[].class);
        if (v == null) {
            c.reply().nullBulk();
            return;
        }
        long when = a.expire == null ? 0 : a.expireAt(c);
        c.reply().bulk(v);
        Keyspace db = c.db(key);
        Dict.Node<Object> n = c.node(key);
        if (a.absolute() && when <= c.now()) {
            db.remove(key);
            c.emit(Verbs.DEL, key);
        } else if (when != 0) {
            db.setExpiry(n, when);
            c.emit(Verbs.PEXPIREAT, key, RedisNumbers.toBytes(when));
        } else if (a.has(StringArgs.PERSIST) && db.persist(n)) {
            c.emit(Verbs.PERSIST, key);
        }
    }

    /** MGET: nil for a missing key and for a key of another type. */
    private static void mget(Call c) {
        int n = c.argc() - 1;
        c.reply().array(n);
        for (int i = 1; i <= n; i++) {
            Object v = c.value(c.arg(i));
            c.engine().countLookup(v != null);
            if (v instanceof byte[] b) {
                c.reply().bulk(b);
            } else {
                c.reply().nullBulk();
            }
        }
    }

    /** MSET / MSETNX: every key set (its TTL cleared) or, for MSETNX when any key exists, none. */
    private static void mset(Call c, boolean nx) {
        if (c.argc() % 2 == 0) {
            throw Call.fail(Errors.wrongArity(c.spec().name()));
        }
        if (nx) {
            for (int i = 1; i < c.argc(); i += 2) {
                if (c.node(c.arg(i)) != null) {
                    c.reply().integer(0);
                    return;
                }
            }
        }
        ShardFrames frames = new ShardFrames(c.engine(), Verbs.MSET);
        for (int i = 1; i < c.argc(); i += 2) {
            byte[] key = c.arg(i);
            c.db(key).put(key, c.arg(i + 1), false);
            frames.add(key, key, c.arg(i + 1));
        }
        frames.emit();
        if (nx) {
            c.reply().integer(1);
        } else {
            c.reply().ok();
        }
    }
}
