package io.kevy.pubsub;

import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.LOADING;
import static io.kevy.engine.command.CommandFlag.NOSCRIPT;
import static io.kevy.engine.command.CommandFlag.NO_LOCK;
import static io.kevy.engine.command.CommandFlag.PUBSUB;
import static io.kevy.engine.command.CommandFlag.STALE;
import static io.kevy.engine.command.CommandSpec.command;

import io.kevy.engine.error.ErrorReply;
import io.kevy.resp.ReplySink;
import io.kevy.engine.session.Session;
import io.kevy.engine.command.Call;
import io.kevy.engine.command.CommandSpec;
import io.kevy.engine.command.CommandTable;
import io.kevy.engine.command.HelpReply;
import java.util.List;
import java.util.Set;

/**
 * Pub/Sub commands (Redis 7.0's {@code pubsub.c}): PUBLISH, SUBSCRIBE, UNSUBSCRIBE, PSUBSCRIBE, PUNSUBSCRIBE,
 * SPUBLISH, SSUBSCRIBE, SUNSUBSCRIBE and PUBSUB CHANNELS | NUMSUB | NUMPAT | SHARDCHANNELS | SHARDNUMSUB.
 *
 * <p>Replies are Redis's RESP2 push arrays: {@code *3 subscribe <channel> <count>} per channel, where the count
 * is the connection's channels plus patterns (shard channels for the S commands); on RESP3 the confirmations and
 * the messages are push frames ({@code >3}). While a RESP2 connection is subscribed to anything it is in the
 * subscribed mode, which the dispatcher applies ({@code io.kevy.engine.command.SubscribedMode}); a RESP3
 * connection runs any command while subscribed, as with Redis 7.0.
 *
 * <p>None of these commands lock a shard or emit a feed frame: a message is not a write (docs/cdc.md).
 */
public final class PubSubCommands {
    private static final String GROUP = "pubsub";
    private static final ErrorReply NO_PUSH = ErrorReply.err("Pub/Sub subscriptions need a connection; the embedded "
            + "store subscribes with Store.subscribe");

    private final PubSub pubsub;

    private PubSubCommands(PubSub pubsub) {
        this.pubsub = pubsub;
    }

    /** Adds the Pub/Sub commands, serving {@code pubsub}, to {@code t} ({@code io.kevy.boot.KevyInstance}). */
    public static void register(CommandTable t, PubSub pubsub) {
        new PubSubCommands(pubsub).addTo(t);
    }

    private void addTo(CommandTable t) {
        t.add(command("subscribe", -2).flags(PUBSUB, NOSCRIPT, LOADING, STALE, NO_LOCK).group(GROUP).since("2.0.0")
                .summary("Listen for messages published to the given channels")
                .complexity("O(N) where N is the number of channels to subscribe to.")
                .handler(c -> subscribe(c, Subscriptions.Type.CHANNEL, "subscribe")));
        t.add(command("unsubscribe", -1).flags(PUBSUB, NOSCRIPT, LOADING, STALE, NO_LOCK).group(GROUP)
                .since("2.0.0").summary("Stop listening for messages posted to the given channels")
                .complexity("O(N) where N is the number of clients already subscribed to a channel.")
                .handler(c -> unsubscribe(c, Subscriptions.Type.CHANNEL, "unsubscribe")));
        t.add(command("psubscribe", -2).flags(PUBSUB, NOSCRIPT, LOADING, STALE, NO_LOCK).group(GROUP)
                .since("2.0.0").summary("Listen for messages published to channels matching the given patterns")
                .complexity("O(N) where N is the number of patterns the client is already subscribed to.")
                .handler(c -> subscribe(c, Subscriptions.Type.PATTERN, "psubscribe")));
        t.add(command("punsubscribe", -1).flags(PUBSUB, NOSCRIPT, LOADING, STALE, NO_LOCK).group(GROUP)
                .since("2.0.0").summary("Stop listening for messages posted to channels matching the given patterns")
                .complexity("O(N+M) where N is the number of patterns the client is already subscribed and M is the "
                        + "number of total patterns subscribed in the system (by any client).")
                .handler(c -> unsubscribe(c, Subscriptions.Type.PATTERN, "punsubscribe")));
        t.add(command("publish", 3).flags(PUBSUB, LOADING, STALE, FAST, NO_LOCK).group(GROUP).since("2.0.0")
                .summary("Post a message to a channel")
                .complexity("O(N+M) where N is the number of clients subscribed to the receiving channel and M is the "
                        + "total number of subscribed patterns (by any client).")
                .handler(c -> c.reply().integer(pubsub.publish(c.arg(1), c.arg(2)))));
        t.add(command("spublish", 3).flags(PUBSUB, LOADING, STALE, FAST, NO_LOCK).keys(1, 1, 1).keyFlags("not_key")
                .group(GROUP).since("7.0.0").summary("Post a message to a shard channel")
                .complexity("O(N) where N is the number of clients subscribed to the receiving shard channel.")
                .handler(c -> c.reply().integer(pubsub.spublish(c.arg(1), c.arg(2)))));
        t.add(command("ssubscribe", -2).flags(PUBSUB, NOSCRIPT, LOADING, STALE, NO_LOCK).keys(1, -1, 1)
                .keyFlags("not_key").group(GROUP).since("7.0.0")
                .summary("Listen for messages published to the given shard channels")
                .complexity("O(N) where N is the number of shard channels to subscribe to.")
                .handler(c -> subscribe(c, Subscriptions.Type.SHARD, "ssubscribe")));
        t.add(command("sunsubscribe", -1).flags(PUBSUB, NOSCRIPT, LOADING, STALE, NO_LOCK).keys(1, -1, 1)
                .keyFlags("not_key").group(GROUP).since("7.0.0")
                .summary("Stop listening for messages posted to the given shard channels")
                .complexity("O(N) where N is the number of clients already subscribed to a shard channel.")
                .handler(c -> unsubscribe(c, Subscriptions.Type.SHARD, "sunsubscribe")));
        t.add(command("pubsub", -2).group(GROUP).since("2.8.0").summary("A container for Pub/Sub commands")
                .complexity("Depends on subcommand.")
                .subcommand(sub("channels", -2, "List active channels", "2.8.0", "O(N) where N is the number of "
                        + "active channels, and assuming constant time pattern matching (relatively short channels and "
                        + "patterns)").handler(c -> channels(c, Subscriptions.Type.CHANNEL)))
                .subcommand(sub("numpat", 2, "Get the count of unique patterns pattern subscriptions", "2.8.0",
                        "O(1)").handler(c -> c.reply().integer(pubsub.patternCount())))
                .subcommand(sub("numsub", -2, "Get the count of subscribers for channels", "2.8.0",
                        "O(N) for the NUMSUB subcommand, where N is the number of requested channels")
                        .handler(c -> numsub(c, Subscriptions.Type.CHANNEL)))
                .subcommand(sub("shardchannels", -2, "List active shard channels", "7.0.0", "O(N) where N is the "
                        + "number of active shard channels, and assuming constant time pattern matching (relatively "
                        + "short shard channels).").handler(c -> channels(c, Subscriptions.Type.SHARD)))
                .subcommand(sub("shardnumsub", -2, "Get the count of subscribers for shard channels", "7.0.0",
                        "O(N) for the SHARDNUMSUB subcommand, where N is the number of requested shard channels")
                        .handler(c -> numsub(c, Subscriptions.Type.SHARD)))
                .subcommand(command("help", 2).flags(LOADING, STALE, NO_LOCK).acl().since("6.2.0")
                        .summary("Show helpful text about the different subcommands").complexity("O(1)")
                        .handler(PubSubCommands::help)));
    }

    private static CommandSpec.Builder sub(String name, int arity, String summary, String since, String complexity) {
        return command(name, arity).flags(PUBSUB, LOADING, STALE, NO_LOCK).since(since).summary(summary)
                .complexity(complexity);
    }

    private Subscriptions subscriptionsOf(Call c) {
        Session session = c.session();
        Subscriptions s = (Subscriptions) session.subscriptions();
        if (s == null) {
            if (!session.channel().supportsPush()) {
                throw Call.fail(NO_PUSH);
            }
            s = pubsub.open(new BufferedSubscriber(pubsub, session));
            session.subscriptions(s);
        }
        return s;
    }

    private void subscribe(Call c, Subscriptions.Type type, String verb) {
        Subscriptions s = subscriptionsOf(c);
        ReplySink r = c.reply();
        for (int i = 1; i < c.argc(); i++) {
            s.add(type, c.arg(i));
            confirm(r, verb, c.arg(i), type == Subscriptions.Type.SHARD ? s.shardCount() : s.count());
        }
    }

    private void unsubscribe(Call c, Subscriptions.Type type, String verb) {
        Subscriptions s = (Subscriptions) c.session().subscriptions();
        ReplySink r = c.reply();
        boolean shard = type == Subscriptions.Type.SHARD;
        if (c.argc() == 1) {
            List<byte[]> all = s == null ? List.of() : s.names(type);
            for (byte[] name : all) {
                s.remove(type, name);
                confirm(r, verb, name, shard ? s.shardCount() : s.count());
            }
            if (all.isEmpty()) {
                confirm(r, verb, null, s == null ? 0 : shard ? s.shardCount() : s.count());
            }
            return;
        }
        for (int i = 1; i < c.argc(); i++) {
            if (s != null) {
                s.remove(type, c.arg(i));
            }
            confirm(r, verb, c.arg(i), s == null ? 0 : shard ? s.shardCount() : s.count());
        }
    }

    /** {@code *3 <verb> <name or $-1> :<count>}; a push frame ({@code >3}) on RESP3, as Redis 7.0. */
    private static void confirm(ReplySink r, String verb, byte[] name, int count) {
        r.push(3);
        r.bulk(verb);
        r.bulkOrNull(name);
        r.integer(count);
    }

    private void channels(Call c, Subscriptions.Type type) {
        if (c.argc() > 3) {
            throw Call.fail(ErrorReply.err("unknown subcommand or wrong number of arguments for '"
                    + io.kevy.engine.text.Bytes.str(c.arg(1)) + "'. Try PUBSUB HELP."));
        }
        List<byte[]> names = pubsub.channels(type, c.argc() == 3 ? c.arg(2) : null);
        c.reply().array(names.size());
        for (byte[] n : names) {
            c.reply().bulk(n);
        }
    }

    private void numsub(Call c, Subscriptions.Type type) {
        PubSub p = pubsub;
        c.reply().array((c.argc() - 2) * 2);
        for (int i = 2; i < c.argc(); i++) {
            c.reply().bulk(c.arg(i));
            c.reply().integer(p.numsub(type, c.arg(i)));
        }
    }

    private static void help(Call c) {
        HelpReply.write(c.reply(), "PUBSUB",
                "CHANNELS [<pattern>]",
                "    Return the currently active channels matching a <pattern> (default: '*').",
                "NUMPAT",
                "    Return number of subscriptions to patterns.",
                "NUMSUB [<channel> ...]",
                "    Return the number of subscribers for the specified channels, excluding",
                "    pattern subscriptions(default: no channels).",
                "SHARDCHANNELS [<pattern>]",
                "    Return the currently active shard level channels matching a <pattern> (default: '*').",
                "SHARDNUMSUB [<shardchannel> ...]",
                "    Return the number of subscribers for the specified shard level channel(s)");
    }
}
