package io.kevy.engine.command;

import io.kevy.engine.error.Errors;
import io.kevy.engine.text.RedisNumbers;

/**
 * The options of SET ({@code NX XX GET EX PX EXAT PXAT KEEPTTL}) and GETEX ({@code EX PX EXAT PXAT PERSIST}),
 * parsed as Redis 7.0's {@code parseExtendedStringArgumentsOrReply}: left to right, case-insensitive; a
 * repeated option is allowed (the last time wins), a conflicting one (NX with XX, two different time options,
 * a time with KEEPTTL or PERSIST) or a time option without a value is {@code ERR syntax error}.
 *
 * <p>Immutable once parsed.
 */
final class StringArgs {
    static final int NX = 1;
    static final int XX = 1 << 1;
    static final int GET = 1 << 2;
    static final int KEEPTTL = 1 << 3;
    static final int PERSIST = 1 << 4;
    static final int EX = 1 << 5;
    static final int PX = 1 << 6;
    static final int EXAT = 1 << 7;
    static final int PXAT = 1 << 8;
    private static final int TIMES = EX | PX | EXAT | PXAT;

    final int flags;
    /** The time argument of EX/PX/EXAT/PXAT, or null. */
    final byte[] expire;

    private StringArgs(int flags, byte[] expire) {
        this.flags = flags;
        this.expire = expire;
    }

    /** SETEX/PSETEX: an {@code EX} or {@code PX} time given positionally. */
    static StringArgs of(int flags, byte[] expire) {
        return new StringArgs(flags, expire);
    }

    /**
     * Parses {@code c}'s arguments from index {@code from}.
     *
     * @param set true for SET's options, false for GETEX's
     * @throws io.kevy.engine.error.CommandException {@link Errors#SYNTAX}
     */
    static StringArgs parse(Call c, int from, boolean set) {
        int flags = 0;
        byte[] expire = null;
        for (int j = from; j < c.argc(); j++) {
            boolean hasNext = j + 1 < c.argc();
            if (set && c.argIs(j, "nx") && (flags & XX) == 0) {
                flags |= NX;
            } else if (set && c.argIs(j, "xx") && (flags & NX) == 0) {
                flags |= XX;
            } else if (set && c.argIs(j, "get")) {
                flags |= GET;
            } else if (set && c.argIs(j, "keepttl") && (flags & (PERSIST | TIMES)) == 0) {
                flags |= KEEPTTL;
            } else if (!set && c.argIs(j, "persist") && (flags & (KEEPTTL | TIMES)) == 0) {
                flags |= PERSIST;
            } else if (hasNext && timeOption(c, j) != 0
                    && (flags & (KEEPTTL | PERSIST | (TIMES & ~timeOption(c, j)))) == 0) {
                flags |= timeOption(c, j);
                expire = c.arg(++j);
            } else {
                throw Call.fail(Errors.SYNTAX);
            }
        }
        return new StringArgs(flags, expire);
    }

    private static int timeOption(Call c, int j) {
        if (c.argIs(j, "ex")) {
            return EX;
        }
        if (c.argIs(j, "px")) {
            return PX;
        }
        if (c.argIs(j, "exat")) {
            return EXAT;
        }
        if (c.argIs(j, "pxat")) {
            return PXAT;
        }
        return 0;
    }

    boolean has(int flag) {
        return (flags & flag) != 0;
    }

    /** True when the time is absolute (EXAT/PXAT), so it may already have passed. */
    boolean absolute() {
        return (flags & (EXAT | PXAT)) != 0;
    }

    /**
     * The expiry as an absolute time in ms (Redis's {@code getExpireMillisecondsOrReply}): the value must be a
     * positive integer; seconds are multiplied by 1000 and relative times added to the command's time, and an
     * overflow of either is an error.
     *
     * @throws io.kevy.engine.error.CommandException {@link Errors#NOT_INTEGER}, or
     *                                         {@code ERR invalid expire time in '<command>' command}
     */
    long expireAt(Call c) {
        long ms = RedisNumbers.parseLong(expire, Errors.NOT_INTEGER);
        boolean seconds = (flags & (EX | EXAT)) != 0;
        if (ms <= 0 || (seconds && ms > Long.MAX_VALUE / 1000)) {
            throw Call.fail(Errors.invalidExpire(c.spec().name()));
        }
        if (seconds) {
            ms *= 1000;
        }
        if ((flags & (EX | PX)) != 0) {
            ms += c.now(); // wraps negative on overflow, caught below as in Redis
        }
        if (ms <= 0) {
            throw Call.fail(Errors.invalidExpire(c.spec().name()));
        }
        return ms;
    }
}
