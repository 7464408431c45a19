package io.kevy.testing.gen;

import static io.kevy.testing.gen.CommandGenerator.argv;
import static io.kevy.testing.gen.Generators.ttlSeconds;
import static io.kevy.testing.gen.Generators.value;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Strings: SET with every option, SETNX/SETEX/PSETEX, MSET/MSETNX, GETSET/GETDEL/GETEX, APPEND, SETRANGE, counters. */
final class StringGenerator implements CommandGenerator {
    @Override
    public String family() {
        return "strings";
    }

    @Override
    public List<Op> ops() {
        return List.of(
                new Op("set", (r, c) -> argv("SET", c.key(r, "s"), value(r))),
                new Op("set", StringGenerator::setWithOptions),
                new Op("setnx", (r, c) -> argv("SETNX", c.key(r, "s"), value(r))),
                new Op("setex", (r, c) -> argv("SETEX", c.key(r, "s"), Long.toString(ttlSeconds(r)), value(r))),
                new Op("psetex", (r, c) -> argv("PSETEX", c.key(r, "s"), Long.toString(ttlSeconds(r) * 1000),
                        value(r))),
                new Op("mset", (r, c) -> pairs(r, c, "MSET")),
                new Op("msetnx", (r, c) -> pairs(r, c, "MSETNX")),
                new Op("getset", (r, c) -> argv("GETSET", c.key(r, "s"), value(r))),
                new Op("getdel", (r, c) -> argv("GETDEL", c.key(r, "s"))),
                new Op("getex", StringGenerator::getex),
                new Op("append", (r, c) -> argv("APPEND", c.key(r, "s"), value(r))),
                new Op("setrange", (r, c) -> argv("SETRANGE", c.key(r, "s"), Integer.toString(r.nextInt(12)),
                        value(r))),
                new Op("incr", (r, c) -> argv("INCR", c.key(r, "s"))),
                new Op("decr", (r, c) -> argv("DECR", c.key(r, "s"))),
                new Op("incrby", (r, c) -> argv("INCRBY", c.key(r, "s"), Integer.toString(r.nextInt(200) - 100))),
                new Op("decrby", (r, c) -> argv("DECRBY", c.key(r, "s"), Integer.toString(r.nextInt(200) - 100))),
                new Op("incrbyfloat", (r, c) -> argv("INCRBYFLOAT", c.key(r, "s"),
                        Double.toString((r.nextInt(2000) - 1000) / 16.0))));
    }

    private static byte[][] setWithOptions(Random r, Ctx c) {
        List<String> a = new ArrayList<>(List.of("SET", c.key(r, "s"), value(r)));
        switch (r.nextInt(6)) {
            case 0 -> a.addAll(List.of("EX", Long.toString(ttlSeconds(r))));
            case 1 -> a.addAll(List.of("PX", Long.toString(ttlSeconds(r) * 1000)));
            case 2 -> a.addAll(List.of("EXAT", Long.toString(c.nowMs() / 1000 + ttlSeconds(r))));
            case 3 -> a.addAll(List.of("PXAT", Long.toString(c.nowMs() + ttlSeconds(r) * 1000)));
            case 4 -> a.add("KEEPTTL");
            default -> {
            }
        }
        switch (r.nextInt(4)) {
            case 0 -> a.add("NX");
            case 1 -> a.add("XX");
            default -> {
            }
        }
        if (r.nextInt(4) == 0) {
            a.add("GET");
        }
        return argv(a.toArray(new String[0]));
    }

    private static byte[][] getex(Random r, Ctx c) {
        String k = c.key(r, "s");
        return switch (r.nextInt(4)) {
            case 0 -> argv("GETEX", k, "EX", Long.toString(ttlSeconds(r)));
            case 1 -> argv("GETEX", k, "PXAT", Long.toString(c.nowMs() + ttlSeconds(r) * 1000));
            case 2 -> argv("GETEX", k, "PERSIST");
            default -> argv("GETEX", k);
        };
    }

    private static byte[][] pairs(Random r, Ctx c, String verb) {
        int n = 1 + r.nextInt(4);
        List<String> a = new ArrayList<>();
        a.add(verb);
        for (int i = 0; i < n; i++) {
            a.add(c.key(r, "s"));
            a.add(value(r));
        }
        return argv(a.toArray(new String[0]));
    }
}
