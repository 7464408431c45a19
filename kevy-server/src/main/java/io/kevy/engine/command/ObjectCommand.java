package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.LOADING;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.STALE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.Keyspace;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.struct.Dict;
import io.kevy.engine.type.RedisValue;
import java.util.List;

/**
 * OBJECT ENCODING | FREQ | IDLETIME | REFCOUNT | HELP, as Redis 7.0 answers them. Lookups do not update the
 * key's access time. ENCODING follows Redis's rules: strings {@code int}, {@code embstr} (up to 44 bytes) or
 * {@code raw} by how they were written ({@link StringValues}), collections {@link RedisValue#encoding()}.
 * IDLETIME is the time since the key was last stored or looked up, at one-second resolution. FREQ answers, as
 * Redis does under the default {@code maxmemory-policy}, that no LFU policy is selected; under an LFU policy it
 * reports the key's LFU counter, kept as Redis keeps it ({@link io.kevy.engine.config.AccessPolicy}). REFCOUNT
 * reports Redis's shared-integer refcount for small integers, 1 otherwise.
 */
final class ObjectCommand {
    static final ErrorReply LFU_NOT_SELECTED = ErrorReply.err("An LFU maxmemory policy is not selected, access "
            + "frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data "
            + "will take some time to adjust.");
    static final ErrorReply LFU_SELECTED = ErrorReply.err("An LFU maxmemory policy is selected, idle time not "
            + "tracked. Please note that when switching between policies at runtime LRU and LFU data will take some "
            + "time to adjust.");

    private static final List<String> HELP = List.of(
            "OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
            "ENCODING <key>",
            "    Return the kind of internal representation used in order to store the value",
            "    associated with a <key>.",
            "FREQ <key>",
            "    Return the access frequency index of the <key>. The returned integer is",
            "    proportional to the logarithm of the recent access frequency of the key.",
            "IDLETIME <key>",
            "    Return the idle time of the <key>, that is the approximated number of",
            "    seconds elapsed since the last access to the key.",
            "REFCOUNT <key>",
            "    Return the number of references of the value associated with the specified",
            "    <key>.",
            "HELP",
            "    Prints this help.");

    private ObjectCommand() {
    }

    static void register(CommandTable t) {
        t.add(command("object", -2).group("generic").since("2.2.3")
                .summary("A container for object introspection commands.")
                .subcommand(command("encoding", 3).flags(READONLY).keys(2, 2, 1).since("2.2.3")
                        .summary("Returns the internal encoding of a Redis object.").handler(ObjectCommand::encoding))
                .subcommand(command("freq", 3).flags(READONLY).keys(2, 2, 1).since("4.0.0")
                        .summary("Returns the logarithmic access frequency counter of a Redis object.")
                        .handler(ObjectCommand::freq))
                .subcommand(command("idletime", 3).flags(READONLY).keys(2, 2, 1).since("2.2.3")
                        .summary("Returns the time since the last access to a Redis object.")
                        .handler(ObjectCommand::idletime))
                .subcommand(command("refcount", 3).flags(READONLY).keys(2, 2, 1).since("2.2.3")
                        .summary("Returns the reference count of a value of a key.").handler(ObjectCommand::refcount))
                .subcommand(command("help", 2).flags(LOADING, STALE).since("6.2.0")
                        .summary("Returns helpful text about the different subcommands.").handler(c -> {
                            c.reply().array(HELP.size());
                            for (String line : HELP) {
                                c.reply().simple(line);
                            }
                        })));
    }

    private static void encoding(Call c) {
        Dict.Node<Object> n = c.peekRead(c.arg(2));
        if (n == null) {
            c.reply().nullBulk();
        } else if (n.value() instanceof byte[] s) {
            c.reply().bulk(StringValues.encoding(s, Keyspace.encodingHint(n)));
        } else {
            c.reply().bulk(((RedisValue) n.value()).encoding());
        }
    }

    private static void refcount(Call c) {
        Dict.Node<Object> n = c.peekRead(c.arg(2));
        if (n == null) {
            c.reply().nullBulk();
        } else if (n.value() instanceof byte[] s) {
            c.reply().integer(StringValues.refcount(s, Keyspace.encodingHint(n)));
        } else {
            c.reply().integer(1);
        }
    }

    private static void idletime(Call c) {
        Dict.Node<Object> n = c.peekRead(c.arg(2));
        if (n == null) {
            c.reply().nullBulk();
        } else if (lfu(c)) {
            throw Call.fail(LFU_SELECTED);
        } else {
            c.reply().integer(Keyspace.idleMillis(n, c.now()) / 1000);
        }
    }

    private static void freq(Call c) {
        Dict.Node<Object> n = c.peekRead(c.arg(2));
        if (n == null) {
            c.reply().nullBulk();
        } else if (!lfu(c)) {
            throw Call.fail(LFU_NOT_SELECTED);
        } else {
            c.reply().integer(c.db(c.arg(2)).lfuCounter(n, c.now()));
        }
    }

    /** True when CONFIG has an LFU {@code maxmemory-policy} (allkeys-lfu, volatile-lfu). */
    private static boolean lfu(Call c) {
        return c.engine().accessPolicy().lfu();
    }
}
