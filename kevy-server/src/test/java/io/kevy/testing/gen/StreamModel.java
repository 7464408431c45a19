package io.kevy.testing.gen;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the {@code xg} streams of one workload hold after the commands {@link StreamGenerator} made so far (only
 * its modelled operations touch them, and a transaction that will not apply queues none), so that it can make
 * consumer-group commands that succeed: XREADGROUP on existing groups, XCLAIM, XAUTOCLAIM and XACK of pending
 * ids. The model follows Redis 7.0's rules where the commands it makes depend on them: XADD's ids, exact
 * trimming, what XREADGROUP delivers and makes pending, that XCLAIM and XAUTOCLAIM drop deleted entries from the
 * PEL and that XCLAIM's FORCE adds existing ones, XGROUP's subcommands, DEL, RENAME and COPY.
 *
 * <p>Not thread-safe: one per workload ({@link CommandGenerator.Ctx#state}).
 */
final class StreamModel {
    /** How many {@code xg} keys there are. */
    static final int KEYS = 3;
    static final String[] GROUPS = {"g0", "g1", "g2"};
    static final String[] CONSUMERS = {"c0", "c1", "c2", "c3"};

    /** A stream id. */
    record Id(long ms, long seq) implements Comparable<Id> {
        static final Id ZERO = new Id(0, 0);

        @Override
        public int compareTo(Id o) {
            int c = Long.compare(ms, o.ms);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }

        @Override
        public String toString() {
            return ms + "-" + seq;
        }
    }

    /** A consumer group: its last delivered id, its pending entries (id to consumer) and its consumers. */
    static final class Group {
        Id last;
        final TreeMap<Id, String> pending = new TreeMap<>();
        final TreeSet<String> consumers = new TreeSet<>();

        Group(Id last) {
            this.last = last;
        }

        Group copy() {
            Group g = new Group(last);
            g.pending.putAll(pending);
            g.consumers.addAll(consumers);
            return g;
        }
    }

    /** A stream: its live entries, its last generated id and its groups by name. */
    static final class Stream {
        final TreeSet<Id> entries = new TreeSet<>();
        Id last = Id.ZERO;
        final TreeMap<String, Group> groups = new TreeMap<>();

        Stream copy() {
            Stream s = new Stream();
            s.entries.addAll(entries);
            s.last = last;
            groups.forEach((k, g) -> s.groups.put(k, g.copy()));
            return s;
        }

        /** Exact trimming to the newest {@code n} entries. */
        void trimTo(long n) {
            while (entries.size() > n) {
                entries.pollFirst();
            }
        }
    }

    final Map<String, Stream> streams = new TreeMap<>();

    static String key(int i) {
        return "xg:" + i;
    }

    static String randomKey(Random r) {
        return key(r.nextInt(KEYS));
    }

    /** A random key that holds a stream, or null when none does. */
    String existing(Random r) {
        List<String> keys = new ArrayList<>(streams.keySet());
        return keys.isEmpty() ? null : keys.get(r.nextInt(keys.size()));
    }

    /** A random (key, group) pair, or null when no stream has a group; {@code withPending}: only groups with some. */
    String[] group(Random r, boolean withPending) {
        List<String[]> out = new ArrayList<>();
        streams.forEach((k, s) -> s.groups.forEach((g, grp) -> {
            if (!withPending || !grp.pending.isEmpty()) {
                out.add(new String[] {k, g});
            }
        }));
        return out.isEmpty() ? null : out.get(r.nextInt(out.size()));
    }

    Group group(String[] kg) {
        return streams.get(kg[0]).groups.get(kg[1]);
    }

    /** {@code n} distinct random elements of {@code from} (all of them when it has fewer), in order. */
    static <T> List<T> some(Random r, TreeSet<T> from, int n) {
        List<T> all = new ArrayList<>(from);
        List<T> out = new ArrayList<>();
        while (!all.isEmpty() && out.size() < n) {
            out.add(all.remove(r.nextInt(all.size())));
        }
        return out;
    }

    /** XREADGROUP {@code >}: the entries after the group's last id, at most {@code count}, become pending. */
    static List<Id> deliver(Stream s, Group g, String consumer, int count, boolean noack) {
        g.consumers.add(consumer);
        List<Id> out = new ArrayList<>();
        for (Id id : s.entries.tailSet(g.last, false)) {
            if (out.size() >= count) {
                break;
            }
            out.add(id);
            g.last = id;
            if (!noack) {
                g.pending.put(id, consumer);
            }
        }
        return out;
    }

    /** XCLAIM of {@code id} to {@code consumer} with min-idle-time 0 (Redis 7.0's {@code xclaimCommand}). */
    static void claim(Stream s, Group g, Id id, String consumer, boolean force) {
        if (!s.entries.contains(id)) {
            g.pending.remove(id); // a deleted entry leaves the PEL
            return;
        }
        if (g.pending.containsKey(id) || force) {
            g.pending.put(id, consumer);
            g.consumers.add(consumer);
        }
    }

    /** XAUTOCLAIM from {@code start} with min-idle-time 0: {@code count} pending entries, deleted ones dropped. */
    static void autoclaim(Stream s, Group g, Id start, String consumer, int count) {
        g.consumers.add(consumer);
        for (Id id : new ArrayList<>(g.pending.tailMap(start, true).keySet())) {
            if (count-- == 0) {
                break;
            }
            if (s.entries.contains(id)) {
                g.pending.put(id, consumer);
            } else {
                g.pending.remove(id);
            }
        }
    }
}
