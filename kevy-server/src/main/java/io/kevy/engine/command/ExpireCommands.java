package io.kevy.engine.command;

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
import java.nio.charset.StandardCharsets;

/**
 * Expiry commands: EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT (with NX, XX, GT, LT), TTL, PTTL, EXPIRETIME,
 * PEXPIRETIME, PERSIST (Redis 7.0 semantics, replies and error texts).
 *
 * <p>Frames (feed contract §7): a TTL set → {@code PEXPIREAT k <abs-ms>}; a time at or before now deletes the
 * key → {@code DEL k}; PERSIST that removed a TTL → {@code PERSIST k}. Nothing for a missing key or a condition
 * (NX/XX/GT/LT) that did not hold.
 */
final class ExpireCommands {
    static final ErrorReply NX_AND_OTHERS =
            ErrorReply.err("NX and XX, GT or LT options at the same time are not compatible");
    static final ErrorReply GT_AND_LT = ErrorReply.err("GT and LT options at the same time are not compatible");

    private static final int NX = 1;
    private static final int XX = 2;
    private static final int GT = 4;
    private static final int LT = 8;

    private ExpireCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("expire", -3).flags(WRITE, FAST).keys(1, 1, 1).group("generic").since("1.0.0")
                .summary("Sets the expiration time of a key in seconds.").handler(c -> expire(c, c.now(), true)));
        t.add(command("pexpire", -3).flags(WRITE, FAST).keys(1, 1, 1).group("generic").since("2.6.0")
                .summary("Sets the expiration time of a key in milliseconds.").handler(c -> expire(c, c.now(), false)));
        t.add(command("expireat", -3).flags(WRITE, FAST).keys(1, 1, 1).group("generic").since("1.2.0")
                .summary("Sets the expiration time of a key to a Unix timestamp.").handler(c -> expire(c, 0, true)));
        t.add(command("pexpireat", -3).flags(WRITE, FAST).keys(1, 1, 1).group("generic").since("2.6.0")
                .summary("Sets the expiration time of a key to a Unix milliseconds timestamp.")
                .handler(c -> expire(c, 0, false)));
        t.add(command("ttl", 2).flags(READONLY, FAST).keys(1, 1, 1).group("generic").since("1.0.0")
                .summary("Returns the expiration time in seconds of a key.").handler(c -> ttl(c, false, false)));
        t.add(command("pttl", 2).flags(READONLY, FAST).keys(1, 1, 1).group("generic").since("2.6.0")
                .summary("Returns the expiration time in milliseconds of a key.").handler(c -> ttl(c, true, false)));
        t.add(command("expiretime", 2).flags(READONLY, FAST).keys(1, 1, 1).group("generic").since("7.0.0")
                .summary("Returns the expiration time of a key as a Unix timestamp.")
                .handler(c -> ttl(c, false, true)));
        t.add(command("pexpiretime", 2).flags(READONLY, FAST).keys(1, 1, 1).group("generic").since("7.0.0")
                .summary("Returns the expiration time of a key as a Unix milliseconds timestamp.")
                .handler(c -> ttl(c, true, true)));
        t.add(command("persist", 2).flags(WRITE, FAST).keys(1, 1, 1).group("generic").since("2.2.0")
                .summary("Removes the expiration time of a key.").handler(ExpireCommands::persist));
    }

    /**
     * The EXPIRE family (Redis's {@code expireGenericCommand}): options, then the time (an integer; seconds are
     * multiplied by 1000 and {@code base} added, an overflow of either is
     * {@code ERR invalid expire time in '<cmd>' command}), then the key and the condition.
     *
     * @param base    the command's time for relative commands, 0 for the *AT commands
     * @param seconds true when the argument is in seconds
     */
    private static void expire(Call c, long base, boolean seconds) {
        int flags = parseFlags(c);
        long when = c.longArg(2);
        if (seconds) {
            if (when > Long.MAX_VALUE / 1000 || when < Long.MIN_VALUE / 1000) {
                throw Call.fail(Errors.invalidExpire(c.spec().name()));
            }
            when *= 1000;
        }
        if (when > Long.MAX_VALUE - base) {
            throw Call.fail(Errors.invalidExpire(c.spec().name()));
        }
        when += base;
        byte[] key = c.arg(1);
        Dict.Node<Object> n = c.node(key);
        if (n == null || !conditionHolds(flags, Keyspace.expiry(n), when)) {
            c.reply().integer(0);
            return;
        }
        Keyspace db = c.db(key);
        if (when <= c.now()) {
            db.remove(key);
            c.emit(Verbs.DEL, key);
        } else {
            db.setExpiry(n, when);
            c.emit(Verbs.PEXPIREAT, key, RedisNumbers.toBytes(when));
        }
        c.reply().integer(1);
    }

    /** NX/XX/GT/LT against the current expiry ({@link Keyspace#NO_EXPIRY}: none, an infinite TTL). */
    private static boolean conditionHolds(int flags, long current, long when) {
        boolean none = current == Keyspace.NO_EXPIRY;
        if ((flags & NX) != 0 && !none) {
            return false;
        }
        if ((flags & XX) != 0 && none) {
            return false;
        }
        if ((flags & GT) != 0 && (none || when <= current)) {
            return false;
        }
        return (flags & LT) == 0 || none || when < current;
    }

    private static int parseFlags(Call c) {
        int flags = 0;
        for (int j = 3; j < c.argc(); j++) {
            if (c.argIs(j, "nx")) {
                flags |= NX;
            } else if (c.argIs(j, "xx")) {
                flags |= XX;
            } else if (c.argIs(j, "gt")) {
                flags |= GT;
            } else if (c.argIs(j, "lt")) {
                flags |= LT;
            } else {
                throw Call.fail(ErrorReply.err("Unsupported option " + cString(c.arg(j))));
            }
        }
        if ((flags & NX) != 0 && (flags & (XX | GT | LT)) != 0) {
            throw Call.fail(NX_AND_OTHERS);
        }
        if ((flags & GT) != 0 && (flags & LT) != 0) {
            throw Call.fail(GT_AND_LT);
        }
        return flags;
    }

    /** The bytes up to the first NUL as Latin-1 characters: what C's {@code %s} prints of an argument. */
    private static String cString(byte[] b) {
        int n = 0;
        while (n < b.length && b[n] != 0) {
            n++;
        }
        return new String(b, 0, n, StandardCharsets.ISO_8859_1);
    }

    /**
     * TTL family: -2 for a missing key, -1 without TTL; else the remaining time (or the absolute time) in ms,
     * or in seconds rounded to nearest ({@code (ms+500)/1000}), never below 0.
     */
    private static void ttl(Call c, boolean ms, boolean absolute) {
        Dict.Node<Object> n = c.peekRead(c.arg(1));
        if (n == null) {
            c.reply().integer(-2);
            return;
        }
        long expire = Keyspace.expiry(n);
        if (expire == Keyspace.NO_EXPIRY) {
            c.reply().integer(-1);
            return;
        }
        long t = Math.max(0, absolute ? expire : expire - c.now());
        c.reply().integer(ms ? t : (t + 500) / 1000);
    }

    private static void persist(Call c) {
        byte[] key = c.arg(1);
        Dict.Node<Object> n = c.node(key);
        if (n != null && c.db(key).persist(n)) {
            c.emit(Verbs.PERSIST, key);
            c.reply().integer(1);
        } else {
            c.reply().integer(0);
        }
    }
}
