package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.DENYOOM;
import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;

import io.kevy.engine.Verbs;
import io.kevy.engine.type.HashValue;

/** Hash commands: HSET, HGET. */
final class HashCommands {
    private HashCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("hset", -4).flags(WRITE, DENYOOM, FAST).keys(1, 1, 1).group("hash").since("2.0.0")
                .summary("Creates or modifies the value of a field in a hash.").handler(HashCommands::hset));
        t.add(command("hget", 3).flags(READONLY, FAST).keys(1, 1, 1).group("hash").since("2.0.0")
                .summary("Returns the value of a field in a hash.").handler(c -> {
                    HashValue h = c.read(c.arg(1), HashValue.class);
                    c.reply().bulkOrNull(h == null ? null : h.get(c.arg(2)));
                }));
    }

    private static void hset(Call c) {
        if (c.argc() % 2 != 0) {
            throw Call.fail(io.kevy.engine.Errors.wrongArity("hset"));
        }
        byte[] key = c.arg(1);
        HashValue h = c.value(key, HashValue.class);
        if (h == null) {
            h = new HashValue();
            c.db(key).add(key, h);
        }
        int added = 0;
        byte[][] frame = new byte[c.argc()][];
        frame[0] = Verbs.HSET;
        frame[1] = key;
        for (int i = 2; i < c.argc(); i += 2) {
            if (h.put(c.arg(i), c.arg(i + 1)) == null) {
                added++;
            }
            frame[i] = c.arg(i);
            frame[i + 1] = c.arg(i + 1);
        }
        c.emit(frame);
        c.reply().integer(added);
    }
}
