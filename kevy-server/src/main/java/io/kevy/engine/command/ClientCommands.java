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
import io.kevy.engine.session.TrackingState;
import io.kevy.engine.text.Bytes;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.resp.ReplySink;
import java.util.ArrayList;
import java.util.List;

/**
 * CLIENT and its subcommands (Redis 7.0, plus 7.2's SETINFO and NO-TOUCH, which clients such as lettuce send):
 * ID, SETNAME, GETNAME, INFO, LIST, KILL, SETINFO, NO-EVICT, NO-TOUCH, REPLY, PAUSE, UNPAUSE, TRACKING, CACHING,
 * GETREDIR, TRACKINGINFO, HELP. TRACKING's options are checked in Redis 7.0's order with its error texts
 * ({@code networking.c}); the tracking itself is {@link io.kevy.engine.KeyTracking}.
 *
 * <p>kevy differences (HELP says so too): every client is of type {@code normal} and user {@code default};
 * NO-EVICT and NO-TOUCH are accepted and change nothing (kevy neither evicts clients nor keeps LRU times); REPLY
 * accepts only ON (OFF and SKIP answer an error); PAUSE and UNPAUSE are validated and answer OK without pausing
 * anyone; UNBLOCK is not provided. CLIENT LIST and INFO lines have Redis 7.0's fields in its order, with
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
    static final ErrorReply REDIRECT_TWICE = ErrorReply.err("A client can only redirect to a single other client");
    static final ErrorReply NO_REDIRECT_CLIENT = ErrorReply.err("The client ID you want redirect to does not exist");
    static final ErrorReply PREFIX_NEEDS_BCAST = ErrorReply.err("PREFIX option requires BCAST mode to be enabled");
    static final ErrorReply BCAST_SWITCH = ErrorReply.err("You can't switch BCAST mode on/off before disabling "
            + "tracking for this client, and then re-enabling it with a different mode.");
    static final ErrorReply OPT_WITH_BCAST = ErrorReply.err("OPTIN and OPTOUT are not compatible with BCAST");
    static final ErrorReply OPTIN_AND_OPTOUT = ErrorReply.err("You can't specify both OPTIN mode and OPTOUT mode");
    static final ErrorReply OPT_SWITCH = ErrorReply.err("You can't switch OPTIN/OPTOUT mode before disabling "
            + "tracking for this client, and then re-enabling it with a different mode.");
    static final ErrorReply CACHING_NOT_TRACKING = ErrorReply.err("CLIENT CACHING can be called only when the "
            + "client is in tracking mode with OPTIN or OPTOUT mode enabled");
    static final ErrorReply CACHING_YES_NEEDS_OPTIN =
            ErrorReply.err("CLIENT CACHING YES is only valid when tracking is enabled in OPTIN mode.");
    static final ErrorReply CACHING_NO_NEEDS_OPTOUT =
            ErrorReply.err("CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode.");

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
                .subcommand(sub("tracking", -3, "Enable or disable server assisted client side caching support",
                        "6.0.0", "O(1). Some options may introduce additional complexity.")
                        .handler(ClientCommands::tracking))
                .subcommand(sub("caching", 3, "Instruct the server about tracking or not keys in the next request",
                        "6.0.0", "O(1)").handler(ClientCommands::caching))
                .subcommand(sub("getredir", 2, "Get tracking notifications redirection client ID if any", "6.0.0",
                        "O(1)").handler(c -> c.reply().integer(c.session().trackingRedirect())))
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

    /**
     * Whether {@code s} is of client type {@code type}, in Redis's order ({@code getClientType}): master for the
     * sessions a replica applies its primary's frames through, replica for a replica's links on its primary, pubsub
     * while subscribed, normal otherwise.
     */
    private static boolean isType(String type, Session s) {
        return type.equals(typeOf(s));
    }

    private static String typeOf(Session s) {
        if (s.master()) {
            return "master";
        }
        if (s.replica()) {
            return "replica";
        }
        return s.subscribed() ? "pubsub" : "normal";
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

    /**
     * CLIENT TRACKING ON|OFF [REDIRECT id] [PREFIX p]... [BCAST] [OPTIN] [OPTOUT] [NOLOOP]: the options are parsed
     * first (syntax, REDIRECT twice, a REDIRECT id that is no integer or no client), then for ON checked against
     * each other and the current mode in Redis 7.0's order. ON again changes the mode; BCAST prefixes add up.
     */
    private static void tracking(Call c) {
        long redirect = 0;
        boolean bcast = false;
        boolean optin = false;
        boolean optout = false;
        boolean noloop = false;
        List<byte[]> prefixes = new ArrayList<>();
        for (int j = 3; j < c.argc(); j++) {
            boolean more = j + 1 < c.argc();
            if (c.argIs(j, "redirect") && more) {
                j++;
                if (redirect != 0) {
                    throw Call.fail(REDIRECT_TWICE);
                }
                redirect = RedisNumbers.parseLong(c.arg(j), Errors.NOT_INTEGER);
                if (c.engine().sessions().byId(redirect) == null) {
                    throw Call.fail(NO_REDIRECT_CLIENT);
                }
            } else if (c.argIs(j, "bcast")) {
                bcast = true;
            } else if (c.argIs(j, "optin")) {
                optin = true;
            } else if (c.argIs(j, "optout")) {
                optout = true;
            } else if (c.argIs(j, "noloop")) {
                noloop = true;
            } else if (c.argIs(j, "prefix") && more) {
                prefixes.add(c.arg(++j));
            } else {
                throw Call.fail(Errors.SYNTAX);
            }
        }
        Session s = c.session();
        if (c.argIs(2, "off")) {
            c.engine().tracking().disable(s);
            c.reply().ok();
            return;
        }
        if (!c.argIs(2, "on")) {
            throw Call.fail(Errors.SYNTAX);
        }
        TrackingState old = s.tracking();
        if (!bcast && !prefixes.isEmpty()) {
            throw Call.fail(PREFIX_NEEDS_BCAST);
        }
        if (old != null && old.bcast() != bcast) {
            throw Call.fail(BCAST_SWITCH);
        }
        if (bcast && (optin || optout)) {
            throw Call.fail(OPT_WITH_BCAST);
        }
        if (optin && optout) {
            throw Call.fail(OPTIN_AND_OPTOUT);
        }
        if (old != null && ((optin && old.optout()) || (optout && old.optin()))) {
            throw Call.fail(OPT_SWITCH);
        }
        List<byte[]> all = new ArrayList<>();
        if (bcast) {
            List<byte[]> existing = old == null ? List.of() : old.prefixes();
            checkPrefixCollisions(existing, prefixes);
            all = mergePrefixes(existing, prefixes.isEmpty() ? List.of(Bytes.EMPTY) : prefixes);
        }
        c.engine().tracking().enable(s, new TrackingState(redirect, bcast, optin, optout, noloop, all,
                old != null && old.caching()));
        c.reply().ok();
    }

    /**
     * Redis 7.0's {@code checkPrefixCollisionsOrReply}: two prefixes collide when one starts the other; the error
     * names the first given prefix (in argument order) that collides, with an existing prefix first, else with a
     * later given one. Whether any collide is decided in O(n log n) first (after sorting, a prefix starts every
     * string up to the one it starts, so neighbours suffice; existing prefixes never collide with each other),
     * so only a refused command pays Redis's quadratic search for the pair to name.
     */
    private static void checkPrefixCollisions(List<byte[]> existing, List<byte[]> given) {
        List<byte[]> all = new ArrayList<>(existing.size() + given.size());
        all.addAll(existing);
        all.addAll(given);
        all.sort(java.util.Arrays::compareUnsigned);
        boolean any = false;
        for (int i = 1; i < all.size() && !any; i++) {
            any = overlap(all.get(i - 1), all.get(i));
        }
        if (!any) {
            return;
        }
        for (int i = 0; i < given.size(); i++) {
            byte[] p = given.get(i);
            for (byte[] e : existing) {
                if (overlap(e, p)) {
                    throw Call.fail(ErrorReply.err("Prefix '" + cString(p) + "' overlaps with an existing prefix '"
                            + cString(e) + "'. Prefixes for a single client must not overlap."));
                }
            }
            for (int j = i + 1; j < given.size(); j++) {
                if (overlap(p, given.get(j))) {
                    throw Call.fail(ErrorReply.err("Prefix '" + cString(p) + "' overlaps with another provided prefix '"
                            + cString(given.get(j)) + "'. Prefixes for a single client must not overlap."));
                }
            }
        }
    }

    private static boolean overlap(byte[] a, byte[] b) {
        int n = Math.min(a.length, b.length);
        return java.util.Arrays.equals(a, 0, n, b, 0, n);
    }

    /** A prefix as Redis's {@code %s} prints it: up to its first NUL byte. */
    private static String cString(byte[] b) {
        int n = 0;
        while (n < b.length && b[n] != 0) {
            n++;
        }
        return new String(b, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** {@code existing} plus {@code added}, without repeats, in byte order (Redis keeps them in a rax). */
    private static List<byte[]> mergePrefixes(List<byte[]> existing, List<byte[]> added) {
        java.util.TreeSet<byte[]> set = new java.util.TreeSet<>(java.util.Arrays::compareUnsigned);
        set.addAll(existing);
        set.addAll(added);
        return new ArrayList<>(set);
    }

    /** CLIENT CACHING YES|NO: the next command's reads are (OPTIN) or are not (OPTOUT) tracked. */
    private static void caching(Call c) {
        TrackingState t = c.session().tracking();
        if (t == null) {
            throw Call.fail(CACHING_NOT_TRACKING);
        }
        if (c.argIs(2, "yes")) {
            if (!t.optin()) {
                throw Call.fail(CACHING_YES_NEEDS_OPTIN);
            }
        } else if (c.argIs(2, "no")) {
            if (!t.optout()) {
                throw Call.fail(CACHING_NO_NEEDS_OPTOUT);
            }
        } else {
            throw Call.fail(Errors.SYNTAX);
        }
        t.caching(true);
        c.reply().ok();
    }

    /** CLIENT TRACKINGINFO: Redis's map of flags (a set), redirect and prefixes, as a RESP2 array of 6. */
    private static void trackingInfo(Call c) {
        TrackingState t = c.session().tracking();
        List<String> flags = new ArrayList<>();
        flags.add(t == null ? "off" : "on");
        if (t != null) {
            if (t.bcast()) {
                flags.add("bcast");
            }
            if (t.optin()) {
                flags.add("optin");
                if (t.caching()) {
                    flags.add("caching-yes");
                }
            }
            if (t.optout()) {
                flags.add("optout");
                if (t.caching()) {
                    flags.add("caching-no");
                }
            }
            if (t.noloop()) {
                flags.add("noloop");
            }
            if (t.brokenRedirect()) {
                flags.add("broken_redirect");
            }
        }
        ReplySink r = c.reply();
        r.map(3);
        r.bulk("flags");
        r.set(flags.size());
        for (String f : flags) {
            r.bulk(f);
        }
        r.bulk("redirect");
        r.integer(c.session().trackingRedirect());
        r.bulk("prefixes");
        List<byte[]> prefixes = t == null ? List.of() : t.prefixes();
        r.array(prefixes.size());
        for (byte[] p : prefixes) {
            r.bulk(p);
        }
    }

    private static void help(Call c) {
        HelpReply.write(c.reply(), "CLIENT",
                "CACHING (YES|NO)",
                "    Enable/disable tracking of the keys for next command in OPTIN/OPTOUT modes.",
                "GETREDIR",
                "    Return the client ID we are redirecting to when tracking is enabled.",
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
                "TRACKING (ON|OFF) [REDIRECT <id>] [BCAST] [PREFIX <prefix> [...]]",
                "         [OPTIN] [OPTOUT] [NOLOOP]",
                "    Control server assisted client side caching.",
                "TRACKINGINFO",
                "    Report tracking status for the current connection.",
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
                + " user=" + (s.master() ? "(superuser)" : "default") // Redis's master client has no user
                + " redir=" + s.trackingRedirect() + " resp=" + s.protocol()
                + " lib-name=" + s.libName()
                + " lib-ver=" + s.libVersion();
    }
}
