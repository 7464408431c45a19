package io.kevy.testing.gen;

import io.kevy.testing.CommandTables;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A seeded list of random write commands over the available generator operations; a transaction is one
 * entry whose commands (WATCH, MULTI, ..., EXEC) are sent in a row on one connection.
 */
public final class Workload {
    private Workload() {
    }

    public record Command(CommandGenerator.Op op, List<byte[][]> argvs) {
    }

    public static List<Command> generate(long seed, int n) {
        Generators gens = new Generators(Generators.ALL, CommandTables.full());
        Random rnd = new Random(seed);
        KeyPools keys = new KeyPools();
        List<Command> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            CommandGenerator.Op op = gens.pick(rnd);
            out.add(new Command(op, op.make(rnd, keys)));
        }
        return out;
    }
}
