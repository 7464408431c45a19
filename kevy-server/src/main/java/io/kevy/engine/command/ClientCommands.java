package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.ADMIN;
import static io.kevy.engine.command.CommandFlag.ALLOW_BUSY;
import static io.kevy.engine.command.CommandFlag.LOADING;
import static io.kevy.engine.command.CommandFlag.NOSCRIPT;
import static io.kevy.engine.command.CommandFlag.STALE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.session.Session;
import io.kevy.engine.session.SubscriptionState;
import io.kevy.engine.text.Bytes;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.resp.ReplySink;
import java.util.ArrayList;
import java.util.List;

/**
 * CLIENT and its subcommands (Redis 7.0, plus 7.2's SETINFO and NO-TOUCH, which clients such as lettuce send):
 * ID, SETNAME, GETNAME, INFO, LIST, KILL, SETINFO, NO-EVICT, NO-TOUCH, REPLY, PAUSE, UNPAUSE, GETREDIR,
 * TRACKINGINFO, HELP.
 *
 * <p>kevy differences (HELP says so too): every client is of type {@code normal} and user {@code default};
 * NO-EVICT and NO-TOUCH are accepted and change nothing (kevy neither evicts clients nor keeps LRU times); REPLY
 * accepts only ON (OFF and SKIP answer an error); PAUSE and UNPAUSE are validated and answer OK without pausing
 * anyone; there is no client-side caching, so GETREDIR is -1 and TRACKINGINFO reports tracking off; UNBLOCK,
 * TRACKING and CACHING are not provided. CLIENT LIST and INFO lines have Redis 7.0's fields in its order, with
 * {@code fd=-1} (the engine does not see file descriptors), buffer sizes that are estimates (the caller's own
 * {@code qbuf} and {@code argv-mem} are those of the running command, 0 for others), and 7.2's {@code lib-name}
 * and {@code lib-ver} at the end.
 */
final class ClientCommands {
    static final ErrorReply BAD_NAME =
            ErrorReply.err("Client names cannot contain spaces, newlines or special characters.");
    static final ErrorReply CLIENT_ID_RANGE = ErrorReply.err("client-id should be greater than 0");
    static final ErrorReply INVALID_CLIENT_ID = ErrorReply.err("Invalid client ID");
    static final ErrorReply NO_SUCH_CLIENT = ErrorReply.err("No such client");
    static final ErrorReply TIMEOUT_NOT_INTEGER = ErrorReply.err("timeout is not an integer or out of range");

    private ClientCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("client", -2).group("connection").since("2.4.0")
                .summary("A container for client connection commands").complexity("Depends on subcommand.")
                .subcommand(sub("id", 2, "Returns the client ID for the current connection", "5.0.0", "O(1)")
                        .handler(c -> c.reply().integer(c.session().id())))
                .subcommand(sub("setname", 3, "Set the current connection name", "2.6.9", "O(1)")
                        .handler(ClientCommands::setName))
                .subcommand(sub("getname", 2, "Get the current connection name", "2.6.9", "O(1)")
                        .handler(ClientCommands::getName))
                .subcommand(sub("info", 2, "Returns information about the current client connection.", "6.2.0",
                        "O(1)").tips("nondeterministic_output").handler(ClientCommands::info))
                .subcommand(sub("list", -2, "Get the list of client connections", "2.4.0",
                        "O(N) where N is the number of client connections").flags(ADMIN)
                        .tips("nondeterministic_output").handler(ClientCommands::list))
                .subcommand(sub("kill", -3, "Kill the connection of a client", "2.4.0",
                        "O(N) where N is the number of client connections").flags(ADMIN)
                        .handler(ClientCommands::kill))
                .subcommand(sub("setinfo", 4, "Set client or connection specific info (LIB-NAME, LIB-VER)", "7.2.0",
                        "O(1)").flags(ALLOW_BUSY).handler(ClientCommands::setInfo))
                .subcommand(sub("no-evict", 3, "Set client eviction mode for the current connection (kevy: no-op)",
                        "7.0.0", "O(1)").flags(ADMIN).handler(ClientCommands::onOff))
                .subcommand(sub("no-touch", 3, "Controls whether commands sent by the client will alter the LRU/LFU "
                        + "of the keys they access (kevy: no-op)", "7.2.0", "O(1)").handler(ClientCommands::onOff))
                .subcommand(sub("reply", 3, "Instruct the server whether to reply to commands (kevy: ON only)",
                        "3.2.0", "O(1)").handler(ClientCommands::reply))
                .subcommand(sub("pause", -3, "Stop processing commands from clients for some time (kevy: no-op)",
                        "2.9.50", "O(1)").flags(ADMIN).handler(ClientCommands::pause))
                .subcommand(sub("unpause", 2, "Resume processing of clients that were paused (kevy: no-op)", "6.2.0",
                        "O(N) Where N is the number of paused clients").flags(ADMIN).handler(c -> c.reply().ok()))
                .subcommand(sub("getredir", 2, "Get tracking notifications redirection client ID if any", "6.0.0",
                        "O(1)").handler(c -> c.reply().integer(-1)))
                .subcommand(sub("trackinginfo", 2, "Return information about server assisted client side caching for "
                        + "the current connection", "6.2.0", "O(1)").handler(ClientCommands::trackingInfo))
                .subcommand(command("help", 2).flags(LOADING, STALE).since("5.0.0")
                        .summary("Show helpful text about the different subcommands").complexity("O(1)")
                        .handler(ClientCommands::help)));
    }

    private static CommandSpec.Builder sub(String name, int arity, String summary, String since, String complexity) {
        return command(name, arity).flags(NOSCRIPT, LOADING, STALE).since(since).summary(summary)
                .complexity(complexity);
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

    private static void getName(Call c) {
        String n = c.session().name();
        if (n.isEmpty()) {
            c.reply().nullBulk();
        } else {
            c.reply().bulk(n);
        }
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

    private static void info(Call c) {
        c.reply().verbatim(Bytes.utf8(infoLine(c.session(), c) + "\n"), "txt");
    }

    /** CLIENT LIST [TYPE normal|master|replica|slave|pubsub] | [ID id ...]: one line per client, ended by LF. */
    private static void list(Call c) {
        StringBuilder sb = new StringBuilder();
        if (c.argc() == 4 && c.argIs(2, "type")) {
            String type = clientType(c.arg(3));
            for (Session s : c.engine().sessions().list()) {
                if (isType(type, s)) {
                    sb.append(infoLine(s, c)).append('\n');
                }
            }
        } else if (c.argc() > 3 && c.argIs(2, "id")) {
            for (int i = 3; i < c.argc(); i++) {
                long id = RedisNumbers.parseLong(c.arg(i), INVALID_CLIENT_ID);
                Session s = c.engine().sessions().byId(id);
                if (s != null) {
                    sb.append(infoLine(s, c)).append('\n');
                }
            }
        } else if (c.argc() != 2) {
            throw Call.fail(Errors.SYNTAX);
        } else {
            for (Session s : c.engine().sessions().list()) {
                sb.append(infoLine(s, c)).append('\n');
            }
        }
        c.reply().verbatim(Bytes.utf8(sb.toString()), "txt");
    }

    /** The client type named {@code b} (Redis's {@code getClientTypeByName}); unknown names fail. */
    private static String clientType(byte[] b) {
        String t = Bytes.lowerAscii(b);
        return switch (t) {
            case "normal", "master", "pubsub" -> t;
            case "replica", "slave" -> "replica";
            default -> throw Call.fail(ErrorReply.err("Unknown client type '" + ServerCommands.latin1(b, 128) + "'"));
        };
    }

    /** CLIENT LIST's {@code " sub=<n> psub=<n> ssub=<n>"}. */
    private static String subscriptionCounts(Session s) {
        SubscriptionState subs = s.subscriptions();
        return subs == null ? " sub=0 psub=0 ssub=0" : " sub=" + subs.channelCount() + " psub=" + subs.patternCount()
                + " ssub=" + subs.shardCount();
    }

    /** Whether {@code s} is of client type {@code type}: pubsub while subscribed, normal otherwise (Redis). */
    private static boolean isType(String type, Session s) {
        return type.equals(s.subscribed() ? "pubsub" : "normal");
    }

    /**
     * CLIENT KILL addr:port (old form: OK or "No such client", may kill the caller) or CLIENT KILL with filters
     * ID, TYPE, ADDR, LADDR, USER, SKIPME (integer reply: how many were killed). Other connections are closed
     * through their channel; the caller's own connection closes after this reply.
     */
    private static void kill(Call c) {
        String addr = null;
        String laddr = null;
        String type = null;
        long id = 0;
        boolean skipMe = true;
        boolean oldForm = c.argc() == 3;
        if (oldForm) {
            addr = Bytes.str(c.arg(2));
            skipMe = false;
        } else {
            for (int i = 2; i < c.argc(); i += 2) {
                boolean more = i + 1 < c.argc();
                if (c.argIs(i, "id") && more) {
                    id = RedisNumbers.parseLong(c.arg(i + 1), CLIENT_ID_RANGE);
                    if (id < 1) {
                        throw Call.fail(CLIENT_ID_RANGE);
                    }
                } else if (c.argIs(i, "type") && more) {
                    type = clientType(c.arg(i + 1));
                } else if (c.argIs(i, "addr") && more) {
                    addr = Bytes.str(c.arg(i + 1));
                } else if (c.argIs(i, "laddr") && more) {
                    laddr = Bytes.str(c.arg(i + 1));
                } else if (c.argIs(i, "user") && more) {
                    if (!Bytes.str(c.arg(i + 1)).equals("default")) {
                        throw Call.fail(ErrorReply.err("No such user '" + ServerCommands.latin1(c.arg(i + 1), 128)
                                + "'"));
                    }
                } else if (c.argIs(i, "skipme") && more) {
                    if (c.argIs(i + 1, "yes")) {
                        skipMe = true;
                    } else if (c.argIs(i + 1, "no")) {
                        skipMe = false;
                    } else {
                        throw Call.fail(Errors.SYNTAX);
                    }
                } else {
                    throw Call.fail(Errors.SYNTAX);
                }
            }
        }
        List<Session> victims = new ArrayList<>();
        boolean killMe = false;
        for (Session s : c.engine().sessions().list()) {
            if ((addr != null && !addr.equals(s.channel().remoteAddress()))
                    || (laddr != null && !laddr.equals(s.channel().localAddress()))
                    || (type != null && !isType(type, s))
                    || (id != 0 && s.id() != id)
                    || (s == c.session() && skipMe)) {
                continue;
            }
            if (s == c.session()) {
                killMe = true;
            } else {
                victims.add(s);
            }
        }
        for (Session s : victims) {
            s.killed(true);
            c.engine().sessions().close(s);
            s.channel().close();
        }
        int killed = victims.size() + (killMe ? 1 : 0);
        if (oldForm) {
            if (killed == 0) {
                throw Call.fail(NO_SUCH_CLIENT);
            }
            c.reply().ok();
        } else {
            c.reply().integer(killed);
        }
        if (killMe) {
            c.closeAfterReply();
        }
    }

    /** NO-EVICT / NO-TOUCH ON|OFF: validated, no effect in kevy. */
    private static void onOff(Call c) {
        if (!c.argIs(2, "on") && !c.argIs(2, "off")) {
            throw Call.fail(Errors.SYNTAX);
        }
        c.reply().ok();
    }

    private static void reply(Call c) {
        if (c.argIs(2, "on")) {
            c.reply().ok();
        } else if (c.argIs(2, "off") || c.argIs(2, "skip")) {
            throw Call.fail(ErrorReply.err("CLIENT REPLY OFF and SKIP are not supported by kevy"));
        } else {
            throw Call.fail(Errors.SYNTAX);
        }
    }

    /** CLIENT PAUSE timeout [WRITE|ALL]: Redis's checks, then OK without pausing (kevy). */
    private static void pause(Call c) {
        if (c.argc() > 4) {
            throw Call.fail(ServerCommands.subcommandSyntaxError(c));
        }
        if (c.argc() == 4 && !c.argIs(3, "write") && !c.argIs(3, "all")) {
            throw Call.fail(ErrorReply.err("CLIENT PAUSE mode must be WRITE or ALL"));
        }
        long ms = RedisNumbers.parseLong(c.arg(2), TIMEOUT_NOT_INTEGER);
        if (ms < 0) {
            throw Call.fail(Errors.TIMEOUT_NEGATIVE);
        }
        c.reply().ok();
    }

    private static void trackingInfo(Call c) {
        ReplySink r = c.reply();
        r.map(3);
        r.bulk("flags");
        r.set(1);
        r.bulk("off");
        r.bulk("redirect");
        r.integer(-1);
        r.bulk("prefixes");
        r.array(0);
    }

    private static void help(Call c) {
        HelpReply.write(c.reply(), "CLIENT",
                "GETREDIR",
                "    Return the client ID we are redirecting to when tracking is enabled (kevy: always -1).",
                "GETNAME",
                "    Return the name of the current connection.",
                "ID",
                "    Return the ID of the current connection.",
                "INFO",
                "    Return information about the current client connection.",
                "KILL <ip:port>",
                "    Kill connection made from <ip:port>.",
                "KILL <option> <value> [<option> <value> [...]]",
                "    Kill connections. Options are:",
                "    * ADDR (<ip:port>|<unixsocket>:0)",
                "      Kill connections made from the specified address",
                "    * LADDR (<ip:port>|<unixsocket>:0)",
                "      Kill connections made to specified local address",
                "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
                "      Kill connections by type.",
                "    * USER <username>",
                "      Kill connections authenticated by <username>.",
                "    * SKIPME (YES|NO)",
                "      Skip killing current connection (default: yes).",
                "LIST [options ...]",
                "    Return information about client connections. Options:",
                "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
                "      Return clients of specified type.",
                "UNPAUSE",
                "    Stop the current client pause, resuming traffic (kevy: no-op).",
                "PAUSE <timeout> [WRITE|ALL]",
                "    Suspend all, or just write, clients for <timeout> milliseconds (kevy: no-op).",
                "REPLY (ON|OFF|SKIP)",
                "    Control the replies sent to the current connection (kevy: ON only).",
                "SETINFO (LIB-NAME|LIB-VER) <value>",
                "    Set the client library name or version (CLIENT LIST's lib-name and lib-ver).",
                "SETNAME <name>",
                "    Assign the name <name> to the current connection.",
                "TRACKINGINFO",
                "    Report tracking status for the current connection (kevy: always off).",
                "NO-EVICT (ON|OFF)",
                "    Protect current client connection from eviction (kevy: no-op).",
                "NO-TOUCH (ON|OFF)",
                "    Will not touch LRU/LFU stats when this mode is on (kevy: no-op).");
    }

    /**
     * One CLIENT LIST line in Redis 7.0's field order (plus 7.2's lib-name and lib-ver). Query-buffer and
     * argument sizes are those of the command being run for the calling client, 0 for the others.
     */
    static String infoLine(Session s, Call c) {
        long now = c.now();
        boolean self = s == c.session();
        long qbuf = 0;
        long argvMem = 0;
        if (self) {
            qbuf = 1 + Long.toString(c.argc()).length() + 2;
            for (byte[] a : c.argv()) {
                qbuf += 1 + Integer.toString(a.length).length() + 2 + a.length + 2;
                argvMem += a.length;
            }
        }
        long qbufFree = self ? Math.max(0, 20474 - qbuf) : 0;
        return "id=" + s.id()
                + " addr=" + s.channel().remoteAddress()
                + " laddr=" + s.channel().localAddress()
                + " fd=-1"
                + " name=" + s.name()
                + " age=" + Math.max(0, (now - s.createdAtMs()) / 1000)
                + " idle=" + Math.max(0, (now - s.lastInteractionMs()) / 1000)
                + " flags=" + s.flags()
                + " db=0" + subscriptionCounts(s)
                + " multi=" + s.multiCount()
                + " qbuf=" + qbuf
                + " qbuf-free=" + qbufFree
                + " argv-mem=" + argvMem
                + " multi-mem=0 rbs=1024 rbp=0 obl=0 oll=0 omem=0"
                + " tot-mem=" + (qbuf + qbufFree + argvMem + 1024)
                + " events=r"
                + " cmd=" + s.lastCommand()
                + " user=default redir=-1 resp=" + s.protocol()
                + " lib-name=" + s.libName()
                + " lib-ver=" + s.libVersion();
    }
}
