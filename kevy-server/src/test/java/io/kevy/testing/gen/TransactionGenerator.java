package io.kevy.testing.gen;

import static io.kevy.testing.gen.CommandGenerator.argv;

import io.kevy.engine.command.CommandTable;
import io.kevy.testing.CommandTables;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Transactions: MULTI, 1 to 6 random writes of the data families (blocking pops among them, which answer at
 * once inside MULTI), then EXEC, sometimes DISCARD; sometimes with a queue-time error (EXECABORT: nothing may be
 * emitted), and sometimes after WATCH of a key that the same client then writes or not (a dirty EXEC emits
 * nothing either).
 */
final class TransactionGenerator implements CommandGenerator {
    private final List<Op> inner = new ArrayList<>();
    /** The inner operations that need no model: all a transaction that will not apply may queue. */
    private final List<Op> unmodelled = new ArrayList<>();

    /** @param families the generators whose operations the transactions queue */
    TransactionGenerator(List<CommandGenerator> families) {
        CommandTable table = CommandTables.full();
        for (CommandGenerator g : families) {
            for (Op op : g.ops()) {
                if (op.available(table)) {
                    inner.add(op);
                }
            }
        }
        // a short timeout, not 0: the embedded source runs each command as its own client, outside MULTI
        String t = "0.001";
        inner.add(new Op("blpop", (r, c) -> argv("BLPOP", c.key(r, "l"), c.key(r, "l"), t)));
        inner.add(new Op("blmove", (r, c) -> argv("BLMOVE", c.key(r, "l"), c.key(r, "l"), "RIGHT", "LEFT", t)));
        inner.add(new Op("bzpopmax", (r, c) -> argv("BZPOPMAX", c.key(r, "z"), t)));
        inner.add(new Op("blmpop", (r, c) -> argv("BLMPOP", t, "1", c.key(r, "l"), "LEFT", "COUNT", "2")));
        for (Op op : inner) {
            if (!op.modelled()) {
                unmodelled.add(op);
            }
        }
    }

    @Override
    public String family() {
        return "transactions";
    }

    @Override
    public List<Op> ops() {
        return List.of(Op.block("multi", this::transaction), Op.block("multi", this::transaction));
    }

    private List<byte[][]> transaction(Random r, Ctx c) {
        List<byte[][]> out = new ArrayList<>();
        boolean dirty = false;
        if (r.nextInt(4) == 0) {
            String watched = c.key(r, "s");
            out.add(argv("WATCH", watched));
            if (r.nextBoolean()) {
                out.add(argv("SET", watched, "touched"));
                dirty = true;
            }
        }
        out.add(argv("MULTI"));
        int n = 1 + r.nextInt(6);
        int error = r.nextInt(12);
        boolean discard = r.nextInt(10) == 0;
        boolean applies = error > 1 && !discard && !dirty;
        List<Op> ops = applies ? inner : unmodelled;
        for (int i = 0; i < n; i++) {
            out.addAll(ops.get(r.nextInt(ops.size())).make(r, c));
        }
        switch (error) {
            case 0 -> out.add(argv("SET", c.key(r, "s"))); // wrong arity: EXECABORT
            case 1 -> out.add(argv("NOSUCHCOMMAND", "x"));
            default -> {
            }
        }
        out.add(argv(discard ? "DISCARD" : "EXEC"));
        return out;
    }
}
