package io.kevy.testing.gen;

import static io.kevy.testing.gen.CommandGenerator.argv;
import static io.kevy.testing.gen.Generators.ttlSeconds;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Generic key commands: DEL/UNLINK, the EXPIRE family (also times in the past), PERSIST, RENAME(NX), COPY. */
final class KeyGenerator implements CommandGenerator {
    private static final String[] EXPIRE_FLAGS = {"NX", "XX", "GT", "LT"};

    @Override
    public String family() {
        return "keys";
    }

    @Override
    public List<Op> ops() {
        return List.of(
                new Op("del", (r, c) -> keys(r, c, "DEL")),
                new Op("unlink", (r, c) -> keys(r, c, "UNLINK")),
                new Op("expire", (r, c) -> expire(r, c, "EXPIRE", Long.toString(ttlSeconds(r)))),
                new Op("pexpire", (r, c) -> expire(r, c, "PEXPIRE", Long.toString(ttlSeconds(r) * 1000))),
                new Op("expireat", (r, c) -> expire(r, c, "EXPIREAT", Long.toString(c.nowMs() / 1000
                        + (r.nextInt(8) == 0 ? -10 : ttlSeconds(r))))),
                new Op("pexpireat", (r, c) -> expire(r, c, "PEXPIREAT", Long.toString(c.nowMs()
                        + (r.nextInt(8) == 0 ? -10_000 : ttlSeconds(r) * 1000)))),
                new Op("expire", (r, c) -> argv("EXPIRE", c.key(r, "any"), "-1")),
                new Op("persist", (r, c) -> argv("PERSIST", c.key(r, "any"))),
                new Op("rename", (r, c) -> argv("RENAME", c.key(r, "any"), c.key(r, "any"))),
                new Op("renamenx", (r, c) -> argv("RENAMENX", c.key(r, "any"), c.key(r, "any"))),
                new Op("copy", (r, c) -> r.nextBoolean()
                        ? argv("COPY", c.key(r, "any"), c.key(r, "any"))
                        : argv("COPY", c.key(r, "any"), c.key(r, "any"), "REPLACE")));
    }

    private static byte[][] keys(Random r, Ctx c, String verb) {
        int n = 1 + r.nextInt(4);
        List<String> a = new ArrayList<>();
        a.add(verb);
        for (int i = 0; i < n; i++) {
            a.add(c.key(r, "any"));
        }
        return argv(a.toArray(new String[0]));
    }

    private static byte[][] expire(Random r, Ctx c, String verb, String time) {
        String k = c.key(r, "any");
        if (r.nextInt(3) == 0) {
            return argv(verb, k, time, EXPIRE_FLAGS[r.nextInt(EXPIRE_FLAGS.length)]);
        }
        return argv(verb, k, time);
    }
}
