package io.kevy.tracking;

import io.kevy.engine.session.Session;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The BCAST prefixes and their clients (Redis's {@code PrefixTable}). A prefix lives while a client
 * broadcasts on it. Writers read an immutable snapshot ({@link #snapshot}), so a write costs no lock.
 *
 * <p>Thread-safe: changes are synchronized; the snapshot is published through a volatile field.
 */
final class PrefixRegistry {
    /** One prefix and its clients, in registration order. */
    record Prefix(byte[] bytes, Session[] clients) {
        boolean matches(byte[] key) {
            return key.length >= bytes.length && Arrays.equals(key, 0, bytes.length, bytes, 0, bytes.length);
        }
    }

    private static final Prefix[] NONE = new Prefix[0];

    /** Prefixes in byte-wise order (the order Redis's rax iterates them in). */
    private final TreeMap<byte[], Set<Session>> prefixes = new TreeMap<>(Arrays::compareUnsigned);
    private volatile Prefix[] snapshot = NONE;

    /** Registers {@code session} for each of {@code list} (already registered ones are kept). */
    synchronized void add(Session session, List<byte[]> list) {
        for (byte[] p : list) {
            prefixes.computeIfAbsent(p, k -> new LinkedHashSet<>()).add(session);
        }
        publish();
    }

    /** Unregisters {@code session} from each of {@code list}; prefixes left without clients are dropped. */
    synchronized void remove(Session session, List<byte[]> list) {
        for (byte[] p : list) {
            Set<Session> clients = prefixes.get(p);
            if (clients != null && clients.remove(session) && clients.isEmpty()) {
                prefixes.remove(p);
            }
        }
        publish();
    }

    /** The prefixes with their clients now, in byte-wise order; empty when nobody broadcasts. */
    Prefix[] snapshot() {
        return snapshot;
    }

    /** INFO's {@code tracking_total_prefixes}. */
    int size() {
        return snapshot.length;
    }

    private void publish() {
        List<Prefix> out = new ArrayList<>(prefixes.size());
        for (Map.Entry<byte[], Set<Session>> e : prefixes.entrySet()) {
            out.add(new Prefix(e.getKey(), e.getValue().toArray(new Session[0])));
        }
        snapshot = out.toArray(NONE);
    }
}
