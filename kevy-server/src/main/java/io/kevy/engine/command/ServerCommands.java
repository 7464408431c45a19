package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.ADMIN;
import static io.kevy.engine.command.CommandFlag.ALL_SHARDS;
import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.LOADING;
import static io.kevy.engine.command.CommandFlag.NOSCRIPT;
import static io.kevy.engine.command.CommandFlag.NO_LOCK;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.STALE;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;

import io.kevy.engine.Bytes;
import io.kevy.engine.ErrorReply;
import io.kevy.engine.RuntimeConfig;
import java.util.ArrayList;
import java.util.List;

/** Server commands: DBSIZE, FLUSHALL, FLUSHDB, CONFIG. */
final class ServerCommands {
    private ServerCommands() {
    }

    static void register(CommandTable t) {
        ClientCommands.register(t);
        t.add(command("dbsize", 1).flags(READONLY, FAST, NO_LOCK).group("server").since("1.0.0")
                .summary("Returns the number of keys in the database.")
                .handler(c -> c.reply().integer(c.engine().dbSize())));
        t.add(command("flushall", -1).flags(WRITE, ALL_SHARDS).group("server").since("1.0.0")
                .summary("Removes all keys from all databases (new feed generation on every shard, no frame).")
                .handler(ServerCommands::flush));
        t.add(command("flushdb", -1).flags(WRITE, ALL_SHARDS).group("server").since("1.0.0")
                .summary("Removes all keys from the current database (as FLUSHALL: kevy has one database).")
                .handler(ServerCommands::flush));
        t.add(command("config", -2).group("server").since("2.0.0").summary("A container for server configuration commands.")
                .subcommand(command("get", -3).flags(ADMIN, NOSCRIPT, LOADING, STALE).since("2.0.0")
                        .summary("Returns the effective values of configuration parameters.")
                        .handler(ServerCommands::configGet))
                .subcommand(command("set", -4).flags(ADMIN, NOSCRIPT, LOADING, STALE).since("2.0.0")
                        .summary("Sets configuration parameters in-flight.").handler(ServerCommands::configSet)));
    }

    private static void flush(Call c) {
        if (c.argc() > 2 || (c.argc() == 2 && !c.argIs(1, "async") && !c.argIs(1, "sync"))) {
            throw Call.fail(io.kevy.engine.Errors.SYNTAX);
        }
        c.engine().flushAllLocked();
        c.reply().ok();
    }

    private static void configGet(Call c) {
        RuntimeConfig rc = c.engine().runtimeConfig();
        List<String> out = new ArrayList<>();
        for (int i = 2; i < c.argc(); i++) {
            String pattern = Bytes.str(c.arg(i));
            for (String name : rc.names()) {
                if (io.kevy.engine.Glob.matches(Bytes.utf8(pattern), Bytes.utf8(name), true) && !out.contains(name)) {
                    out.add(name);
                    out.add(rc.get(name));
                }
            }
        }
        c.reply().array(out.size());
        for (String s : out) {
            c.reply().bulk(s);
        }
    }

    private static void configSet(Call c) {
        if ((c.argc() - 2) % 2 != 0) {
            throw Call.fail(io.kevy.engine.Errors.wrongArity("config|set"));
        }
        RuntimeConfig rc = c.engine().runtimeConfig();
        for (int i = 2; i < c.argc(); i += 2) {
            String name = Bytes.str(c.arg(i));
            RuntimeConfig.Param p = rc.lookup(name);
            if (p == null) {
                throw Call.fail(ErrorReply.err("Unknown option or number of arguments for CONFIG SET - '" + name + "'"));
            }
            String err = p.set(Bytes.str(c.arg(i + 1)));
            if (err != null) {
                throw Call.fail(ErrorReply.err("CONFIG SET failed (possibly related to argument '" + name + "') - " + err));
            }
        }
        c.reply().ok();
    }
}
