package io.kevy.engine.session;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The registry of live sessions (CLIENT ID, CLIENT LIST, CLIENT KILL, INFO clients). Thread-safe.
 */
public final class Sessions {
    private final AtomicLong nextId = new AtomicLong(1);
    private final ConcurrentHashMap<Long, Session> live = new ConcurrentHashMap<>();
    private final CopyOnWriteArrayList<Consumer<Session>> closeListeners = new CopyOnWriteArrayList<>();

    /** Creates and registers a session with the next client id. */
    public Session open(ClientChannel channel, long nowMs, boolean authenticated) {
        Session s = new Session(nextId.getAndIncrement(), channel, nowMs, authenticated);
        live.put(s.id(), s);
        return s;
    }

    /**
     * Adds {@code listener}, told of every session {@link #close}d from now on (after it left the registry), on
     * the closing thread: client tracking drops the session's state there (Redis's {@code freeClient}).
     */
    public void onClose(Consumer<Session> listener) {
        closeListeners.add(listener);
    }

    /** Unregisters {@code session}; idempotent. */
    public void close(Session session) {
        live.remove(session.id());
        SubscriptionState subs = session.subscriptions();
        if (subs != null) {
            subs.close(); // a closed connection subscribes to nothing (Redis's pubsubUnsubscribeAllChannels)
        }
        for (Consumer<Session> l : closeListeners) {
            l.accept(session);
        }
    }

    public Session byId(long id) {
        return live.get(id);
    }

    /** Live sessions ordered by id. */
    public List<Session> list() {
        List<Session> l = new ArrayList<>(live.values());
        l.sort(Comparator.comparingLong(Session::id));
        return l;
    }

    public int size() {
        return live.size();
    }

    /** Number of sessions parked on a blocking command (INFO's {@code blocked_clients}), replicas' links left out. */
    public int blockedCount() {
        int n = 0;
        for (Session s : live.values()) {
            if (s.blocked() && !s.replica()) { // a replica's streaming read is no blocked client (Redis)
                n++;
            }
        }
        return n;
    }
}
