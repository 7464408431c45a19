package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.ALLOW_BUSY;
import static io.kevy.engine.command.CommandFlag.LOADING;
import static io.kevy.engine.command.CommandFlag.NOSCRIPT;
import static io.kevy.engine.command.CommandFlag.STALE;
import static io.kevy.engine.command.CommandSpec.command;

import io.kevy.engine.Bytes;
import io.kevy.engine.ErrorReply;

/** CLIENT and its subcommands. */
final class ClientCommands {
    static final ErrorReply BAD_NAME =
            ErrorReply.err("Client names cannot contain spaces, newlines or special characters.");

    private ClientCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("client", -2).group("connection").since("2.4.0").summary("A container for client connection commands.")
                .subcommand(command("id", 2).flags(NOSCRIPT, LOADING, STALE).since("5.0.0")
                        .summary("Returns the unique client ID of the connection.")
                        .handler(c -> c.reply().integer(c.session().id())))
                .subcommand(command("setname", 3).flags(NOSCRIPT, LOADING, STALE).since("2.6.9")
                        .summary("Sets the connection name.").handler(ClientCommands::setName))
                .subcommand(command("getname", 2).flags(NOSCRIPT, LOADING, STALE).since("2.6.9")
                        .summary("Returns the name of the connection.").handler(c -> {
                            String n = c.session().name();
                            if (n.isEmpty()) {
                                c.reply().nullBulk();
                            } else {
                                c.reply().bulk(n);
                            }
                        }))
                .subcommand(command("setinfo", 4).flags(NOSCRIPT, LOADING, STALE, ALLOW_BUSY).since("7.2.0")
                        .summary("Sets information specific to the client or connection (LIB-NAME, LIB-VER).")
                        .handler(ClientCommands::setInfo)));
    }

    /** True when every character of {@code name} is printable ASCII other than space (Redis's rule). */
    static boolean validName(String name) {
        for (int i = 0; i < name.length(); i++) {
            char ch = name.charAt(i);
            if (ch < '!' || ch > '~') {
                return false;
            }
        }
        return true;
    }

    private static void setName(Call c) {
        String name = Bytes.str(c.arg(2));
        if (!validName(name)) {
            throw Call.fail(BAD_NAME);
        }
        c.session().name(name);
        c.reply().ok();
    }

    private static void setInfo(Call c) {
        String value = Bytes.str(c.arg(3));
        if (c.argIs(2, "lib-name")) {
            if (!validName(value)) {
                throw Call.fail(ErrorReply.err("lib-name cannot contain spaces, newlines or special characters."));
            }
            c.session().libName(value);
        } else if (c.argIs(2, "lib-ver")) {
            if (!validName(value)) {
                throw Call.fail(ErrorReply.err("lib-ver cannot contain spaces, newlines or special characters."));
            }
            c.session().libVersion(value);
        } else {
            throw Call.fail(ErrorReply.err("Unrecognized option '" + Bytes.str(c.arg(2)) + "'"));
        }
        c.reply().ok();
    }
}
