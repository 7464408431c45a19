package io.kevy.testing.gen;

import static io.kevy.testing.gen.CommandGenerator.argv;
import static io.kevy.testing.gen.Generators.value;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Hashes: HSET/HMSET/HSETNX, HDEL, HINCRBY, HINCRBYFLOAT. */
final class HashGenerator implements CommandGenerator {
    @Override
    public String family() {
        return "hashes";
    }

    @Override
    public List<Op> ops() {
        return List.of(
                new Op("hset", (r, c) -> fields(r, c, "HSET", true)),
                new Op("hmset", (r, c) -> fields(r, c, "HMSET", true)),
                new Op("hsetnx", (r, c) -> argv("HSETNX", c.key(r, "h"), field(r), value(r))),
                new Op("hdel", (r, c) -> fields(r, c, "HDEL", false)),
                new Op("hincrby", (r, c) -> argv("HINCRBY", c.key(r, "h"), field(r),
                        Integer.toString(r.nextInt(200) - 100))),
                new Op("hincrbyfloat", (r, c) -> argv("HINCRBYFLOAT", c.key(r, "h"), field(r),
                        Double.toString((r.nextInt(2000) - 1000) / 32.0))));
    }

    private static String field(Random r) {
        return "f" + r.nextInt(8);
    }

    private static byte[][] fields(Random r, Ctx c, String verb, boolean withValues) {
        int n = 1 + r.nextInt(3);
        List<String> a = new ArrayList<>();
        a.add(verb);
        a.add(c.key(r, "h"));
        for (int i = 0; i < n; i++) {
            a.add(field(r));
            if (withValues) {
                a.add(value(r));
            }
        }
        return argv(a.toArray(new String[0]));
    }
}
