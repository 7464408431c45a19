package io.kevy.testing.gen;

import static io.kevy.testing.gen.CommandGenerator.argv;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * HyperLogLogs: PFADD (small adds, and batches big enough to turn a key dense), PFCOUNT of one key (which caches
 * the cardinality in the value) and of several, PFMERGE, PFDEBUG TODENSE.
 */
final class HyperLogLogGenerator implements CommandGenerator {
    @Override
    public String family() {
        return "hyperloglog";
    }

    @Override
    public List<Op> ops() {
        return List.of(
                new Op("pfadd", (r, c) -> pfadd(r, c, 1 + r.nextInt(5))),
                new Op("pfadd", (r, c) -> pfadd(r, c, 100 + r.nextInt(400))),
                new Op("pfcount", (r, c) -> argv("PFCOUNT", c.key(r, "hll"))),
                new Op("pfcount", (r, c) -> argv("PFCOUNT", c.key(r, "hll"), c.key(r, "hll"))),
                new Op("pfmerge", (r, c) -> r.nextInt(4) == 0 ? argv("PFMERGE", c.key(r, "hll"))
                        : argv("PFMERGE", c.key(r, "hll"), c.key(r, "hll"), c.key(r, "hll"))),
                new Op("pfdebug", (r, c) -> argv("PFDEBUG", "TODENSE", c.key(r, "hll"))));
    }

    private static byte[][] pfadd(Random r, Ctx c, int n) {
        List<String> a = new ArrayList<>(List.of("PFADD", c.key(r, "hll")));
        for (int i = 0; i < n; i++) {
            a.add("e" + r.nextInt(20_000));
        }
        return argv(a.toArray(new String[0]));
    }
}
