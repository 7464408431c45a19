package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.ALLOW_BUSY;
import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.LOADING;
import static io.kevy.engine.command.CommandFlag.NOSCRIPT;
import static io.kevy.engine.command.CommandFlag.NO_AUTH;
import static io.kevy.engine.command.CommandFlag.STALE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.session.Session;
import io.kevy.engine.text.Bytes;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.resp.ReplySink;
import java.security.MessageDigest;

/**
 * Connection commands: PING, ECHO, QUIT, HELLO, AUTH, RESET, SELECT. (CLIENT lives in {@link ClientCommands}.)
 *
 * <p>A connection speaks RESP2 until {@code HELLO 3} switches it to RESP3 (Redis 7.0's {@code helloCommand}: the
 * HELLO reply itself is already in the new protocol); {@code HELLO 2} and {@code RESET} switch it back. The reply
 * sink follows the session ({@link #switchProtocol}).
 */
final class ConnectionCommands {
    static final ErrorReply NOPROTO = ErrorReply.of("NOPROTO unsupported protocol version");
    static final ErrorReply AUTH_NOT_CONFIGURED = ErrorReply.err("AUTH <password> called without any password "
            + "configured for the default user. Are you sure your configuration is correct?");
    private static final ErrorReply PROTOVER_NOT_INTEGER =
            ErrorReply.err("Protocol version is not an integer or out of range");

    private ConnectionCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("ping", -1).flags(FAST).group("connection").since("1.0.0")
                .summary("Returns the server's liveliness response.").handler(ConnectionCommands::ping));
        t.add(command("echo", 2).flags(FAST).group("connection").since("1.0.0")
                .summary("Returns the given string.").handler(c -> c.reply().bulk(c.arg(1))));
        t.add(command("quit", -1).flags(ALLOW_BUSY, NOSCRIPT, LOADING, STALE, FAST, NO_AUTH).group("connection")
                .since("1.0.0").summary("Closes the connection.").handler(c -> {
                    c.reply().ok();
                    c.closeAfterReply();
                }));
        t.add(command("hello", -1).flags(NOSCRIPT, LOADING, STALE, FAST, NO_AUTH, ALLOW_BUSY).group("connection")
                .since("6.0.0").summary("Handshakes with the Redis server.")
                .handler(ConnectionCommands::hello));
        t.add(command("auth", -2).flags(NOSCRIPT, LOADING, STALE, FAST, NO_AUTH, ALLOW_BUSY).group("connection")
                .since("1.0.0").summary("Authenticates the connection.").handler(ConnectionCommands::auth));
        t.add(command("reset", 1).flags(NOSCRIPT, LOADING, STALE, FAST, NO_AUTH, ALLOW_BUSY).group("connection")
                .since("6.2.0").summary("Reset the connection").complexity("O(1)")
                .handler(ConnectionCommands::reset));
        t.add(command("select", 2).flags(LOADING, STALE, FAST).group("connection").since("1.0.0")
                .summary("Changes the selected database (kevy has database 0 only).")
                .handler(ConnectionCommands::select));
    }

    private static void ping(Call c) {
        if (c.argc() > 2) {
            throw Call.fail(Errors.wrongArity("ping"));
        }
        if (c.session().inSubscribedMode()) {
            SubscribedMode.pong(c);
        } else if (c.argc() == 2) {
            c.reply().bulk(c.arg(1));
        } else {
            c.reply().simple("PONG");
        }
    }

    /**
     * RESET (Redis 6.2's {@code clearClientConnectionState}): discards the transaction and the watches, clears
     * the name, and authenticates as the default user again (so a password must be given again when one is
     * required); answers {@code +RESET}.
     */
    private static void reset(Call c) {
        Session s = c.session();
        TransactionCommands.discardTransaction(c.engine(), s);
        SubscribedMode.unsubscribeAll(s);
        c.engine().tracking().disable(s); // Redis's clearClientConnectionState
        s.name("");
        s.authenticated(c.engine().requirePass() == null);
        switchProtocol(c, 2);
        c.reply().simple("RESET");
    }

    private static void select(Call c) {
        long db = c.longArg(1);
        if (db != 0) {
            throw Call.fail(Errors.DB_INDEX_OUT_OF_RANGE);
        }
        c.reply().ok();
    }

    private static void auth(Call c) {
        if (c.argc() > 3) {
            throw Call.fail(Errors.SYNTAX);
        }
        byte[] user = c.argc() == 3 ? c.arg(1) : null;
        byte[] pass = c.arg(c.argc() - 1);
        String required = c.engine().requirePass();
        if (required == null && user == null) {
            throw Call.fail(AUTH_NOT_CONFIGURED);
        }
        if (!checkCredentials(required, user, pass)) {
            throw Call.fail(Errors.WRONGPASS);
        }
        c.session().authenticated(true);
        c.reply().ok();
    }

    /** True when {@code user} (null = default) and {@code pass} match; constant-time on the password. */
    static boolean checkCredentials(String required, byte[] user, byte[] pass) {
        if (user != null && !Bytes.equalsIgnoreCase(user, "default")) {
            return false;
        }
        if (required == null) {
            return true; // the default user has nopass
        }
        return MessageDigest.isEqual(Bytes.utf8(required), pass);
    }

    /** The connection speaks {@code version} from the next reply on: the session and its reply sink. */
    static void switchProtocol(Call c, int version) {
        c.session().protocol(version);
        c.reply().protocol(version);
    }

    /**
     * HELLO [protover [AUTH username password] [SETNAME clientname]]: switches the protocol when one is given and
     * answers Redis's map (server, version, proto, id, mode, role, modules) in it.
     */
    private static void hello(Call c) {
        int i = 1;
        long ver = 0;
        if (c.argc() >= 2) {
            if (!RedisNumbers.isLong(c.arg(1))) {
                throw Call.fail(PROTOVER_NOT_INTEGER);
            }
            ver = RedisNumbers.parseLongOr(c.arg(1), -1);
            if (ver < 2 || ver > 3) {
                throw Call.fail(NOPROTO);
            }
            i = 2;
        }
        byte[] user = null;
        byte[] pass = null;
        String name = null;
        for (; i < c.argc(); i++) {
            boolean more = i + 1 < c.argc();
            if (c.argIs(i, "auth") && i + 2 < c.argc()) {
                user = c.arg(i + 1);
                pass = c.arg(i + 2);
                i += 2;
            } else if (c.argIs(i, "setname") && more) {
                name = Bytes.str(c.arg(i + 1));
                if (!ClientCommands.validName(name)) {
                    throw Call.fail(ClientCommands.BAD_NAME);
                }
                i++;
            } else {
                throw Call.fail(ErrorReply.err("Syntax error in HELLO option '" + Bytes.str(c.arg(i)) + "'"));
            }
        }
        Session s = c.session();
        if (pass != null) {
            if (!checkCredentials(c.engine().requirePass(), user, pass)) {
                throw Call.fail(Errors.WRONGPASS);
            }
            s.authenticated(true);
        }
        if (!s.authenticated() && c.engine().requirePass() != null) {
            throw Call.fail(ErrorReply.of("NOAUTH HELLO must be called with the client already authenticated, "
                    + "otherwise the HELLO AUTH <user> <pass> option can be used to authenticate the client "
                    + "and select the RESP protocol version at the same time"));
        }
        if (name != null) {
            s.name(name);
        }
        if (ver != 0) {
            switchProtocol(c, (int) ver);
        }
        ReplySink r = c.reply();
        r.map(7);
        r.bulk("server");
        r.bulk("redis");
        r.bulk("version");
        r.bulk(io.kevy.engine.ServerInfo.REDIS_VERSION);
        r.bulk("proto");
        r.integer(s.protocol());
        r.bulk("id");
        r.integer(s.id());
        r.bulk("mode");
        r.bulk("standalone");
        r.bulk("role");
        r.bulk("master");
        r.bulk("modules");
        r.array(0);
    }
}
