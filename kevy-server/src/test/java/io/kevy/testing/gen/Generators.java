package io.kevy.testing.gen;

import io.kevy.engine.command.CommandTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The command generators of every family the invariant harness knows, and a picker over the available
 * operations. A new family's generator is added to {@link #ALL}.
 */
public final class Generators {
    /** Every family's generator. */
    public static final List<CommandGenerator> ALL;

    static {
        List<CommandGenerator> data = List.of(
                new StringGenerator(),
                new KeyGenerator(),
                new HashGenerator(),
                new ListGenerator(),
                new SetGenerator(),
                new ZSetGenerator(),
                new BitmapSortGenerator(),
                new HyperLogLogGenerator(),
                new GeoGenerator(),
                new DumpGenerator(),
                new StreamGenerator(),
                new ScriptGenerator());
        List<CommandGenerator> all = new ArrayList<>(data);
        all.add(new TransactionGenerator(data));
        ALL = List.copyOf(all);
    }

    private final List<CommandGenerator.Op> ops = new ArrayList<>();

    /** The operations of {@code families} whose command exists in {@code table}. */
    public Generators(List<CommandGenerator> families, CommandTable table) {
        for (CommandGenerator g : families) {
            for (CommandGenerator.Op op : g.ops()) {
                if (op.available(table)) {
                    ops.add(op);
                }
            }
        }
        if (ops.isEmpty()) {
            throw new IllegalStateException("no generator operation is available");
        }
    }

    public List<CommandGenerator.Op> ops() {
        return ops;
    }

    /** A random available operation. */
    public CommandGenerator.Op pick(Random rnd) {
        return ops.get(rnd.nextInt(ops.size()));
    }

    /** A random decimal value, sometimes not a number. */
    static String value(Random rnd) {
        return switch (rnd.nextInt(6)) {
            case 0 -> "v" + rnd.nextInt(100);
            case 1 -> "";
            case 2 -> Double.toString(rnd.nextInt(1000) / 8.0);
            case 3 -> "bin\u0000\u00ff\r\n" + rnd.nextInt(10);
            default -> Integer.toString(rnd.nextInt(2000) - 1000);
        };
    }

    /** A TTL in seconds far enough ahead that nothing expires during a test (100 s to 3 h). */
    static long ttlSeconds(Random rnd) {
        return 100 + rnd.nextInt(3 * 3600);
    }
}
