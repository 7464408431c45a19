package io.kevy.engine.session;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The registry of live sessions (CLIENT ID, CLIENT LIST, CLIENT KILL, INFO clients). Thread-safe.
 */
public final class Sessions {
    private final AtomicLong nextId = new AtomicLong(1);
    private final ConcurrentHashMap<Long, Session> live = new ConcurrentHashMap<>();

    /** Creates and registers a session with the next client id. */
    public Session open(ClientChannel channel, long nowMs, boolean authenticated) {
        Session s = new Session(nextId.getAndIncrement(), channel, nowMs, authenticated);
        live.put(s.id(), s);
        return s;
    }

    /** Unregisters {@code session}; idempotent. */
    public void close(Session session) {
        live.remove(session.id());
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

    /** Number of sessions parked on a blocking command. */
    public int blockedCount() {
        int n = 0;
        for (Session s : live.values()) {
            if (s.blocked()) {
                n++;
            }
        }
        return n;
    }
}
