package io.kevy.testing.gen;

import static io.kevy.testing.gen.CommandGenerator.argv;

import java.util.Random;

/**
 * Streams: XADD (explicit {@code ms-*} ids on the {@code x} keys so that XDEL, XTRIM MINID and XCLAIM hit entries;
 * {@code *} on the {@code xs} keys; every trimming form), XDEL, XTRIM, XSETID, and consumer groups: XGROUP CREATE |
 * SETID | DESTROY | CREATECONSUMER | DELCONSUMER, XREADGROUP (new, NOACK, history), XACK, XCLAIM, XAUTOCLAIM. Many
 * fail (an id below the top, a missing group): failed commands must emit nothing.
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
    public java.util.List<Op> ops() {
        return java.util.List.of(
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
                        "COUNT", Integer.toString(1 + r.nextInt(3)))));
    }
}
