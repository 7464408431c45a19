package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.DENYOOM;
import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;

import io.kevy.engine.Errors;
import io.kevy.engine.RedisNumbers;
import io.kevy.engine.Verbs;

/** String commands: GET, SET, INCR. */
final class StringCommands {
    private StringCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("get", 2).flags(READONLY, FAST).keys(1, 1, 1).group("string").since("1.0.0")
                .summary("Returns the string value of a key.")
                .handler(c -> c.reply().bulkOrNull(c.read(c.arg(1), byte[].class))));
        t.add(command("set", -3).flags(WRITE, DENYOOM).keys(1, 1, 1).group("string").since("1.0.0")
                .summary("Sets the string value of a key, ignoring its type.").handler(StringCommands::set));
        t.add(command("incr", 2).flags(WRITE, DENYOOM, FAST).keys(1, 1, 1).group("string").since("1.0.0")
                .summary("Increments the integer value of a key by one.").handler(c -> incrBy(c, 1)));
    }

    private static void set(Call c) {
        if (c.argc() != 3) {
            throw Call.fail(Errors.SYNTAX);
        }
        byte[] key = c.arg(1);
        byte[] value = c.arg(2);
        c.db(key).put(key, value, false);
        c.emit(Verbs.SET, key, value);
        c.reply().ok();
    }

    private static void incrBy(Call c, long by) {
        byte[] key = c.arg(1);
        byte[] cur = c.value(key, byte[].class);
        long v = cur == null ? 0 : RedisNumbers.parseLong(cur);
        if ((by > 0 && v > Long.MAX_VALUE - by) || (by < 0 && v < Long.MIN_VALUE - by)) {
            throw Call.fail(Errors.OVERFLOW);
        }
        v += by;
        byte[] nv = RedisNumbers.toBytes(v);
        c.db(key).put(key, nv, true);
        c.emit(Verbs.SET, key, nv, Verbs.KEEPTTL);
        c.reply().integer(v);
    }
}
