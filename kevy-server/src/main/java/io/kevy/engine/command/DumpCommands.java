package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.DENYOOM;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.Keyspace;
import io.kevy.engine.dump.DumpDecoder;
import io.kevy.engine.dump.DumpEncoder;
import io.kevy.engine.dump.DumpFormatException;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.struct.Dict;
import io.kevy.resp.Verbs;

/**
 * DUMP and RESTORE in Redis 7.0's serialization format (RDB version 10, see {@link io.kevy.engine.dump}), so tools
 * that copy keys between servers with them work between Redis and kevy.
 *
 * <p>RESTORE key ttl payload [REPLACE] [ABSTTL] [IDLETIME s] [FREQ f] checks, in Redis's order: the options
 * ({@code ERR syntax error}; IDLETIME and FREQ exclude each other; {@code ERR Invalid IDLETIME value, must be >= 0},
 * {@code ERR Invalid FREQ value, must be >= 0 and <= 255}), the key ({@code BUSYKEY Target key name already
 * exists.} without REPLACE), the TTL ({@code ERR Invalid TTL value, must be >= 0}), the footer ({@code ERR DUMP
 * payload version or checksum are wrong}), the object ({@code ERR Bad data format}). A TTL of 0 means none; a TTL
 * already in the past stores nothing (only REPLACE's delete happens). As in Redis, FREQ sets the key's LFU counter
 * under an LFU {@code maxmemory-policy} and IDLETIME its idle time otherwise; the other one is ignored.
 *
 * <p>Frames (feed contract §7): {@code DEL key} when REPLACE removed a key, then the value rebuilt as the other
 * rebuilding commands emit it ({@link ValueFrames}: {@code SET}, {@code RPUSH}, {@code SADD}, {@code ZADD},
 * {@code HSET}), then {@code PEXPIREAT key <abs-ms>} when it has a TTL. A refused RESTORE emits nothing.
 * Keyspace notifications (derived from the frames): {@code restore} once, or {@code del} when a past TTL left
 * only REPLACE's delete, as Redis fires them.
 */
final class DumpCommands {
    static final ErrorReply BUSYKEY = ErrorReply.of("BUSYKEY Target key name already exists.");
    static final ErrorReply INVALID_TTL = ErrorReply.err("Invalid TTL value, must be >= 0");
    static final ErrorReply INVALID_IDLETIME = ErrorReply.err("Invalid IDLETIME value, must be >= 0");
    static final ErrorReply INVALID_FREQ = ErrorReply.err("Invalid FREQ value, must be >= 0 and <= 255");
    static final ErrorReply BAD_PAYLOAD = ErrorReply.err("DUMP payload version or checksum are wrong");
    static final ErrorReply BAD_DATA = ErrorReply.err("Bad data format");

    private DumpCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("dump", 2).flags(READONLY).keys(1, 1, 1).group("generic").since("2.6.0")
                .tips("nondeterministic_output")
                .summary("Return a serialized version of the value stored at the specified key.")
                .complexity("O(1) to access the key and additional O(N*M) to serialize it, where N is the number "
                        + "of Redis objects composing the value and M their average size. For small string values "
                        + "the time complexity is thus O(1)+O(1*M) where M is small, so simply O(1).")
                .handler(DumpCommands::dump));
        t.add(command("restore", -4).flags(WRITE, DENYOOM).keys(1, 1, 1).keyFlags("OW", "update")
                .acl("keyspace", "dangerous").group("generic").since("2.6.0")
                .summary("Create a key using the provided serialized value, previously obtained using DUMP.")
                .complexity("O(1) to create the new key and additional O(N*M) to reconstruct the serialized value, "
                        + "where N is the number of Redis objects composing the value and M their average size. For "
                        + "small string values the time complexity is thus O(1)+O(1*M) where M is small, so simply "
                        + "O(1). However for sorted set values the complexity is O(N*M*log(N)) because inserting "
                        + "values into sorted sets is O(log(N)).")
                .handler(DumpCommands::restore));
    }

    /** DUMP key: the payload as a bulk string, or a null bulk for a missing key. */
    private static void dump(Call c) {
        Object value = c.value(c.arg(1));
        c.engine().countLookup(value != null);
        if (value == null) {
            c.reply().nullBulk();
            return;
        }
        boolean compression = !"no".equals(c.engine().runtimeConfig().get("rdbcompression"));
        c.reply().bulk(DumpEncoder.dump(value, c.engine().encodings(), compression));
    }

    private static void restore(Call c) {
        byte[] key = c.arg(1);
        boolean replace = false;
        boolean absTtl = false;
        long idle = -1;
        long freq = -1;
        for (int j = 4; j < c.argc(); j++) {
            boolean more = j + 1 < c.argc();
            if (c.argIs(j, "replace")) {
                replace = true;
            } else if (c.argIs(j, "absttl")) {
                absTtl = true;
            } else if (c.argIs(j, "idletime") && more && freq == -1) {
                idle = c.longArg(++j);
                if (idle < 0) {
                    throw Call.fail(INVALID_IDLETIME);
                }
            } else if (c.argIs(j, "freq") && more && idle == -1) {
                freq = c.longArg(++j);
                if (freq < 0 || freq > 255) {
                    throw Call.fail(INVALID_FREQ);
                }
            } else {
                throw Call.fail(io.kevy.engine.error.Errors.SYNTAX);
            }
        }
        boolean exists = c.node(key) != null;
        if (exists && !replace) {
            throw Call.fail(BUSYKEY);
        }
        long ttl = c.longArg(2);
        if (ttl < 0) {
            throw Call.fail(INVALID_TTL);
        }
        byte[] payload = c.arg(3);
        if (!DumpDecoder.verify(payload)) {
            throw Call.fail(BAD_PAYLOAD);
        }
        Object value;
        try {
            value = DumpDecoder.decode(payload, c.engine().encodings());
        } catch (DumpFormatException e) {
            throw Call.fail(BAD_DATA);
        }
        Keyspace db = c.db(key);
        if (exists) {
            db.remove(key);
        }
        long now = c.now();
        long expireAt = ttl == 0 ? Keyspace.NO_EXPIRY : absTtl ? ttl : saturatedAdd(ttl, now);
        if (expireAt != Keyspace.NO_EXPIRY && expireAt <= now) {
            if (exists) {
                c.emit(Verbs.DEL, key); // the key is gone: keyspace notifications name it del, as Redis
            }
            c.reply().ok();
            return;
        }
        Dict.Node<Object> n = db.add(key, value);
        if (expireAt != Keyspace.NO_EXPIRY) {
            db.setExpiry(n, expireAt);
        }
        if (c.engine().accessPolicy().lfu()) {
            if (freq >= 0) {
                Keyspace.lfuCounter(n, now, (int) freq);
            }
        } else if (idle >= 0) {
            Keyspace.idleFor(n, now, idle);
        }
        if (exists) {
            c.emit(Verbs.DEL, key); // emitted once the new value is stored: one restore event, no del (Redis)
        }
        ValueFrames.rebuild(c, key, value, expireAt);
        c.reply().ok();
    }

    private static long saturatedAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
    }
}
