package io.kevy.testing.gen;

import static io.kevy.testing.gen.CommandGenerator.argv;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Lists: pushes (also the X variants), pops with counts, LSET, LREM, LTRIM, LINSERT, LMOVE, RPOPLPUSH, LMPOP. */
final class ListGenerator implements CommandGenerator {
    @Override
    public String family() {
        return "lists";
    }

    @Override
    public List<Op> ops() {
        return List.of(
                new Op("lpush", (r, c) -> push(r, c, "LPUSH")),
                new Op("rpush", (r, c) -> push(r, c, "RPUSH")),
                new Op("lpushx", (r, c) -> push(r, c, "LPUSHX")),
                new Op("rpushx", (r, c) -> push(r, c, "RPUSHX")),
                new Op("lpop", (r, c) -> pop(r, c, "LPOP")),
                new Op("rpop", (r, c) -> pop(r, c, "RPOP")),
                new Op("lset", (r, c) -> argv("LSET", c.key(r, "l"), Integer.toString(r.nextInt(8) - 4),
                        elem(r))),
                new Op("lrem", (r, c) -> argv("LREM", c.key(r, "l"), Integer.toString(r.nextInt(5) - 2), elem(r))),
                new Op("ltrim", (r, c) -> argv("LTRIM", c.key(r, "l"), Integer.toString(r.nextInt(6) - 2),
                        Integer.toString(r.nextInt(10) - 3))),
                new Op("linsert", (r, c) -> argv("LINSERT", c.key(r, "l"), r.nextBoolean() ? "BEFORE" : "AFTER",
                        elem(r), elem(r))),
                new Op("lmove", (r, c) -> argv("LMOVE", c.key(r, "l"), c.key(r, "l"), side(r), side(r))),
                new Op("rpoplpush", (r, c) -> argv("RPOPLPUSH", c.key(r, "l"), c.key(r, "l"))),
                new Op("lmpop", ListGenerator::lmpop));
    }

    static String elem(Random r) {
        return "e" + r.nextInt(6);
    }

    private static String side(Random r) {
        return r.nextBoolean() ? "LEFT" : "RIGHT";
    }

    private static byte[][] push(Random r, Ctx c, String verb) {
        List<String> a = new ArrayList<>(List.of(verb, c.key(r, "l")));
        int n = 1 + r.nextInt(4);
        for (int i = 0; i < n; i++) {
            a.add(elem(r));
        }
        return argv(a.toArray(new String[0]));
    }

    private static byte[][] pop(Random r, Ctx c, String verb) {
        String k = c.key(r, "l");
        return r.nextBoolean() ? argv(verb, k) : argv(verb, k, Integer.toString(r.nextInt(4)));
    }

    private static byte[][] lmpop(Random r, Ctx c) {
        int n = 1 + r.nextInt(3);
        List<String> a = new ArrayList<>(List.of("LMPOP", Integer.toString(n)));
        for (int i = 0; i < n; i++) {
            a.add(c.key(r, "l"));
        }
        a.add(side(r));
        if (r.nextBoolean()) {
            a.add("COUNT");
            a.add(Integer.toString(1 + r.nextInt(3)));
        }
        return argv(a.toArray(new String[0]));
    }
}
