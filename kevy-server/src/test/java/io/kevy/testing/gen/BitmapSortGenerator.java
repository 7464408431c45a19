package io.kevy.testing.gen;

import static io.kevy.testing.gen.CommandGenerator.argv;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Bitmaps and sorting: SETBIT, BITFIELD (SET/INCRBY with every OVERFLOW mode), BITOP, SORT ... STORE. */
final class BitmapSortGenerator implements CommandGenerator {
    @Override
    public String family() {
        return "bitmaps-sort";
    }

    @Override
    public List<Op> ops() {
        return List.of(
                new Op("setbit", (r, c) -> argv("SETBIT", c.key(r, "s"), Integer.toString(r.nextInt(80)),
                        Integer.toString(r.nextInt(2)))),
                new Op("bitfield", BitmapSortGenerator::bitfield),
                new Op("bitop", (r, c) -> {
                    String op = new String[] {"AND", "OR", "XOR", "NOT"}[r.nextInt(4)];
                    return op.equals("NOT") ? argv("BITOP", op, c.key(r, "s"), c.key(r, "s"))
                            : argv("BITOP", op, c.key(r, "s"), c.key(r, "s"), c.key(r, "s"));
                }),
                new Op("sort", BitmapSortGenerator::sortStore));
    }

    private static byte[][] bitfield(Random r, Ctx c) {
        List<String> a = new ArrayList<>(List.of("BITFIELD", c.key(r, "s")));
        for (int n = 1 + r.nextInt(3); n > 0; n--) {
            if (r.nextInt(3) == 0) {
                a.add("OVERFLOW");
                a.add(new String[] {"WRAP", "SAT", "FAIL"}[r.nextInt(3)]);
            }
            String type = (r.nextBoolean() ? "i" : "u") + (1 + r.nextInt(12));
            String offset = r.nextBoolean() ? Integer.toString(r.nextInt(40)) : "#" + r.nextInt(4);
            if (r.nextBoolean()) {
                a.addAll(List.of("SET", type, offset, Integer.toString(r.nextInt(600) - 300)));
            } else {
                a.addAll(List.of("INCRBY", type, offset, Integer.toString(r.nextInt(200) - 100)));
            }
        }
        return argv(a.toArray(new String[0]));
    }

    private static byte[][] sortStore(Random r, Ctx c) {
        String src = c.key(r, new String[] {"l", "set", "z"}[r.nextInt(3)]);
        List<String> a = new ArrayList<>(List.of("SORT", src));
        if (r.nextBoolean()) {
            a.add("ALPHA");
        }
        if (r.nextBoolean()) {
            a.add("DESC");
        }
        if (r.nextInt(3) == 0) {
            a.addAll(List.of("LIMIT", Integer.toString(r.nextInt(3)), Integer.toString(r.nextInt(5))));
        }
        a.addAll(List.of("STORE", c.key(r, "l")));
        return argv(a.toArray(new String[0]));
    }
}
