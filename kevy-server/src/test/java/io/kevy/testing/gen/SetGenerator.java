package io.kevy.testing.gen;

import static io.kevy.testing.gen.CommandGenerator.argv;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Sets: SADD, SREM, SPOP (with counts), SMOVE, and the *STORE commands. */
final class SetGenerator implements CommandGenerator {
    @Override
    public String family() {
        return "sets";
    }

    @Override
    public List<Op> ops() {
        return List.of(
                new Op("sadd", (r, c) -> members(r, c, "SADD")),
                new Op("sadd", (r, c) -> members(r, c, "SADD")),
                new Op("srem", (r, c) -> members(r, c, "SREM")),
                new Op("spop", (r, c) -> r.nextBoolean() ? argv("SPOP", c.key(r, "set"))
                        : argv("SPOP", c.key(r, "set"), Integer.toString(r.nextInt(4)))),
                new Op("smove", (r, c) -> argv("SMOVE", c.key(r, "set"), c.key(r, "set"), member(r))),
                new Op("sinterstore", (r, c) -> store(r, c, "SINTERSTORE")),
                new Op("sunionstore", (r, c) -> store(r, c, "SUNIONSTORE")),
                new Op("sdiffstore", (r, c) -> store(r, c, "SDIFFSTORE")));
    }

    private static String member(Random r) {
        // small integers (intset encoding) and words (hashtable encoding)
        return r.nextBoolean() ? Integer.toString(r.nextInt(6)) : "m" + r.nextInt(6);
    }

    private static byte[][] members(Random r, Ctx c, String verb) {
        List<String> a = new ArrayList<>(List.of(verb, c.key(r, "set")));
        int n = 1 + r.nextInt(4);
        for (int i = 0; i < n; i++) {
            a.add(member(r));
        }
        return argv(a.toArray(new String[0]));
    }

    private static byte[][] store(Random r, Ctx c, String verb) {
        List<String> a = new ArrayList<>(List.of(verb, c.key(r, "set")));
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            a.add(c.key(r, "set"));
        }
        return argv(a.toArray(new String[0]));
    }
}
