package io.kevy.testing.gen;

import static io.kevy.testing.gen.CommandGenerator.argv;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Sorted sets: ZADD with flags, ZINCRBY, ZREM, pops, ZREMRANGEBY*, ZRANGESTORE and the *STORE commands. */
final class ZSetGenerator implements CommandGenerator {
    private static final String[][] ZADD_FLAGS = {{}, {"NX"}, {"XX"}, {"GT"}, {"LT"}, {"CH"}, {"XX", "CH"},
        {"GT", "CH"}};

    @Override
    public String family() {
        return "zsets";
    }

    @Override
    public List<Op> ops() {
        return List.of(
                new Op("zadd", ZSetGenerator::zadd),
                new Op("zadd", ZSetGenerator::zadd),
                new Op("zadd", (r, c) -> argv("ZADD", c.key(r, "z"), "INCR", score(r), member(r))),
                new Op("zincrby", (r, c) -> argv("ZINCRBY", c.key(r, "z"), score(r), member(r))),
                new Op("zrem", (r, c) -> argv("ZREM", c.key(r, "z"), member(r), member(r))),
                new Op("zpopmin", (r, c) -> pop(r, c, "ZPOPMIN")),
                new Op("zpopmax", (r, c) -> pop(r, c, "ZPOPMAX")),
                new Op("zmpop", (r, c) -> argv("ZMPOP", "2", c.key(r, "z"), c.key(r, "z"),
                        r.nextBoolean() ? "MIN" : "MAX", "COUNT", Integer.toString(1 + r.nextInt(3)))),
                new Op("zremrangebyrank", (r, c) -> argv("ZREMRANGEBYRANK", c.key(r, "z"),
                        Integer.toString(r.nextInt(3)), Integer.toString(r.nextInt(4) - 1))),
                new Op("zremrangebyscore", (r, c) -> argv("ZREMRANGEBYSCORE", c.key(r, "z"), "(" + r.nextInt(5),
                        Integer.toString(r.nextInt(10)))),
                new Op("zremrangebylex", (r, c) -> argv("ZREMRANGEBYLEX", c.key(r, "z"), "[m1", "(m4")),
                new Op("zrangestore", (r, c) -> argv("ZRANGESTORE", c.key(r, "z"), c.key(r, "z"), "0",
                        Integer.toString(r.nextInt(5) - 1))),
                new Op("zunionstore", (r, c) -> store(r, c, "ZUNIONSTORE")),
                new Op("zinterstore", (r, c) -> store(r, c, "ZINTERSTORE")),
                new Op("zdiffstore", (r, c) -> argv("ZDIFFSTORE", c.key(r, "z"), "2", c.key(r, "z"),
                        c.key(r, "z"))));
    }

    private static String member(Random r) {
        return "m" + r.nextInt(6);
    }

    private static String score(Random r) {
        return switch (r.nextInt(8)) {
            case 0 -> "inf";
            case 1 -> "-inf";
            case 2 -> Double.toString((r.nextInt(200) - 100) / 8.0);
            case 3 -> "1e-3";
            default -> Integer.toString(r.nextInt(10));
        };
    }

    private static byte[][] zadd(Random r, Ctx c) {
        List<String> a = new ArrayList<>(List.of("ZADD", c.key(r, "z")));
        a.addAll(List.of(ZADD_FLAGS[r.nextInt(ZADD_FLAGS.length)]));
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            a.add(score(r));
            a.add(member(r));
        }
        return argv(a.toArray(new String[0]));
    }

    private static byte[][] pop(Random r, Ctx c, String verb) {
        String k = c.key(r, "z");
        return r.nextBoolean() ? argv(verb, k) : argv(verb, k, Integer.toString(r.nextInt(4)));
    }

    private static byte[][] store(Random r, Ctx c, String verb) {
        List<String> a = new ArrayList<>(List.of(verb, c.key(r, "z"), "2", c.key(r, "z"), c.key(r, "z")));
        if (r.nextBoolean()) {
            a.addAll(List.of("WEIGHTS", Integer.toString(r.nextInt(3)), "1"));
        }
        if (r.nextBoolean()) {
            a.addAll(List.of("AGGREGATE", r.nextBoolean() ? "MIN" : "MAX"));
        }
        return argv(a.toArray(new String[0]));
    }
}
