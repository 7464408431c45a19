package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.DENYOOM;
import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.Keyspace;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.struct.Dict;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.resp.Verbs;
import java.util.Arrays;

/**
 * Generic key commands on named keys: DEL, UNLINK, EXISTS, TYPE, TOUCH, RENAME, RENAMENX, COPY (Redis 7.0
 * semantics, replies and error texts). Expiry commands are in {@link ExpireCommands}, whole-keyspace walks
 * (SCAN, KEYS, RANDOMKEY) in {@link ScanCommands}, OBJECT in {@link ObjectCommand}.
 *
 * <p>Frames (feed contract §7): DEL/UNLINK → per shard {@code DEL <keys deleted, in argument order>};
 * RENAME/RENAMENX within a shard → {@code RENAME src dst}; across shards → on dst's shard {@code DEL dst}, the
 * value rebuilt ({@link ValueFrames}), {@code PEXPIREAT dst <abs-ms>} when it has a TTL, and on src's shard
 * {@code DEL src}; COPY → {@code DEL dst} when REPLACE removed a key, then the rebuild and the TTL. Works for
 * every value type through {@link io.kevy.engine.type.RedisValue}. The dispatcher holds the locks of both keys'
 * shards.
 */
final class KeyCommands {
    static final ErrorReply INT_RANGE =
            ErrorReply.err("value is out of range, value must between -2147483648 and 2147483647");
    static final ErrorReply INVALID_FIRST_DB = ErrorReply.err("invalid first DB index");
    static final ErrorReply INVALID_SECOND_DB = ErrorReply.err("invalid second DB index");
    static final ErrorReply SAME_OBJECT = ErrorReply.err("source and destination objects are the same");

    private KeyCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("del", -2).flags(WRITE).keys(1, -1, 1).group("generic").since("1.0.0")
                .summary("Deletes one or more keys.").handler(KeyCommands::del));
        t.add(command("unlink", -2).flags(WRITE, FAST).keys(1, -1, 1).group("generic").since("4.0.0")
                .summary("Asynchronously deletes one or more keys (kevy reclaims the memory at once).")
                .handler(KeyCommands::del));
        t.add(command("exists", -2).flags(READONLY, FAST).keys(1, -1, 1).group("generic").since("1.0.0")
                .summary("Determines whether one or more keys exist.")
                .handler(c -> c.reply().integer(count(c, false))));
        t.add(command("touch", -2).flags(READONLY, FAST).keys(1, -1, 1).group("generic").since("3.2.1")
                .summary("Returns the number of existing keys out of those specified after updating the time they "
                        + "were last accessed.").handler(c -> c.reply().integer(count(c, true))));
        t.add(command("type", 2).flags(READONLY, FAST).keys(1, 1, 1).group("generic").since("1.0.0")
                .summary("Determines the type of value stored at a key.").handler(c -> {
                    Dict.Node<Object> n = c.peekRead(c.arg(1));
                    c.reply().simple(n == null ? "none" : Keyspace.typeOf(n.value()).typeName());
                }));
        t.add(command("rename", 3).flags(WRITE).keys(1, 2, 1).group("generic").since("1.0.0")
                .summary("Renames a key and overwrites the destination.").handler(c -> rename(c, false)));
        t.add(command("renamenx", 3).flags(WRITE, FAST).keys(1, 2, 1).group("generic").since("1.0.0")
                .summary("Renames a key only when the target key name doesn't exist.").handler(c -> rename(c, true)));
        t.add(command("copy", -3).flags(WRITE, DENYOOM).keys(1, 2, 1).group("generic").since("6.2.0")
                .summary("Copies the value of a key to a new key (DB option: only db 0 exists in kevy).")
                .handler(KeyCommands::copy));
        t.add(command("move", 3).flags(WRITE, FAST).keys(1, 1, 1).keyFlags("RW", "access", "update")
                .group("generic").since("1.0.0").summary("Move a key to another database (kevy has database 0 only).")
                .handler(KeyCommands::move));
        t.add(command("swapdb", 3).flags(WRITE, FAST).keys(0, 0, 0).group("server").acl("keyspace", "dangerous")
                .since("4.0.0").summary("Swaps two Redis databases (kevy has database 0 only).")
                .handler(KeyCommands::swapdb));
        ExpireCommands.register(t);
        ScanCommands.register(t);
        ObjectCommand.register(t);
        DumpCommands.register(t);
    }

    /** DEL/UNLINK: deletes the live keys among the arguments; one {@code DEL} frame per shard (contract §7). */
    static void del(Call c) {
        ShardFrames frames = new ShardFrames(c.engine(), Verbs.DEL);
        for (int i = 1; i < c.argc(); i++) {
            byte[] key = c.arg(i);
            if (c.node(key) != null) {
                c.db(key).remove(key);
                frames.add(key, key);
            }
        }
        frames.emit();
        c.reply().integer(frames.count());
    }

    /** EXISTS (no access-time update) and TOUCH (updates it): live keys among the arguments, repeats counted. */
    private static long count(Call c, boolean touch) {
        long n = 0;
        for (int i = 1; i < c.argc(); i++) {
            Dict.Node<Object> node = touch ? c.node(c.arg(i)) : c.peek(c.arg(i));
            c.engine().countLookup(node != null);
            if (node != null) {
                n++;
            }
        }
        return n;
    }

    /**
     * RENAME/RENAMENX: {@code ERR no such key} for a missing source (also when both names are equal); the
     * same name is otherwise a no-op ({@code +OK} / {@code :0}). The value object moves with its TTL, access
     * time and encoding.
     */
    private static void rename(Call c, boolean nx) {
        byte[] src = c.arg(1);
        byte[] dst = c.arg(2);
        Dict.Node<Object> sn = c.node(src);
        if (sn == null) {
            throw Call.fail(Errors.NO_SUCH_KEY);
        }
        if (Arrays.equals(src, dst)) {
            reply(c, nx, false);
            return;
        }
        boolean dstExists = c.node(dst) != null;
        if (dstExists && nx) {
            reply(c, true, false);
            return;
        }
        Object value = sn.value();
        long expireAt = Keyspace.expiry(sn);
        Keyspace srcDb = c.db(src);
        Keyspace dstDb = c.db(dst);
        if (dstExists) {
            dstDb.remove(dst);
        }
        Dict.Node<Object> dn = dstDb.add(dst, value);
        Keyspace.copyMeta(sn, dn);
        if (expireAt != Keyspace.NO_EXPIRY) {
            dstDb.setExpiry(dn, expireAt);
        }
        srcDb.remove(src);
        if (c.shard(src) == c.shard(dst)) {
            c.emit(Verbs.RENAME, src, dst);
        } else {
            c.emit(Verbs.DEL, dst);
            ValueFrames.rebuild(c, dst, value, expireAt);
            c.emit(Verbs.DEL, src);
        }
        reply(c, nx, true);
    }

    private static void reply(Call c, boolean nx, boolean done) {
        if (nx) {
            c.reply().integer(done ? 1 : 0);
        } else {
            c.reply().ok();
        }
    }

    /**
     * COPY src dst [DB 0] [REPLACE]: options first ({@code ERR syntax error}, a DB other than 0 →
     * {@code ERR DB index is out of range}), then the same-key check, then the keys. Collections are deep-copied;
     * the copy keeps the TTL.
     */
    /**
     * MOVE key db as Redis 7.0 answers it with {@code databases 1}: an index out of int range, one other than 0
     * (DB index is out of range), then 0 itself (the same database: source and destination objects are the same),
     * whether or not the key exists. It never changes anything, so it emits no frame.
     */
    private static void move(Call c) {
        long db = c.longArg(2);
        if (db < Integer.MIN_VALUE || db > Integer.MAX_VALUE) {
            throw Call.fail(INT_RANGE);
        }
        if (db != 0) {
            throw Call.fail(Errors.DB_INDEX_OUT_OF_RANGE);
        }
        throw Call.fail(SAME_OBJECT);
    }

    /**
     * SWAPDB index1 index2 as Redis 7.0 answers it with {@code databases 1}: each index must be an int
     * ({@code invalid first/second DB index}), then both must be 0 (DB index is out of range); {@code SWAPDB 0 0}
     * is OK and changes nothing (no frame).
     */
    private static void swapdb(Call c) {
        long first = dbIndex(c.arg(1), INVALID_FIRST_DB);
        long second = dbIndex(c.arg(2), INVALID_SECOND_DB);
        if (first != 0 || second != 0) {
            throw Call.fail(Errors.DB_INDEX_OUT_OF_RANGE);
        }
        c.reply().ok();
    }

    private static long dbIndex(byte[] arg, ErrorReply invalid) {
        long v = RedisNumbers.parseLong(arg, invalid);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw Call.fail(invalid);
        }
        return v;
    }

    private static void copy(Call c) {
        byte[] src = c.arg(1);
        byte[] dst = c.arg(2);
        boolean replace = false;
        for (int j = 3; j < c.argc(); j++) {
            if (c.argIs(j, "replace")) {
                replace = true;
            } else if (c.argIs(j, "db") && j + 1 < c.argc()) {
                long db = c.longArg(++j);
                if (db < Integer.MIN_VALUE || db > Integer.MAX_VALUE) {
                    throw Call.fail(INT_RANGE);
                }
                if (db != 0) {
                    throw Call.fail(Errors.DB_INDEX_OUT_OF_RANGE);
                }
            } else {
                throw Call.fail(Errors.SYNTAX);
            }
        }
        if (Arrays.equals(src, dst)) {
            throw Call.fail(SAME_OBJECT);
        }
        Object value = c.value(src);
        c.engine().countLookup(value != null);
        if (value == null) {
            c.reply().integer(0);
            return;
        }
        Dict.Node<Object> sn = c.node(src);
        long expireAt = Keyspace.expiry(sn);
        boolean dstExists = c.node(dst) != null;
        if (dstExists && !replace) {
            c.reply().integer(0);
            return;
        }
        Keyspace dstDb = c.db(dst);
        if (dstExists) {
            dstDb.remove(dst);
            c.emit(Verbs.DEL, dst);
        }
        Object copy = ValueFrames.copy(value);
        Dict.Node<Object> dn = dstDb.add(dst, copy);
        if (copy instanceof byte[]) {
            Keyspace.encodingHint(dn, StringValues.copyHint(Keyspace.encodingHint(sn)));
        }
        if (expireAt != Keyspace.NO_EXPIRY) {
            dstDb.setExpiry(dn, expireAt);
        }
        ValueFrames.rebuild(c, dst, copy, expireAt);
        c.reply().integer(1);
    }
}
