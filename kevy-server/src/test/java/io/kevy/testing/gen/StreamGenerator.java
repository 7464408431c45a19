package io.kevy.testing.gen;

import static io.kevy.testing.gen.CommandGenerator.argv;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

/**
 * Streams: XADD (explicit {@code ms-*} ids on the {@code x} keys so that XDEL, XTRIM MINID and XCLAIM hit entries;
 * {@code *} on the {@code xs} keys; every trimming form), XDEL, XTRIM, XSETID, and consumer groups: XGROUP CREATE |
 * SETID | DESTROY | CREATECONSUMER | DELCONSUMER, XREADGROUP (new, NOACK, history), XACK, XCLAIM, XAUTOCLAIM. On
 * the {@code x} and {@code xs} keys, which every family may touch, many fail (an id below the top, a missing group):
 * failed commands must emit nothing.
 *
 * <p>The modelled operations work on the {@code xg} keys, which no other family touches, from a
 * {@link StreamModel} of them: groups that exist, consumers, pending ids, entries deleted while pending, so
 * that XREADGROUP, XCLAIM (every option), XAUTOCLAIM, XACK and XGROUP mostly succeed and change something, also
 * after DEL, RENAME and COPY of a stream with groups (across shards when the keys' shards differ). They are
 * weighted so that each of XREADGROUP, XCLAIM and XAUTOCLAIM runs some hundreds of times in 3 x 3000 commands.
 */
final class StreamGenerator implements CommandGenerator {
    private static final int MS = 600;

    @Override
    public String family() {
        return "stream";
    }

    private static String id(Random r) {
        return (1 + r.nextInt(MS)) + "-" + r.nextInt(3);
    }

    private static String group(Random r) {
        return "g" + r.nextInt(2);
    }

    private static String consumer(Random r) {
        return "c" + r.nextInt(3);
    }

    @Override
    public List<Op> ops() {
        return List.of(
                new Op("xadd", (r, c) -> argv("XADD", c.key(r, "x"), (1 + r.nextInt(MS)) + "-*", "f",
                        Generators.value(r))),
                new Op("xadd", (r, c) -> argv("XADD", c.key(r, "x"), id(r), "a", "1", "b", Generators.value(r))),
                new Op("xadd", (r, c) -> argv("XADD", c.key(r, "xs"), "MAXLEN", r.nextBoolean() ? "~" : "=",
                        Integer.toString(r.nextInt(8)), "*", "f", Generators.value(r))),
                new Op("xadd", (r, c) -> argv("XADD", c.key(r, "xs"), "*", "f", "v")),
                new Op("xadd", (r, c) -> argv("XADD", c.key(r, "x"), "NOMKSTREAM", "MINID", "~",
                        Integer.toString(r.nextInt(MS)), "LIMIT", "5", (1 + r.nextInt(MS)) + "-*", "f", "v")),
                new Op("xadd", (r, c) -> argv("XADD", c.key(r, "x"), "MAXLEN", Integer.toString(r.nextInt(10)),
                        (1 + r.nextInt(MS)) + "-*", "f", "v")),
                new Op("xdel", (r, c) -> argv("XDEL", c.key(r, "x"), id(r), id(r), id(r))),
                new Op("xtrim", (r, c) -> argv("XTRIM", c.key(r, "x"), "MINID", Integer.toString(r.nextInt(MS / 3)))),
                new Op("xtrim", (r, c) -> argv("XTRIM", c.key(r, r.nextBoolean() ? "x" : "xs"), "MAXLEN",
                        r.nextBoolean() ? "~" : "=", Integer.toString(r.nextInt(12)))),
                new Op("xsetid", (r, c) -> argv("XSETID", c.key(r, "x"), (MS + r.nextInt(MS)) + "-0",
                        "ENTRIESADDED", Integer.toString(1000 + r.nextInt(100)), "MAXDELETEDID", id(r))),
                new Op("xgroup", (r, c) -> argv("XGROUP", "CREATE", c.key(r, "x"), group(r),
                        r.nextBoolean() ? "$" : "0", "MKSTREAM")),
                new Op("xgroup", (r, c) -> argv("XGROUP", "CREATE", c.key(r, "xs"), group(r), "0")),
                new Op("xgroup", (r, c) -> argv("XGROUP", "SETID", c.key(r, "x"), group(r),
                        r.nextBoolean() ? "$" : id(r))),
                new Op("xgroup", (r, c) -> argv("XGROUP", "DESTROY", c.key(r, "x"), group(r))),
                new Op("xgroup", (r, c) -> argv("XGROUP", "CREATECONSUMER", c.key(r, "x"), group(r), consumer(r))),
                new Op("xgroup", (r, c) -> argv("XGROUP", "DELCONSUMER", c.key(r, "x"), group(r), consumer(r))),
                new Op("xreadgroup", (r, c) -> argv("XREADGROUP", "GROUP", group(r), consumer(r), "COUNT",
                        Integer.toString(1 + r.nextInt(4)), "STREAMS", c.key(r, "x"), ">")),
                new Op("xreadgroup", (r, c) -> argv("XREADGROUP", "GROUP", group(r), consumer(r), "NOACK", "COUNT",
                        "2", "STREAMS", c.key(r, r.nextBoolean() ? "x" : "xs"), ">")),
                new Op("xreadgroup", (r, c) -> argv("XREADGROUP", "GROUP", group(r), consumer(r), "STREAMS",
                        c.key(r, "x"), "0")),
                new Op("xack", (r, c) -> argv("XACK", c.key(r, "x"), group(r), id(r), id(r))),
                new Op("xclaim", (r, c) -> argv("XCLAIM", c.key(r, "x"), group(r), consumer(r), "0", id(r), id(r),
                        "JUSTID")),
                new Op("xclaim", (r, c) -> argv("XCLAIM", c.key(r, "x"), group(r), consumer(r), "0", id(r), "FORCE",
                        "TIME", Long.toString(c.nowMs() - 1000), "RETRYCOUNT", "3", "LASTID", id(r))),
                new Op("xautoclaim", (r, c) -> argv("XAUTOCLAIM", c.key(r, "x"), group(r), consumer(r), "0", "0",
                        "COUNT", Integer.toString(1 + r.nextInt(3)))),
                Op.modelled("xadd", (r, c) -> add(r, model(c))),
                Op.modelled("xadd", (r, c) -> add(r, model(c))),
                Op.modelled("xreadgroup", (r, c) -> readNew(r, model(c))),
                Op.modelled("xreadgroup", (r, c) -> readNew(r, model(c))),
                Op.modelled("xreadgroup", (r, c) -> readNew(r, model(c))),
                Op.modelled("xreadgroup", (r, c) -> readHistory(r, model(c))),
                Op.modelled("xclaim", (r, c) -> claim(r, c.nowMs(), model(c))),
                Op.modelled("xclaim", (r, c) -> claim(r, c.nowMs(), model(c))),
                Op.modelled("xclaim", (r, c) -> claim(r, c.nowMs(), model(c))),
                Op.modelled("xautoclaim", (r, c) -> autoclaim(r, model(c))),
                Op.modelled("xautoclaim", (r, c) -> autoclaim(r, model(c))),
                Op.modelled("xautoclaim", (r, c) -> autoclaim(r, model(c))),
                Op.modelled("xack", (r, c) -> ack(r, model(c))),
                Op.modelled("xdel", (r, c) -> delete(r, model(c))),
                Op.modelled("xgroup", (r, c) -> xgroup(r, model(c))),
                Op.modelled("xgroup", (r, c) -> xgroup(r, model(c))),
                Op.modelled("rename", (r, c) -> keyOp(r, model(c))));
    }

    private static StreamModel model(Ctx c) {
        return c.state(StreamModel.class, StreamModel::new);
    }

    // ---- modelled operations on the xg keys: each returns a command that succeeds if the model is right ----

    private static String consumerOf(Random r) {
        return StreamModel.CONSUMERS[r.nextInt(StreamModel.CONSUMERS.length)];
    }

    /** XADD of an id above the last one ({@code ms-*} or explicit), sometimes with an exact MAXLEN trim. */
    private static byte[][] add(Random r, StreamModel m) {
        String key = StreamModel.randomKey(r);
        StreamModel.Stream s = m.streams.computeIfAbsent(key, k -> new StreamModel.Stream());
        long ms = s.last.ms() + (s.last.ms() == 0 ? 1 : r.nextInt(3));
        StreamModel.Id id;
        String arg;
        if (ms == s.last.ms()) {
            id = new StreamModel.Id(ms, s.last.seq() + 1);
            arg = ms + "-*";
        } else if (r.nextBoolean()) {
            id = new StreamModel.Id(ms, 0);
            arg = ms + "-*";
        } else {
            id = new StreamModel.Id(ms, r.nextInt(3));
            arg = id.toString();
        }
        s.entries.add(id);
        s.last = id;
        if (r.nextInt(8) == 0) {
            long n = 10 + r.nextInt(30);
            s.trimTo(n);
            return argv("XADD", key, "MAXLEN", Long.toString(n), arg, "f", Generators.value(r));
        }
        return argv("XADD", key, arg, "f", Generators.value(r));
    }

    /** XGROUP CREATE of a group the stream lacks (MKSTREAM when there is no stream), or an XADD. */
    private static byte[][] create(Random r, StreamModel m) {
        String key = StreamModel.randomKey(r);
        StreamModel.Stream s = m.streams.get(key);
        List<String> missing = new ArrayList<>();
        for (String g : StreamModel.GROUPS) {
            if (s == null || !s.groups.containsKey(g)) {
                missing.add(g);
            }
        }
        if (missing.isEmpty()) {
            return add(r, m);
        }
        String g = missing.get(r.nextInt(missing.size()));
        if (s == null) {
            s = new StreamModel.Stream();
            m.streams.put(key, s);
            s.groups.put(g, new StreamModel.Group(StreamModel.Id.ZERO));
            return argv("XGROUP", "CREATE", key, g, "$", "MKSTREAM");
        }
        String at;
        StreamModel.Id last;
        switch (r.nextInt(3)) {
            case 0 -> {
                at = "$";
                last = s.last;
            }
            case 1 -> {
                last = s.entries.isEmpty() ? StreamModel.Id.ZERO : StreamModel.some(r, s.entries, 1).get(0);
                at = last.toString();
            }
            default -> {
                at = "0";
                last = StreamModel.Id.ZERO;
            }
        }
        s.groups.put(g, new StreamModel.Group(last));
        return argv("XGROUP", "CREATE", key, g, at);
    }

    /** XREADGROUP {@code >} (sometimes NOACK) on a group that has entries to deliver; else makes some. */
    private static byte[][] readNew(Random r, StreamModel m) {
        List<String[]> ready = new ArrayList<>();
        m.streams.forEach((k, s) -> s.groups.forEach((g, grp) -> {
            if (s.entries.higher(grp.last) != null) {
                ready.add(new String[] {k, g});
            }
        }));
        if (ready.isEmpty()) {
            return m.group(r, false) == null || r.nextInt(3) == 0 ? create(r, m) : add(r, m);
        }
        String[] kg = ready.get(r.nextInt(ready.size()));
        String consumer = consumerOf(r);
        boolean noack = r.nextInt(6) == 0;
        int count = 1 + r.nextInt(4);
        StreamModel.deliver(m.streams.get(kg[0]), m.group(kg), consumer, count, noack);
        return noack
                ? argv("XREADGROUP", "GROUP", kg[1], consumer, "NOACK", "COUNT", Integer.toString(count), "STREAMS",
                        kg[0], ">")
                : argv("XREADGROUP", "GROUP", kg[1], consumer, "COUNT", Integer.toString(count), "STREAMS", kg[0],
                        ">");
    }

    /** XREADGROUP of a consumer's own pending entries (the history, deleted ones as nil), or a new read. */
    private static byte[][] readHistory(Random r, StreamModel m) {
        String[] kg = m.group(r, true);
        if (kg == null) {
            return readNew(r, m);
        }
        StreamModel.Group g = m.group(kg);
        String consumer = g.pending.values().stream().skip(r.nextInt(g.pending.size())).findFirst().orElseThrow();
        return argv("XREADGROUP", "GROUP", kg[1], consumer, "COUNT", Integer.toString(1 + r.nextInt(5)), "STREAMS",
                kg[0], r.nextBoolean() ? "0" : g.pending.firstKey().toString());
    }

    /**
     * XCLAIM of 1 to 3 pending ids (deleted ones among them leave the PEL), sometimes also a live entry that is not
     * pending with FORCE, with the options JUSTID, IDLE, TIME, RETRYCOUNT and LASTID; else a new read.
     */
    private static byte[][] claim(Random r, long now, StreamModel m) {
        String[] kg = m.group(r, true);
        if (kg == null) {
            return readNew(r, m);
        }
        StreamModel.Stream s = m.streams.get(kg[0]);
        StreamModel.Group g = m.group(kg);
        String consumer = consumerOf(r);
        List<StreamModel.Id> ids = StreamModel.some(r, new TreeSet<>(g.pending.keySet()), 1 + r.nextInt(3));
        boolean force = r.nextInt(3) == 0;
        if (force && !s.entries.isEmpty()) {
            StreamModel.Id extra = StreamModel.some(r, s.entries, 1).get(0);
            if (!ids.contains(extra)) {
                ids.add(extra);
            }
        }
        List<String> a = new ArrayList<>(List.of("XCLAIM", kg[0], kg[1], consumer, "0"));
        for (StreamModel.Id id : ids) {
            a.add(id.toString());
            StreamModel.claim(s, g, id, consumer, force);
        }
        switch (r.nextInt(4)) {
            case 0 -> a.addAll(List.of("IDLE", Integer.toString(r.nextInt(5000))));
            case 1 -> a.addAll(List.of("TIME", Long.toString(now - r.nextInt(5000))));
            default -> {
            }
        }
        if (r.nextInt(3) == 0) {
            a.addAll(List.of("RETRYCOUNT", Integer.toString(r.nextInt(10))));
        }
        if (force) {
            a.add("FORCE");
        }
        if (r.nextBoolean()) {
            a.add("JUSTID");
        }
        if (r.nextInt(5) == 0) {
            StreamModel.Id last = new StreamModel.Id(s.last.ms() + r.nextInt(2), r.nextInt(3));
            a.addAll(List.of("LASTID", last.toString()));
            if (last.compareTo(g.last) > 0) {
                g.last = last;
            }
        }
        return argv(a.toArray(new String[0]));
    }

    /** XAUTOCLAIM from 0 or from a pending id, COUNT 1 to 4, sometimes JUSTID; else a new read. */
    private static byte[][] autoclaim(Random r, StreamModel m) {
        String[] kg = m.group(r, true);
        if (kg == null) {
            return readNew(r, m);
        }
        StreamModel.Group g = m.group(kg);
        StreamModel.Id start = r.nextBoolean() ? StreamModel.Id.ZERO
                : StreamModel.some(r, new TreeSet<>(g.pending.keySet()), 1).get(0);
        String consumer = consumerOf(r);
        int count = 1 + r.nextInt(4);
        StreamModel.autoclaim(m.streams.get(kg[0]), g, start, consumer, count);
        return r.nextInt(3) == 0
                ? argv("XAUTOCLAIM", kg[0], kg[1], consumer, "0", start.toString(), "COUNT", Integer.toString(count),
                        "JUSTID")
                : argv("XAUTOCLAIM", kg[0], kg[1], consumer, "0", start.toString(), "COUNT",
                        Integer.toString(count));
    }

    /** XACK of 1 or 2 pending ids (and sometimes one that is not); else a new read. */
    private static byte[][] ack(Random r, StreamModel m) {
        String[] kg = m.group(r, true);
        if (kg == null) {
            return readNew(r, m);
        }
        StreamModel.Group g = m.group(kg);
        List<String> a = new ArrayList<>(List.of("XACK", kg[0], kg[1]));
        for (StreamModel.Id id : StreamModel.some(r, new TreeSet<>(g.pending.keySet()), 1 + r.nextInt(2))) {
            a.add(id.toString());
            g.pending.remove(id);
        }
        if (r.nextInt(4) == 0) {
            a.add("1-99");
        }
        return argv(a.toArray(new String[0]));
    }

    /** XDEL of 1 or 2 entries, often pending ones (which stay pending); or an exact XTRIM MINID / MAXLEN. */
    private static byte[][] delete(Random r, StreamModel m) {
        String key = m.existing(r);
        StreamModel.Stream s = key == null ? null : m.streams.get(key);
        if (s == null || s.entries.isEmpty()) {
            return add(r, m);
        }
        if (r.nextInt(5) == 0) {
            if (r.nextBoolean()) {
                StreamModel.Id min = StreamModel.some(r, s.entries, 1).get(0);
                s.entries.headSet(min, false).clear();
                return argv("XTRIM", key, "MINID", "=", min.toString());
            }
            int n = Math.max(0, s.entries.size() - 1 - r.nextInt(3));
            s.trimTo(n);
            return argv("XTRIM", key, "MAXLEN", Integer.toString(n));
        }
        TreeSet<StreamModel.Id> pool = s.entries;
        String[] kg = m.group(r, true);
        if (kg != null && kg[0].equals(key) && r.nextBoolean()) {
            TreeSet<StreamModel.Id> live = new TreeSet<>(m.group(kg).pending.keySet());
            live.retainAll(s.entries);
            if (!live.isEmpty()) {
                pool = live;
            }
        }
        List<String> a = new ArrayList<>(List.of("XDEL", key));
        for (StreamModel.Id id : StreamModel.some(r, pool, 1 + r.nextInt(2))) {
            a.add(id.toString());
            s.entries.remove(id);
        }
        return argv(a.toArray(new String[0]));
    }

    /** XGROUP CREATE | SETID | CREATECONSUMER | DELCONSUMER | DESTROY on a stream and group that exist. */
    private static byte[][] xgroup(Random r, StreamModel m) {
        String[] kg = m.group(r, false);
        int what = r.nextInt(10);
        if (kg == null || what < 3) {
            return create(r, m);
        }
        StreamModel.Stream s = m.streams.get(kg[0]);
        StreamModel.Group g = m.group(kg);
        String consumer = consumerOf(r);
        if (what < 6) {
            String at;
            if (r.nextBoolean()) {
                g.last = s.last;
                at = "$";
            } else {
                g.last = s.entries.isEmpty() ? StreamModel.Id.ZERO : StreamModel.some(r, s.entries, 1).get(0);
                at = g.last.toString();
            }
            return argv("XGROUP", "SETID", kg[0], kg[1], at);
        }
        if (what < 8) {
            g.consumers.add(consumer);
            return argv("XGROUP", "CREATECONSUMER", kg[0], kg[1], consumer);
        }
        if (what < 9) {
            g.consumers.remove(consumer);
            g.pending.values().removeIf(consumer::equals);
            return argv("XGROUP", "DELCONSUMER", kg[0], kg[1], consumer);
        }
        s.groups.remove(kg[1]);
        return argv("XGROUP", "DESTROY", kg[0], kg[1]);
    }

    /** RENAME or COPY (REPLACE) of a stream to another xg key, sometimes DEL: groups and PELs go along. */
    private static byte[][] keyOp(Random r, StreamModel m) {
        String src = m.existing(r);
        if (src == null) {
            return add(r, m);
        }
        if (r.nextInt(6) == 0) {
            m.streams.remove(src);
            return argv("DEL", src);
        }
        String dst = StreamModel.key((src.charAt(src.length() - 1) - '0' + 1 + r.nextInt(StreamModel.KEYS - 1))
                % StreamModel.KEYS);
        if (r.nextBoolean()) {
            m.streams.put(dst, m.streams.remove(src));
            return argv("RENAME", src, dst);
        }
        m.streams.put(dst, m.streams.get(src).copy());
        return argv("COPY", src, dst, "REPLACE");
    }
}
