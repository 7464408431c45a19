package io.kevy.engine.command;

import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.session.Session;
import io.kevy.engine.session.SubscriptionState;
import java.util.Set;

/**
 * The RESP2 subscribed mode of Redis 7.0 ({@code processCommand}): while a connection is subscribed to a
 * channel, pattern or shard channel, only (P|S)SUBSCRIBE, (P|S)UNSUBSCRIBE, PING, QUIT and RESET run; any other
 * command gets {@link #notAllowed}, and PING answers {@code *2 pong <message or "">}. The dispatcher and the
 * connection commands apply it; the Pub/Sub commands themselves live in {@code io.kevy.pubsub}.
 */
final class SubscribedMode {
    private static final Set<String> ALLOWED = Set.of("ping", "subscribe", "ssubscribe", "unsubscribe",
            "sunsubscribe", "psubscribe", "punsubscribe", "quit", "reset");
    private static final byte[] PONG = {'p', 'o', 'n', 'g'};
    private static final byte[] EMPTY = {};

    private SubscribedMode() {
    }

    /** Whether {@code spec} may run while the connection is subscribed (Redis 7.0's list). */
    static boolean allowed(CommandSpec spec) {
        return ALLOWED.contains(spec.name());
    }

    /** The error for any other command, naming it as Redis does ({@code client|list}). */
    static ErrorReply notAllowed(CommandSpec spec) {
        return ErrorReply.err("Can't execute '" + spec.name() + "': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / "
                + "QUIT / RESET are allowed in this context");
    }

    /** PING while subscribed: {@code *2 pong <message or "">}. */
    static void pong(Call c) {
        c.reply().array(2);
        c.reply().bulk(PONG);
        c.reply().bulk(c.argc() == 2 ? c.arg(1) : EMPTY);
    }

    /** RESET: leaves every channel, pattern and shard channel. */
    static void unsubscribeAll(Session session) {
        SubscriptionState s = session.subscriptions();
        if (s != null) {
            s.close();
            session.subscriptions(null);
        }
    }
}
